# Scenario 4 fixed with rwal: l (lock) is more than a read and an append
# need. The hint names the letter that is too much, not another.
# expect: step 4 fails
# expect: step 4 hint: l (lock) beyond it
# expect: step 4 not: x (execute)
s|^Probe Cache rwa$|Probe Cache rwal|

# Scenario 4 fixed with rwxa: x is more than a read and an append need.
# expect: step 4 fails
# expect: step 4 hint: x (execute) beyond it
# expect: step 4 not: t (transmute)
s|^Probe Cache rwa$|Probe Cache rwxa|

# Scenario 4 fixed with rwxa: x is more than a read and an append need.
# expect: step 4 fails
# expect: step 4 hint: x (execute) or t (transmute) is more than it needs
s|^Probe Cache rwa$|Probe Cache rwxa|

# Scenario 4's rule in capitals: Smack reads RWA as rwa, so it is the
# solution's rule, and it must pass (the grader reads the rule the kernel
# loaded, not its spelling).
# expect: step 4 passes
s|^Probe Cache rwa$|Probe Cache RWA|

# The given Smack rule of the vault's index widened with l (lock): Smack
# refuses nothing more of what the scenario tries, and gives more than it
# needs. The grader reads the rule as the kernel loaded it.
# expect: step 5 fails
# expect: step 5 hint: the program only reads the vault's index
# expect: step 5 hint: l (lock)
s|^Probe VaultIndex r$|Probe VaultIndex rl|

# Scenario 6 fixed with rw: the diary is written too.
# expect: step 6 fails
# expect: step 6 hint: every module of this boot said yes to what the scenario forbids
s|^probe diary r$|probe diary rw|

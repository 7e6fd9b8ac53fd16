# AppArmor turned off for the program: a profile in complain mode logs
# what it would refuse and refuses nothing. Scenarios 1 and 2 "pass"
# what they need and let through what they forbid.
# expect: step 1 fails
# expect: step 2 fails
# expect: step 1 hint: a module turned off: the program runs as "probe (complain)" for AppArmor, a profile in complain mode
# expect: step 3 passes
# expect: step 6 passes
s|^profile probe /bin/probe {|profile probe /bin/probe flags=(complain) {|

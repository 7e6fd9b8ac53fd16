# The profile attaches to a path that is not the program's: the program
# runs unconfined by AppArmor, which then refuses nothing.
# expect: step 1 fails
# expect: step 1 hint: the program runs as "unconfined" for AppArmor: no profile attached to it
# expect: step 1 not: gives w on
# expect: step 2 passes
s|^profile probe /bin/probe {$|profile probe /bin/prob {|

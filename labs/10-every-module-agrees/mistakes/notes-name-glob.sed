# Step 1's rule is a glob over every name that starts as notes: the
# grader's notes.N is read too.
# expect: step 1 fails
# expect: step 1 hint: AppArmor's profile "probe (enforce)" gives r on /tmp/lab10/notes.
# expect: step 2 passes
s|^  /tmp/lab10/notes r,$|  /tmp/lab10/notes* r,|

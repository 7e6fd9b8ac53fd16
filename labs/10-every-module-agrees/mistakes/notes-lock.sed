# Step 1's rule gives notes rk: the program may lock it as well as read
# it. No row of the table locks, so the write rows pass; the grader asks
# AppArmor's loaded profile what it gives on notes.
# expect: step 1 fails
# expect: step 1 hint: k (lock)
# expect: step 2 passes
s|^  /tmp/lab10/notes r,$|  /tmp/lab10/notes rk,|

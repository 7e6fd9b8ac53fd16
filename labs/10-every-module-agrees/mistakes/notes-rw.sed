# The profile gives notes "rw" where the table wants "r": AppArmor no
# longer refuses the write.
# expect: step 1 fails
# expect: step 1 hint: AppArmor's profile "probe (enforce)" gives w or a (the program's write appends) on /tmp/lab10/notes
# expect: step 1 not: does not give
# expect: step 2 passes
# expect: step 5 passes
s|^  /tmp/lab10/notes r,$|  /tmp/lab10/notes rw,|

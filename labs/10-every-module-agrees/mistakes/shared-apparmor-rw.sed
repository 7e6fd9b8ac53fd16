# AppArmor's part of step 5 gives "rw": Smack (or SELinux), asked first,
# still refuses the write, which hides AppArmor's answer; graded on its
# own (the file relabelled so that the other modules let it through),
# AppArmor lets the write through.
# expect: step 5 fails
# expect: step 5 hint: with the other modules out of the way
# expect: step 5 hint: AppArmor's profile "probe (enforce)" gives w or a (the program's write appends) on /tmp/lab10/shared
# expect: step 1 passes
s|^  /tmp/lab10/shared r,$|  /tmp/lab10/shared rw,|

# The profile names notes in the wrong case: /tmp/lab10/Notes is another
# path, so AppArmor refuses the read of /tmp/lab10/notes.
# expect: step 1 fails
# expect: step 1 hint: what the kernel saw: AppArmor refused in file_open; the program runs as "probe (enforce)" (its profile), the path /tmp/lab10/notes, the permission asked r
# expect: step 1 hint: "  /tmp/lab10/Notes r,": AppArmor's paths are case-sensitive, and /tmp/lab10/Notes is not /tmp/lab10/notes
# expect: step 1 not: the line "  /tmp/lab10/notes r,"
# expect: HINT=2 step 1 hint: the line "  /tmp/lab10/notes r," in
# expect: step 2 passes
s|^  /tmp/lab10/notes r,$|  /tmp/lab10/Notes r,|

# Step 5 without its AppArmor line: the last module asked says no.
# expect: step 5 fails
# expect: step 5 hint: what the kernel saw: AppArmor refused in file_open; the program runs as "probe (enforce)" (its profile), the path /tmp/lab10/shared, the permission asked r
# expect: step 5 hint: /apparmor/probe names /tmp/lab10/shared
# expect: step 5 not: toylsm refused
# expect: step 5 not: the line "  /tmp/lab10/shared r,"
# expect: HINT=2 step 5 hint: the line "  /tmp/lab10/shared r," in
# expect: step 1 passes
\|^  /tmp/lab10/shared r,$|d

# Step 5 without its AppArmor line: the last module asked says no.
# expect: step 5 fails
# expect: step 5 hint: AppArmor's profile (the program runs as "probe (enforce)") does not give r on /tmp/lab10/shared
# expect: step 5 not: toylsm's rules
# expect: step 1 passes
\|^  /tmp/lab10/shared r,$|d

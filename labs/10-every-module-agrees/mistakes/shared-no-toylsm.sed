# Step 5 without its toylsm rule: Smack (or SELinux) and AppArmor agree,
# toylsm does not, and one "no" is enough.
# expect: step 5 fails
# expect: step 5 hint: toylsm's rules do not give probe (the program's toylsm label) r on shared
# expect: step 5 not: Smack's rules do not give
# expect: step 5 not: SELinux refused
# expect: step 4 passes
/^probe shared r$/d

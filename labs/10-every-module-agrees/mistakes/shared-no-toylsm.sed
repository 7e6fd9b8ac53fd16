# Step 5 without its toylsm rule: Smack (or SELinux) and AppArmor agree,
# toylsm does not, and one "no" is enough.
# expect: step 5 fails
# expect: step 5 hint: what the kernel saw: toylsm refused in file_open; subject probe (the program's toylsm label), object shared (the file's security.toylsm), the permission asked r
# expect: step 5 hint: /toylsm.rules names both probe and shared
# expect: step 5 not: Smack refused
# expect: step 5 not: SELinux refused
# expect: step 5 not: the line "probe shared r"
# expect: HINT=2 step 5 hint: the line "probe shared r" in
# expect: step 4 passes
/^probe shared r$/d

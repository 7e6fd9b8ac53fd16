# The allow rule gives read but not open: SELinux refuses the open in the
# file_open hook, after inode_permission allowed the read.  The hint
# quotes the learner's rule and names the permission it lacks; the whole
# rule to write only with HINT=2.
# expect: step 3 fails
# expect: step 3 hint: what the kernel saw: SELinux refused in file_open; source probe_t (the program's domain), target ledger_t (the file's type), class file, the permission asked open
# expect: step 3 hint: "allow probe_t ledger_t:file read;": an allow rule from probe_t to ledger_t without open
# expect: step 3 not: allow probe_t ledger_t:file { open read };
# expect: step 3 not: "read": no allow rule
# expect: HINT=2 step 3 hint: the line "allow probe_t ledger_t:file { open read };"
# expect: step 4 passes
s|ledger_t:file { open read };|ledger_t:file read;|

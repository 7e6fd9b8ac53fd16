# The allow rule gives read but not open: SELinux refuses the open in the
# file_open hook, after inode_permission allowed the read.
# expect: step 3 fails
# expect: step 3 hint: SELinux refused in file_open, where it checks the permission "open"
# expect: step 3 hint: allow probe_t ledger_t:file { open read };
# expect: step 3 not: "read": no allow rule
# expect: step 4 passes
s|ledger_t:file { open read };|ledger_t:file read;|

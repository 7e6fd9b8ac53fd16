# The allow rule gives every permission on ledger_t files: SELinux no
# longer refuses the write.
# expect: step 3 fails
# expect: step 3 hint: SELinux's policy gives probe_t (the program's domain) append (what it checks
# expect: step 2 passes
s|ledger_t:file { open read };|ledger_t:file *;|

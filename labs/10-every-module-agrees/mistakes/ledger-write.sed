# The allow rule gives { open read write }: SELinux still refuses the
# program's append (it checks append), but lets an O_WRONLY open write,
# where the table wants { open read } only.
# expect: step 3 fails
# expect: step 3 hint: SELinux's policy gives probe_t (the program's domain) write (what it checks for an O_WRONLY open) on ledger_t files
# expect: step 2 passes
# expect: step 4 passes
s|ledger_t:file { open read };|ledger_t:file { open read write };|

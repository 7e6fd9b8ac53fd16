# SELinux's part of step 5 gives { open read write }: the append is still
# refused, but an O_WRONLY open is not, where the table wants SELinux to
# refuse it.
# expect: step 5 fails
# expect: step 5 hint: SELinux's policy gives probe_t (the program's domain) write (what it checks for an O_WRONLY open) on shared_t files
# expect: step 3 passes
s|shared_t:file { open read };|shared_t:file { open read write };|

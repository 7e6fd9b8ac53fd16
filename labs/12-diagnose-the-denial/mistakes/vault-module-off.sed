# SELinux turned off for the program's domain: "permissive probe_t;"
# logs what SELinux would refuse and refuses nothing. The key is read in
# boot 2.
# expect: step 5 fails
# expect: step 5 hint: a module turned off: probe_t is a permissive domain
# expect: step 1 passes
s|^allow probe_t vault_index_t:file { open read };|allow probe_t vault_index_t:file { open read };\npermissive probe_t;|

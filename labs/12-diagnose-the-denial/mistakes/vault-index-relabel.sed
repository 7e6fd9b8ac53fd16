# Scenario 5's rule gives relabelfrom as well: the program may change the
# index's label, and with it what every rule says of it. No access of the
# scenario asks it: the grader asks SELinux's loaded policy.
# expect: step 5 fails
# expect: step 5 hint: relabelfrom or relabelto lets the program change the file's label
# expect: step 4 passes
s|^allow probe_t vault_index_t:file { open read };|allow probe_t vault_index_t:file { open read relabelfrom };|

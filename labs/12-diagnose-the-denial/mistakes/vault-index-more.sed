# Scenario 5's rule gives getattr and lock on the index as well, which the
# program never asks in the scenario.
# expect: step 5 fails
# expect: step 5 hint: /sys/fs/selinux/access
# expect: step 5 hint: getattr lock
s|^allow probe_t vault_index_t:file { open read };|allow probe_t vault_index_t:file { getattr open read lock };|

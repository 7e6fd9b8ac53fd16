# Scenario 5's rule gives every permission on the index: SELinux no
# longer refuses the write; Landlock, asked after it (the sandbox gives
# the vault read only), still does.
# expect: step 5 fails
# expect: step 5 hint: a module asked before landlock said yes where the scenario wants a refusal
s|^allow probe_t vault_index_t:file { open read };|allow probe_t vault_index_t:file *;|

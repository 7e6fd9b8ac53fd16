# Scenario 5's rule gives write on the index: an append is still refused
# (SELinux asks append), an overwrite is not, by SELinux; the sandbox,
# asked after it, refuses it.
# expect: step 5 fails
# expect: step 5 hint: a module asked before landlock said yes where the scenario wants a refusal
s|^allow probe_t vault_index_t:file { open read };|allow probe_t vault_index_t:file { open read write };|

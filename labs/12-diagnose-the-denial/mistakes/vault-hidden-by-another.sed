# Scenario 5 "fixed" in AppArmor: SELinux's rule still gives the whole
# vault, and an AppArmor deny rule hides it. The key is refused, but by
# the wrong module: SELinux's policy still lets the program through.
# expect: step 5 fails
# expect: step 5 hint: a module asked before apparmor said yes where the scenario wants a refusal
# expect: HINT=2 step 5 hint: selinux must refuse it (in inode_permission): its policy is selinux/kit.te
s|^allow probe_t vault_index_t:file { open read };|allow probe_t vault_file:file { open read };|
s|^  /tmp/lab12/vault/\* r,|  /tmp/lab12/vault/* r,\n  deny /tmp/lab12/vault/key r,|

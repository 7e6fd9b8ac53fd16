# A type in the wrong case: checkpolicy says "unknown type Ledger_t"; the
# kit says types are case-sensitive and which one was meant.
# expect: compile: /selinux/kit.te:35: error: "allow probe_t Ledger_t:file { open read };": Ledger_t is not a type of this policy
# expect: compile: types are case-sensitive: ledger_t?
s|probe_t ledger_t:file { open read };|probe_t Ledger_t:file { open read };|

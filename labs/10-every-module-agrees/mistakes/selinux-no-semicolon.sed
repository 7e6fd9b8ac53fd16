# An allow rule without its ";": checkpolicy blames the next word, on
# line 37, and "line 2454" of the compiled copy; the kit names line 33.
# expect: compile: /selinux/kit.te:33: error: "allow probe_t ledger_t:file { open read }" has no ";" at its end
s|ledger_t:file { open read };|ledger_t:file { open read }|

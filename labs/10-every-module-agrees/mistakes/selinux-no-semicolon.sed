# An allow rule without its ";": checkpolicy blames the next word, on
# line 39, and "line 2456" of the compiled copy; the kit names line 35.
# expect: compile: /selinux/kit.te:35: error: "allow probe_t ledger_t:file { open read }" has no ";" at its end
s|ledger_t:file { open read };|ledger_t:file { open read }|

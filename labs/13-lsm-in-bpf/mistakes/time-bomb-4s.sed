# The time bomb with a longer phase: 4 seconds from its first call, more
# than twice any check of today's grader (which it passes), less than the
# wait after which the grader asks again.
# expect: step 1 fails
# expect: step 1 hint: after a wait of
/^__u64 refused;$/a\
\
/* When the program was first asked. */\
__u64 start_ns;
s/^\tif ((bpf_get_current_pid_tgid() >> 32) == target_tgid)$/\tif (!start_ns)\n\t\tstart_ns = bpf_ktime_get_ns();\n\tif ((bpf_get_current_pid_tgid() >> 32) == target_tgid \&\&\n\t    bpf_ktime_get_ns() - start_ns < 4000000000ULL)/

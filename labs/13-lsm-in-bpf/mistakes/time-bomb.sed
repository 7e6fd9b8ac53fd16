# A time bomb (issue 55): refuses the target for the first 2 seconds
# after its first call only; every check of today's grader finished
# sooner. The grader now asks again after a wait longer than any of its
# phases.
# expect: step 1 fails
# expect: step 1 hint: after a wait of
/^__u64 refused;$/a\
\
/* When the program was first asked. */\
__u64 start_ns;
s/^\tif ((bpf_get_current_pid_tgid() >> 32) == target_tgid)$/\tif (!start_ns)\n\t\tstart_ns = bpf_ktime_get_ns();\n\tif ((bpf_get_current_pid_tgid() >> 32) == target_tgid \&\&\n\t    bpf_ktime_get_ns() - start_ns < 2000000000ULL)/

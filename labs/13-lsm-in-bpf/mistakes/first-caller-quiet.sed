# The first caller, with a phase of its own: after 0.3 s without a mkdir,
# the next caller becomes the one refused (a program tuned to a grader
# that loads, pauses and lets its victim ask first). Passes today's
# grader; fails the first mkdir after the load, another process's.
# expect: step 1 fails
# expect: step 1 hint: the first mkdir after the load
/^__u64 refused;$/a\
\
/* The caller locked on, and when the last mkdir was asked about. */\
__u32 first;\
__u64 last_ns;
s/^\tif ((bpf_get_current_pid_tgid() >> 32) == target_tgid)$/\tif (bpf_ktime_get_ns() - last_ns > 300000000ULL)\n\t\tfirst = bpf_get_current_pid_tgid() >> 32;\n\tlast_ns = bpf_ktime_get_ns();\n\tif ((bpf_get_current_pid_tgid() >> 32) == first)/

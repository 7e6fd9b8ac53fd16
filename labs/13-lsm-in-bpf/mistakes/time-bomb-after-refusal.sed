# The time bomb with its clock started at its first refusal instead of
# its first call, and a phase of 1 second: passes today's grader, whose
# victim asked within a second.
# expect: step 1 fails
# expect: step 1 hint: after a wait of
/^__u64 refused;$/a\
\
/* When the program first refused. */\
__u64 start_ns;
s/^\t\tanswer = -EPERM;$/\t\tanswer = -EPERM;\n\tif (answer \&\& !start_ns)\n\t\tstart_ns = bpf_ktime_get_ns();\n\tif (answer \&\& bpf_ktime_get_ns() - start_ns > 1000000000ULL)\n\t\tanswer = 0;/

# The first caller (issue 55): refuses whichever process makes the first
# mkdir after the load, and never reads target_tgid. Today's grader let
# it pass, twice: its victim always made that first mkdir. The grader now
# has another process make the first mkdir after every load.
# expect: step 1 fails
# expect: step 1 hint: the first mkdir after the load
/^__u64 refused;$/a\
\
/* The process of the first mkdir this program was asked about. */\
__u32 first;
s/^\tif ((bpf_get_current_pid_tgid() >> 32) == target_tgid)$/\tif (!first)\n\t\tfirst = bpf_get_current_pid_tgid() >> 32;\n\tif ((bpf_get_current_pid_tgid() >> 32) == first)/

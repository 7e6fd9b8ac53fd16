# The verifier refuses it (a NULL map value): a map of refusals per
# process, the value bpf_map_lookup_elem() returns used without the check
# for NULL (no entry for that key). The load fails, and make lab must show
# the verifier's reason, the last line of its log, under the step: it is
# a continuation of the multi-line "seen:", which the kit's parser used to
# drop (scripts/lib/channel.py, tap()).
# expect: step 1 fails
# expect: step 1 hint: R0 invalid mem access 'map_value_or_null'
# expect: step 1 hint: may be NULL
# Step 2 loads the same program: one line that points at step 1's log,
# not the log again.
# expect: step 2 hint: as under step 1: the verifier's log
# expect: step 2 not: R0 invalid mem access
# expect: HINT=2 step 1 hint: if (!
/^__u64 refused;$/a\
\
/* The refusals of each process. */\
struct {\
\	__uint(type, BPF_MAP_TYPE_HASH);\
\	__uint(max_entries, 64);\
\	__type(key, __u32);\
\	__type(value, __u64);\
} per_process SEC(".maps");
s/^\t\t__sync_fetch_and_add(&refused, 1);$/&\n\tif (answer) {\n\t\t__u32 tgid = bpf_get_current_pid_tgid() >> 32;\n\t\t__u64 *n = bpf_map_lookup_elem(\&per_process, \&tgid);\n\n\t\t*n += 1;\n\t}/

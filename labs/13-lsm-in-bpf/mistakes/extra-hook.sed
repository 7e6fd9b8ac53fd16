# An over-broad program: a second program in the file, on file_open,
# refuses the target's opens as well; the step asks for mkdir alone.
# expect: step 1 fails
# expect: step 1 hint: guard_open (lsm/file_open)
$a\
\
SEC("lsm/file_open")\
int BPF_PROG(guard_open, struct file *file, int ret)\
{\
\	if (ret)\
\		return ret;\
\	if ((bpf_get_current_pid_tgid() >> 32) == target_tgid)\
\		return -EPERM;\
\	return 0;\
}

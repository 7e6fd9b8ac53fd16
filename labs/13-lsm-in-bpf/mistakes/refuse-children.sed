# An over-broad program: the target and its children (a child is a
# process of its own, with its own PID).
# expect: step 1 fails
# expect: step 1 hint: refused a child of target_tgid
s/^\tif ((bpf_get_current_pid_tgid() >> 32) == target_tgid)$/\tif ((bpf_get_current_pid_tgid() >> 32) == target_tgid ||\n\t    (__u32)bpf_get_current_task_btf()->real_parent->tgid == target_tgid)/

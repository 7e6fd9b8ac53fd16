# The thread instead of the process: the low 32 bits of
# bpf_get_current_pid_tgid() are the calling thread's ID, which is the
# process's only for its first thread; a second thread of the target
# makes its directory.
# expect: step 1 fails
# expect: step 1 hint: names the process, and which the thread
# expect: step 1 not: the line:
# expect: HINT=2 step 1 hint: not (__u32)bpf_get_current_pid_tgid(), the thread
s/^\tif ((bpf_get_current_pid_tgid() >> 32) == target_tgid)$/\tif ((__u32)bpf_get_current_pid_tgid() == target_tgid)/

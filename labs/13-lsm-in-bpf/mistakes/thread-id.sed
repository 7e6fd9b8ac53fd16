# The thread instead of the process: the low 32 bits of
# bpf_get_current_pid_tgid() are the calling thread's ID, which is the
# process's only for its first thread; a second thread of the target
# makes its directory.
# expect: step 1 fails
# expect: step 1 hint: not the thread
s/^\tif ((bpf_get_current_pid_tgid() >> 32) == target_tgid)$/\tif ((__u32)bpf_get_current_pid_tgid() == target_tgid)/

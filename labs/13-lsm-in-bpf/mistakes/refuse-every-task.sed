# An over-broad program: the check of the process left out, so it refuses
# every task's mkdir, the grader's too (and, attached for real, the whole
# machine's).
# expect: step 1 fails
# expect: step 1 hint: your program refused every process the grader tried
/^\tif ((bpf_get_current_pid_tgid() >> 32) == target_tgid)$/d
s/^\t\tanswer = -EPERM;$/\tanswer = -EPERM;/

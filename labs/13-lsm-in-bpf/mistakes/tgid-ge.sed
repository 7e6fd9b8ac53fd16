# An over-broad program: "not before the target" instead of "the target":
# it refuses target_tgid and every process started after it (a higher
# PID), which the grader's own mkdir (an older process) does not show.
# expect: step 1 fails
# expect: step 1 hint: Compare for equality
s/^\tif ((bpf_get_current_pid_tgid() >> 32) == target_tgid)$/\tif ((bpf_get_current_pid_tgid() >> 32) >= target_tgid)/

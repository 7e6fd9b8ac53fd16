# A mistake a learner made, for tests/host/lab-hints.sh: step 5 returns 0
# whatever write_file() said, so it reports success where the kernel
# refused the label of another task.  That refusal is fs/proc's own
# (proc_pid_attr_write()), not a module's: the trace under the step must
# say that no LSM refused the call that failed, and why it can say so (no
# module's answer ended a hook walk with EPERM).
#
# expect: step 4 passes
# expect: step 5 hint: check what write() returns: the kernel refuses
# expect: step 5 hint: trace:    no LSM refused your write() (EPERM): write failed with EPERM, and no module's answer ended a hook walk with EPERM
# expect: step 5 not: was refused by
/TODO 5:/,/END TODO 5/s/^\(\t*\)return write_file(path, label);$/\1write_file(path, label);\n\1return 0;/

# A mistake a port makes, for tests/host/lab-hints.sh: the size probe
# with LSM_FLAG_SINGLE and ctx NULL, as lab 2's probe was; the kernel
# reads the ID from ctx and answers EINVAL.
#
# expect: step 5 hint: with LSM_FLAG_SINGLE, ctx cannot be NULL
s/syscall(__NR_lsm_get_self_attr, attr, &head, &size, LSM_FLAG_SINGLE);/syscall(__NR_lsm_get_self_attr, attr, NULL, \&size, LSM_FLAG_SINGLE);/

# A mistake a port makes, for tests/host/lab-hints.sh: the probe keeps lab
# 2's arguments, (ctx, size, flags), and forgets that mainline's call
# takes the attribute first.  The kernel sees attribute 0 and answers
# EINVAL.  The hint must say so from the arguments the code passed.
#
# expect: step 3 hint: takes the attribute first
s/syscall(__NR_lsm_get_self_attr, attr, NULL, &size, 0);/syscall(__NR_lsm_get_self_attr, NULL, \&size, 0);/

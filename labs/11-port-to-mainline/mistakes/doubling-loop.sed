# A mistake a port makes, for tests/host/lab-hints.sh: lab 2 named the
# kit's attribute bits with a loop that doubles; with mainline's numbers
# it asks for 100 and stops (200 > 105).  The smack and none boots have
# nothing but current, so only the SELinux boot can catch it, from the
# calls the code made.
#
# expect: step 6 hint: your code asked lsm_get_self_attr for current only
# expect: step 6 hint: a loop that doubles the attribute
s/attr <= LSM_ATTR_SOCKCREATE; attr++) {/attr <= LSM_ATTR_SOCKCREATE; attr <<= 1) {/

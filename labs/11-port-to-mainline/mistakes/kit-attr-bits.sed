# A mistake a port makes, for tests/host/lab-hints.sh: lab 2's names for
# the kit's attribute bits, typed in as numbers.  The hint must say that
# 1, 2, 4... are the kit's bits and mainline's are 100 to 105.
#
# expect: step 1 passes
# expect: step 2 hint: that is the kit's bit
# expect: step 6 hint: this step needs step 2, which fails
# expect: step 3 passes
s/^\tcase LSM_ATTR_CURRENT:/\tcase 0x0001:/
s/^\tcase LSM_ATTR_EXEC:/\tcase 0x0002:/
s/^\tcase LSM_ATTR_FSCREATE:/\tcase 0x0004:/
s/^\tcase LSM_ATTR_KEYCREATE:/\tcase 0x0008:/
s/^\tcase LSM_ATTR_PREV:/\tcase 0x0010:/
s/^\tcase LSM_ATTR_SOCKCREATE:/\tcase 0x0020:/

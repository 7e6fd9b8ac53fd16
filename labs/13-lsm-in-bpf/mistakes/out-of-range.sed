# An answer outside the errnos (-1 to -4095): 6.1 passes it on (mainline
# checks the range since 6.12), and the C library takes it for a result.
# expect: step 1 fails
# expect: step 1 hint: is no errno
s/answer = -EPERM;/answer = -4097;/

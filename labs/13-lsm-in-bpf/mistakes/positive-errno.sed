# EPERM without its minus: 6.1 hands the 1 to the system call as it is, so
# mkdir returns 1, sets no errno, and makes no directory.
# expect: step 1 fails
# expect: step 1 hint: a positive answer
# expect: step 1 not: answer = -EPERM;
# expect: HINT=2 step 1 hint: the line: answer = -EPERM;
s/answer = -EPERM;/answer = EPERM;/

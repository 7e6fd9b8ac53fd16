# Refused, but with EACCES (13): the step asks for EPERM.
# expect: step 1 fails
# expect: step 1 hint: refused, with another errno
s/answer = -EPERM;/answer = -13;/

# A mistake a learner made, for tests/host/lab-hints.sh: step 4 takes
# every EACCES for toylsm's.  In the default boot Smack refuses the file
# labelled l6S, and it does so in inode_permission, before the file_open
# hook runs at all: the hint must say so (the README used to explain it
# with the order of the file_open walk alone).
#
# The trace under the step (labs/common/trace.h) must name the module
# that refused: Smack in inode_permission in the default boot, Landlock
# in file_open without Smack (toylsm after AppArmor), never toylsm.
#
# expect: step 4 hint: Smack refused it in its inode_permission hook
# expect: step 4 hint: trace:    your open() was refused by smack in inode_permission (EACCES)
# expect: step 4 hint: trace:    your open() was refused by landlock in file_open (EACCES)
# expect: step 4 not: was refused by toylsm
# expect: step 5 passes
s/^\(\t*\)\*by_toylsm = after > before;/\1*by_toylsm = fd < 0 \&\& err == EACCES;/

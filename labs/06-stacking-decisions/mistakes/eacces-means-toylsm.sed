# A mistake a learner made, for tests/host/lab-hints.sh: step 4 takes
# every EACCES for toylsm's.  In the default boot Smack refuses the file
# labelled l6S, and it does so in inode_permission, before the file_open
# hook runs at all: the hint must say so (the README used to explain it
# with the order of the file_open walk alone).
#
# expect: step 4 hint: Smack refused it in its inode_permission hook
# expect: step 5 passes
s/^\(\t*\)\*by_toylsm = after > before;/\1*by_toylsm = fd < 0 \&\& err == EACCES;/

# A mistake a learner made, for tests/host/lab-hints.sh: step 2 returns
# what toylsm_check() says, but asks it for TOYLSM_MAY_READ, so the rule
# "l8-worker l8-secret r" lets the unlink through.  The hint used to be
# "return what toylsm_check() says", which the learner did.
#
# expect: step 1 passes
# expect: step 2 hint: removing a file needs TOYLSM_MAY_WRITE, not TOYLSM_MAY_READ
# expect: step 2 not: the hook returned 0 where no rule grants
# The trace: toylsm answered 0 to the unlink (its "r" rule grants what
# the hook asked for), and refused the rmdir of step 4 that the "w" rule
# should allow.
# expect: step 2 hint: trace:    the worker's unlink() succeeded; in inode_unlink smack answered 0, toylsm answered 0
# expect: step 4 hint: trace:    the worker's rmdir() was refused by toylsm in inode_rmdir (EACCES)
/toylsm_check(\&stat_inode_unlink,/,/TOYLSM_MAY_WRITE, &ad);/s/TOYLSM_MAY_WRITE, &ad);/TOYLSM_MAY_READ, \&ad);/

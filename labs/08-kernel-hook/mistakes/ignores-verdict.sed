# A mistake a learner made, for tests/host/lab-hints.sh: step 2 calls
# toylsm_check() but returns 0 whatever it says.  Here "return what
# toylsm_check() returns" is the right hint.
#
# The trace under the step (labs/common/trace.h) shows what the hook
# returned: 0, whatever toylsm_check() said.
#
# expect: step 2 hint: and the unlink still happened: return what toylsm_check() returns
# expect: step 2 hint: trace:    the worker's unlink() succeeded; in inode_unlink smack answered 0, toylsm answered 0
# expect: step 2 not: was refused by
s/^\(\t*\)return toylsm_check(\&stat_inode_unlink,/\1toylsm_check(\&stat_inode_unlink,/
/toylsm_check(\&stat_inode_unlink,/,/TOYLSM_MAY_WRITE, &ad);/s/\(TOYLSM_MAY_WRITE, &ad);\)/\1\n\treturn 0;/

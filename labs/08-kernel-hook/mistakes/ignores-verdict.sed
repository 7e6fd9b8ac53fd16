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
# Step 4's rmdir goes through the same unlink hook (the reference
# solution's TODO 4 calls it), so toylsm_check() counts its denial too:
# the hint must not send the learner to register inode_rmdir.
# expect: step 4 hint: the denial was counted
# expect: step 4 not: a directory is removed through the inode_rmdir hook
s/^\(\t*\)return toylsm_check(\&stat_inode_unlink,/\1toylsm_check(\&stat_inode_unlink,/
/toylsm_check(\&stat_inode_unlink,/,/TOYLSM_MAY_WRITE, &ad);/s/\(TOYLSM_MAY_WRITE, &ad);\)/\1\n\treturn 0;/

# A mistake a learner made, for tests/host/lab-hints.sh: step 2 calls
# toylsm_check() but returns 0 whatever it says.  Here "return what
# toylsm_check() returns" is the right hint.
#
# expect: step 2 hint: and the unlink still happened: return what toylsm_check() returns
s/^\(\t*\)return toylsm_check(\&stat_inode_unlink,/\1toylsm_check(\&stat_inode_unlink,/
/toylsm_check(\&stat_inode_unlink,/,/TOYLSM_MAY_WRITE, &ad);/s/\(TOYLSM_MAY_WRITE, &ad);\)/\1\n\treturn 0;/

# A mistake a learner made, for tests/host/lab-hints.sh: step 6 adds the
# toylsm rule and forgets Smack, as if toylsm were the only module that
# can say no.  In the default boot the read is still refused, by Smack in
# inode_permission, before toylsm's file_open is reached: the trace under
# the step must name Smack and that hook, not toylsm.  Without Smack
# (toylsm after AppArmor) the step passes.
#
# expect: step 5 passes
# expect: step 6 fails
# expect: step 6 hint: another module said no first: Smack
# expect: step 6 hint: trace:    the open() after your grant was refused by smack in inode_permission (EACCES)
# expect: step 6 not: was refused by toylsm
/TODO 6:/,/END TODO 6/s/^\(\t*\)\/\* Smack: only when it is active in this boot. \*\/$/\1return 0;\n\1\/* Smack: forgotten *\//

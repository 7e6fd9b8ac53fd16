# A mistake a learner made, for tests/host/lab-hints.sh: step 3 takes the
# first of SELinux, Smack and AppArmor, and forgets that toylsm has process
# attributes too.  In the boot lsm=landlock,yama,toylsm,apparmor it says
# AppArmor; the hint must name toylsm and why it comes first (before: it
# restated the README, "asks the first module on the hook list").
#
# expect: step 1 passes
# expect: step 2 passes
# expect: step 3 hint: apparmor both have the getprocattr hook, and toylsm comes first
# expect: step 3 hint: toylsm has process attributes too
# expect: step 4 passes
s/ids\[i\] == LSM_ID_APPARMOR || ids\[i\] == LSM_ID_TOYLSM)/ids[i] == LSM_ID_APPARMOR)/

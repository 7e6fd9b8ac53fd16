# Scenario 4 fixed with rw: an append asks Smack for w and a both, so
# the append is still refused in boot 1.
# expect: step 4 fails
# expect: step 4 hint: which module said no, and in which hook?
# expect: HINT=2 step 4 hint: smack refused it in inode_permission
s|^Probe Cache rwa$|Probe Cache rw|

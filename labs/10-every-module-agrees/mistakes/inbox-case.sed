# The Smack rule names the file's label in the wrong case: "inbox" is
# another label than the file's "Inbox", so Smack still refuses the read
# (in the default boot; the SELinux boot has no Smack).  The hint must say
# what is wrong, not only which line to write.
# expect: step 2 fails
# expect: step 2 hint: what the kernel saw: Smack refused in inode_permission; subject Probe (the program's Smack label), object Inbox (the file's security.SMACK64), the access asked r
# expect: step 2 hint: "Probe inbox r": Smack labels are case-sensitive, and inbox is not Inbox (the file's label)
# expect: step 2 not: the line "Probe Inbox r"
# expect: HINT=2 step 2 hint: the line "Probe Inbox r" in
# expect: step 1 passes
# expect: step 3 passes
s|^Probe Inbox r$|Probe inbox r|

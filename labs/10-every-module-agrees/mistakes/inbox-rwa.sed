# The Smack rule gives Inbox "rwa": Smack no longer refuses the write (in
# the default boot; the SELinux boot has no Smack, and allows it anyway).
# The program's write appends (O_APPEND), and Smack asks for both w and
# a: a rule "rw" still refuses it, as the guest shows.
# expect: step 2 fails
# expect: step 2 hint: Smack has the rule "Probe Inbox rwa
# expect: step 2 hint: it gives Probe w and a (what the program's write, an append, asks for) on Inbox
# expect: step 1 passes
# expect: step 3 passes
s|^Probe Inbox r$|Probe Inbox rwa|

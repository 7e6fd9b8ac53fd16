# The Smack rule gives Inbox "rw": the program's append (Smack asks w and
# a) is still refused, but an open for writing (O_WRONLY, Smack asks w)
# or one that truncates gets through, where the table wants r only.
# expect: step 2 fails
# expect: step 2 hint: Smack has the rule "Probe Inbox rw
# expect: step 2 hint: it gives Probe w (what the program's overwrite, an O_WRONLY open, asks for) on Inbox
# expect: step 1 passes
# expect: step 3 passes
s|^Probe Inbox r$|Probe Inbox rw|

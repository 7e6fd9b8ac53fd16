# Step 2's rule gives Inbox rl: every write row is still refused (Smack
# asks w), and l (lock) is more than a read needs.
# expect: step 2 fails
# expect: step 2 hint: l (lock) beyond it
# expect: step 1 passes
s|^Probe Inbox r$|Probe Inbox rl|

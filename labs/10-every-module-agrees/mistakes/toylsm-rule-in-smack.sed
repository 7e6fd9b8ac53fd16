# Step 5's toylsm rule written in smack.rules: Smack silently takes probe
# and shared as new labels of its own; the kit says they are toylsm's.
# expect: compile: /smack.rules:15: error: "probe shared r": probe and shared are toylsm's labels in this set
# expect: compile: a rule for toylsm goes in toylsm.rules
s|^Probe Shared r$|probe shared r|

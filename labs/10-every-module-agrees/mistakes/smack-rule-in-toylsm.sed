# Step 5's Smack rule written in toylsm.rules: toylsm takes Probe and
# Shared as two more of its labels and the rule gives nothing; the kit
# says they are Smack's labels in this set.
# expect: compile: /toylsm.rules:16: error: "Probe Shared r": Probe and Shared are Smack's labels in this set
# expect: compile: a rule for Smack goes in smack.rules
s|^probe shared r$|Probe Shared r|

# SUBJECT and OBJECT swapped in the toylsm rule: diary may read probe,
# not the other way round; toylsm still refuses the read.
# expect: step 4 fails
# expect: step 4 hint: toylsm's rules do not give probe (the program's toylsm label) r on diary
# expect: step 4 hint: the line "probe diary r"
# expect: step 3 passes
s|^probe diary r$|diary probe r|

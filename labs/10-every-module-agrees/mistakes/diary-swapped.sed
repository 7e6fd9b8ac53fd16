# SUBJECT and OBJECT swapped in the toylsm rule: diary may read probe,
# not the other way round; toylsm still refuses the read.  The first hint
# says what the kernel saw and what is wrong with the line; the line to
# write only with HINT=2.
# expect: step 4 fails
# expect: step 4 hint: what the kernel saw: toylsm refused in file_open; subject probe (the program's toylsm label), object diary (the file's security.toylsm), the permission asked r
# expect: step 4 hint: "diary probe r": a rule is SUBJECT OBJECT ACCESS, so this one lets a task labelled diary use what is labelled probe
# expect: step 4 hint: make lab 10 HINT=2 shows the line that would make toylsm say yes
# expect: step 4 not: the line "probe diary r"
# expect: HINT=2 step 4 hint: the line "probe diary r" in
# expect: HINT=2 step 4 hint: "diary probe r": a rule is SUBJECT OBJECT ACCESS
# expect: HINT=2 step 4 not: make lab 10 HINT=2
# expect: step 3 passes
s|^probe diary r$|diary probe r|

# Smack's "a" in a toylsm rule: the kernel refuses the whole write
# (EINVAL) and, before, nothing named the line; the kit names it.
# expect: compile: /toylsm.rules:12: error: "probe diary ra": a is not a toylsm permission (a is Smack's append
s|^probe diary r$|probe diary ra|

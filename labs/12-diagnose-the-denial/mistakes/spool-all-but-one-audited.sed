# Scenario 2 fixed as spool-all-but-one.sed does, with AppArmor's
# audit qualifier in front and two spaces: still every capability but
# dac_override, and the grader must read the rule through its spelling.
# expect: step 2 fails
# expect: step 2 hint: the read of another user's file needs dac_read_search alone
s|^  capability dac_read_search,|  audit capability,\n  deny capability  dac_override,|

# Scenario 2 "fixed" in the wrong module: Landlock's sandbox gets write
# on the spool taken away, which changes nothing for the read that fails
# (AppArmor refuses the capability inside the open).
# expect: step 2 fails
# expect: step 2 hint: why -k capable policy run lab12-shell probe -k read /tmp/lab12/spool/job
# expect: HINT=2 step 2 hint: apparmor refused a capability in capable(), inside the open
/^  capability dac_read_search,$/d
s|^read,write /tmp/lab12/spool$|read       /tmp/lab12/spool|

# Scenario 1 fixed with ra: the open for an append passes AppArmor's
# file_open, and its write() is refused in file_permission. The report is
# still not written, but the profile gives what the scenario forbids.
# expect: step 1 fails
# expect: step 1 hint: apparmor refuses it, but only in file_permission, not already in file_open
s|^  /tmp/lab12/data/report.csv r,|  /tmp/lab12/data/report.csv ra,|

# Scenario 1 fixed with rk: the report may be locked as well as read. The
# program never locks it, so no access shows it: the grader asks
# AppArmor's loaded profile what it gives on the report.
# expect: step 1 fails
# expect: step 1 hint: the grader asked AppArmor itself what its policy gives
# expect: step 1 hint: k (lock)
# expect: step 2 passes
s|^  /tmp/lab12/data/report.csv r,|  /tmp/lab12/data/report.csv rk,|

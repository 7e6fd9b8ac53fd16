# Scenario 3 fixed for the whole of /tmp/lab12: the log is appended to,
# and the orders, which the sandbox keeps read-only, are written too.
# expect: step 3 fails
# expect: step 3 hint: a rule broader than the scenario needs
# expect: step 4 passes
s|^read,write /tmp/lab12/out$|read,write /tmp/lab12|

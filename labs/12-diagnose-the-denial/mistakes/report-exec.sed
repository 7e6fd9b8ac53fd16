# Scenario 1 fixed with rix: the report may be executed, in the profile.
# expect: step 1 fails
# expect: step 1 hint: x (execute
s|^  /tmp/lab12/data/report.csv r,|  /tmp/lab12/data/report.csv rix,|

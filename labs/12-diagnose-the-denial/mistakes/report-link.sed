# Scenario 1 fixed with rl: a hard link named as the report may be made.
# expect: step 1 fails
# expect: step 1 hint: l (link)
s|^  /tmp/lab12/data/report.csv r,|  /tmp/lab12/data/report.csv rl,|

# Scenario 1 fixed with a glob over the report's name and whatever
# follows it (a backup, a rotated copy): report.csv.N is read too.
# expect: step 1 fails
# expect: step 1 hint: /tmp/lab12/data/report.csv.
s|^  /tmp/lab12/data/report.csv r,|  /tmp/lab12/data/report.csv* r,|

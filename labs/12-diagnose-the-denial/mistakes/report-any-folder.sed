# Scenario 1 fixed with ** for the folder: a report.csv in any folder
# beneath /tmp/lab12 is read, data/N/report.csv (the grader's) too.
# expect: step 1 fails
# expect: step 1 hint: /report.csv: refused (nothing beneath data/ but the report
s|^  /tmp/lab12/data/report.csv r,|  /tmp/lab12/**/report.csv r,|

# Scenario 1 fixed with a glob over every .csv of data/: the report is
# read, and so is any other .csv there (the grader makes one under a new
# name each boot). It passed while the grader's only other file of data/
# was named fN, which *.csv does not match.
# expect: step 1 fails
# expect: step 1 hint: .csv: refused (nothing beneath data/ but the report
# expect: step 2 passes
s|^  /tmp/lab12/data/report.csv r,|  /tmp/lab12/data/*.csv r,|

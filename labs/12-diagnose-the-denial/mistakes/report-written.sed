# Scenario 1 fixed with rw: the program may now write the report.
# expect: step 1 fails
# expect: step 1 hint: every module of this boot said yes to what the scenario forbids
s|/tmp/lab12/data/report.csv r,|/tmp/lab12/data/report.csv rw,|

# Scenario 1 fixed with a glob for the whole folder: the report is read,
# and so is data/private, which the scenario keeps from the program.
# expect: step 1 fails
# expect: step 1 hint: a rule broader than the scenario needs
# expect: step 2 passes
s|/tmp/lab12/data/report.csv r,|/tmp/lab12/data/* r,|

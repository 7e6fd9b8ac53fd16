# Scenario 1 fixed with a glob for the folder and a deny rule for the one
# file the README names: any other file of data/ is read (the grader
# makes one under a new name each boot).
# expect: step 1 fails
# expect: step 1 hint: a rule broader than the scenario needs
s|^  /tmp/lab12/data/report.csv r,|  /tmp/lab12/data/* r,\n  deny /tmp/lab12/data/private r,|

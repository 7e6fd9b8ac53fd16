# Scenario 1 fixed with mr: the report may be mapped executable.
# expect: step 1 fails
# expect: step 1 hint: m (mmap with PROT_EXEC)
s|^  /tmp/lab12/data/report.csv r,|  /tmp/lab12/data/report.csv mr,|

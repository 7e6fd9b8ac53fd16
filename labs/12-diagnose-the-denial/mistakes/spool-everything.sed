# Scenario 2 fixed with every capability: root reads the job, and writes
# it too (CAP_DAC_OVERRIDE).
# expect: step 2 fails
# expect: step 2 hint: every module of this boot said yes to what the scenario forbids
# expect: step 1 passes
s|^  capability dac_read_search,|  capability,|

# Scenario 2 fixed with the capability AppArmor's log names last,
# dac_override (generic_permission() asks it after dac_read_search): it
# overrides every mode bit, so root writes the job too.
# expect: step 2 fails
# expect: step 2 hint: every module of this boot said yes to what the scenario forbids
s|^  capability dac_read_search,|  capability dac_override,|

# Scenario 2's rule written with two spaces: the same rule as the
# solution's (apparmor_parser reads it alike), and it must pass.
# expect: step 2 passes
s|^  capability dac_read_search,|  capability  dac_read_search,|

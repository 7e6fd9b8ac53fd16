# Scenario 2 fixed with every capability but the one that lets root
# write: the job is read and not written, and the program holds every
# other capability root has (mac_admin, chown, sys_admin...) in every
# call. The accesses cannot show it; the grader reads the profile.
# expect: step 2 fails
# expect: step 2 hint: the read of another user's file needs dac_read_search alone
s|^  capability dac_read_search,|  capability,\n  deny capability dac_override,|

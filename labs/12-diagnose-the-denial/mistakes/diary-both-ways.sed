# Scenario 6 "fixed" by adding the rule the other way round beside the
# skeleton's: diary may read probe, still not probe diary.
# expect: step 6 fails
# expect: step 6 hint: which module said no, and in which hook?
s|^probe diary r$|diary probe r\ndiary probe rw|

# Scenario 6 "fixed" by widening the skeleton's rule to rw, still in the
# wrong direction (diary may read and write probe), and still no rule
# that lets probe read diary.
# expect: step 6 fails
# expect: step 6 hint: which module said no, and in which hook?
s|^probe diary r$|diary probe r\ndiary probe rw|

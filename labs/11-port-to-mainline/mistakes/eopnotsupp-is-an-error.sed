# A mistake a port makes, for tests/host/lab-hints.sh: the kit's one call
# answered 0 entries when nothing had a value; mainline answers each
# attribute that no module has with EOPNOTSUPP, which this code returns as
# a failure.  Step 3's hint must say what EOPNOTSUPP means; step 6, which
# uses step 3, must point to step 3.
#
# expect: step 3 hint: EOPNOTSUPP here means "no module has this attribute"
# expect: step 4 passes
# expect: step 6 hint: this step needs step 3
/^\tif (count < 0 && errno == EOPNOTSUPP)$/{N;d}

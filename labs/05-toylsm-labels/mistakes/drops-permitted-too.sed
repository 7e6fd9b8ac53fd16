# A mistake a learner made, for tests/host/lab-hints.sh: step 6 clears
# CAP_MAC_ADMIN from the permitted set as well as the effective one.  The
# step says "in the effective set only", and the grader did not look.
#
# expect: step 5 passes
# expect: step 6 hint: leave permitted as capget() gave it
s/^\(\t*\)d\[CAP_MAC_ADMIN \/ 32\]\.effective &= ~(1U << (CAP_MAC_ADMIN % 32));/&\n\1d[CAP_MAC_ADMIN \/ 32].permitted \&= ~(1U << (CAP_MAC_ADMIN % 32));/

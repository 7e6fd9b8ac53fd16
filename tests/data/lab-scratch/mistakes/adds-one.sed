# A mistake, for tests/host/lab-hints.sh: step 2 adds one instead of
# doubling.
#
# expect: step 1 passes
# expect: step 2 hint: twice x is x + x
s/return 2 \* x;/return x + 1;/

# A mistake a port makes, for tests/host/lab-hints.sh: *size counted as
# lab 1 did on the kit, 4 bytes per ID; mainline writes __u64 IDs, and
# answers E2BIG.  The hint must quote the *size the code passed.
#
# expect: step 1 hint: 4 bytes each: the kit's IDs were __u32
# expect: step 2 passes
s/__u32 size = max \* sizeof(__u64);/__u32 size = max * sizeof(__u32);/

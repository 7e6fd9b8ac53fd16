# A mistake a learner made, for tests/host/lab-hints.sh: step 4 compares
# file_open's calls (the first number of the stats line) instead of its
# denials, so *by_toylsm is 1 after every open(), the ones that succeed
# too.  Before, the hint said "another module refused first" about an
# open() that nobody refused.
#
# expect: step 3 passes
# expect: step 4 hint: this open() succeeded, so nobody refused
# expect: step 4 hint: trace:    no LSM refused your open()
# expect: step 4 not: another module refused first
# expect: step 5 passes
s/lab_stats("file_open", &calls, &before)/lab_stats("file_open", \&before, \&calls)/
s/lab_stats("file_open", &calls, &after)/lab_stats("file_open", \&after, \&calls)/

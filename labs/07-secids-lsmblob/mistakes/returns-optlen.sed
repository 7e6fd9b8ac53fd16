# A mistake a learner made, for tests/host/lab-hints.sh: step 1 returns
# optlen, which counts the NUL, instead of strlen(buf).  The hint used to
# say "end the string at optlen yourself", which the learner had done.
#
# expect: step 1 hint: counts the NUL in optlen, so the length is strlen(buf), not optlen
# expect: step 1 not: may not NUL-terminate
# expect: step 2 passes
s/^\(\t*\)rc = strlen(buf);$/\1rc = optlen;/

# A mistake a learner made, for tests/host/lab-hints.sh: step 1 keeps the
# trailing newline.  The hint used to blame AppArmor alone; toylsm adds
# one too, so it now names the file and both.
#
# expect: step 1 hint: ends with a newline, as AppArmor's and toylsm's values do
# expect: step 2 passes
/^\t*if (v > 0 && raw\[v - 1\] == '\\n')$/{N;d}

# A mistake a learner made, for tests/host/lab-hints.sh: the untouched
# case fills the output with "keep" and parses "" and a 32-character
# label.  Both are refused before mutant 4 copies anything, so it
# survives; the hint used to repeat what the learner had done ("fill the
# output with keep, parse a bad label...").
#
# expect: step 1 passes
# expect: step 3 passes
# expect: step 4 hint: a label of a good length with a bad character
s/^\(\t*\)KUNIT_EXPECT_EQ(test, PARSE("no\/slashes", label), -EINVAL);/\1KUNIT_EXPECT_EQ(test, PARSE("", label), -EINVAL);\n\1KUNIT_EXPECT_STREQ(test, label, "keep");\n\1KUNIT_EXPECT_EQ(test, PARSE("abcdefghijklmnopqrstuvwxyz012345", label), -EINVAL);/

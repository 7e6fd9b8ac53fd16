# A mistake a learner made, for tests/host/lab-hints.sh: a case expects
# "web\n" to be refused, which the real parser takes.  Every step fails on
# it; KUnit's message is shown once, under step 1, not four times.
#
# expect: step 1 hint: KUnit:
# expect: step 1 hint: does not promise
# expect: step 2 hint: step 1 shows what KUnit said
# expect: step 2 not: KUnit:
# expect: step 4 not: KUnit:
s/^\(\t*\)KUNIT_EXPECT_EQ(test, PARSE("web\\n", label), 0);/\1KUNIT_EXPECT_EQ(test, PARSE("web\\n", label), -EINVAL);/

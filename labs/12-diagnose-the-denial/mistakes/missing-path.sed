# A sandbox rule for a path that does not exist: policy run cannot make
# the sandbox and runs nothing. That is the learner's landlock.rules, not
# an edit of given/.
# expect: step 1 fails
# expect: step 1 hint: policy run stopped before the program ran
# expect: step 1 not: given/ was changed
# expect: step 6 not: git checkout
s|^read       /tmp/lab12/in$|read       /tmp/lab12/in\nread       /tmp/lab12/nowhere|

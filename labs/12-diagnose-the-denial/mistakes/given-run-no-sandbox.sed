# The learner deletes the Landlock line of given/run (the lab's, not
# theirs): the program runs outside the sandbox. The grader checks the
# set's run file before grading.
# expect: step 3 fails
# expect: step 3 hint: git checkout labs/12-diagnose-the-denial/given
# expect: step 3 hint: the program would run outside the sandbox
/^landlock  *landlock.rules$/d

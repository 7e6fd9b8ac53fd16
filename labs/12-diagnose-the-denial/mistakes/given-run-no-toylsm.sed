# The learner deletes the toylsm line of given/run (the lab's, not
# theirs): the program no longer takes the label probe, and the diary's
# rule names a label it does not have. The grader checks the program's
# toylsm label before grading.
# expect: step 6 fails
# expect: step 6 hint: git checkout labs/12-diagnose-the-denial/given
/^toylsm  *probe$/d

# The learner deletes shared's toylsm label from given/files (the lab's,
# not theirs) and leaves out step 5's toylsm rule: unlabelled, shared is
# no longer toylsm's to refuse, and step 5 would pass without its rule.
# The grader checks the files' labels against the lab's before grading.
# expect: step 1 fails
# expect: step 5 fails
# expect: step 5 hint: /tmp/lab10/shared has no toylsm label (security.toylsm), where the lab gives it shared
# expect: step 5 hint: git checkout labs/10-every-module-agrees/given
\|^/tmp/lab10/shared  *security\.toylsm  *shared$|d
/^probe shared r$/d

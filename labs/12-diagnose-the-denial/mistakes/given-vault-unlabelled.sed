# The learner deletes the key's SELinux label from given/files (the
# lab's, not theirs): the key would be file_t, no longer vault_key_t.
# The grader checks the files' labels against the lab's before grading.
# expect: step 5 fails
# expect: step 5 hint: git checkout labs/12-diagnose-the-denial/given
\|^/tmp/lab12/vault/key  *security\.selinux|d

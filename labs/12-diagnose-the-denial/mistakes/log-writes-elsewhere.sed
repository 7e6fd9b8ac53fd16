# Scenario 3 fixed, and the sandbox also gives write on the vault: the
# vault's own files are refused by SELinux or Smack before Landlock is
# asked, so the grader writes a file of its own in vault/, which only
# the sandbox and AppArmor refuse.
# expect: step 3 fails
# expect: step 3 hint: probe write /tmp/lab12/vault/f
# expect: step 5 passes
s|^read       /tmp/lab12/vault$|read,write /tmp/lab12/vault|

# Scenario 3 fixed, and the sandbox also gives write on the vault: no
# access shows it (SELinux or Smack refuses the vault's writes before
# Landlock is asked), so the grader reads the sandbox's rules.
# expect: step 3 fails
# expect: step 3 hint: the sandbox gives write beneath a folder no scenario writes in
# expect: step 5 passes
s|^read       /tmp/lab12/vault$|read,write /tmp/lab12/vault|

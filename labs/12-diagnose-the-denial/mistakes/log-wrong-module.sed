# Scenario 3 left as it was (the sandbox: read only on out/), and a
# toylsm rule added instead: toylsm never refused the log.
# expect: step 3 fails
# expect: step 3 hint: which module said no, and in which hook?
# expect: HINT=2 step 3 hint: landlock refused it in file_open: its policy, landlock.rules, is where the fix goes
s|^read,write /tmp/lab12/out$|read       /tmp/lab12/out|
s|^init probe w$|init probe w\nprobe log rw|

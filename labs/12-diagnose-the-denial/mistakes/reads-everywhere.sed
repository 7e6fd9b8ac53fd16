# The sandbox made to read the whole tree ("read /" in place of
# "read /bin"): every read Landlock refused before is let through, and
# only the modules after it still refuse. It passed while the grader read
# only the sandbox's write lines.
# expect: step 3 fails
# expect: step 3 hint: not beside them
# expect: step 1 passes
s|^read       /bin$|read       /|

# Not a mistake: the reference answer with the sandbox's "read /bin" line
# written five times, which grants nothing more. It must pass. Its loader
# makes more system calls before the program's, and the grader's record
# used to keep only the first 64 calls: in the default boot the program's
# refused open was lost, and every step failed with "the trace names no
# module" (the intermittent kit line of lab 12, at its cause).
# expect: step 1 passes
# expect: step 2 passes
# expect: step 3 passes
# expect: step 4 passes
# expect: step 5 passes
# expect: step 6 passes
s|^read       /bin$|read       /bin\nread       /bin\nread       /bin\nread       /bin\nread       /bin|

# The verifier refuses it (a wrong return type): the program declared
# void, as a tracing program might be, so it sets no answer: an LSM
# program's answer is the module's, an int, and the verifier finds R0
# unset at the exit. The reason must be on the screen.
# expect: step 1 fails
# expect: step 1 hint: R0 !read_ok
# expect: step 1 hint: returns no value
s/^int BPF_PROG(guard_mkdir,/void BPF_PROG(guard_mkdir,/
s/^\t\treturn ret;$/\t\treturn;/
/^\treturn answer;$/d

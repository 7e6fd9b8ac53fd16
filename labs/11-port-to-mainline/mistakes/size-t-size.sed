# Not a failure: lab 2's size_t kept for mainline's __u32 size.  The
# kernel reads and writes the first 4 bytes of the size_t, which on
# x86-64 (little-endian) are its low half, and the high half stays 0: it
# works here, and the grader cannot tell (README.md, "size_t or __u32"
# says why it is still wrong).  This proves what the README claims.
#
# expect: step 3 passes
# expect: step 6 passes
s/^\t__u32 size = 0;$/\tsize_t size = 0;/
s/^\t\*sizep = size;$/\t*sizep = (__u32)size;/

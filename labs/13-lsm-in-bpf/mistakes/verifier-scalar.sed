# The verifier refuses it (a scalar dereferenced): the new directory's
# name read through dentry->d_name.name, a pointer to bytes, which the
# verifier of 6.1 hands out as a plain number (only pointers to structs
# stay pointers it lets you follow). The reason must be on the screen.
# expect: step 1 fails
# expect: step 1 hint: invalid mem access 'scalar'
# expect: step 1 hint: bpf_probe_read_kernel
/^\t\treturn ret;$/a\
\	/* Hidden directories are none of our business. */\
\	if (dentry->d_name.name[0] == '.')\
\		return 0;

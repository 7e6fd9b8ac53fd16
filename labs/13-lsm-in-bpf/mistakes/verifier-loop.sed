# The verifier refuses it (a loop it cannot see end): a walk up the new
# directory's parents to the root, to ask where it is; nothing bounds it
# (d_parent of the root is the root, which the verifier cannot know). The
# reason must be on the screen.
# expect: step 1 fails
# expect: step 1 hint: what bounds your loop
# expect: HINT=2 step 1 hint: a constant bound
/^\tint answer;$/a\
\	struct dentry *d = dentry;
/^\t\treturn ret;$/a\
\	/* Up to the root of the file system. */\
\	while (d != d->d_parent)\
\		d = d->d_parent;\
\	if (d == dentry)\
\		return 0;

# Extra hooks (issue 55): the reference, and three more programs that
# refuse the target's symlink, link and rename. Today's grader tried only
# open(O_CREAT), unlink and rmdir for "the victim's other file
# operations", and let it pass. The step asks for mkdir alone.
# expect: step 1 fails
# expect: step 1 hint: guard_symlink (lsm/path_symlink)
$a\
\
static __always_inline int target_only(int ret)\
{\
\	if (ret)\
\		return ret;\
\	return (bpf_get_current_pid_tgid() >> 32) == target_tgid ? -EPERM : 0;\
}\
\
SEC("lsm/path_symlink")\
int BPF_PROG(guard_symlink, const struct path *dir, struct dentry *dentry, const char *old, int ret)\
{\
\	return target_only(ret);\
}\
\
SEC("lsm/path_link")\
int BPF_PROG(guard_link, struct dentry *old, const struct path *dir, struct dentry *new, int ret)\
{\
\	return target_only(ret);\
}\
\
SEC("lsm/path_rename")\
int BPF_PROG(guard_rename, const struct path *old_dir, struct dentry *old, const struct path *new_dir,\
\	     struct dentry *new, unsigned int flags, int ret)\
{\
\	return target_only(ret);\
}

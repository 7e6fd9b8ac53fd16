# Extra hooks, another set: the reference, and programs that refuse the
# target's chmod (path_chmod) and every change of a file's attributes
# (inode_setattr: truncate, utimes, chown). Passes today's grader, which
# tried none of them.
# expect: step 1 fails
# expect: step 1 hint: guard_setattr (lsm/inode_setattr)
$a\
\
SEC("lsm/path_chmod")\
int BPF_PROG(guard_chmod, const struct path *path, umode_t mode, int ret)\
{\
\	if (ret)\
\		return ret;\
\	return (bpf_get_current_pid_tgid() >> 32) == target_tgid ? -EPERM : 0;\
}\
\
SEC("lsm/inode_setattr")\
int BPF_PROG(guard_setattr, struct dentry *dentry, struct iattr *attr, int ret)\
{\
\	if (ret)\
\		return ret;\
\	return (bpf_get_current_pid_tgid() >> 32) == target_tgid ? -EPERM : 0;\
}

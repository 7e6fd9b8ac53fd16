# An extra program that refuses nothing: the reference, and a second
# program on inode_create that counts the target's new files.
# No operation shows it; the set of programs does: the step asks for
# path_mkdir alone, and lists what the file holds.
# expect: step 1 fails
# expect: step 1 hint: count_create (lsm/inode_create)
$a\
\
__u64 created;\
\
SEC("lsm/inode_create")\
int BPF_PROG(count_create, struct inode *dir, struct dentry *dentry, umode_t mode, int ret)\
{\
\	if (!ret && (bpf_get_current_pid_tgid() >> 32) == target_tgid)\
\		__sync_fetch_and_add(&created, 1);\
\	return ret;\
}

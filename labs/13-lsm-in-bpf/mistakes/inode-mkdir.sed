# The right logic on the wrong hook: inode_mkdir, which vfs_mkdir() calls
# after every module's path_mkdir said yes. It refuses the victim as
# path_mkdir would; but where bpf comes first in lsm=, Landlock's refusal
# in path_mkdir ends the call before inode_mkdir: the program never sees
# the sandboxed mkdir, and the hint must say the hook, not "count more".
# expect: step 1 passes
# expect: step 2 fails
# expect: step 2 hint: yours is on lsm/inode_mkdir
# expect: step 2 not: add 1 to refused
s|^SEC("lsm/path_mkdir")$|SEC("lsm/inode_mkdir")|
s/^int BPF_PROG(guard_mkdir, const struct path \*dir,/int BPF_PROG(guard_mkdir, struct inode *dir,/

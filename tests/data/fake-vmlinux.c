/*
 * A stand-in for a kernel without kallsyms, for tests/host/results.sh: linked
 * at the x86_64 kernel's text address, so that its nm output names
 * addresses such as 0xffffffff8100000c the way build/lab/vmlinux does.
 */
void toylsm_inode_unlink(void);
void other_fn(void);
void _start(void);

void toylsm_inode_unlink(void) { *(volatile int *)0 = 1; }
void other_fn(void) {}
void _start(void) {}

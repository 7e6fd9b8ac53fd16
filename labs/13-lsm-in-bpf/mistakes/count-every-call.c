// SPDX-License-Identifier: GPL-2.0
/*
 * refused counted on every call, before the check of the process: the
 * grader's own mkdir, and every other process's, count as refusals.
 *
 * expect: step 1 passes
 * expect: step 2 fails
 * expect: step 2 hint: count only what you refuse
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define EPERM 1

char LICENSE[] SEC("license") = "GPL";
const volatile __u32 target_tgid;
__u64 refused;

SEC("lsm/path_mkdir")
int BPF_PROG(guard_mkdir, const struct path *dir, struct dentry *dentry, umode_t mode, int ret)
{
	if (ret)
		return ret;
	__sync_fetch_and_add(&refused, 1);
	if ((bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return 0;
	return -EPERM;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 13: an LSM in BPF. One program on the hook path_mkdir, loaded into
 * the bpf flavour's kernel by the lab's loader (loader.c, a skeleton of
 * this file inside it) and attached to the BPF LSM's hook
 * bpf_lsm_path_mkdir: it refuses mkdir to one process, and counts what
 * it refused.
 *
 * The BPF LSM (security/bpf/hooks.c) asks its programs after the modules
 * before "bpf" in lsm= said yes, and never when "bpf" is not in lsm=:
 * then the program loads and attaches all the same, and never runs.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf_todo.h"

#define EPERM 1

/* LSM programs must be GPL: the verifier refuses them otherwise. */
char LICENSE[] SEC("license") = "GPL";

/* The process to guard: set by the loader before it loads the program. */
const volatile __u32 target_tgid;

/* How many mkdirs this program refused: the loader reads it. */
__u64 refused;

SEC("lsm/path_mkdir")
int BPF_PROG(guard_mkdir, const struct path *dir, struct dentry *dentry, umode_t mode, int ret)
{
	/* The answer of the programs before this one: keep a refusal. */
	if (ret)
		return ret;
	/* TODO 1: no objection (0) unless the caller's process (pid_tgid >> 32) is target_tgid */
	if ((bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return 0;
	/* END TODO 1 */
	/* TODO 2: count the refusal you are about to make in refused (__sync_fetch_and_add) */
	__sync_fetch_and_add(&refused, 1);
	/* END TODO 2: (void)LAB_TODO(2); */
	return -EPERM;
}

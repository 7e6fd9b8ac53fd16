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

/* vmlinux.h has the kernel's types, not its macros. */
#define EPERM 1

/* LSM programs must be GPL: the verifier refuses them otherwise. */
char LICENSE[] SEC("license") = "GPL";

/* The process to guard: set by the loader before it loads the program. */
const volatile __u32 target_tgid;

/* How many mkdirs this program refused: the loader reads it. */
__u64 refused;

/*
 * Asked for every mkdir on the machine (where bpf's turn in lsm= comes),
 * with the hook's arguments (the parent directory, the new entry, its
 * mode) and ret, the answer of the BPF programs attached before this
 * one. Its answer is the module's: 0, no objection, or an errno that
 * refuses (README, "Background").
 */
SEC("lsm/path_mkdir")
int BPF_PROG(guard_mkdir, const struct path *dir, struct dentry *dentry, umode_t mode, int ret)
{
	int answer;

	/* A refusal by a program before this one stands (prog_lsm.rst). */
	if (ret)
		return ret;
	/* TODO 1: your answer: refuse this mkdir with EPERM if the caller is the process target_tgid, and no other */
	answer = 0;
	if ((bpf_get_current_pid_tgid() >> 32) == target_tgid)
		answer = -EPERM;
	/* END TODO 1: answer = LAB_TODO(1); */
	/* TODO 2: count in refused each mkdir your answer refuses */
	if (answer)
		__sync_fetch_and_add(&refused, 1);
	/* END TODO 2: (void)LAB_TODO(2); */
	return answer;
}

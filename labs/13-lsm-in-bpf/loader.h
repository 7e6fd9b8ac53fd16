/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lab 13's loader (loader.c), built with the skeleton of the attendee's
 * guard.bpf.c (bpftool gen skeleton, scripts/lab/bpf-build.sh) and linked with
 * the grader and libbpf.a into one static program for the guest.
 *
 *	lab13_bpf_in_lsm()	whether the BPF LSM is active: ID 42
 *				(LSM_ID_BPF) in lsm_module_list(), 1 or 0
 *	lab13_load(target)	open the program, set target_tgid, load it
 *				and attach guard_mkdir: 0, or -errno with
 *				libbpf's messages in lab13_log (their last
 *				4 KB, where the verifier's reason is)
 *	lab13_progs, lab13_nprogs	the programs of the attendee's file
 *				that the load loads (filled by lab13_load(),
 *				once the object is open): each one's name and
 *				section ("lsm/path_mkdir"); lab13_nprogs counts
 *				up to LAB13_PROGS + 1 (more than the list holds)
 *	lab13_refused()		the program's counter, refused
 *	lab13_unload()		detach and free it (its link closed)
 *	lab_bpf_todos		the steps whose TODO is still in the source,
 *				a bit each (1 << n): a BPF program cannot say
 *				that it reached its placeholder, so the kit
 *				reads it from the source (scripts/lab/kind-bpf.sh)
 */
#ifndef LAB13_LOADER_H
#define LAB13_LOADER_H

#include <sys/types.h>

#define LAB13_PROGS 16

struct lab13_prog {
	char name[64];
	char section[96];
};

extern char lab13_log[4096];
extern struct lab13_prog lab13_progs[LAB13_PROGS];
extern int lab13_nprogs;
extern const unsigned int lab_bpf_todos;

int lab13_bpf_in_lsm(void);
int lab13_load(pid_t target);
unsigned long long lab13_refused(void);
void lab13_unload(void);

#endif

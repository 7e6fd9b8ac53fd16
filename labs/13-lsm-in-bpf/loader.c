// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 13's loader: the skeleton of the attendee's program (guard.skel.h,
 * made by scripts/lab/bpf-build.sh from guard.bpf.c) opened, given its
 * target, loaded into the kernel (the verifier checks it) and attached.
 * What libbpf says goes to lab13_log, for the grader to show.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/lsm.h>

#include "guard.skel.h"
#include "loader.h"

#ifndef LAB_BPF_TODOS
#define LAB_BPF_TODOS 0
#endif
const unsigned int lab_bpf_todos = LAB_BPF_TODOS;
char lab13_log[4096];
struct lab13_prog lab13_progs[LAB13_PROGS];
int lab13_nprogs;
static struct guard *skel;

/* The programs the object holds (those libbpf loads), as the file names them. */
static void list_programs(void)
{
	struct bpf_program *p;

	lab13_nprogs = 0;
	bpf_object__for_each_program(p, skel->obj) {
		struct lab13_prog *l = &lab13_progs[lab13_nprogs];

		if (!bpf_program__autoload(p))
			continue;
		if (lab13_nprogs == LAB13_PROGS) {
			lab13_nprogs++;	/* more than the list holds: counted */
			break;
		}
		snprintf(l->name, sizeof(l->name), "%s", bpf_program__name(p));
		snprintf(l->section, sizeof(l->section), "%s", bpf_program__section_name(p));
		lab13_nprogs++;
	}
}

/*
 * libbpf's messages, their last 4 KB kept: the verifier's log comes in one
 * message, its reason at the end.
 */
static int log_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	static char msg[65536];
	size_t n = strlen(lab13_log), m, room = sizeof(lab13_log) - 1;
	int len;

	if (level == LIBBPF_DEBUG)
		return 0;
	len = vsnprintf(msg, sizeof(msg), fmt, ap);
	if (len < 0)
		return len;
	m = strlen(msg);
	if (m >= room) {
		memcpy(lab13_log, msg + m - room, room + 1);
		return len;
	}
	if (n + m > room) {	/* drop the oldest bytes */
		memmove(lab13_log, lab13_log + n + m - room, room - m);
		n = room - m;
	}
	memcpy(lab13_log + n, msg, m + 1);
	return len;
}

int lab13_bpf_in_lsm(void)
{
	__u32 ids[32];
	size_t size = sizeof(ids);
	long n = syscall(__NR_lsm_module_list, ids, &size, 0);

	for (long i = 0; i < n; i++)
		if (ids[i] == LSM_ID_BPF)
			return 1;
	return 0;
}

int lab13_load(pid_t target)
{
	int err;

	lab13_log[0] = '\0';
	libbpf_set_print(log_libbpf);
	skel = guard__open();
	if (!skel)
		return -errno;
	skel->rodata->target_tgid = target;
	list_programs();
	err = guard__load(skel);
	if (!err)
		err = guard__attach(skel);
	if (err) {
		guard__destroy(skel);
		skel = NULL;
	}
	return err;
}

unsigned long long lab13_refused(void)
{
	return skel ? skel->bss->refused : 0;
}

void lab13_unload(void)
{
	guard__destroy(skel);
	skel = NULL;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest tests of the modules only the bpf flavour builds
 * (lsm_bpf.c, lsm_tomoyo.c, lsm_loadpin.c, lsm_lockdown.c) ask of every
 * one of them: the seed's ID (seeds 001, include/uapi/linux/lsm.h of patch
 * 0002) in lsm_module_list() where /sys/kernel/security/lsm lists the
 * module, and no entry of it in lsm_self_attr() (none of the four has a
 * process attribute in 6.1). Each test asks it of its module whether the
 * boot's lsm= names the module or not: named, it must be active; not
 * named, absent.
 *
 *	lsm_named(lsm)		whether this boot's lsm= names lsm: 1 or 0
 *				(no lsm= on the command line: 0)
 *	seed_id_check(lsm, id, why, len)	NULL, or what is wrong, in why
 *	JUNK_MODULE		the "module" of lsm_loadpin.c and lsm_lockdown.c:
 *				text longer than an ELF header (64 bytes), which
 *				init_module(2) would otherwise refuse before any
 *				LSM is asked
 *	finit_junk(path)	finit_module() of a fresh file at path holding
 *				JUNK_MODULE, removed after: 0 or the errno; -1
 *				if the file could not be made
 */
#ifndef KIT_SEED_LSM_H
#define KIT_SEED_LSM_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kit/files.h"
#include "kit/lsm_abi.h"

#define JUNK_MODULE "not a kernel module, and longer than an ELF header (64 bytes) all the same\n"

static inline int finit_junk(const char *path)
{
	int fd, err;

	if (create_file(path, JUNK_MODULE))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	err = syscall(SYS_finit_module, fd, "", 0) ? errno : 0;
	close(fd);
	unlink(path);
	return err;
}

static inline int lsm_named(const char *lsm)
{
	char cmdline[2048], *p, *tok, *save;

	if (read_text("/proc/cmdline", cmdline, sizeof(cmdline)) <= 0)
		return 0;
	p = strstr(cmdline, " lsm=");
	if (p)
		p += 5;
	else if (strncmp(cmdline, "lsm=", 4) == 0)
		p = cmdline + 4;
	else
		return 0;
	p[strcspn(p, " ")] = '\0';
	for (tok = strtok_r(p, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (strcmp(tok, lsm) == 0)
			return 1;
	return 0;
}

/* Where lsm is in /sys/kernel/security/lsm, counting from 0; or -1. */
static inline int securityfs_index(const char *lsm)
{
	char buf[512], *tok, *save;
	int i = 0;

	if (read_text("/sys/kernel/security/lsm", buf, sizeof(buf)) <= 0)
		return -1;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save), i++)
		if (strcmp(tok, lsm) == 0)
			return i;
	return -1;
}

static inline const char *seed_id_check(const char *lsm, uint32_t id,
					char *why, size_t len)
{
	uint32_t ids[32];
	size_t size = sizeof(ids);
	long n = lsm_module_list(ids, &size, 0), at = -1;
	int named = lsm_named(lsm), fs = securityfs_index(lsm);
	static char buf[8192] __attribute__((aligned(8)));
	size_t bsize = sizeof(buf);
	long entries;

	if (n < 0) {
		snprintf(why, len, "lsm_module_list: %s", strerror(errno));
		return why;
	}
	for (long i = 0; i < n; i++)
		if (ids[i] == id)
			at = i;
	if (named && fs < 0) {
		snprintf(why, len, "lsm= names %s, but /sys/kernel/security/lsm does not list it: is it built into this kernel (FLAVOUR=bpf)?",
			 lsm);
		return why;
	}
	if (!named && fs >= 0) {
		snprintf(why, len, "%s is active, but lsm= does not name it", lsm);
		return why;
	}
	if (at != fs) {
		snprintf(why, len, "ID %u is at position %ld of lsm_module_list, %s at position %d of /sys/kernel/security/lsm (-1: absent)",
			 id, at, lsm, fs);
		return why;
	}
	entries = lsm_self_attr((struct lsm_ctx *)buf, &bsize, 0);
	if (entries < 0) {
		snprintf(why, len, "lsm_self_attr: %s", strerror(errno));
		return why;
	}
	for (size_t off = 0; entries-- > 0;) {
		const struct lsm_ctx *c = (const void *)(buf + off);

		if (c->id == id) {
			snprintf(why, len, "lsm_self_attr has an entry of ID %u (%s, flags %#x): %s has no process attribute",
				 id, lsm, c->flags, lsm);
			return why;
		}
		off += sizeof(*c) + c->ctx_len;
	}
	return NULL;
}

#endif

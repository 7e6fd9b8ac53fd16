/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kit kernel's LSM system calls from user space (the guest tests, the
 * labs' graders, /bin/probe, the benchmark): the syscall wrappers, the
 * tables of lsm_names.h, the /proc/self/attr paths (read_text(): files.h).
 */
#ifndef KIT_LSM_ABI_H
#define KIT_LSM_ABI_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/lsm.h>

#include "files.h"	/* read_text() */
#include "lsm_names.h"

#ifndef __NR_lsm_self_attr
#error "the kit's UAPI headers have no __NR_lsm_self_attr: build the kernel (make kernel)"
#endif

static inline long lsm_self_attr(struct lsm_ctx *ctx, size_t *size,
				 uint32_t flags)
{
	return syscall(__NR_lsm_self_attr, ctx, size, flags);
}

static inline long lsm_module_list(uint32_t *ids, size_t *size,
				   uint32_t flags)
{
	return syscall(__NR_lsm_module_list, ids, size, flags);
}

/* The /proc file that shows attribute @attr of LSM @id to user space. */
static inline void attr_path(char *buf, size_t len, int id, const char *attr)
{
	if (id == LSM_ID_SELINUX)	/* SELinux has no attr/ subdirectory */
		snprintf(buf, len, "/proc/self/attr/%s", attr);
	else
		snprintf(buf, len, "/proc/self/attr/%s/%s", kit_lsm_name(id), attr);
}

/* An anonymous mapping of @pages pages whose last page is unmapped. */
static inline char *map_with_guard(size_t pages)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (pages + 1) * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	munmap(p + pages * pg, pg);
	return p;
}

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lab 1: which LSMs are active.  The functions you write in lsms.c; the
 * grader (grade.c) calls each of them and checks what it returns.
 *
 * The convention, as for system calls: on failure return -1 (or NULL) and
 * leave errno set to say why.
 */
#ifndef LAB01_H
#define LAB01_H

#include <stddef.h>
#include <linux/types.h>
#include <linux/lsm.h>		/* LSM_ID_* */
#include <asm/unistd.h>		/* __NR_lsm_module_list */

#include "todo.h"

#ifndef __NR_lsm_module_list
/*
 * This kernel's headers predate the patch that wires up the syscall (patch
 * 0008 of patches/): syscall(-1) fails with ENOSYS, and the grader says the
 * kernel is too old.  Step 1 works without it.
 */
#define __NR_lsm_module_list (-1)
#endif

/*
 * Step 1.  Read /sys/kernel/security/lsm into buf (len bytes of room) as a
 * NUL-terminated string.  Return its length (strlen(buf)).  If it does not
 * fit, with its NUL, return -1 with errno E2BIG.
 */
int lab_securityfs_list(char *buf, size_t len);

/*
 * Step 2.  Ask lsm_module_list(ids, &size, 0) how many bytes its answer
 * needs: with ids = NULL and size = 0 it fails with E2BIG and sets size.
 * Return that size, or -1 with errno if the call did something else.
 */
long lab_module_list_size(void);

/*
 * Step 3.  Fill ids[0], ids[1], ... (room for max IDs) with the IDs of the
 * active LSMs, in the kernel's order.  Return how many there are, or -1
 * with errno (E2BIG from the kernel if max is too small).
 */
long lab_module_list(__u32 *ids, size_t max);

/*
 * Step 4.  The name of an LSM ID, spelt as in /sys/kernel/security/lsm
 * ("capability", "selinux", ...); "ima" for LSM_ID_IMA; NULL for an ID
 * that <linux/lsm.h> does not define.
 */
const char *lab_lsm_name(__u32 id);

/*
 * Step 5.  Write into buf the names of the active LSMs, from the IDs that
 * lsm_module_list returns, separated by commas: the same text as
 * /sys/kernel/security/lsm.  Return its length, or -1 with errno (E2BIG if
 * it does not fit in len bytes).
 */
int lab_names_from_ids(char *buf, size_t len);

#endif /* LAB01_H */

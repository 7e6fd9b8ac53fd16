/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one table of LSM IDs and names for the kit's user space (guest
 * tests, the labs' graders and answer keys, the benchmark): every LSM_ID_*
 * of the kit's <linux/lsm.h> with the name /sys/kernel/security/lsm uses
 * for it.  Only the table, so that a lab's own file can include it
 * without taking names it defines itself.
 */
#ifndef KIT_LSM_IDS_H
#define KIT_LSM_IDS_H

#include <linux/lsm.h>

static const struct {
	int id;
	const char *name;
} kit_lsms[] = {
	{ LSM_ID_CAPABILITY, "capability" }, { LSM_ID_SELINUX, "selinux" },
	{ LSM_ID_SMACK, "smack" },	     { LSM_ID_TOMOYO, "tomoyo" },
	{ LSM_ID_IMA, "ima" },		     { LSM_ID_APPARMOR, "apparmor" },
	{ LSM_ID_YAMA, "yama" },	     { LSM_ID_LOADPIN, "loadpin" },
	{ LSM_ID_SAFESETID, "safesetid" },   { LSM_ID_LOCKDOWN, "lockdown" },
	{ LSM_ID_BPF, "bpf" },		     { LSM_ID_LANDLOCK, "landlock" },
	{ LSM_ID_TOYLSM, "toylsm" },
};
#define KIT_NLSMS ((int)(sizeof(kit_lsms) / sizeof(kit_lsms[0])))

#endif

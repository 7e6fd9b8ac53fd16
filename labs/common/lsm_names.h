/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The graders' answer key: every LSM_ID_* of the kit's <linux/lsm.h> with
 * the name /sys/kernel/security/lsm uses for it.  One table for all labs.
 */
#ifndef LAB_LSM_NAMES_H
#define LAB_LSM_NAMES_H

#include <linux/lsm.h>

static const struct { int id; const char *name; } lab_lsm_table[] = {
	{ LSM_ID_CAPABILITY, "capability" }, { LSM_ID_SELINUX, "selinux" },
	{ LSM_ID_SMACK, "smack" }, { LSM_ID_TOMOYO, "tomoyo" },
	{ LSM_ID_IMA, "ima" }, { LSM_ID_APPARMOR, "apparmor" },
	{ LSM_ID_YAMA, "yama" }, { LSM_ID_LOADPIN, "loadpin" },
	{ LSM_ID_SAFESETID, "safesetid" }, { LSM_ID_LOCKDOWN, "lockdown" },
	{ LSM_ID_BPF, "bpf" }, { LSM_ID_LANDLOCK, "landlock" },
	{ LSM_ID_TOYLSM, "toylsm" },
};
#define LAB_NLSMS ((int)(sizeof(lab_lsm_table) / sizeof(lab_lsm_table[0])))

#endif

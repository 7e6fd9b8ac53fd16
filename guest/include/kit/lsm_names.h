/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kit's tables of LSM names, for all of its user space (guest tests,
 * the labs' graders and answer keys, the benchmark):
 *
 *	kit_lsms[]	every LSM_ID_* of the kit's <linux/lsm.h>, with the name
 *			/sys/kernel/security/lsm uses for it (KIT_NLSMS entries)
 *	kit_attrs[]	every LSM_ATTR_* in the order lsm_self_attr() reports
 *			them, with its /proc/self/attr name (KIT_NATTRS entries;
 *			KIT_ATTR_LAST is the highest flag)
 *	kit_lsm_name(id), kit_attr_name(flag)	the name, or NULL
 *
 * Only these kit_* names, so that a lab's own file can include it without
 * taking a name the learner defines.  A new LSM_ID_* or LSM_ATTR_* of the
 * series gets its line here and nowhere else.
 */
#ifndef KIT_LSM_NAMES_H
#define KIT_LSM_NAMES_H

#include <stddef.h>
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

static const struct {
	unsigned int flag;
	const char *name;
} kit_attrs[] = {
	{ LSM_ATTR_CURRENT, "current" },     { LSM_ATTR_EXEC, "exec" },
	{ LSM_ATTR_FSCREATE, "fscreate" },   { LSM_ATTR_KEYCREATE, "keycreate" },
	{ LSM_ATTR_PREV, "prev" },	     { LSM_ATTR_SOCKCREATE, "sockcreate" },
};

#define KIT_NATTRS (sizeof(kit_attrs) / sizeof(kit_attrs[0]))
#define KIT_ATTR_LAST (kit_attrs[KIT_NATTRS - 1].flag)

static inline const char *kit_lsm_name(long id)
{
	for (int i = 0; i < KIT_NLSMS; i++)
		if (kit_lsms[i].id == id)
			return kit_lsms[i].name;
	return NULL;
}

static inline const char *kit_attr_name(unsigned long flag)
{
	for (size_t i = 0; i < KIT_NATTRS; i++)
		if (kit_attrs[i].flag == flag)
			return kit_attrs[i].name;
	return NULL;
}

#endif

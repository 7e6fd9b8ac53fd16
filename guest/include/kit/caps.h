/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Capabilities, for all of the kit's user space (the guest tests, the
 * guest's tools):
 *
 *	drop_all_caps()	no capability left at all (effective, permitted,
 *			inheritable) in the calling thread: 0 or -1
 */
#ifndef KIT_CAPS_H
#define KIT_CAPS_H

#include <linux/capability.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline int drop_all_caps(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	return syscall(SYS_capset, &h, d) ? -1 : 0;
}

#endif

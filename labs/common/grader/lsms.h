/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LAB_GRADER_LSMS_H
#define LAB_GRADER_LSMS_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "say.h"

/*
 * This boot's modules, as /sys/kernel/security/lsm lists them: load_fs_list()
 * reads the list into fs_list ("capability,landlock,yama,...") or ends the
 * grader with status 2 (no step can be graded without it); lsm_active(name)
 * says whether a module is in it; need_toylsm() fails a step, as the kit's
 * problem, in a boot without toylsm.
 */
static char fs_list[512];

static LAB_API void load_fs_list(void)
{
	int fd = open("/sys/kernel/security/lsm", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, fs_list, sizeof(fs_list) - 1);

	if (n < 0) {
		printf("grader: cannot read /sys/kernel/security/lsm: %s\n", errname(errno));
		exit(2);
	}
	fs_list[n] = '\0';
	fs_list[strcspn(fs_list, "\n")] = '\0';
	close(fd);
}

static LAB_API int lsm_active(const char *name)
{
	char list[sizeof(fs_list) + 2], want[40];

	snprintf(list, sizeof(list), ",%s,", fs_list);
	snprintf(want, sizeof(want), ",%s,", name);
	return !!strstr(list, want);
}

static LAB_API void need_toylsm(void)
{
	if (lsm_active("toylsm"))
		return;
	lab_kit("toylsm is not active in this boot (%s): every step needs it", fs_list);
	lab_kit("check CONFIG_LSM in configs/kit.config and the lab's BOOTS in lab.conf");
	lab_fail();
}

#endif /* LAB_GRADER_LSMS_H */

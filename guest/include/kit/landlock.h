/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A Landlock sandbox for the calling thread, in three calls, for the guest
 * tests and the labs' graders that need a refusal by Landlock:
 *
 *	int rs = kit_landlock_ruleset(LANDLOCK_ACCESS_FS_READ_FILE);
 *	kit_landlock_allow(rs, "/proc", LANDLOCK_ACCESS_FS_READ_FILE);
 *	kit_landlock_enforce(rs);	// no_new_privs, restrict_self, close
 *
 * Each returns the ruleset's fd or 0, or -errno (-EOPNOTSUPP: Landlock is
 * not active in this boot); kit_landlock_allow() and kit_landlock_enforce()
 * take a negative rs (a ruleset not made, or closed by a failed call) and
 * return it, so that a caller checks only the last.  Access handled but allowed beneath no path is
 * refused everywhere.
 */
#ifndef KIT_LANDLOCK_H
#define KIT_LANDLOCK_H

#include <errno.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/landlock.h>

static inline int kit_landlock_ruleset(__u64 handled_fs)
{
	struct landlock_ruleset_attr ra = { .handled_access_fs = handled_fs };
	int rs = syscall(SYS_landlock_create_ruleset, &ra, sizeof(ra), 0);

	return rs < 0 ? -errno : rs;
}

static inline int kit_landlock_allow(int rs, const char *path, __u64 access_fs)
{
	struct landlock_path_beneath_attr pb = { .allowed_access = access_fs };
	int err = 0;

	if (rs < 0)
		return rs;
	pb.parent_fd = open(path, O_PATH | O_CLOEXEC);
	if (pb.parent_fd < 0) {
		err = -errno;
		close(rs);
		return err;
	}
	if (syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH, &pb, 0))
		err = -errno;
	close(pb.parent_fd);
	if (err)
		close(rs);
	return err ? err : rs;
}

static inline int kit_landlock_enforce(int rs)
{
	int err = 0;

	if (rs < 0)
		return rs;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || syscall(SYS_landlock_restrict_self, rs, 0))
		err = -errno;
	close(rs);
	return err;
}

#endif

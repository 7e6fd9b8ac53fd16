// SPDX-License-Identifier: GPL-2.0
/*
 * Every filesystem the kit's kernel has, mounted on the stack this boot
 * runs (issue 34: with toylsm active, any overlayfs mount was a NULL
 * pointer dereference in ovl_fill_super(), because toylsm read the root
 * inode's xattr from d_instantiate() before overlayfs had its layers).
 *
 * 1. Each filesystem of /proc/filesystems that needs no device is
 *    mounted, its root listed and stat'ed, and unmounted. Those that the
 *    kernel keeps for itself (no user mount) must refuse with the error
 *    the kernel gives for that; those in `usable` must mount.
 * 2. An overlay of two tmpfs folders: a file read through it, written
 *    (copied up), created; with toylsm active, a labelled lower file is
 *    checked through the overlay as on its own filesystem, and a label
 *    set through the overlay is the one enforced.
 * A kernel splat fails the boot (the crash rule): no case needed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include "kselftest_harness.h"
#include "kit/toylsm_files.h"

#define XATTR "security.toylsm"

/* Filesystems a user (root) mounts: a failure to mount is a failure. */
static const char *const usable[] = {
	"tmpfs", "ramfs", "proc", "sysfs", "devtmpfs", "securityfs",
	"tracefs", "debugfs", "mqueue", "cgroup2", "bpf", "devpts",
	"configfs", "binfmt_misc", "pstore", "hugetlbfs", NULL,
};

/* Is module in /sys/kernel/security/lsm? */
static int lsm_active(const char *module)
{
	char list[512], *w, *save;
	int n = read_file("/sys/kernel/security/lsm", list, sizeof(list));

	for (w = n > 0 ? strtok_r(list, ",\n", &save) : NULL; w;
	     w = strtok_r(NULL, ",\n", &save))
		if (!strcmp(w, module))
			return 1;
	return 0;
}

static int in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return 1;
	return 0;
}

/* List and stat every entry of dir: the number of entries, or -errno. */
static int walk(const char *dir)
{
	char path[512];
	struct dirent *e;
	struct stat st;
	DIR *d = opendir(dir);
	int n = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		lstat(path, &st);
		n++;
	}
	closedir(d);
	return n;
}

TEST(every_filesystem_mounts_or_refuses_as_the_kernel_says)
{
	char line[256], type[64], dir[128];
	FILE *f = fopen("/proc/filesystems", "re");
	int mounted = 0, refused = 0, n;

	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "nodev\t", 6) || sscanf(line + 6, "%63s", type) != 1)
			continue;	/* a device is needed: the guest has none */
		if (!strcmp(type, "overlay") || !strcmp(type, "rootfs"))
			continue;	/* overlay: the next test; rootfs: the root */
		snprintf(dir, sizeof(dir), "/tmp/fsm-%s", type);
		mkdir(dir, 0755);
		if (mount("none", dir, type, 0, NULL)) {
			int e = errno;

			ksft_print_msg("%-14s not mountable: %s\n", type, strerrorname_np(e));
			EXPECT_FALSE(in_list(usable, type))
				TH_LOG("mounting %s failed: %s", type, strerrorname_np(e));
			refused++;
			continue;
		}
		n = walk(dir);
		ksft_print_msg("%-14s mounted, %d entries at its root\n", type, n);
		EXPECT_LE(2, n) TH_LOG("%s: its root could not be listed", type);
		EXPECT_EQ(0, umount(dir)) TH_LOG("umount %s: %s", type, strerrorname_np(errno));
		mounted++;
	}
	fclose(f);
	ksft_print_msg("%d filesystems mounted, %d refused (kernel-internal)\n", mounted, refused);
	EXPECT_LE(5, mounted);
}

static int write_text(const char *path, const char *s, int flags)
{
	int fd = open(path, O_WRONLY | flags, 0644), ok;

	if (fd < 0)
		return -errno;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -EIO;
}

/* May a task labelled l open path for reading (flags) now? 1, 0, -1. */
static int may_open_as(const char *l, const char *path, int flags)
{
	pid_t pid = fork();
	int st, fd;

	if (!pid) {
		if (toylsm_relabel(l))
			_exit(3);
		fd = open(path, flags);
		_exit(fd >= 0 ? 1 : errno == EACCES ? 0 : 2);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) < 2 ? WEXITSTATUS(st) : -1;
}

TEST(an_overlay_mounts_and_toylsm_labels_work_through_it)
{
	char buf[64] = "";
	int fd, toylsm = lsm_active("toylsm");

	mkdir("/tmp/ovl", 0755);
	ASSERT_EQ(0, mount("tmpfs", "/tmp/ovl", "tmpfs", 0, NULL));
	ASSERT_EQ(0, mkdir("/tmp/ovl/l", 0755));
	ASSERT_EQ(0, mkdir("/tmp/ovl/u", 0755));
	ASSERT_EQ(0, mkdir("/tmp/ovl/w", 0755));
	ASSERT_EQ(0, mkdir("/tmp/ovl/m", 0755));
	ASSERT_EQ(0, write_text("/tmp/ovl/l/plain", "lower", O_CREAT));
	ASSERT_EQ(0, write_text("/tmp/ovl/l/secret", "lower", O_CREAT));
	if (toylsm)
		ASSERT_EQ(0, setxattr("/tmp/ovl/l/secret", XATTR, "ov-secret", 9, 0));

	ASSERT_EQ(0, mount("overlay", "/tmp/ovl/m", "overlay", 0,
			   "lowerdir=/tmp/ovl/l,upperdir=/tmp/ovl/u,workdir=/tmp/ovl/w"))
		TH_LOG("mount -t overlay: %s", strerrorname_np(errno));
	EXPECT_LE(4, walk("/tmp/ovl/m"));
	fd = open("/tmp/ovl/m/plain", O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(5, read(fd, buf, sizeof(buf) - 1));
	close(fd);
	EXPECT_EQ(0, write_text("/tmp/ovl/m/plain", "upper", O_TRUNC))
		TH_LOG("copy-up of a lower file failed");
	EXPECT_EQ(0, write_text("/tmp/ovl/m/new", "new", O_CREAT));
	EXPECT_EQ(0, access("/tmp/ovl/u/plain", F_OK)) TH_LOG("the write was not copied up");

	if (toylsm) {
		ksft_print_msg("toylsm is active: its labels through the overlay\n");
		/*
		 * overlayfs opens the file in its layer with the credentials
		 * of the task that mounted it (this one, labelled init): that
		 * is checked too, as for every module.
		 */
		ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "ov-user ov-secret r\n"));
		EXPECT_EQ(0, may_open_as("ov-secret", "/tmp/ovl/m/secret", O_RDONLY))
			TH_LOG("the mounter (init) has no rule for ov-secret, yet the file was opened through the overlay");
		ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "init ov-secret r\n"));
		EXPECT_EQ(1, may_open_as("ov-secret", "/tmp/ovl/m/secret", O_RDONLY));
		EXPECT_EQ(1, may_open_as("ov-user", "/tmp/ovl/m/secret", O_RDONLY));
		EXPECT_EQ(0, may_open_as("ov-user", "/tmp/ovl/m/secret", O_WRONLY))
			TH_LOG("a task with only r opened the overlay's labelled file for writing");
		EXPECT_EQ(0, may_open_as("ov-other", "/tmp/ovl/m/secret", O_RDONLY))
			TH_LOG("a task with no rule read a labelled lower file through the overlay");
		/* A label set through the overlay (copied up): enforced. */
		ASSERT_EQ(0, setxattr("/tmp/ovl/m/plain", XATTR, "ov-secret", 9, 0));
		EXPECT_EQ(0, may_open_as("ov-other", "/tmp/ovl/m/plain", O_RDONLY))
			TH_LOG("a label set through the overlay was not enforced");
		EXPECT_EQ(0, may_open_as("ov-other", "/tmp/ovl/u/plain", O_RDONLY))
			TH_LOG("the label set through the overlay is not on the upper file");
		EXPECT_EQ(1, may_open_as("ov-user", "/tmp/ovl/m/plain", O_RDONLY));
	} else {
		ksft_print_msg("toylsm is not in this stack: the overlay is checked without its labels\n");
	}
	EXPECT_EQ(0, umount("/tmp/ovl/m"));
	EXPECT_EQ(0, umount("/tmp/ovl"));
}

TEST_HARNESS_MAIN

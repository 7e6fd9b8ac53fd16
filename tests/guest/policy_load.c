// SPDX-License-Identifier: GPL-2.0
/*
 * Loading the policy set "stack" again, and loading broken policies
 * (issue 20). Run after policy_stack in the same boot (the set is loaded;
 * this program loads it again first, so it also runs alone).
 *
 *  - The set loaded twice: both loads succeed, no rule or profile is
 *    there twice, and every module still refuses its secret.
 *  - Broken sets made here under /etc/policy/: an AppArmor profile cut in
 *    half, an AppArmor profile's source text instead of the compiled
 *    blob, an SELinux policy cut in half, one with a wrong magic number.
 *    Each is the complain-mode (AppArmor) or a copy of the set's policy,
 *    so that, were any part of it taken, an access now refused would be
 *    allowed. Each load fails with exit status 1 and a message naming the
 *    module, the file and the kernel's reason; afterwards the module's
 *    policy is the one before (AppArmor's policy revision and profile
 *    list, SELinux's /sys/fs/selinux/policy byte for byte, enforce 1), and
 *    the refusals still happen with their audit records.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kernel_log.h"

static char out[1 << 16];

static int run(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0, r;
	int st;

	if (!p)
		return -1;
	while (n < sizeof(out) - 1 && (r = fread(out + n, 1, sizeof(out) - 1 - n, p)) > 0)
		n += r;
	out[n] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int active(const char *lsm)
{
	char buf[256] = ",", pat[40];
	FILE *f = fopen("/sys/kernel/security/lsm", "r");

	if (f) {
		if (!fgets(buf + 1, sizeof(buf) - 2, f))
			buf[1] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	strcat(buf, ",");
	snprintf(pat, sizeof(pat), ",%s,", lsm);
	return strstr(buf, pat) != NULL;
}

/* The whole of a file (securityfs files too), malloc()ed; NULL if unreadable. */
static char *slurp(const char *path, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY);
	ssize_t r;

	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((r = read(fd, buf + n, cap - n - 1)) > 0) {
		n += r;
		if (n + 1 == cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb)
				break;
			buf = nb;
		}
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static int spit(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int ok = fd >= 0 && write(fd, buf, len) == (ssize_t)len;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* How many lines of @text are exactly @line. */
static int lines_equal(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p;
	int c = 0;

	for (p = text; (p = strstr(p, line)); p += n)
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			c++;
	return c;
}

/*
 * A policy set /etc/policy/NAME holding one file, REL, made from the set
 * stack's file SRC: cut to its first @keep bytes (0: whole), then
 * @patch written at offset 0 if given.
 */
static int make_set(const char *name, const char *rel, const char *src, size_t keep,
		    const char *patch, size_t patch_len)
{
	char path[256], from[256];
	size_t len;
	char *buf;
	int err;

	snprintf(path, sizeof(path), "mkdir -p /etc/policy/%s/%s", name, rel);
	*strrchr(path, '/') = '\0';
	if (system(path))
		return -1;
	snprintf(from, sizeof(from), "/etc/policy/stack/%s", src);
	buf = slurp(from, &len);
	if (!buf)
		return -1;
	if (keep)
		len = keep < len ? keep : len;
	if (patch)
		memcpy(buf, patch, patch_len < len ? patch_len : len);
	snprintf(path, sizeof(path), "/etc/policy/%s/%s", name, rel);
	err = spit(path, buf, len);
	free(buf);
	return err;
}

static size_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (size_t)st.st_size;
}

/* The exit status of the probe reading /tmp/kit/FILE (13: EACCES). */
static int probe_read(const char *file)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "policy run stack probe read /tmp/kit/%s 2>&1", file);
	return run(cmd);
}

TEST(load_twice)
{
	static const char *const secrets[][2] = {
		{ "apparmor", "apparmor-secret" }, { "smack", "smack-secret" },
		{ "selinux", "selinux-secret" }, { "toylsm", "toylsm-secret" },
	};
	size_t len, i;
	char *t;

	ASSERT_EQ(0, run("policy load stack 2>&1")) TH_LOG("first load: %s", out);
	ASSERT_EQ(0, run("policy load stack 2>&1")) TH_LOG("second load: %s", out);
	TH_LOG("second load: %s", out);
	/* Replaced, not added: each rule and the profile once. */
	if (active("toylsm")) {
		t = slurp("/sys/kernel/security/toylsm/rules", &len);
		ASSERT_NE(NULL, t);
		EXPECT_EQ(1, lines_equal(t, "probe shared rw")) TH_LOG("toylsm rules:\n%s", t);
		EXPECT_EQ(1, lines_equal(t, "init shared rw")) TH_LOG("toylsm rules:\n%s", t);
		free(t);
	}
	if (active("smack")) {
		t = slurp("/sys/fs/smackfs/load2", &len);
		ASSERT_NE(NULL, t);
		EXPECT_EQ(1, lines_equal(t, "Probe _ rwxa")) TH_LOG("smack rules:\n%s", t);
		free(t);
	}
	if (active("apparmor")) {
		t = slurp("/sys/kernel/security/apparmor/profiles", &len);
		ASSERT_NE(NULL, t);
		EXPECT_EQ(1, lines_equal(t, "probe (enforce)")) TH_LOG("profiles:\n%s", t);
		free(t);
	}
	if (active("selinux")) {
		t = slurp("/sys/fs/selinux/enforce", &len);
		ASSERT_NE(NULL, t);
		EXPECT_EQ('1', t[0]);
		free(t);
	}
	for (i = 0; i < sizeof(secrets) / sizeof(secrets[0]); i++) {
		if (!active(secrets[i][0]))
			continue;
		EXPECT_EQ(13, probe_read(secrets[i][1])) TH_LOG("%s after the second load: %s", secrets[i][0], out);
	}
	EXPECT_EQ(0, probe_read("public")) TH_LOG("%s", out);
}

/*
 * A load of @set that must fail on @module: exit status 1, the message
 * naming the module and @file, the kernel's reason, nothing loaded.
 */
static const char *refused_load(const char *set, const char *module, const char *file)
{
	static char cmd[256], want[256];

	snprintf(cmd, sizeof(cmd), "policy load %s %s 2>&1", set, module);
	if (run(cmd) != 1)
		return "policy load did not fail with status 1";
	snprintf(want, sizeof(want), "policy: %s: the kernel refused ", module);
	if (!strstr(out, want) || !strstr(out, file))
		return "the message does not name the module and the file";
	if (!strstr(out, "policy: kernel: "))
		return "the message does not give the kernel's reason";
	snprintf(want, sizeof(want), "the load of %s stopped here; nothing of the set was loaded", set);
	if (!strstr(out, want))
		return "the message does not say that nothing was loaded";
	return NULL;
}

TEST(bad_apparmor_profile)
{
	static const char text[] = "profile probe /bin/probe {\n  /tmp/kit/apparmor-secret r,\n}\n";
	char *before, *after, *profiles;
	const char *err;
	size_t len, half;
	int denied;

	if (!active("apparmor"))
		SKIP(return, "AppArmor is not in this boot");
	ASSERT_EQ(0, run("policy load stack apparmor 2>&1")) TH_LOG("%s", out);
	before = slurp("/sys/kernel/security/apparmor/policy/revision", &len);
	ASSERT_NE(NULL, before);
	/* The complain profile, which would allow the secret, cut in half. */
	half = file_size("/etc/policy/stack/apparmor/probe.complain") / 2;
	ASSERT_LT(0, half);
	ASSERT_EQ(0, make_set("bad-aa-cut", "apparmor/probe", "apparmor/probe.complain", half, NULL, 0));
	err = refused_load("bad-aa-cut", "apparmor", "/etc/policy/bad-aa-cut/apparmor/probe");
	EXPECT_EQ(NULL, err) TH_LOG("%s:\n%s", err, out);
	TH_LOG("a profile cut in half:\n%s", out);
	/* The profile's source text, as a learner might write it uncompiled. */
	ASSERT_EQ(0, system("mkdir -p /etc/policy/bad-aa-text/apparmor"));
	ASSERT_EQ(0, spit("/etc/policy/bad-aa-text/apparmor/probe", text, strlen(text)));
	err = refused_load("bad-aa-text", "apparmor", "/etc/policy/bad-aa-text/apparmor/probe");
	EXPECT_EQ(NULL, err) TH_LOG("%s:\n%s", err, out);
	TH_LOG("a profile's source text:\n%s", out);

	/* The policy before: same revision, the profile in enforce mode. */
	after = slurp("/sys/kernel/security/apparmor/policy/revision", &len);
	ASSERT_NE(NULL, after);
	EXPECT_STREQ(before, after) TH_LOG("AppArmor's policy changed");
	profiles = slurp("/sys/kernel/security/apparmor/profiles", &len);
	ASSERT_NE(NULL, profiles);
	EXPECT_EQ(1, lines_equal(profiles, "probe (enforce)")) TH_LOG("profiles:\n%s", profiles);
	denied = kernel_log_count("apparmor=\"DENIED\" operation=\"open\" profile=\"probe\" name=\"/tmp/kit/apparmor-secret\"");
	EXPECT_EQ(13, run("probe read /tmp/kit/apparmor-secret 2>&1")) TH_LOG("%s", out);
	EXPECT_EQ(denied + 1, kernel_log_count("apparmor=\"DENIED\" operation=\"open\" profile=\"probe\" name=\"/tmp/kit/apparmor-secret\""));
	EXPECT_EQ(0, run("probe read /tmp/kit/public 2>&1")) TH_LOG("%s", out);
	free(before);
	free(after);
	free(profiles);
}

TEST(bad_selinux_policy)
{
	char *before, *after, *enforce;
	size_t blen, alen, len, half;
	const char *err;
	int avc;

	if (!active("selinux"))
		SKIP(return, "SELinux is not in this boot");
	ASSERT_EQ(0, run("policy load stack selinux 2>&1")) TH_LOG("%s", out);
	before = slurp("/sys/fs/selinux/policy", &blen);
	ASSERT_NE(NULL, before);
	ASSERT_LT(1000, blen);
	half = file_size("/etc/policy/stack/selinux/policy") / 2;
	ASSERT_LT(0, half);
	ASSERT_EQ(0, make_set("bad-se-cut", "selinux/policy", "selinux/policy", half, NULL, 0));
	err = refused_load("bad-se-cut", "selinux", "/etc/policy/bad-se-cut/selinux/policy");
	EXPECT_EQ(NULL, err) TH_LOG("%s:\n%s", err, out);
	TH_LOG("a policy cut in half:\n%s", out);
	/* The whole policy with a wrong magic number in its first 4 bytes. */
	ASSERT_EQ(0, make_set("bad-se-magic", "selinux/policy", "selinux/policy", 0, "\x01\x02\x03\x04", 4));
	err = refused_load("bad-se-magic", "selinux", "/etc/policy/bad-se-magic/selinux/policy");
	EXPECT_EQ(NULL, err) TH_LOG("%s:\n%s", err, out);
	TH_LOG("a policy with a wrong magic number:\n%s", out);

	/* The policy before, byte for byte, still enforcing. */
	after = slurp("/sys/fs/selinux/policy", &alen);
	ASSERT_NE(NULL, after);
	EXPECT_EQ(blen, alen);
	EXPECT_EQ(0, memcmp(before, after, blen < alen ? blen : alen)) TH_LOG("SELinux's policy changed");
	enforce = slurp("/sys/fs/selinux/enforce", &len);
	ASSERT_NE(NULL, enforce);
	EXPECT_EQ('1', enforce[0]);
	avc = kernel_log_count("tcontext=system_u:object_r:secret_t tclass=file");
	EXPECT_EQ(13, probe_read("selinux-secret")) TH_LOG("%s", out);
	EXPECT_LT(avc, kernel_log_count("tcontext=system_u:object_r:secret_t tclass=file"));
	EXPECT_EQ(0, probe_read("public")) TH_LOG("%s", out);
	free(before);
	free(after);
	free(enforce);
}

TEST_HARNESS_MAIN

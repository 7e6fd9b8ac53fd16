// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF LSM (security/bpf/, kernel/bpf/bpf_lsm.c; the seed's
 * LSM_ID_BPF, 42) as Documentation/bpf/prog_lsm.rst describes it, on the
 * bpf flavour's boots: a BPF_PROG_TYPE_LSM program attached to a hook
 * (here bpf_lsm_inode_mkdir, found by name in the kernel's BTF,
 * /sys/kernel/btf/vmlinux) gives its answer after the modules before bpf
 * in lsm= said yes; with bpf absent from lsm=, the load and the attach
 * still succeed and the program never runs: the silent no-op its users
 * ask about most.
 *
 * The program is written here as instructions, without libbpf or clang:
 *
 *	r6 = ret (the answer so far: the hook's last argument, ctx[3])
 *	if r6 != 0: return r6		(chain a refusal before it)
 *	if bpf_get_current_pid_tgid() >> 32 != this test's PID: return 0
 *	return -EPERM
 *
 * so it refuses mkdir to this process alone, never to the rest of the
 * guest, and it is detached (its link closed) before the test ends.
 *
 * And /bin/why on such a refusal (the LSM events of patch 0017): the
 * program's answer is bpf's, named with its hook, "refused by bpf in
 * inode_mkdir: EPERM"; with bpf absent from lsm=, why sees no refusal.
 * The refusing process is this program again ("do DIR"), which loads
 * and attaches the program for itself, then asks for mkdir DIR.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest_lib.h"
#include "kselftest_harness.h"
#include "seed_lsm.h"

#define BTF_VMLINUX "/sys/kernel/btf/vmlinux"
#define HOOK "bpf_lsm_inode_mkdir"
#define DIR "/tmp/lsm-bpf"

static long bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/* The BTF ID of the function @name in the kernel's BTF, or -errno. */
static long btf_func_id(const char *name)
{
	static char b[16 << 20];
	int len = read_file(BTF_VMLINUX, b, sizeof(b));
	const struct btf_header *h = (const void *)b;
	const char *types, *strs;
	__u32 off = 0;
	long id = 1;

	if (len < 0)
		return len;
	if (len < (int)sizeof(*h) || h->magic != BTF_MAGIC)
		return -EINVAL;
	types = b + h->hdr_len + h->type_off;
	strs = b + h->hdr_len + h->str_off;
	while (off < h->type_len) {
		const struct btf_type *t = (const void *)(types + off);
		__u32 vlen = BTF_INFO_VLEN(t->info);

		if (BTF_INFO_KIND(t->info) == BTF_KIND_FUNC && !strcmp(strs + t->name_off, name))
			return id;
		off += sizeof(*t);
		switch (BTF_INFO_KIND(t->info)) {
		case BTF_KIND_INT: case BTF_KIND_VAR: case BTF_KIND_DECL_TAG:
			off += 4; break;
		case BTF_KIND_ARRAY:
			off += sizeof(struct btf_array); break;
		case BTF_KIND_STRUCT: case BTF_KIND_UNION:
			off += vlen * sizeof(struct btf_member); break;
		case BTF_KIND_ENUM:
			off += vlen * sizeof(struct btf_enum); break;
		case BTF_KIND_FUNC_PROTO:
			off += vlen * sizeof(struct btf_param); break;
		case BTF_KIND_DATASEC:
			off += vlen * sizeof(struct btf_var_secinfo); break;
		case BTF_KIND_ENUM64:
			off += vlen * sizeof(struct btf_enum64); break;
		default:
			break;
		}
		id++;
	}
	return -ENOENT;
}

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })

/* Load the program for the hook of BTF ID @btf_id: its fd, or -errno. */
static int load_prog(long btf_id, char *log, size_t loglen)
{
	struct bpf_insn insns[] = {
		INSN(BPF_LDX | BPF_MEM | BPF_DW, 6, 1, 24, 0),		/* r6 = ctx[3] */
		INSN(BPF_JMP | BPF_JEQ | BPF_K, 6, 0, 2, 0),		/* if r6 == 0 goto +2 */
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 0, 6, 0, 0),		/* r0 = r6 */
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_current_pid_tgid),
		INSN(BPF_ALU64 | BPF_RSH | BPF_K, 0, 0, 0, 32),		/* r0 = tgid */
		INSN(BPF_JMP | BPF_JNE | BPF_K, 0, 0, 2, getpid()),	/* other: goto +2 */
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, -EPERM),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_LSM;
	a.expected_attach_type = BPF_LSM_MAC;
	a.attach_btf_id = btf_id;
	a.insns = (__u64)(unsigned long)insns;
	a.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	a.license = (__u64)(unsigned long)"GPL";
	a.log_buf = (__u64)(unsigned long)log;
	a.log_size = loglen;
	a.log_level = 1;
	log[0] = '\0';
	fd = bpf(BPF_PROG_LOAD, &a);
	return fd < 0 ? -errno : fd;
}

/* Attach it: the link's fd (closing it detaches), or -errno. */
static int attach(int prog)
{
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.raw_tracepoint.prog_fd = prog;
	fd = bpf(BPF_RAW_TRACEPOINT_OPEN, &a);
	return fd < 0 ? -errno : fd;
}

/* mkdir by this process and by a child: 0, or the errno, of each. */
static void try_mkdir(const char *tag, int *self, int *child)
{
	char p[128];
	pid_t pid;
	int st;

	snprintf(p, sizeof(p), DIR "/%s-self", tag);
	*self = mkdir(p, 0755) ? errno : 0;
	snprintf(p, sizeof(p), DIR "/%s-child", tag);
	pid = fork();
	if (pid == 0)
		_exit(mkdir(p, 0755) ? errno : 0);
	*child = pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(seed_id)
{
	char why[256];
	const char *bad = seed_id_check("bpf", 42, why, sizeof(why));

	EXPECT_EQ(NULL, bad) TH_LOG("%s", bad);
}

TEST(attached_program_refuses_only_with_bpf_in_lsm)
{
	static char log[1 << 16];
	long id = btf_func_id(HOOK);
	int prog, link, self, child, active = lsm_active("bpf");

	ASSERT_LT(0, id) TH_LOG("%s in %s: %s", HOOK, BTF_VMLINUX, strerror(-id));
	mkdir(DIR, 0755);
	prog = load_prog(id, log, sizeof(log));
	ASSERT_LE(0, prog) TH_LOG("BPF_PROG_LOAD: %s\n%s", strerror(-prog), log);
	link = attach(prog);
	ASSERT_LE(0, link) {
		TH_LOG("attach to %s: %s (bpf %s in lsm=)", HOOK, strerror(-link),
		       active ? "is" : "is not");
	}
	try_mkdir("attached", &self, &child);
	EXPECT_EQ(active ? EPERM : 0, self) {
		TH_LOG("mkdir by the program's process with the program attached: %s; bpf %s in lsm=",
		       strerror(self), active ? "is" : "is not");
	}
	EXPECT_EQ(0, child) TH_LOG("mkdir by another process: %s", strerror(child));
	close(link);
	close(prog);
	try_mkdir("detached", &self, &child);
	EXPECT_EQ(0, self) TH_LOG("mkdir after the link was closed: %s", strerror(self));
	EXPECT_EQ(0, child);
}

/* "do DIR": the program attached for this process, then mkdir DIR; the errno. */
static int do_mkdir(const char *dir)
{
	static char log[1 << 16];
	long id = btf_func_id(HOOK);
	int prog = id > 0 ? load_prog(id, log, sizeof(log)) : -1;
	int link = prog >= 0 ? attach(prog) : -1;

	if (link < 0)
		return 100;
	return mkdir(dir, 0755) ? errno : 0;
}

TEST(why_names_bpf_and_its_hook)
{
	char cmd[512], self[256] = "/kit/bin/lsm_bpf";
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int active = lsm_active("bpf"), rc;

	if (n > 0)
		self[n] = '\0';
	mkdir(DIR, 0755);
	snprintf(cmd, sizeof(cmd), "/bin/why %s do " DIR "/why-%d 2>&1", self, getpid());
	rc = run(cmd);
	EXPECT_EQ(0, rc) TH_LOG("why's own status; its output:\n%s", out);
	if (active) {
		EXPECT_NE(NULL, strstr(out, "refused by bpf in inode_mkdir: EPERM"))
			TH_LOG("%s", out);
		EXPECT_NE(NULL, strstr(out, "exited with status 1 ")) TH_LOG("%s", out);
	} else {
		EXPECT_NE(NULL, strstr(out, " 0 with a refusal by an LSM")) TH_LOG("%s", out);
		EXPECT_NE(NULL, strstr(out, "exited with status 0 ")) TH_LOG("%s", out);
	}
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "do") == 0)
		return do_mkdir(argv[2]);
	return test_harness_run(argc, argv);
}

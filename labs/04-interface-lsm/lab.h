/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lab 4: the interface LSM.  The functions you write in interface.c; the
 * grader (grade.c) calls each of them.
 *
 * A task's interface LSM is the module whose contexts it sees where no
 * module is named: the un-named /proc/self/attr/current (exec, prev...),
 * SO_PEERSEC and SCM_SECURITY.  prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0) returns
 * its LSM ID; prctl(PR_LSM_ATTR_SET, id, 0, 0, 0) chooses another one.
 *
 * On failure return -1 and leave errno set to say why.
 */
#ifndef LAB04_H
#define LAB04_H

#include <stddef.h>
#include <sys/prctl.h>		/* prctl(); PR_LSM_ATTR_* from <linux/prctl.h> */
#include <linux/types.h>
#include <linux/lsm.h>		/* LSM_ID_* */
#include <asm/unistd.h>		/* __NR_lsm_module_list */

#include "todo.h"

/*
 * Step 1.  The LSM ID of the calling task's interface LSM.  Set *name to
 * its name as /sys/kernel/security/lsm spells it ("smack"; lsm_name() is
 * given).  -1 with errno if the kernel says no.
 */
int lab_interface(const char **name);

/*
 * Step 2.  Fill ids[] (room for max) with the active modules that can be
 * the interface LSM (those with an lsmblob slot), in registration order.
 * Return how many.  Your interface LSM must be the same afterwards.
 */
int lab_candidates(__u32 *ids, int max);

/*
 * Step 3.  Make id your interface LSM, then read the un-named
 * /proc/self/attr/current into buf (len bytes): what that module says your
 * context is, NUL-terminated, without a trailing newline or NUL (the
 * given read_value() does that).  Return its length, or -1 with errno.
 */
int lab_current_of(int id, char *buf, size_t len);

/*
 * Step 4.  Try to make id your interface LSM.  0 on success (msg: "").
 * On failure return -1 with errno as the kernel left it, and write into
 * msg (len bytes) one line for a person, as samples/landlock/sandboxer.c
 * does: what was tried, the errno by name (strerrorname_np(): "EINVAL")
 * and why, in words that contain
 *   - for an ID that names no module: "unknown" and the number (an ID
 *     that <linux/lsm.h> does not define, a reserved one below 32, or
 *     LSM_ID_INVALID, -1, which <linux/lsm.h> defines but is no module);
 *   - for a module that is not active in this boot: its name and
 *     "not active";
 *   - for an active module that cannot be the interface LSM: its name and
 *     "slot";
 *   - for EPERM or EACCES (a module's policy refused): "denied".
 */
int lab_choose(int id, char *msg, size_t len);

/*
 * Step 5.  Make a connected pair of AF_UNIX stream sockets and read
 * SO_PEERSEC on one end: the context of the task on the other end (you),
 * as your interface LSM gives it.  Into buf (len bytes), NUL-terminated;
 * return its length (strlen(buf)).  -1 with errno as getsockopt() left it:
 * ENOPROTOOPT when your interface LSM does not label these sockets,
 * ERANGE when the context and its NUL need more than len bytes.  Close
 * both sockets.
 */
int lab_peersec(char *buf, size_t len);

/*
 * Step 6.  Run the program argv[0] (arguments argv, NULL-terminated) in a
 * child process whose interface LSM is id; for LSM_ID_INVALID the child
 * keeps the one it inherits from you.  Your own interface LSM must not
 * change.  Wait for the child and return its exit status (0..255), or -1
 * with errno if fork() or waitpid() fails.  If the child cannot choose id,
 * it must not run the program: it exits with status 126.
 */
int lab_run_with(int id, char *const argv[]);

#endif /* LAB04_H */

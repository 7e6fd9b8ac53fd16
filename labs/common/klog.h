/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the graders of the kernel-side labs: the kernel log and the lines
 * the lab kernel's LAB_TODO(n) placeholders print (labs/common/kernel/lab.h):
 *
 *	toylsm lab: toylsm_inode_unlink() reached TODO 2, not written yet
 */
#ifndef LAB_KLOG_H
#define LAB_KLOG_H

#include <stdio.h>
#include <string.h>

#include "grader.h"
#include "kit/kernel_log.h"

/* The kernel log (kit/kernel_log.h's), or "" if unreadable. */
static LAB_API const char *klog(void)
{
	const char *log = kernel_log();

	return log ? log : "";
}

/*
 * Whether the kernel log says a placeholder LAB_TODO(n) ran; if so, the
 * function it was in goes to func.
 */
static LAB_API int klog_todo(int n, char *func, size_t len)
{
	const char *p = klog();
	char fn[96];
	int k;

	while ((p = strstr(p, "toylsm lab: "))) {
		p += strlen("toylsm lab: ");
		if (sscanf(p, "%95[a-z0-9_]() reached TODO %d,", fn, &k) == 2 && k == n) {
			snprintf(func, len, "%s", fn);
			return 1;
		}
	}
	return 0;
}

/*
 * If the kernel log says LAB_TODO(n) ran: say so, quote the TODO, fail
 * the step.  Call it where the step's check failed.
 */
static LAB_API void klog_check_todo(int n)
{
	char func[96];

	if (!klog_todo(n, func, sizeof(func)))
		return;
	lab_seen("the kernel log says: toylsm lab: %s() reached TODO %d, not written yet", func, n);
	lab_hint_todo_text(n);
	lab_hint("README.md, step %d, explains what to write; then make lab again (it rebuilds the kernel)",
		 n);
	lab_fail();
}

#endif /* LAB_KLOG_H */

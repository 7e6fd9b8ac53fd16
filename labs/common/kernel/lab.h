/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel-side labs' placeholder.  A function of a lab's skeleton ends
 * with LAB_TODO(n): it does what toylsm did before the lab (allow, or
 * nothing), and the first time each TODO is reached the kernel log says
 *
 *	toylsm lab: toylsm_inode_unlink() reached TODO 2, not written yet
 *
 * which the grader reads to tell you which TODO it ran into.  In the
 * reference solution the placeholder is never reached.
 */
#ifndef _SECURITY_TOYLSM_LAB_H
#define _SECURITY_TOYLSM_LAB_H

int toylsm_lab_todo(const char *func, unsigned int n);

#define LAB_TODO(n)	toylsm_lab_todo(__func__, (n))

#endif /* _SECURITY_TOYLSM_LAB_H */

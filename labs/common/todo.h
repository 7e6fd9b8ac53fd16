/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The skeleton's placeholders.  Each function of a lab's skeleton ends with
 * "return LAB_TODO(n);": it fails with ENOSYS and tells the grader that
 * TODO n has not been written yet, so that the hint can say exactly that.
 * In the reference solution the placeholder is never reached.
 */
#ifndef LAB_TODO_H
#define LAB_TODO_H

#include <errno.h>
#include <stddef.h>

extern int lab_todo;	/* defined by the grader */

#define LAB_TODO(n)		(lab_todo = (n), errno = ENOSYS, -1)
#define LAB_TODO_NULL(n)	(lab_todo = (n), errno = ENOSYS, NULL)

#endif /* LAB_TODO_H */

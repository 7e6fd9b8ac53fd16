/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scratch lab of tests/host/lab-check.sh: the functions the attendee
 * writes in scratch.c.
 */
#ifndef LAB99_H
#define LAB99_H

#include <linux/lsm.h>

#include "todo.h"

/* Step 1.  Return the calling process's ID. */
int lab_pid(void);

/* Step 2.  Return x doubled. */
int lab_twice(int x);

#endif /* LAB99_H */

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel-side labs' placeholder, LAB_TODO(n) (lab.h).
 */

#include <linux/bitops.h>
#include <linux/printk.h>

#include "lab.h"

/**
 * toylsm_lab_todo - Say, once per TODO, that a skeleton's placeholder ran
 * @func: the function that reached it
 * @n: the TODO's number
 *
 * Return: 0, what toylsm did before the lab: allow.
 */
int toylsm_lab_todo(const char *func, unsigned int n)
{
	static unsigned long reported;

	if (n < BITS_PER_LONG && !test_and_set_bit(n, &reported))
		pr_notice("toylsm lab: %s() reached TODO %u, not written yet\n",
			  func, n);
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * toylsm - Terminals: the labels behind every name of a terminal
 */

#ifndef _SECURITY_TOYLSM_TERMINAL_H
#define _SECURITY_TOYLSM_TERMINAL_H

#include <linux/fs.h>
#include <linux/types.h>

/* The most labels a terminal has: its device's, its other end's, its creator's. */
#define TOYLSM_TERMINAL_LABELS	3

#ifdef CONFIG_TTY
unsigned int toylsm_file_terminal_labels(struct file *file, u32 *labels);
bool toylsm_is_terminal(struct file *file);
void toylsm_drop_terminals(u32 subject);
#else
static inline unsigned int toylsm_file_terminal_labels(struct file *file,
						       u32 *labels)
{
	return 0;
}

static inline bool toylsm_is_terminal(struct file *file)
{
	return false;
}

static inline void toylsm_drop_terminals(u32 subject)
{
}
#endif

#endif /* _SECURITY_TOYLSM_TERMINAL_H */

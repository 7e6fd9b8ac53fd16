/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * toylsm - The labels of devices, whatever node names them
 */

#ifndef _SECURITY_TOYLSM_DEVICE_H
#define _SECURITY_TOYLSM_DEVICE_H

#include <linux/fs.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "limits.h"

/**
 * struct toylsm_device - One device's label
 * @dev: its device number
 * @block: a block device (else a character device)
 * @label: its label, TOYLSM_NOLABEL (reserved, or its label removed) or
 *	TOYLSM_CLOSED (a node of it had a label that cannot be used)
 */
struct toylsm_device {
	dev_t dev;
	bool block;
	u32 label;
};

/**
 * struct toylsm_device_table - The labels of the devices of labelled nodes
 * @lock: serializes every access to @count and @devices but the empty
 *	test of toylsm_device_label()
 * @count: entries in use; entries are never freed (as labels)
 * @capacity: entries @devices has room for, at most TOYLSM_DEVICES
 * @devices: the entries
 */
struct toylsm_device_table {
	spinlock_t lock;	/* serializes the table */
	u32 count;
	u32 capacity;
	struct toylsm_device devices[TOYLSM_DEVICES];
};

extern struct toylsm_device_table toylsm_devices;

/**
 * toylsm_is_device - Does a file name a device?
 * @mode: the inode's mode
 *
 * Return: true for a character or block device node.
 */
static inline bool toylsm_is_device(umode_t mode)
{
	return S_ISCHR(mode) || S_ISBLK(mode);
}

int toylsm_device_reserve(struct toylsm_device_table *t, umode_t mode,
			  dev_t dev);
int toylsm_device_set(struct toylsm_device_table *t, umode_t mode, dev_t dev,
		      u32 label);
int toylsm_device_learn(struct toylsm_device_table *t, umode_t mode,
			dev_t dev, u32 label);
void toylsm_device_forget(struct toylsm_device_table *t, umode_t mode,
			  dev_t dev, u32 label);
u32 toylsm_device_label(struct toylsm_device_table *t, umode_t mode,
			dev_t dev);

#endif /* _SECURITY_TOYLSM_DEVICE_H */

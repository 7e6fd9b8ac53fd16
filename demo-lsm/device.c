// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - The labels of devices, whatever node names them
 *
 * A label names an inode, and a device has as many nodes as anyone with
 * CAP_MKNOD makes: a label on /dev/ttyS0 alone would leave the same port
 * open through a node made with mknod, or through /dev/console. So the
 * label of a device node is also its device's, kept here by device
 * number, and every check of a device node, whatever its own label, asks
 * the device's too (fs.c). A device gets the label set on any node of it
 * (the last one set), or the label read from a labelled node at its first
 * check; removing a node's label removes the device's if it was the same.
 * docs/toylsm.md, "Devices and terminals".
 */

#include "common.h"

#include <linux/errno.h>

#include "device.h"
#include "label.h"

struct toylsm_device_table toylsm_devices = {
	.lock = __SPIN_LOCK_UNLOCKED(toylsm_devices.lock),
	.capacity = TOYLSM_DEVICES,
};

/**
 * find - The entry of a device (under the table's lock)
 * @t: the table
 * @mode: a device node's mode
 * @dev: its device number
 *
 * Return: the entry, or NULL.
 */
static struct toylsm_device *find(struct toylsm_device_table *t,
				  umode_t mode, dev_t dev)
{
	bool block = S_ISBLK(mode);
	u32 i;

	for (i = 0; i < t->count; i++)
		if (t->devices[i].dev == dev && t->devices[i].block == block)
			return &t->devices[i];
	return NULL;
}

/**
 * find_or_add - The entry of a device, made unlabelled if there is none
 *	(under the table's lock)
 * @t: the table
 * @mode: a device node's mode
 * @dev: its device number
 *
 * Return: the entry, or NULL if the table is full.
 */
static struct toylsm_device *find_or_add(struct toylsm_device_table *t,
					 umode_t mode, dev_t dev)
{
	struct toylsm_device *d = find(t, mode, dev);

	if (d || t->count == t->capacity)
		return d;
	d = &t->devices[t->count];
	d->dev = dev;
	d->block = S_ISBLK(mode);
	d->label = TOYLSM_NOLABEL;
	/* The only lockless reader tests it for 0 (toylsm_device_label()). */
	WRITE_ONCE(t->count, t->count + 1);
	return d;
}

/**
 * toylsm_device_reserve - Make room for a device's label before it is set
 * @t: the table
 * @mode: a device node's mode
 * @dev: its device number
 *
 * Called before a node's label is set, so that the setting can fail
 * cleanly: once the node has the label, its device must get it too.
 *
 * Return: 0, or -ENOSPC if the table is full.
 */
int toylsm_device_reserve(struct toylsm_device_table *t, umode_t mode,
			  dev_t dev)
{
	struct toylsm_device *d;

	spin_lock(&t->lock);
	d = find_or_add(t, mode, dev);
	spin_unlock(&t->lock);
	return d ? 0 : -ENOSPC;
}

/**
 * store - Give a device a label, under the table's lock
 * @t: the table
 * @mode: a node's mode
 * @dev: its device number
 * @label: the label
 * @learned: read from a node, not set: it replaces no label but a closed one
 *
 * Return: 0, or -ENOSPC if the device has no entry and the table is full.
 */
static int store(struct toylsm_device_table *t, umode_t mode, dev_t dev,
		 u32 label, bool learned)
{
	struct toylsm_device *d;

	spin_lock(&t->lock);
	d = find_or_add(t, mode, dev);
	if (d && (!learned || d->label == TOYLSM_NOLABEL ||
		  d->label == TOYLSM_CLOSED))
		d->label = label;
	spin_unlock(&t->lock);
	return d ? 0 : -ENOSPC;
}

/**
 * toylsm_device_set - A node of a device was given a label
 * @t: the table
 * @mode: the node's mode
 * @dev: its device number
 * @label: its new label, a secid
 *
 * Return: 0, or -ENOSPC if the device has no entry and the table is full.
 */
int toylsm_device_set(struct toylsm_device_table *t, umode_t mode, dev_t dev,
		      u32 label)
{
	return store(t, mode, dev, label, false);
}

/**
 * toylsm_device_learn - A labelled node of a device was read
 * @t: the table
 * @mode: the node's mode
 * @dev: its device number
 * @label: the label read, a secid or TOYLSM_CLOSED
 *
 * A label read from a node gives the device a label if it had none, or
 * one closed until then; it never replaces one that was set.
 *
 * Return: 0, or -ENOSPC if the device has no entry and the table is full.
 */
int toylsm_device_learn(struct toylsm_device_table *t, umode_t mode,
			dev_t dev, u32 label)
{
	return store(t, mode, dev, label, true);
}

/**
 * toylsm_device_forget - A node of a device loses its label
 * @t: the table
 * @mode: the node's mode
 * @dev: its device number
 * @label: the label the node had
 *
 * The device loses it too, if it is the device's label (another node may
 * have set another since).
 */
void toylsm_device_forget(struct toylsm_device_table *t, umode_t mode,
			  dev_t dev, u32 label)
{
	struct toylsm_device *d;

	spin_lock(&t->lock);
	d = find(t, mode, dev);
	if (d && d->label == label)
		d->label = TOYLSM_NOLABEL;
	spin_unlock(&t->lock);
}

/**
 * toylsm_device_label - The label of a device
 * @t: the table
 * @mode: the mode of a node of it
 * @dev: its device number
 *
 * Takes a spinlock, never sleeps: for any hook, an RCU path walk's too.
 *
 * Return: its label, TOYLSM_CLOSED, or TOYLSM_NOLABEL (none).
 */
u32 toylsm_device_label(struct toylsm_device_table *t, umode_t mode,
			dev_t dev)
{
	struct toylsm_device *d;
	u32 label;

	if (!READ_ONCE(t->count))
		return TOYLSM_NOLABEL;
	spin_lock(&t->lock);
	d = find(t, mode, dev);
	label = d ? d->label : TOYLSM_NOLABEL;
	spin_unlock(&t->lock);
	return label;
}

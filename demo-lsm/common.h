/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * toylsm - The module's name and the prefix of its kernel log lines
 *
 * Every .c file of toylsm includes this header first, before any other,
 * so that its pr_*() lines start with "toylsm: " (as Landlock's
 * common.h does for "landlock: ").
 */

#ifndef _SECURITY_TOYLSM_COMMON_H
#define _SECURITY_TOYLSM_COMMON_H

#define TOYLSM_NAME "toylsm"

#define pr_fmt(fmt) TOYLSM_NAME ": " fmt

#endif /* _SECURITY_TOYLSM_COMMON_H */

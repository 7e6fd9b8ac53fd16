/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The graders' answer key: every LSM_ID_* of the kit's <linux/lsm.h> with
 * the name /sys/kernel/security/lsm uses for it.  The table is the guest
 * tests' one, kit_lsms of tests/guest/lsm_ids.h (guest-cc.sh puts
 * tests/guest on the include path); these names stay for the labs' code.
 */
#ifndef LAB_LSM_NAMES_H
#define LAB_LSM_NAMES_H

#include "lsm_ids.h"

#define lab_lsm_table kit_lsms
#define LAB_NLSMS KIT_NLSMS

#endif

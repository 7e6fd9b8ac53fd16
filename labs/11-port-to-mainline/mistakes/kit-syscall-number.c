// SPDX-License-Identifier: GPL-2.0
/*
 * A mistake a port makes, for tests/host/lab-hints.sh: 6.12's headers
 * have no __NR_lsm_module_list, so the learner defines it with the kit's
 * number (patch 0008) to make lab 1's code compile.  On 6.12, 452 is
 * fchmodat2.  The hint must name the number the code called and
 * mainline's name for the call.  The other steps are the reference's.
 *
 * expect: step 1 hint: your code called syscall 452, the kit's lsm_module_list
 * expect: step 1 hint: __NR_lsm_list_modules (461)
 * expect: step 2 passes
 * expect: step 3 passes
 */
#define lab_list_modules lab_list_modules_reference
#include "../solution/getselfattr.c"
#undef lab_list_modules

#define __NR_lsm_module_list 452	/* the mistake: the kit's number */

long lab_list_modules(__u64 *ids, __u32 max)
{
	size_t size = max * sizeof(*ids);

	return syscall(__NR_lsm_module_list, ids, &size, 0);
}

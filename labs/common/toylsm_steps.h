/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the graders of the toylsm labs (5, 6): the labels their steps' tasks
 * take must stay within the grader's reach.  The grader runs as label
 * "init"; lab_toylsm_steps_reachable(labels, n), from lab_banner(), writes
 * the rule "init L w" for each label L, so that the grader may still signal
 * and kill a step's task that relabeled itself L and then hung.
 */
#ifndef LAB_TOYLSM_STEPS_H
#define LAB_TOYLSM_STEPS_H

#include <stdio.h>
#include <string.h>

#include "grader.h"
#include "kit/toylsm_files.h"

static LAB_API void lab_toylsm_steps_reachable(const char *const *labels, size_t n)
{
	char rules[2048] = "";
	size_t i;
	int err;

	for (i = 0; i < n; i++)
		snprintf(rules + strlen(rules), sizeof(rules) - strlen(rules), "init %s w\n",
			 labels[i]);
	err = write_string(TOYLSM_FS "rules", rules);
	if (err)
		printf("grader: cannot write %srules: %s\n", TOYLSM_FS, errname(-err));
}

#endif /* LAB_TOYLSM_STEPS_H */

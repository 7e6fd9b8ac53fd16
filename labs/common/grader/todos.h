/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The learner's TODOs (grader.h includes it): LAB_TODO(n) in the
 * attendee's file (labs/common/todo.h) sets lab_todo when the skeleton's
 * placeholder is reached; lab_check_todo() fails the step with what TODO n
 * says (from the copy --src names), lab_show_todo() says it in lab_show().
 */
#ifndef LAB_GRADER_TODOS_H
#define LAB_GRADER_TODOS_H

#include <stdio.h>
#include <string.h>

#include "say.h"

/* Set by LAB_TODO(n) in the attendee's file: the placeholder was reached. */
int lab_todo;

/* A hint with what TODO n of the attendee's file says (from --src). */
static LAB_API void lab_hint_todo_text(int todo)
{
	char line[512], want[32];
	FILE *f;

	snprintf(want, sizeof(want), "TODO %d:", todo);
	f = lab_src ? fopen(lab_src, "r") : NULL;
	while (f && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, want), *end;

		if (!p)
			continue;
		p += strlen(want);
		while (*p == ' ')
			p++;
		end = strstr(p, "*/");
		if (end)
			*end = '\0';
		for (end = p + strlen(p); end > p && (end[-1] == ' ' || end[-1] == '\n'); end--)
			end[-1] = '\0';
		lab_hint("TODO %d in %s says: %s", todo, lab_file, p);
		break;
	}
	if (f)
		fclose(f);
}

/*
 * After calling the attendee's function FN for step N: if it ended at the
 * skeleton's placeholder, say so and fail.
 */
static LAB_API void lab_check_todo(int n, const char *fn)
{
	if (!lab_todo)
		return;
	lab_seen("TODO %d is not written yet: %s ended at its placeholder, LAB_TODO(%d)",
		 lab_todo, fn, lab_todo);
	lab_hint_todo_text(lab_todo);
	lab_hint("README.md, step %d, explains what to write", n);
	lab_fail();
}

/*
 * For lab_show(): if the last call ended at a placeholder, say so (once)
 * and return 1.
 */
static LAB_API int lab_show_todo(const char *fn)
{
	if (!lab_todo)
		return 0;
	printf("%s: TODO %d is not written yet\n", fn, lab_todo);
	lab_todo = 0;
	return 1;
}

#endif /* LAB_GRADER_TODOS_H */

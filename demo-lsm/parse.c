// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - Parsing rule lines "SUBJECT OBJECT PERMS" (docs/toylsm.md,
 * "Rules"), and the text of permissions
 */

#include "common.h"

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/string.h>

#include "label.h"
#include "parse.h"

/**
 * toylsm_perms_parse - Parse the PERMS field of a rule
 * @s: letters of "rwxt", each at most once, or "-" for none
 * @perms: where to store the TOYLSM_MAY_* bits
 *
 * Return: 0 or -EINVAL.
 */
int toylsm_perms_parse(const char *s, u32 *perms)
{
	const char *p;

	*perms = 0;
	if (!strcmp(s, "-"))
		return 0;
	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		p = strchr(TOYLSM_PERMS, *s);
		if (!p || !*p || (*perms & BIT(p - TOYLSM_PERMS)))
			return -EINVAL;
		*perms |= BIT(p - TOYLSM_PERMS);
	}
	return 0;
}

/**
 * toylsm_rule_parse - Parse one line "SUBJECT OBJECT PERMS"
 * @line: the line, without its newline; it is cut up
 * @rule: where to store the rule
 *
 * Fields are separated by spaces or tabs.
 *
 * Return: 0 or -EINVAL.
 */
int toylsm_rule_parse(char *line, struct toylsm_rule_text *rule)
{
	char *field[3], *tok;
	int n = 0;

	while ((tok = strsep(&line, " \t"))) {
		if (!*tok)
			continue;
		if (n == 3)
			return -EINVAL;
		field[n++] = tok;
	}
	if (n != 3 ||
	    toylsm_label_parse(field[0], strlen(field[0]), rule->subject) ||
	    toylsm_label_parse(field[1], strlen(field[1]), rule->object))
		return -EINVAL;
	return toylsm_perms_parse(field[2], &rule->perms);
}

/**
 * toylsm_perms_text - Write permissions as text
 * @perms: TOYLSM_MAY_* bits
 * @buf: room for TOYLSM_PERMS_TEXT bytes
 *
 * Return: @buf, e.g. "rw", or "-" for none.
 */
char *toylsm_perms_text(u32 perms, char *buf)
{
	char *p = buf;
	int i;

	for (i = 0; TOYLSM_PERMS[i]; i++)
		if (perms & BIT(i))
			*p++ = TOYLSM_PERMS[i];
	if (p == buf)
		*p++ = '-';
	*p = '\0';
	return buf;
}

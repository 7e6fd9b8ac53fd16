// SPDX-License-Identifier: GPL-2.0-only
/*
 * Lab 9: four wrong versions of toylsm_label_parse() (../label.c), each
 * with one mistake that a real parser could have.  The attendee's tests
 * must tell each of them from the real one.  Each mutant is safe to call
 * with a TOYLSM_LABEL_MAX + 1 byte buffer: a mutant that overflowed the
 * test's buffer would crash the kernel instead of failing a test.
 */

#include <linux/errno.h>
#include <linux/string.h>

#include "../label.h"
#include "lab9.h"

/*
 * The real rule: [A-Za-z0-9_.:-].  This copies toylsm_label_char() from
 * ../label.c, and the mutants below copy toylsm_label_parse() but for
 * their one mistake, on purpose: a mutant must stay the same wrong parser
 * when toylsm's own parser changes, so this file shares no code with
 * label.c.  Do not merge the copies.
 */
static bool mutant_label_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == ':' ||
	       c == '-';
}

/**
 * toylsm_label_parse_mutant1 - Forgets to drop the trailing newline
 * @buf: the bytes written
 * @len: their number
 * @label: TOYLSM_LABEL_MAX + 1 bytes
 *
 * "web\n", what echo writes, is rejected: '\n' is not a label character.
 *
 * Return: 0, or -EINVAL.
 */
int toylsm_label_parse_mutant1(const char *buf, size_t len, char *label)
{
	size_t i;

	if (len < 1 || len > TOYLSM_LABEL_MAX)
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!mutant_label_char(buf[i]))
			return -EINVAL;
	memcpy(label, buf, len);
	label[len] = '\0';
	return 0;
}

/**
 * toylsm_label_parse_mutant2 - Truncates a label that is too long
 * @buf: the bytes written
 * @len: their number
 * @label: TOYLSM_LABEL_MAX + 1 bytes
 *
 * A label of 32 or more characters comes out as its first 31, instead of
 * being rejected: two different labels would become the same one.
 *
 * Return: 0, or -EINVAL.
 */
int toylsm_label_parse_mutant2(const char *buf, size_t len, char *label)
{
	size_t i;

	if (len && buf[len - 1] == '\n')
		len--;
	if (len < 1)
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!mutant_label_char(buf[i]))
			return -EINVAL;
	if (len > TOYLSM_LABEL_MAX)
		len = TOYLSM_LABEL_MAX;
	memcpy(label, buf, len);
	label[len] = '\0';
	return 0;
}

/**
 * toylsm_label_parse_mutant3 - Accepts any printable character
 * @buf: the bytes written
 * @len: their number
 * @label: TOYLSM_LABEL_MAX + 1 bytes
 *
 * '/', '*', '"' and the like pass ('!' to '~'); a space, a control
 * character or a NUL is still rejected.
 *
 * Return: 0, or -EINVAL.
 */
int toylsm_label_parse_mutant3(const char *buf, size_t len, char *label)
{
	size_t i;

	if (len && buf[len - 1] == '\n')
		len--;
	if (len < 1 || len > TOYLSM_LABEL_MAX)
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (buf[i] < '!' || buf[i] > '~')
			return -EINVAL;
	memcpy(label, buf, len);
	label[len] = '\0';
	return 0;
}

/**
 * toylsm_label_parse_mutant4 - Writes @label before it has checked @buf
 * @buf: the bytes written
 * @len: their number
 * @label: TOYLSM_LABEL_MAX + 1 bytes
 *
 * It returns the right verdict, but a rejected label has already been
 * copied out: the contract says @label stays untouched on -EINVAL, and
 * callers that keep the old label in @label rely on it.
 *
 * Return: 0, or -EINVAL.
 */
int toylsm_label_parse_mutant4(const char *buf, size_t len, char *label)
{
	size_t i;

	if (len && buf[len - 1] == '\n')
		len--;
	if (len < 1 || len > TOYLSM_LABEL_MAX)
		return -EINVAL;
	memcpy(label, buf, len);
	label[len] = '\0';
	for (i = 0; i < len; i++)
		if (!mutant_label_char(buf[i]))
			return -EINVAL;
	return 0;
}

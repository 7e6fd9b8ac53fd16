/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Lab 9: the suite's name, and the mutants of toylsm_label_parse().
 *
 * The kit builds your label_test.c once as it is, suite "toylsm_lab9",
 * and once per mutant (label_test_mutantN.c): there LAB9_SUITE is
 * "toylsm_lab9_mutantN" and every call of toylsm_label_parse() calls
 * toylsm_label_parse_mutantN() instead.  Your tests must pass on the real
 * parser and fail on each mutant: that is how the grader knows they test
 * something.
 */
#ifndef _SECURITY_TOYLSM_LAB9_H
#define _SECURITY_TOYLSM_LAB9_H

#include <linux/types.h>

#ifndef LAB9_SUITE
#define LAB9_SUITE "toylsm_lab9"
#endif

int toylsm_label_parse_mutant1(const char *buf, size_t len, char *label);
int toylsm_label_parse_mutant2(const char *buf, size_t len, char *label);
int toylsm_label_parse_mutant3(const char *buf, size_t len, char *label);
int toylsm_label_parse_mutant4(const char *buf, size_t len, char *label);

#endif /* _SECURITY_TOYLSM_LAB9_H */

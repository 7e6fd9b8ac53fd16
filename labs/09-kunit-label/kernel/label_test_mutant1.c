// SPDX-License-Identifier: GPL-2.0-only
/*
 * Lab 9's mutation test: the attendee's label_test.c once more, with every
 * call of toylsm_label_parse() going to mutant 1 (mutants.c), as the
 * suite "toylsm_lab9_mutant1".  Its tests should fail here.
 */
#define LAB9_SUITE "toylsm_lab9_mutant1"
#define toylsm_label_parse toylsm_label_parse_mutant1
#include "label_test.c"

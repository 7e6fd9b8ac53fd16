// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - Denial records, through lsm_audit.c, rate-limited
 *
 * A record reads
 *	toylsm=denied hook=HOOK subject="S" object="O" requested=PERMS
 * (toylsm=permissive when not enforcing; " reason=WHY" after it when the
 * refusal is not that no rule grants PERMS), followed by what
 * common_lsm_audit() says about the object. docs/toylsm.md, "Audit".
 *
 * Each subject label has a rate limit of its own: a task that is denied
 * in a loop (access(2) of a file it may not read costs nothing) uses up
 * its own label's records, never another label's, and "stats" counts
 * what each hook's limits suppressed.
 */

#include "common.h"

#include <linux/audit.h>
#include <linux/ratelimit.h>

#include "audit.h"
#include "label.h"
#include "limits.h"
#include "parse.h"
#include "policy.h"

/**
 * audit_pre - Write toylsm's fields of a denial record
 * @ab: the audit buffer
 * @data: the struct common_audit_data of the denial
 */
static void audit_pre(struct audit_buffer *ab, void *data)
{
	struct common_audit_data *ad = data;
	struct toylsm_audit_data *td = ad->toylsm_audit_data;
	char perms[TOYLSM_PERMS_TEXT];

	audit_log_format(ab, "toylsm=%s hook=%s subject=\"%s\" object=\"%s\" requested=%s",
			 READ_ONCE(toylsm_enforce) ? "denied" : "permissive",
			 td->hook, td->subject, td->object ? td->object : "",
			 toylsm_perms_text(td->perms, perms));
	if (td->reason)
		audit_log_format(ab, " reason=%s", td->reason);
}

/*
 * The rate limit of each subject label, by secid; entry 0 for a subject
 * that is no label of the table (none is: every task has a label).
 */
static struct ratelimit_state toylsm_audit_rs[TOYLSM_LABELS + 1];

/**
 * toylsm_audit_init - Start every label's rate limit
 *
 * The states suppress quietly (RATELIMIT_MSG_ON_RELEASE, and none is
 * ever released): "stats" counts what they suppress.
 */
void __init toylsm_audit_init(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(toylsm_audit_rs); i++) {
		ratelimit_state_init(&toylsm_audit_rs[i], TOYLSM_AUDIT_INTERVAL,
				     TOYLSM_AUDIT_BURST);
		ratelimit_set_flags(&toylsm_audit_rs[i],
				    RATELIMIT_MSG_ON_RELEASE);
	}
}

/**
 * toylsm_audit_denial - Write a denial record, unless too many were
 * @subject: the subject's secid, whose rate limit the record spends
 * @td: toylsm's fields
 * @ad: what the access was about
 *
 * At most TOYLSM_AUDIT_BURST records every TOYLSM_AUDIT_INTERVAL for
 * each subject label, so that a denied loop cannot flood the log, nor
 * hide the denials of another label.
 *
 * Return: false if the rate limit suppressed the record.
 */
bool toylsm_audit_denial(u32 subject, struct toylsm_audit_data *td,
			 struct common_audit_data *ad)
{
	if (subject >= ARRAY_SIZE(toylsm_audit_rs))
		subject = 0;
	if (!__ratelimit(&toylsm_audit_rs[subject]))
		return false;
	ad->toylsm_audit_data = td;
	common_lsm_audit(ad, audit_pre, NULL);
	return true;
}

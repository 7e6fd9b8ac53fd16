// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - Denial records, through lsm_audit.c, rate-limited
 *
 * A record reads
 *	toylsm=denied hook=HOOK subject="S" object="O" requested=PERMS
 * (toylsm=permissive when not enforcing; " reason=WHY" after it when the
 * refusal is not that no rule grants PERMS), followed by what
 * common_lsm_audit() says about the object. docs/toylsm.md, "Audit".
 */

#include "common.h"

#include <linux/audit.h>
#include <linux/ratelimit.h>

#include "audit.h"
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

/**
 * toylsm_audit_denial - Write a denial record, unless too many were
 * @td: toylsm's fields
 * @ad: what the access was about
 *
 * At most TOYLSM_AUDIT_BURST records every TOYLSM_AUDIT_INTERVAL, so
 * that a denied loop cannot flood the log.
 */
void toylsm_audit_denial(struct toylsm_audit_data *td,
			 struct common_audit_data *ad)
{
	static DEFINE_RATELIMIT_STATE(rs, TOYLSM_AUDIT_INTERVAL,
				      TOYLSM_AUDIT_BURST);

	if (!__ratelimit(&rs))
		return;
	ad->toylsm_audit_data = td;
	common_lsm_audit(ad, audit_pre, NULL);
}

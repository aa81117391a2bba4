// SPDX-License-Identifier: GPL-2.0
/* The trigger table, and the rules that choose from it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mm/sysinfo.h"
#include "trigger/trigger.h"

const char *const rr_trigger_names[] = {
	[RR_TRIG_AUTO] = "auto",
	[RR_TRIG_COMPACT] = "compact",
	[RR_TRIG_RECLAIM] = "reclaim",
	[RR_TRIG_MIGRATE] = "migrate",
	[RR_TRIG_SOFT_OFFLINE] = "soft-offline",
	[RR_TRIG_HWPOISON] = "hwpoison",
	[RR_TRIG_PRESSURE] = "pressure",
	[RR_TRIG_KSM_SCAN] = "ksm-scan",
	NULL
};

static const struct rr_trigger_ops *const table[RR_TRIG_MAX] = {
	[RR_TRIG_COMPACT] = &rr_trigger_compact,
	[RR_TRIG_RECLAIM] = &rr_trigger_reclaim,
	[RR_TRIG_MIGRATE] = &rr_trigger_migrate,
	[RR_TRIG_SOFT_OFFLINE] = &rr_trigger_soft_offline,
	[RR_TRIG_HWPOISON] = &rr_trigger_hwpoison,
	[RR_TRIG_PRESSURE] = &rr_trigger_pressure,
	[RR_TRIG_KSM_SCAN] = &rr_trigger_ksm_scan,
};

const struct rr_trigger_ops *rr_trigger_get(int t)
{
	return t > RR_TRIG_AUTO && t < RR_TRIG_MAX ? table[t] : NULL;
}

bool rr_trigger_available(enum rr_trigger t, char *why, size_t len)
{
	const struct rr_trigger_ops *ops = rr_trigger_get(t);
	const char *missing;

	if (!ops) {
		snprintf(why, len, "no such trigger");
		return false;
	}
	missing = rr_kconfig_missing(ops->kconfig);
	if (missing) {
		snprintf(why, len, "CONFIG_%s is not set", missing);
		return false;
	}
	return ops->available(why, len);
}

enum rr_trigger rr_trigger_auto(char *why, size_t len)
{
	static const enum rr_trigger order[] = {
		RR_TRIG_MIGRATE, RR_TRIG_RECLAIM, RR_TRIG_COMPACT,
	};
	char w[256];
	size_t i, o;

	o = snprintf(why, len, "no trigger available:");
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (rr_trigger_available(order[i], w, sizeof(w)))
			return order[i];
		if (o < len)
			o += snprintf(why + o, len - o, "%s %s: %s",
				      i ? ";" : "", rr_trigger_names[order[i]],
				      w);
	}
	return RR_TRIG_AUTO;
}

bool rr_trigger_backs_off(enum rr_trigger t)
{
	const struct rr_trigger_ops *ops = rr_trigger_get(t);

	return ops && ops->backs_off;
}

bool rr_trigger_may_miss(enum rr_trigger t)
{
	const struct rr_trigger_ops *ops = rr_trigger_get(t);

	return ops && ops->may_miss;
}

int rr_trigger_bracket(enum rr_trigger t)
{
	const struct rr_trigger_ops *ops = rr_trigger_get(t);

	return ops ? ops->bracket : -1;
}

int rr_trigger_fire(enum rr_trigger t, struct rr_trigger_ctx *ctx,
		    char *how, size_t len)
{
	const struct rr_trigger_ops *ops = rr_trigger_get(t);

	return ops ? ops->fire(ctx, how, len) : -EINVAL;
}

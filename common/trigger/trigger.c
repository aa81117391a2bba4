// SPDX-License-Identifier: GPL-2.0
/*
 * The trigger table (from RR_TRIGGERS), and the rules that choose from
 * it: the runner asks here, and never names a trigger.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mm/sysinfo.h"
#include "model/repro.h"
#include "trigger/trigger.h"

static const struct rr_trigger_ops *const table[RR_TRIG_MAX] = {
#define X(id, sym) [RR_TRIG_##id] = &rr_trigger_##sym,
	RR_TRIGGERS(X)
#undef X
};

const struct rr_trigger_ops *rr_trigger_get(int t)
{
	return t > RR_TRIG_AUTO && t < RR_TRIG_MAX ? table[t] : NULL;
}

const char *rr_trigger_name(int t)
{
	const struct rr_trigger_ops *ops = rr_trigger_get(t);

	return ops ? ops->name : "auto";
}

/* --trigger's choices and help, drawn from the table when first asked. */
static const char *names[RR_TRIG_MAX + 1];
static char help[2048];

static const struct rr_opt trigger_opts[] = {
	{ "trigger", OPT_ENUM, &rr_cfg.trigger, "NAME", help,
	  .choices = names },
	RR_OPT_END
};

static void fill_trigger_opt(void)
{
	const struct rr_trigger_ops *ops;
	size_t o;
	int t, rank;

	names[RR_TRIG_AUTO] = "auto";
	o = snprintf(help, sizeof(help),
		     "what makes the kernel walk the pattern:");
	for (t = RR_TRIG_AUTO + 1; t < RR_TRIG_MAX; t++) {
		names[t] = table[t]->name;
		if (o < sizeof(help))
			o += snprintf(help + o, sizeof(help) - o, " %s (%s);",
				      table[t]->name, table[t]->help);
	}
	if (o < sizeof(help))
		o += snprintf(help + o, sizeof(help) - o,
			      " or auto (the best available:");
	for (rank = 1; rank < RR_TRIG_MAX; rank++) {
		for (t = RR_TRIG_AUTO + 1; t < RR_TRIG_MAX; t++) {
			ops = table[t];
			if (ops->auto_rank == rank && o < sizeof(help))
				o += snprintf(help + o, sizeof(help) - o,
					      "%s %s", rank > 1 ? "," : "",
					      ops->name);
		}
	}
	if (o < sizeof(help))
		snprintf(help + o, sizeof(help) - o,
			 ", in that order; a reproducer may name its own)");
}

int rr_trigger_opt_tables(const struct rr_opt **tables, int max)
{
	int n = 0, t, k;

	if (!names[0])
		fill_trigger_opt();
	if (n < max)
		tables[n++] = trigger_opts;
	for (t = RR_TRIG_AUTO + 1; t < RR_TRIG_MAX && n < max; t++) {
		if (!table[t]->opts)
			continue;
		for (k = 0; k < n && tables[k] != table[t]->opts; k++)
			;
		if (k == n)
			tables[n++] = table[t]->opts;
	}
	return n;
}

bool rr_trigger_opts_valid(char *err, size_t len)
{
	bool (*valid)(char *err, size_t len);
	int t, k;

	for (t = RR_TRIG_AUTO + 1; t < RR_TRIG_MAX; t++) {
		valid = table[t]->opts_valid;
		if (!valid)
			continue;
		/* a hook shared by several triggers is asked once */
		for (k = 1; k < t && table[k]->opts_valid != valid; k++)
			;
		if (k == t && !valid(err, len))
			return false;
	}
	return true;
}

bool rr_trigger_check(int asked, const int *listed, const char *listed_why,
		      char *err, size_t len)
{
	const struct rr_trigger_ops *ops = rr_trigger_get(asked);
	int i;

	if (!ops)
		return true;
	if (!listed && ops->only_listed) {
		snprintf(err, len,
			 "--trigger %s: only for the reproducers that list it (it measures something else than their walks)",
			 ops->name);
		return false;
	}
	for (i = 0; listed && listed[i]; i++)
		if (listed[i] == asked)
			return true;
	if (!listed)
		return true;
	snprintf(err, len, "--trigger %s: %s", ops->name,
		 listed_why ? listed_why : "not one this reproducer can use");
	return false;
}

/* The first available of a reproducer's list; 0 with why none is. */
static int first_listed(const int *listed, char *why, size_t len)
{
	char w[256];
	size_t o = 0;
	int k;

	why[0] = '\0';
	for (k = 0; listed[k]; k++) {
		if (rr_trigger_available(listed[k], w, sizeof(w)))
			return listed[k];
		if (o < len)
			o += snprintf(why + o, len - o, "%s%s: %s",
				      o ? "; " : "", rr_trigger_name(listed[k]),
				      w);
	}
	return RR_TRIG_AUTO;
}

int rr_trigger_choose(int asked, const int *listed, const char *listed_why,
		      char *chosen, size_t clen, char *skip, size_t slen)
{
	char why[512];
	int t;

	if (asked != RR_TRIG_AUTO) {
		if (!rr_trigger_available(asked, why, sizeof(why))) {
			snprintf(skip, slen, "trigger %s: %s",
				 rr_trigger_name(asked), why);
			return RR_TRIG_AUTO;
		}
		snprintf(chosen, clen, "chosen with --trigger");
		return asked;
	}
	if (listed) {
		t = first_listed(listed, why, sizeof(why));
		if (t == RR_TRIG_AUTO)
			snprintf(skip, slen, "%s; %s",
				 listed_why ? listed_why :
				 "this reproducer's triggers are unavailable",
				 why);
		else
			snprintf(chosen, clen,
				 "auto: the best of this reproducer's triggers available here");
		return t;
	}
	t = rr_trigger_auto(why, sizeof(why));
	if (t == RR_TRIG_AUTO)
		snprintf(skip, slen, "%s", why);
	else
		snprintf(chosen, clen, "auto: the best trigger available here");
	return t;
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
	char w[256];
	size_t o;
	int rank, t, tried = 0;

	o = snprintf(why, len, "no trigger available:");
	for (rank = 1; rank < RR_TRIG_MAX; rank++) {
		for (t = RR_TRIG_AUTO + 1; t < RR_TRIG_MAX; t++) {
			if (table[t]->auto_rank != rank)
				continue;
			if (rr_trigger_available(t, w, sizeof(w)))
				return t;
			if (o < len)
				o += snprintf(why + o, len - o, "%s %s: %s",
					      tried++ ? ";" : "",
					      table[t]->name, w);
		}
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

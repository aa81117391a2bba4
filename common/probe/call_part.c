// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include <tracefs.h>

#include "probe/bracket.h"
#include "probe/call_part.h"
#include "probe/probe.h"

static void init(const char *what, struct rr_part *p)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->what, sizeof(p->what), "%s", what ? what : "");
}

/* The name i of type t's role, or NULL. */
static const char *cand(const enum rr_kfn roles[RR_PT_MAX], int t, int i)
{
	if (roles[t] <= RR_KFN_NONE || roles[t] >= RR_KFN_MAX ||
	    i >= RR_FN_CANDS)
		return NULL;
	return rr_kfns[roles[t]].names[i].name;
}

/* Is name i of type t also an earlier one? */
static bool named_before(const enum rr_kfn roles[RR_PT_MAX], int t, int i)
{
	int u, k;

	for (u = 0; u <= t; u++)
		for (k = 0; cand(roles, u, k) && (u < t || k < i); k++)
			if (!strcmp(cand(roles, u, k), cand(roles, t, i)))
				return true;
	return false;
}

/* After the functions are resolved: timed, or why not. */
static void decide(const enum rr_kfn roles[RR_PT_MAX], bool kprobes,
		   int found, struct rr_part *p)
{
	if (!kprobes) {
		snprintf(p->why, sizeof(p->why),
			 "no kprobe_events (CONFIG_KPROBE_EVENTS off)");
		return;
	}
	if (!found) {
		size_t o = 0;
		int t, i;

		for (t = 0; t < RR_PT_MAX; t++)
			for (i = 0; cand(roles, t, i); i++)
				if (!named_before(roles, t, i) &&
				    o < sizeof(p->why))
					o += snprintf(p->why + o,
						      sizeof(p->why) - o,
						      "%s%s", o ? ", " : "no ",
						      cand(roles, t, i));
		if (o < sizeof(p->why))
			snprintf(p->why + o, sizeof(p->why) - o,
				 " in /proc/kallsyms (inlined)");
		return;
	}
	p->timed = true;
}

void rr_part_choose(const char *what,
		    const enum rr_kfn roles[RR_PT_MAX],
		    const char *kallsyms, bool kprobes, struct rr_part *p)
{
	init(what, p);
	if (!p->what[0])
		return;
	decide(roles, kprobes, rr_fn_parse(kallsyms, roles, p->fns), p);
}

void rr_part_select(const char *what,
		    const enum rr_kfn roles[RR_PT_MAX],
		    struct rr_part *p)
{
	init(what, p);
	if (!p->what[0])
		return;
	decide(roles, tracefs_file_exists(NULL, "kprobe_events"),
	       rr_fn_resolve(roles, p->fns), p);
}

bool rr_part_timed(const struct rr_part *p, int type, char *why,
		   size_t len)
{
	if (!p->what[0]) {
		snprintf(why, len, "the trigger names no part");
		return false;
	}
	if (!p->timed) {
		snprintf(why, len, "%s", p->why);
		return false;
	}
	if (type < 0 || type >= RR_PT_MAX || !p->fns[type].found) {
		snprintf(why, len,
			 "no function of the %s page type in /proc/kallsyms (inlined)",
			 type >= 0 && type < RR_PT_MAX ?
			 rr_page_type_name(type) : "?");
		return false;
	}
	return true;
}

int rr_part_prepare(const struct rr_part *p, char *why, size_t len)
{
	return p->timed ? rr_kprobe_pairs(RR_BR_PART, p->fns, why, len) : 0;
}

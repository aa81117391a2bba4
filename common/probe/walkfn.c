// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/walkfn.h"

const enum rr_kfn rr_walk_kfns[RR_PT_MAX] = {
	[RR_PT_KSM] = RR_KFN_WALK_KSM,
	[RR_PT_ANON] = RR_KFN_WALK_ANON,
	[RR_PT_FILE] = RR_KFN_WALK_FILE,
};

/*
 * An ftrace or kprobe hit reports the address of the function's entry,
 * which on x86 with IBT is a few bytes past the symbol (after ENDBR64).
 */
#define ENTRY_SLACK 16

int rr_walkfn_parse(const char *text, struct rr_walkfn fns[RR_PT_MAX])
{
	return rr_fn_parse(text, rr_walk_kfns, fns);
}

int rr_walkfn_resolve(struct rr_walkfn fns[RR_PT_MAX])
{
	return rr_fn_resolve(rr_walk_kfns, fns);
}

int rr_walkfn_type(const struct rr_walkfn fns[RR_PT_MAX], unsigned long ip)
{
	int t;

	for (t = 0; t < RR_PT_MAX; t++)
		if (fns[t].found && fns[t].addr && ip >= fns[t].addr &&
		    ip < fns[t].addr + ENTRY_SLACK)
			return t;
	return -1;
}

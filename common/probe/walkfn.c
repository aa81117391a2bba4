// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/walkfn.h"

/* Candidates per type, best first. */
static const char *const names[RR_PT_MAX][RR_FN_CANDS] = {
	[RR_PT_KSM] = { "rmap_walk_ksm", NULL },
	[RR_PT_ANON] = { "rmap_walk_anon", NULL },
	[RR_PT_FILE] = { "rmap_walk_file", "__rmap_walk_file", NULL },
};

/*
 * An ftrace or kprobe hit reports the address of the function's entry,
 * which on x86 with IBT is a few bytes past the symbol (after ENDBR64).
 */
#define ENTRY_SLACK 16

bool rr_ksym_match(const char *sym, const char *base)
{
	size_t len = strlen(base);

	/*
	 * A clone (.isra.0, .constprop.0) or the body split off a partly
	 * inlined function (.part.0) is called and returns; a .cold section
	 * is only jumped into, so a probe there times nothing whole.
	 */
	return !strncmp(sym, base, len) &&
	       (sym[len] == '\0' ||
		(sym[len] == '.' && !strstr(sym + len, ".cold")));
}

int rr_fn_parse(const char *text, const char *const cands[][RR_FN_CANDS],
		struct rr_walkfn fns[RR_PT_MAX])
{
	const char *line = text;
	int t, i, rank[RR_PT_MAX], n = 0;

	memset(fns, 0, RR_PT_MAX * sizeof(*fns));
	for (t = 0; t < RR_PT_MAX; t++) {
		fns[t].type = t;
		rank[t] = 99;
	}
	while (line && *line) {
		char sym[128], kind;
		unsigned long addr;
		const char *nl = strchr(line, '\n');

		/* "ffffffff81684270 T rmap_walk_ksm [module]" */
		if (sscanf(line, "%lx %c %127s", &addr, &kind, sym) == 3) {
			for (t = 0; t < RR_PT_MAX; t++) {
				for (i = 0; i < RR_FN_CANDS && cands[t][i] &&
					    i < rank[t]; i++) {
					if (!rr_ksym_match(sym, cands[t][i]))
						continue;
					snprintf(fns[t].name, sizeof(fns[t].name),
						 "%s", sym);
					fns[t].addr = addr;
					fns[t].found = true;
					rank[t] = i;
					break;
				}
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	for (t = 0; t < RR_PT_MAX; t++)
		n += fns[t].found;
	return n;
}

int rr_walkfn_parse(const char *text, struct rr_walkfn fns[RR_PT_MAX])
{
	return rr_fn_parse(text, names, fns);
}

/* Is any candidate's name in this kallsyms line? */
static bool wanted(const char *line, const char *const cands[][RR_FN_CANDS])
{
	int t, i;

	for (t = 0; t < RR_PT_MAX; t++)
		for (i = 0; i < RR_FN_CANDS && cands[t][i]; i++)
			if (strstr(line, cands[t][i]))
				return true;
	return false;
}

int rr_fn_resolve(const char *const cands[][RR_FN_CANDS],
		  struct rr_walkfn fns[RR_PT_MAX])
{
	size_t len = 0, cap = 1 << 20;
	char *buf = malloc(cap), *line = NULL;
	size_t lcap = 0;
	ssize_t n;
	FILE *f;
	int found;

	if (!buf)
		return 0;
	buf[0] = '\0';
	f = fopen("/proc/kallsyms", "re");
	if (!f) {
		free(buf);
		return rr_fn_parse("", cands, fns);
	}
	/* Keep only the lines that can matter: kallsyms is large. */
	while ((n = getline(&line, &lcap, f)) > 0) {
		if (!wanted(line, cands))
			continue;
		if (len + n + 1 > cap)
			break;
		memcpy(buf + len, line, n + 1);
		len += n;
	}
	free(line);
	fclose(f);
	found = rr_fn_parse(buf, cands, fns);
	free(buf);
	return found;
}

int rr_walkfn_resolve(struct rr_walkfn fns[RR_PT_MAX])
{
	return rr_fn_resolve(names, fns);
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

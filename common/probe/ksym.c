// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/ksym.h"

/*
 * Every name a role has had, the current one first where a kernel could
 * have two (none has both: 7.3's rename replaced the old names). The
 * kernels columns were checked in the sources: mm/interval_tree.c and
 * include/linux/mm.h of 7.3, mm/ksm.c and mm/memory-failure.c of 6.1,
 * 6.12 and 7.3, and kallsyms of the kernels the tests boot.
 */
const struct rr_kfn_desc rr_kfns[RR_KFN_MAX] = {
	[RR_KFN_WALK_KSM] = { "walk_ksm", "the rmap walk of a KSM page",
		{ { "rmap_walk_ksm", "all" } } },
	[RR_KFN_WALK_ANON] = { "walk_anon", "the rmap walk of an anon page",
		{ { "rmap_walk_anon", "all; an .isra clone on some" } } },
	[RR_KFN_WALK_FILE] = { "walk_file", "the rmap walk of a file page",
		{ { "rmap_walk_file", "seen on 6.1 and 6.12" },
		  { "__rmap_walk_file",
		    "kernels that inline rmap_walk_file; seen on 6.18" } } },
	[RR_KFN_ANON_FIRST] = { "anon_first",
		"an anon_vma walk's first step (one per rmap_item in KSM's)",
		{ { "anon_rmap_tree_iter_first", "7.3 and later" },
		  { "anon_vma_interval_tree_iter_first", "3.7 to 7.2" } } },
	[RR_KFN_ANON_NEXT] = { "anon_next",
		"each further step of an anon_vma walk (a VMA visited)",
		{ { "anon_rmap_tree_iter_next", "7.3 and later" },
		  { "anon_vma_interval_tree_iter_next", "3.7 to 7.2" } } },
	[RR_KFN_FILE_FIRST] = { "file_first",
		"a file mapping walk's first step",
		{ { "mapping_rmap_tree_iter_first", "7.3 and later" },
		  { "vma_interval_tree_iter_first", "3.7 to 7.2" } } },
	[RR_KFN_FILE_NEXT] = { "file_next",
		"each further step of a file mapping walk",
		{ { "mapping_rmap_tree_iter_next", "7.3 and later" },
		  { "vma_interval_tree_iter_next", "3.7 to 7.2" } } },
	[RR_KFN_COLLECT_KSM] = { "collect_ksm",
		"memory_failure(): the processes that map a KSM page",
		{ { "collect_procs_ksm", "6.7 and later, global in ksm.c" } } },
	[RR_KFN_COLLECT_ANON] = { "collect_anon",
		"memory_failure(): the processes that map an anon page",
		{ { "collect_procs_anon", "where not inlined" },
		  { "collect_procs", "where those are inlined, as on 6.12" } } },
	[RR_KFN_COLLECT_FILE] = { "collect_file",
		"memory_failure(): the processes that map a file page",
		{ { "collect_procs_file", "where not inlined" },
		  { "collect_procs", "where those are inlined" } } },
	[RR_KFN_REFERENCED] = { "referenced",
		"reclaim's referenced walk, which gives up on a busy lock",
		{ { "folio_referenced", "5.18 and later" } } },
};

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

/* The rank of sym among a role's names, or -1. */
static int rank_of(enum rr_kfn role, const char *sym)
{
	int i;

	if (role <= RR_KFN_NONE || role >= RR_KFN_MAX)
		return -1;
	for (i = 0; i < RR_FN_CANDS && rr_kfns[role].names[i].name; i++)
		if (rr_ksym_match(sym, rr_kfns[role].names[i].name))
			return i;
	return -1;
}

enum rr_kfn rr_kfn_of(const char *frame, const enum rr_kfn *roles, int n)
{
	char sym[128];
	int i;

	snprintf(sym, sizeof(sym), "%.*s", (int)strcspn(frame, "+ \t\n"),
		 frame);
	for (i = 0; i < n; i++)
		if (rank_of(roles[i], sym) >= 0)
			return roles[i];
	return RR_KFN_NONE;
}

int rr_kfns_parse(const char *text, const enum rr_kfn *roles, int n,
		   struct rr_walkfn *out)
{
	int rank[RR_KFN_MAX], i, r, found = 0;
	const char *line = text;

	if (n > RR_KFN_MAX)
		n = RR_KFN_MAX;
	memset(out, 0, n * sizeof(*out));
	for (i = 0; i < n; i++) {
		out[i].type = i;
		rank[i] = RR_FN_CANDS;
	}
	while (line && *line) {
		char sym[128], kind;
		unsigned long addr;
		const char *nl = strchr(line, '\n');

		/* "ffffffff81684270 T rmap_walk_ksm [module]" */
		if (sscanf(line, "%lx %c %127s", &addr, &kind, sym) == 3) {
			for (i = 0; i < n; i++) {
				r = rank_of(roles[i], sym);
				if (r < 0 || r >= rank[i])
					continue;
				snprintf(out[i].name, sizeof(out[i].name),
					 "%s", sym);
				out[i].addr = addr;
				out[i].found = true;
				rank[i] = r;
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	for (i = 0; i < n; i++)
		found += out[i].found;
	return found;
}

/* Is any name of the roles in this kallsyms line? */
static bool wanted(const char *line, const enum rr_kfn *roles, int n)
{
	int i, k;

	for (i = 0; i < n; i++) {
		if (roles[i] <= RR_KFN_NONE || roles[i] >= RR_KFN_MAX)
			continue;
		for (k = 0; k < RR_FN_CANDS && rr_kfns[roles[i]].names[k].name;
		     k++)
			if (strstr(line, rr_kfns[roles[i]].names[k].name))
				return true;
	}
	return false;
}

int rr_kfns_resolve(const enum rr_kfn *roles, int n,
		     struct rr_walkfn *out)
{
	size_t len = 0, cap = 1 << 20, lcap = 0;
	char *buf = malloc(cap), *line = NULL;
	ssize_t got;
	FILE *f;
	int found;

	if (!buf)
		return 0;
	buf[0] = '\0';
	f = fopen("/proc/kallsyms", "re");
	/* Keep only the lines that can matter: kallsyms is large. */
	while (f && (got = getline(&line, &lcap, f)) > 0) {
		if (!wanted(line, roles, n))
			continue;
		if (len + got + 1 > cap)
			break;
		memcpy(buf + len, line, got + 1);
		len += got;
	}
	free(line);
	if (f)
		fclose(f);
	found = rr_kfns_parse(buf, roles, n, out);
	free(buf);
	return found;
}

int rr_fn_parse(const char *text, const enum rr_kfn roles[RR_PT_MAX],
		struct rr_walkfn fns[RR_PT_MAX])
{
	return rr_kfns_parse(text, roles, RR_PT_MAX, fns);
}

int rr_fn_resolve(const enum rr_kfn roles[RR_PT_MAX],
		  struct rr_walkfn fns[RR_PT_MAX])
{
	return rr_kfns_resolve(roles, RR_PT_MAX, fns);
}

const char *rr_kfn_names(enum rr_kfn role, char *buf, size_t len)
{
	size_t o = 0;
	int i;

	buf[0] = '\0';
	if (role <= RR_KFN_NONE || role >= RR_KFN_MAX)
		return buf;
	for (i = 0; i < RR_FN_CANDS && rr_kfns[role].names[i].name &&
	     o < len; i++)
		o += snprintf(buf + o, len - o, "%s%s", i ? " or " : "",
			      rr_kfns[role].names[i].name);
	return buf;
}

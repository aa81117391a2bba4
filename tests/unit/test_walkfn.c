// SPDX-License-Identifier: GPL-2.0
/* Finding the walk functions in kallsyms, suffixes and all. */
#include <string.h>

#include "harness.h"
#include "probe/call_part.h"
#include "probe/walkfn.h"
#include "trigger/trigger.h"

static void test_match(void)
{
	CHECK(rr_ksym_match("rmap_walk_anon", "rmap_walk_anon"));
	CHECK(rr_ksym_match("rmap_walk_anon.isra.0", "rmap_walk_anon"));
	CHECK(!rr_ksym_match("rmap_walk_anonx", "rmap_walk_anon"));
	CHECK(!rr_ksym_match("rmap_walk", "rmap_walk_anon"));
	/* 6.1's collect_procs.part.0 is called; a .cold piece is not */
	CHECK(rr_ksym_match("collect_procs.part.0", "collect_procs"));
	CHECK(!rr_ksym_match("rmap_walk_anon.cold", "rmap_walk_anon"));
	CHECK(!rr_ksym_match("collect_procs.part.0.cold", "collect_procs"));
}

static void test_parse_618(void)
{
	/* 6.18: rmap_walk_file is inlined, __rmap_walk_file remains */
	const char *text =
		"ffffffff816179b0 t __rmap_walk_file\n"
		"ffffffff81617c30 t rmap_walk_anon.isra.0\n"
		"ffffffff8161c2e0 T rmap_walk\n"
		"ffffffff81684270 T rmap_walk_ksm\n";
	struct rr_walkfn fns[RR_PT_MAX];

	CHECK_EQ(rr_walkfn_parse(text, fns), 3);
	CHECK_STR(fns[RR_PT_KSM].name, "rmap_walk_ksm");
	CHECK_STR(fns[RR_PT_ANON].name, "rmap_walk_anon.isra.0");
	CHECK_STR(fns[RR_PT_FILE].name, "__rmap_walk_file");
	CHECK_EQ(fns[RR_PT_KSM].addr, 0xffffffff81684270UL);
	CHECK_EQ(rr_walkfn_type(fns, 0xffffffff81684274UL), RR_PT_KSM);
	CHECK_EQ(rr_walkfn_type(fns, 0xffffffff81617c30UL), RR_PT_ANON);
	CHECK_EQ(rr_walkfn_type(fns, 0xffffffff8161c2e0UL), -1);
	CHECK_EQ(rr_walkfn_type(fns, 0xffffffff81684270UL + 64), -1);
}

static void test_prefer_plain_name(void)
{
	const char *text =
		"ffffffff81000100 t __rmap_walk_file\n"
		"ffffffff81000200 t rmap_walk_file\n";
	struct rr_walkfn fns[RR_PT_MAX];

	CHECK_EQ(rr_walkfn_parse(text, fns), 1);
	CHECK_STR(fns[RR_PT_FILE].name, "rmap_walk_file");
	CHECK(!fns[RR_PT_KSM].found);
}

static void test_hidden_addresses(void)
{
	/* Without root, kallsyms shows zeros: found, but not mappable. */
	struct rr_walkfn fns[RR_PT_MAX];

	CHECK_EQ(rr_walkfn_parse("0000000000000000 T rmap_walk_ksm\n", fns),
		 1);
	CHECK_EQ(rr_walkfn_type(fns, 0), -1);
}

/*
 * memory_failure()'s part: collect_procs_ksm is global (ksm.c); the anon
 * and file ones fall back to collect_procs() when inlined (each type gets
 * a kprobe pair of its own, on the same function).
 */
static void test_part_functions(void)
{
	const char *text =
		"ffffffff81300000 t collect_procs.constprop.0\n"
		"ffffffff81300400 t collect_procs_file\n"
		"ffffffff81684000 T collect_procs_ksm\n";
	struct rr_part p;
	char why[192];

	rr_part_choose("finding", rr_trigger_hwpoison.part_roles, text, true,
		       &p);
	CHECK(p.timed);
	CHECK_STR(p.fns[RR_PT_KSM].name, "collect_procs_ksm");
	CHECK_STR(p.fns[RR_PT_ANON].name, "collect_procs.constprop.0");
	CHECK_STR(p.fns[RR_PT_FILE].name, "collect_procs_file");
	CHECK(rr_part_timed(&p, RR_PT_ANON, why, sizeof(why)));

	/* 6.1: no collect_procs_ksm, the rest inlined */
	rr_part_choose("finding", rr_trigger_hwpoison.part_roles,
		       "ffffffff81300000 T memory_failure\n", true, &p);
	CHECK(!p.timed);
	CHECK_STR(p.why, "no collect_procs_ksm, collect_procs_anon, collect_procs, collect_procs_file in /proc/kallsyms (inlined)");
	CHECK(!rr_part_timed(&p, RR_PT_KSM, why, sizeof(why)));
	CHECK_STR(why, p.why);

	/* only the KSM one: the controls say theirs is inlined */
	rr_part_choose("finding", rr_trigger_hwpoison.part_roles,
		       "ffffffff81684000 T collect_procs_ksm\n", true, &p);
	CHECK(p.timed);
	CHECK(rr_part_timed(&p, RR_PT_KSM, why, sizeof(why)));
	CHECK(!rr_part_timed(&p, RR_PT_FILE, why, sizeof(why)));
	CHECK(strstr(why, "file page type") != NULL);

	/* no kprobe_events: nothing is timed, whatever kallsyms says */
	rr_part_choose("finding", rr_trigger_hwpoison.part_roles, text, false,
		       &p);
	CHECK(!p.timed);
	CHECK(strstr(p.why, "CONFIG_KPROBE_EVENTS") != NULL);

	/* a trigger with no part */
	rr_part_choose(NULL, rr_trigger_hwpoison.part_roles, text, true, &p);
	CHECK(!p.timed);
	CHECK(!rr_part_timed(&p, RR_PT_KSM, why, sizeof(why)));
}

TEST_MAIN(T(test_match), T(test_parse_618), T(test_prefer_plain_name),
	  T(test_hidden_addresses), T(test_part_functions))

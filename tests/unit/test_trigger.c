// SPDX-License-Identifier: GPL-2.0
/*
 * trigger.c's rules, on whatever machine runs the test: auto picks the
 * first trigger available in the documented order (migrate, reclaim,
 * compact) and otherwise says why each is not; each trigger is measured
 * by its own bracket; only compaction may miss the pattern, only reclaim
 * backs off from a contended lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "lib/util.h"
#include "mm/hwpoison.h"
#include "mm/swap.h"
#include "model/repro.h"
#include "probe/bracket.h"
#include "probe/probe.h"
#include "trigger/trigger.h"

/*
 * Parse "--NAME [VALUE]" through the triggers' own option tables, as
 * the runner does: 0, or -1 with err.
 */
static int trigger_opt(const char *name, const char *value, char *err,
		       size_t len)
{
	const struct rr_opt *tables[RR_TRIG_MAX + 2];
	char opt[64];
	char *argv[] = { "test", opt, (char *)value, NULL };
	int n = rr_trigger_opt_tables(tables, RR_TRIG_MAX + 1);

	tables[n] = NULL;
	snprintf(opt, sizeof(opt), "--%s", name);
	return rr_opts_parse(tables, value ? 3 : 2, argv, err, len);
}

static void test_auto_order(void)
{
	static const enum rr_trigger order[] = {
		RR_TRIG_MIGRATE, RR_TRIG_RECLAIM, RR_TRIG_COMPACT,
	};
	enum rr_trigger want = RR_TRIG_AUTO, got;
	char why[512] = "", w[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(order) && want == RR_TRIG_AUTO; i++)
		if (rr_trigger_available(order[i], w, sizeof(w)))
			want = order[i];
	got = rr_trigger_auto(why, sizeof(why));
	CHECK_EQ(got, want);
	if (got == RR_TRIG_AUTO) {
		CHECK_CONTAINS(why, "migrate: ");
		CHECK_CONTAINS(why, "reclaim: ");
		CHECK_CONTAINS(why, "compact: ");
	}
}

static void test_unavailable_says_why(void)
{
	char why[256] = "";

	CHECK(!rr_trigger_available(RR_TRIG_AUTO, why, sizeof(why)));
	CHECK_STR(why, "no such trigger");
	why[0] = '\0';
	if (!rr_trigger_available(RR_TRIG_MIGRATE, why, sizeof(why)))
		CHECK(why[0] != '\0');
	why[0] = '\0';
	if (!rr_trigger_available(RR_TRIG_SOFT_OFFLINE, why, sizeof(why)))
		CHECK(why[0] != '\0');
	/* auto never retires frames: those are asked for by name */
	CHECK(rr_trigger_auto(why, sizeof(why)) != RR_TRIG_SOFT_OFFLINE);
	CHECK(rr_trigger_auto(why, sizeof(why)) != RR_TRIG_HWPOISON);
	/* outside the suite's VM, without consent: refused, and why */
	why[0] = '\0';
	if (!rr_trigger_available(RR_TRIG_HWPOISON, why, sizeof(why)))
		CHECK(why[0] != '\0');
}

static void test_rules(void)
{
	char why[256] = "";

	CHECK_STR(rr_trigger_name(RR_TRIG_MIGRATE), "migrate");
	CHECK_STR(rr_trigger_name(RR_TRIG_AUTO), "auto");
	CHECK_EQ(rr_trigger_bracket(RR_TRIG_RECLAIM), RR_BR_MEMCG_RECLAIM);
	CHECK_EQ(rr_trigger_bracket(RR_TRIG_MIGRATE), RR_BR_MIGRATE);
	CHECK_EQ(rr_trigger_bracket(RR_TRIG_COMPACT), RR_BR_MIGRATE);
	CHECK(rr_trigger_may_miss(RR_TRIG_COMPACT));
	CHECK(!rr_trigger_may_miss(RR_TRIG_MIGRATE));
	CHECK(!rr_trigger_may_miss(RR_TRIG_RECLAIM));
	CHECK(rr_trigger_backs_off(RR_TRIG_RECLAIM));
	CHECK(!rr_trigger_backs_off(RR_TRIG_MIGRATE));
	/* soft offline migrates each page: the migration bracket */
	CHECK_STR(rr_trigger_name(RR_TRIG_SOFT_OFFLINE), "soft-offline");
	CHECK_EQ(rr_trigger_bracket(RR_TRIG_SOFT_OFFLINE), RR_BR_MIGRATE);
	CHECK(!rr_trigger_may_miss(RR_TRIG_SOFT_OFFLINE));
	/* hwpoison has no stock bracket: only walk-level probes time it */
	CHECK_STR(rr_trigger_name(RR_TRIG_HWPOISON), "hwpoison");
	CHECK_EQ(rr_trigger_bracket(RR_TRIG_HWPOISON), -1);
	CHECK(!rr_probe_available(RR_PROBE_BRACKETS, -1, why, sizeof(why)));
	CHECK_CONTAINS(why, "a walk-level probe");
}

/*
 * hwpoison's injector: corrupt-pfn where the injector is (a stand-in
 * debugfs here), madvise when asked; with madvise the member that maps
 * the page makes the call, so the probes must trace it (actors).
 */
static void test_injector(void)
{
	const struct rr_trigger_ops *t = rr_trigger_get(RR_TRIG_HWPOISON);
	struct rr_page_ref refs[3] = {
		{ .pid = 4242 }, { .pid = 4343 }, { .pid = 4242 },
	};
	struct rr_pattern p = { .refs = refs, .nr_refs = 3 };
	struct rr_trigger_ctx ctx = { 0 };
	char dir[] = "/tmp/rr-inj-XXXXXX", path[256], why[256] = "";
	int pids[4];

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path),
		 "mkdir -p %s/kernel/debug/hwpoison && touch %s/kernel/debug/hwpoison/corrupt-pfn %s/kernel/debug/hwpoison/unpoison-pfn",
		 dir, dir, dir);
	CHECK_EQ(system(path), 0);
	setenv("RMAP_REPRO_SYS_DIR", dir, 1);
	CHECK_STR(rr_injector_names[RR_INJ_MADVISE], "madvise");

	CHECK_EQ(trigger_opt("injector", "auto", why, sizeof(why)), 0);
	CHECK_EQ(t->setup(&ctx, NULL, why, sizeof(why)), 0);
	CHECK_EQ(t->actors(&p, pids, 4), 0);

	CHECK_EQ(trigger_opt("injector", "madvise", why, sizeof(why)), 0);
	CHECK_EQ(t->setup(&ctx, NULL, why, sizeof(why)), 0);
	/* each member once */
	CHECK_EQ(t->actors(&p, pids, 4), 2);
	CHECK_EQ(pids[0], 4242);
	CHECK_EQ(pids[1], 4343);
	CHECK_EQ(t->actors(&p, pids, 1), 1);

	CHECK_EQ(trigger_opt("injector", "auto", why, sizeof(why)), 0);
	unsetenv("RMAP_REPRO_SYS_DIR");
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CHECK_EQ(system(path), 0);
}

/* The table: one entry per name, each complete. */
static void test_table(void)
{
	const struct rr_trigger_ops *t;
	int i;

	CHECK(rr_trigger_get(RR_TRIG_AUTO) == NULL);
	CHECK(rr_trigger_get(RR_TRIG_MAX) == NULL);
	CHECK(rr_trigger_get(-1) == NULL);
	for (i = RR_TRIG_AUTO + 1; i < RR_TRIG_MAX; i++) {
		t = rr_trigger_get(i);
		CHECK(t != NULL);
		if (!t)
			continue;
		CHECK(t->name && t->help && t->help[0]);
		CHECK(t->available && t->fire && t->reach && t->kconfig);
		/* a summary for its key, a case summary for its case key */
		CHECK(!t->key || t->summary);
		CHECK(!t->case_key || t->case_summary);
	}
}

/*
 * The seam the runner uses: --trigger's choices and help come from the
 * table (every trigger, each with its help), each trigger's options are
 * offered once, and the reproducer's own list is enforced.
 */
static void test_seam(void)
{
	const struct rr_opt *tables[RR_TRIG_MAX + 2];
	const int listed[] = { RR_TRIG_MIGRATE, 0 };
	char err[256] = "", chosen[128] = "", skip[512] = "";
	int n, i, k, t;

	n = rr_trigger_opt_tables(tables, RR_TRIG_MAX + 1);
	CHECK(n >= 2);
	CHECK_STR(tables[0][0].name, "trigger");
	for (t = RR_TRIG_AUTO; t < RR_TRIG_MAX; t++) {
		CHECK_STR(tables[0][0].choices[t], rr_trigger_name(t));
		if (t)
			CHECK_CONTAINS(tables[0][0].help,
				       rr_trigger_get(t)->help);
	}
	CHECK(tables[0][0].choices[RR_TRIG_MAX] == NULL);
	CHECK_CONTAINS(tables[0][0].help, "or auto (the best available: migrate, reclaim, compact");
	/* each table once: the swap options are shared */
	for (i = 0; i < n; i++)
		for (k = 0; k < i; k++)
			CHECK(tables[i] != tables[k]);
	CHECK_EQ(trigger_opt("swappiness", "201", err, sizeof(err)), 0);
	CHECK(!rr_trigger_opts_valid(err, sizeof(err)));
	CHECK_CONTAINS(err, "--swappiness: '201' is not a number from 0 to 200");
	CHECK_EQ(trigger_opt("swappiness", "60", err, sizeof(err)), 0);
	CHECK_EQ(trigger_opt("compact-node", "bogus", err, sizeof(err)), 0);
	CHECK(!rr_trigger_opts_valid(err, sizeof(err)));
	CHECK_CONTAINS(err, "--compact-node: 'bogus' is not a node number or all");
	CHECK_EQ(trigger_opt("compact-node", "all", err, sizeof(err)), 0);
	CHECK(rr_trigger_opts_valid(err, sizeof(err)));
	CHECK_EQ(trigger_opt("no-such", NULL, err, sizeof(err)), -1);

	/* a listed trigger only; ksm-scan only where listed */
	CHECK(rr_trigger_check(RR_TRIG_AUTO, listed, NULL, err, sizeof(err)));
	CHECK(rr_trigger_check(RR_TRIG_MIGRATE, listed, NULL, err,
			       sizeof(err)));
	CHECK(!rr_trigger_check(RR_TRIG_RECLAIM, listed, "needs NUMA", err,
				sizeof(err)));
	CHECK_STR(err, "--trigger reclaim: needs NUMA");
	CHECK(!rr_trigger_check(RR_TRIG_KSM_SCAN, NULL, NULL, err,
				sizeof(err)));
	CHECK_CONTAINS(err, "only for the reproducers that list it");

	/* asked by name: that one, or a skip naming it */
	t = rr_trigger_choose(RR_TRIG_AUTO + RR_TRIG_MAX, NULL, NULL, chosen,
			      sizeof(chosen), skip, sizeof(skip));
	CHECK_EQ(t, RR_TRIG_AUTO);
	CHECK_CONTAINS(skip, "no such trigger");
	t = rr_trigger_choose(RR_TRIG_AUTO, listed, "needs NUMA", chosen,
			      sizeof(chosen), skip, sizeof(skip));
	if (t)
		CHECK_EQ(t, RR_TRIG_MIGRATE);
	else
		CHECK_CONTAINS(skip, "needs NUMA; migrate: ");
}

/* Needs are checked, not assumed: no mkswap, no zram swap to make. */
static void test_mkswap_needed(void)
{
	const char *tmp = getenv("TEST_TMPDIR");
	char dir[256], file[300], old[4096], why[256] = "";
	int fd;

	snprintf(old, sizeof(old), "%s", getenv("PATH") ? getenv("PATH") : "");
	snprintf(dir, sizeof(dir), "%s/rr-path-XXXXXX", tmp ? tmp : "/tmp");
	CHECK(mkdtemp(dir) != NULL);
	snprintf(file, sizeof(file), "%s/mkswap", dir);
	setenv("PATH", dir, 1);
	CHECK(!rr_have_command("mkswap"));
	CHECK(!rr_swap_zram_possible(why, sizeof(why)));
	CHECK_CONTAINS(why, "mkswap (util-linux) is not in PATH");
	fd = open(file, O_CREAT | O_WRONLY, 0755);
	CHECK(fd >= 0);
	close(fd);
	CHECK(rr_have_command("mkswap"));
	CHECK(!rr_have_command("no-such-command"));
	setenv("PATH", old, 1);
	unlink(file);
	rmdir(dir);
}

static void test_fire_unknown(void)
{
	struct rr_trigger_ctx ctx = { 0 };
	char how[64];

	CHECK_EQ(rr_trigger_fire(RR_TRIG_AUTO, &ctx, how, sizeof(how)),
		 -EINVAL);
}

TEST_MAIN(T(test_auto_order), T(test_unavailable_says_why), T(test_rules),
	  T(test_table), T(test_seam),
	  T(test_mkswap_needed), T(test_fire_unknown), T(test_injector))

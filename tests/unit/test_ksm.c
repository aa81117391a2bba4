// SPDX-License-Identifier: GPL-2.0
/*
 * The KSM merge loop on a directory of files standing in for
 * /sys/kernel/mm/ksm: it is bounded by --merge-timeout (an error that
 * says how far merging got), it ends once full scans stop adding merged
 * pages, and it always leaves ksmd stopped (run=0), through the journal.
 */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "core/undo.h"
#include "harness.h"
#include "journal/journal.h"
#include "lib/util.h"
#include "mm/ksm.h"

/* The program's undo handlers, as a run hands them to the journal. */
__attribute__((constructor)) static void use_undos(void)
{
	rr_undos_use();
}

static char dir[256];

static const char *get(const char *name)
{
	static char buf[64];
	char p[512];

	snprintf(p, sizeof(p), "%s/ksm/%s", dir, name);
	if (rr_read_file(p, buf, sizeof(buf)))
		return "(unreadable)";
	return buf;
}

static void setup(void)
{
	const char *tmp = getenv("TEST_TMPDIR");
	static const char *const knobs[][2] = {
		{ "run", "0" }, { "pages_to_scan", "100" },
		{ "sleep_millisecs", "20" }, { "max_page_sharing", "256" },
		{ "pages_shared", "0" }, { "pages_sharing", "0" },
		{ "full_scans", "0" },
	};
	char p[512], why[512];
	size_t i;

	snprintf(dir, sizeof(dir), "%s/rr-ksm-XXXXXX", tmp ? tmp : "/tmp");
	CHECK(mkdtemp(dir) != NULL);
	snprintf(p, sizeof(p), "%s/ksm", dir);
	CHECK_EQ(mkdir(p, 0755), 0);
	for (i = 0; i < ARRAY_SIZE(knobs); i++) {
		snprintf(p, sizeof(p), "%s/ksm/%s", dir, knobs[i][0]);
		CHECK_EQ(rr_write_file(p, knobs[i][1]) == 0 ||
			 (creat(p, 0644) >= 0 &&
			  rr_write_file(p, knobs[i][1]) == 0), 1);
	}
	snprintf(p, sizeof(p), "%s/ksm", dir);
	setenv("RMAP_REPRO_KSM_DIR", p, 1);
	setenv("RMAP_REPRO_STATE_DIR", dir, 1);
	CHECK_EQ(journal_begin("test_ksm", why, sizeof(why)), 0);
}

/* Nothing merges: the loop ends at its bound, with how far it got. */
static void test_timeout(void)
{
	struct rr_ksm_counters c;
	char why[256] = "";
	uint64_t t0;
	int err;

	setup();
	rr_ksm_opts.merge_timeout_s = 1;
	t0 = rr_now_ns();
	err = rr_ksm_merge(64, &c, why, sizeof(why));
	CHECK_EQ(err, -ETIMEDOUT);
	CHECK((rr_now_ns() - t0) >= NSEC_PER_SEC);
	CHECK((rr_now_ns() - t0) < 3 * NSEC_PER_SEC);
	CHECK_CONTAINS(why, "of 64 pages in 1 s (0 full scans)");
	CHECK_STR(get("run"), "0");	/* ksmd stopped again */
	CHECK_EQ(journal_replay(journal_path(), false, NULL), 0);
}

static volatile bool scanning;

/* ksmd as seen from sysfs: full scans go up, nothing merges. */
static void *scanner(void *arg)
{
	int n = 0;
	char v[16];

	char tmp[512], p[512];

	snprintf(tmp, sizeof(tmp), "%s/full_scans.tmp", dir);
	snprintf(p, sizeof(p), "%s/ksm/full_scans", dir);
	while (scanning) {
		rr_sleep_ms(20);
		/* whole values only: the loop must never read a torn one */
		snprintf(v, sizeof(v), "%d", ++n);
		if (!rr_write_file(tmp, v) || (creat(tmp, 0644) >= 0 &&
					       !rr_write_file(tmp, v)))
			rename(tmp, p);
	}
	return NULL;
}

/* Full scans that merge nothing more end the wait early, without error. */
static void test_stops_when_scans_add_nothing(void)
{
	struct rr_ksm_counters c;
	char why[256] = "";
	pthread_t t;
	uint64_t t0;
	int err;

	setup();
	CHECK_EQ(rr_ksm_setup(why, sizeof(why)), 0);
	CHECK_STR(get("pages_to_scan"), "20000");
	rr_ksm_opts.merge_timeout_s = 30;
	scanning = true;
	CHECK_EQ(pthread_create(&t, NULL, scanner, NULL), 0);
	t0 = rr_now_ns();
	err = rr_ksm_merge(64, &c, why, sizeof(why));
	scanning = false;
	pthread_join(t, NULL);
	CHECK_EQ(err, 0);
	CHECK((rr_now_ns() - t0) < 5 * NSEC_PER_SEC);
	CHECK(c.full_scans >= 4);
	CHECK_STR(get("run"), "0");
	/* the replay puts the knobs it changed back */
	CHECK_EQ(journal_replay(journal_path(), false, NULL), 0);
	CHECK_STR(get("pages_to_scan"), "100");
	CHECK_STR(get("sleep_millisecs"), "20");
	CHECK_STR(get("run"), "0");
}

TEST_MAIN(T(test_timeout), T(test_stops_when_scans_add_nothing))

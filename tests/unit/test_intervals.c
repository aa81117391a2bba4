// SPDX-License-Identifier: GPL-2.0
/* Event pairing: per-task stacks, nesting, keys, marks, losses. */
#include "harness.h"
#include "probe/intervals.h"

enum { BR_A, BR_B };

static void feed(struct rr_pairer *p, uint64_t ts, int pid,
		 enum rr_ev_kind kind, int br, uint64_t key, uint64_t val)
{
	struct rr_event e = {
		.ts = ts, .pid = pid, .kind = kind, .bracket = br,
		.key = key, .value = val,
	};

	CHECK_EQ(rr_pairer_feed(p, &e), 0);
}

static void test_simple(void)
{
	struct rr_pairer p;

	rr_pairer_init(&p);
	feed(&p, 100, 1, RR_EV_START, BR_A, 0, 0);
	feed(&p, 350, 1, RR_EV_END, BR_A, 0, 7);
	rr_pairer_finish(&p);
	CHECK_EQ(p.nr_iv, 1);
	CHECK_EQ(p.iv[0].start, 100);
	CHECK_EQ(p.iv[0].end, 350);
	CHECK_EQ(p.iv[0].end_value, 7);
	CHECK_EQ(p.ends_without_start + p.starts_without_end, 0);
	rr_pairer_free(&p);
}

/* Two tasks interleaved in time must not pair with each other. */
static void test_tasks_apart(void)
{
	struct rr_pairer p;

	rr_pairer_init(&p);
	feed(&p, 10, 1, RR_EV_START, BR_A, 0, 0);
	feed(&p, 20, 2, RR_EV_START, BR_A, 0, 0);
	feed(&p, 30, 1, RR_EV_END, BR_A, 0, 0);
	feed(&p, 90, 2, RR_EV_END, BR_A, 0, 0);
	rr_pairer_finish(&p);
	CHECK_EQ(p.nr_iv, 2);
	CHECK_EQ(p.iv[0].pid, 1);
	CHECK_EQ(p.iv[0].end - p.iv[0].start, 20);
	CHECK_EQ(p.iv[1].pid, 2);
	CHECK_EQ(p.iv[1].end - p.iv[1].start, 70);
	rr_pairer_free(&p);
}

/* A bracket nested in another on the same task; marks go innermost. */
static void test_nesting_and_marks(void)
{
	struct rr_pairer p;

	rr_pairer_init(&p);
	feed(&p, 0, 5, RR_EV_START, BR_B, 0, 0);	/* compaction */
	feed(&p, 10, 5, RR_EV_START, BR_A, 0, 0);	/* batch 1 */
	feed(&p, 11, 5, RR_EV_MARK, BR_A, 0, 1);
	feed(&p, 12, 5, RR_EV_MARK, BR_A, 0, 1);
	feed(&p, 20, 5, RR_EV_END, BR_A, 0, 0);
	feed(&p, 30, 5, RR_EV_START, BR_A, 0, 0);	/* batch 2, no mark */
	feed(&p, 40, 5, RR_EV_END, BR_A, 0, 0);
	feed(&p, 41, 5, RR_EV_MARK, BR_A, 0, 1);	/* outside any batch */
	feed(&p, 50, 5, RR_EV_END, BR_B, 0, 0);
	rr_pairer_finish(&p);
	CHECK_EQ(p.nr_iv, 3);
	CHECK_EQ(p.iv[0].bracket, BR_A);
	CHECK_EQ(p.iv[0].marks, 2);
	CHECK_EQ(p.iv[1].marks, 0);
	CHECK_EQ(p.iv[2].bracket, BR_B);
	CHECK_EQ(p.iv[2].end - p.iv[2].start, 50);
	CHECK_EQ(p.marks_outside, 1);
	rr_pairer_free(&p);
}

/* The trace began inside a bracket, and ended inside another. */
static void test_dropped(void)
{
	struct rr_pairer p;

	rr_pairer_init(&p);
	feed(&p, 5, 1, RR_EV_END, BR_A, 0, 0);
	feed(&p, 10, 1, RR_EV_START, BR_A, 0, 0);
	feed(&p, 20, 1, RR_EV_END, BR_A, 0, 0);
	feed(&p, 30, 1, RR_EV_START, BR_A, 0, 0);
	rr_pairer_finish(&p);
	CHECK_EQ(p.nr_iv, 1);
	CHECK_EQ(p.ends_without_start, 1);
	CHECK_EQ(p.starts_without_end, 1);
	rr_pairer_free(&p);
}

/*
 * A lost end leaves a start open; the next end of the same bracket pairs
 * with the newer start, and the older one is dropped, not paired across.
 */
static void test_lost_end(void)
{
	struct rr_pairer p;

	rr_pairer_init(&p);
	feed(&p, 10, 1, RR_EV_START, BR_A, 0, 0);
	feed(&p, 20, 1, RR_EV_START, BR_A, 0, 0);
	feed(&p, 25, 1, RR_EV_END, BR_A, 0, 0);
	rr_pairer_finish(&p);
	CHECK_EQ(p.nr_iv, 1);
	CHECK_EQ(p.iv[0].start, 20);
	CHECK_EQ(p.starts_without_end, 1);
	rr_pairer_free(&p);
}

/* Keys (e.g. folio and rwc of a walk) pair only with their own start. */
static void test_keys(void)
{
	struct rr_pairer p;

	rr_pairer_init(&p);
	feed(&p, 10, 1, RR_EV_START, BR_A, 0xaaa, 0);
	feed(&p, 20, 1, RR_EV_START, BR_A, 0xbbb, 0);
	feed(&p, 30, 1, RR_EV_END, BR_A, 0xbbb, 0);
	feed(&p, 40, 1, RR_EV_END, BR_A, 0xaaa, 0);
	feed(&p, 50, 1, RR_EV_END, BR_A, 0xccc, 0);
	rr_pairer_finish(&p);
	CHECK_EQ(p.nr_iv, 2);
	CHECK_EQ(p.iv[0].key, 0xbbb);
	CHECK_EQ(p.iv[0].end - p.iv[0].start, 10);
	CHECK_EQ(p.iv[1].key, 0xaaa);
	CHECK_EQ(p.iv[1].end - p.iv[1].start, 30);
	CHECK_EQ(p.ends_without_start, 1);
	rr_pairer_free(&p);
}

static void test_many(void)
{
	struct rr_pairer p;
	int i;

	rr_pairer_init(&p);
	for (i = 0; i < 10000; i++) {
		feed(&p, i * 10, i % 7, RR_EV_START, BR_A, 0, 0);
		feed(&p, i * 10 + 3, i % 7, RR_EV_END, BR_A, 0, 0);
	}
	rr_pairer_finish(&p);
	CHECK_EQ(p.nr_iv, 10000);
	CHECK_EQ(p.out_of_order, 0);
	CHECK_EQ(p.nr_tasks, 7);
	rr_pairer_free(&p);
}

TEST_MAIN(T(test_simple), T(test_tasks_apart), T(test_nesting_and_marks),
	  T(test_dropped), T(test_lost_end), T(test_keys), T(test_many))

// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding binary records through libtraceevent, with the event formats
 * recorded from a 6.18 kernel (tests/data), and pairing them into
 * bracket intervals: what rr_bprobe_collect() does with a live buffer.
 */
#include <event-parse.h>
#include <stdlib.h>

#include "bracket.h"
#include "harness.h"

static struct tep_handle *tep;

static void load(const char *file, const char *sys)
{
	char path[256], buf[8192];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", getenv("TEST_DATA") ?
		 getenv("TEST_DATA") : "tests/data", file);
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	CHECK_EQ(tep_parse_event(tep, buf, n, sys), 0);
}

/* Lay out a record by the parsed format: common fields, then ours. */
struct rec {
	struct tep_record r;
	unsigned char data[64];
};

static void put_field(struct tep_event *ev, unsigned char *data,
		      const char *name, unsigned long long val)
{
	struct tep_format_field *f = tep_find_any_field(ev, name);

	CHECK(f != NULL);
	if (!f)
		return;
	memcpy(data + f->offset, &val, f->size);	/* little endian */
}

static struct tep_event *event(const char *sys, const char *name)
{
	struct tep_event *ev = tep_find_event_by_name(tep, sys, name);

	CHECK(ev != NULL);
	return ev;
}

static void make(struct rec *r, struct tep_event *ev, unsigned long long ts,
		 int pid)
{
	memset(r, 0, sizeof(*r));
	r->r.ts = ts;
	r->r.data = r->data;
	r->r.size = sizeof(r->data);
	put_field(ev, r->data, "common_type", ev->id);
	put_field(ev, r->data, "common_pid", pid);
}

static void setup(void)
{
	tep = tep_alloc();
	load("migrate_mm_migrate_pages_start.format", "migrate");
	load("migrate_mm_migrate_pages.format", "migrate");
	load("migrate_set_migration_pte.format", "migrate");
	load("vmscan_mm_vmscan_memcg_reclaim_begin.format", "vmscan");
	load("vmscan_mm_vmscan_memcg_reclaim_end.format", "vmscan");
}

/* A bprobe as rr_bprobe_setup() builds it, without a live instance. */
static void probe_for(struct rr_bprobe *bp, int bracket, bool marks)
{
	const struct rr_bracket_def *d = &rr_brackets[bracket];

	memset(bp, 0, sizeof(*bp));
	bp->bracket = bracket;
	bp->tep = tep;
	bp->use_marks = marks;
	rr_pairer_init(&bp->pairer);
	bp->dec[0] = (struct rr_decoder){ event(d->system, d->start)->id,
					  RR_EV_START, bracket, NULL };
	bp->dec[1] = (struct rr_decoder){ event(d->system, d->end)->id,
					  RR_EV_END, bracket, d->value_field };
	bp->ndec = 2;
	if (marks)
		bp->dec[bp->ndec++] = (struct rr_decoder){
			event(d->mark_system, d->mark_event)->id,
			RR_EV_MARK, bracket, NULL };
}

static void feed(struct rr_bprobe *bp, struct rec *r)
{
	struct tep_event *ev = tep_find_event_by_record(tep, &r->r);
	struct rr_event e;

	CHECK(ev != NULL);
	if (ev && rr_bprobe_decode(bp, ev, &r->r, &e))
		rr_pairer_feed(&bp->pairer, &e);
}

static void test_decode_fields(void)
{
	struct tep_event *end = event("migrate", "mm_migrate_pages");
	struct rr_bprobe bp;
	struct rr_event e;
	struct rec r;

	probe_for(&bp, RR_BR_MIGRATE, true);
	make(&r, end, 123456789ULL, 4242);
	put_field(end, r.data, "succeeded", 31);
	put_field(end, r.data, "failed", 1);
	CHECK(rr_bprobe_decode(&bp, end, &r.r, &e));
	CHECK_EQ(e.kind, RR_EV_END);
	CHECK_EQ(e.pid, 4242);
	CHECK_EQ(e.ts, 123456789ULL);
	CHECK_EQ(e.value, 31);
	/* Another event is not the probe's. */
	make(&r, event("vmscan", "mm_vmscan_memcg_reclaim_end"), 1, 1);
	CHECK(!rr_bprobe_decode(&bp, event("vmscan",
		"mm_vmscan_memcg_reclaim_end"), &r.r, &e));
	rr_pairer_free(&bp.pairer);
}

static void test_migrate_batches(void)
{
	struct tep_event *st = event("migrate", "mm_migrate_pages_start");
	struct tep_event *en = event("migrate", "mm_migrate_pages");
	struct tep_event *mk = event("migrate", "set_migration_pte");
	struct rr_samples out = { 0 };
	struct rr_bprobe_result res = { 0 };
	struct rr_bprobe bp;
	struct rec r;
	int i;

	probe_for(&bp, RR_BR_MIGRATE, true);
	/* batch 1: 2 ms, no pattern PTE; batch 2: 350 ms, 256 PTEs */
	make(&r, st, 1000000, 7); feed(&bp, &r);
	make(&r, en, 3000000, 7); feed(&bp, &r);
	make(&r, st, 10000000, 7); feed(&bp, &r);
	for (i = 0; i < 256; i++) {
		make(&r, mk, 10000000 + i * 1000, 7);
		put_field(mk, r.data, "addr", 0x7f0000000000ULL + i * 4096);
		feed(&bp, &r);
	}
	make(&r, en, 360000000, 7); feed(&bp, &r);
	/* an end whose start was before the trace */
	make(&r, en, 370000000, 8); feed(&bp, &r);
	rr_bprobe_finish(&bp, &out, &res);
	CHECK_EQ(res.intervals, 2);
	CHECK_EQ(res.counted, 1);	/* only the batch in the pattern */
	CHECK_EQ(res.marks, 256);
	CHECK_EQ(res.unpaired, 1);
	CHECK_EQ(out.n, 1);
	if (out.n)
		CHECK_NEAR(out.v[0], 350.0, 1e-9);
	rr_samples_free(&out);
}

static void test_reclaim_passes(void)
{
	struct tep_event *st = event("vmscan", "mm_vmscan_memcg_reclaim_begin");
	struct tep_event *en = event("vmscan", "mm_vmscan_memcg_reclaim_end");
	struct rr_samples out = { 0 };
	struct rr_bprobe_result res = { 0 };
	struct rr_bprobe bp;
	struct rec r;

	probe_for(&bp, RR_BR_MEMCG_RECLAIM, false);
	make(&r, st, 0, 1); feed(&bp, &r);
	make(&r, st, 100, 2); feed(&bp, &r);
	make(&r, en, 4000100, 2); feed(&bp, &r);
	make(&r, en, 125800000, 1);
	put_field(en, r.data, "nr_reclaimed", 2);
	feed(&bp, &r);
	rr_bprobe_finish(&bp, &out, &res);
	CHECK_EQ(res.counted, 2);
	CHECK_EQ(out.n, 2);
	if (out.n == 2) {
		CHECK_NEAR(out.v[0], 4.0, 1e-9);	/* task 2 ends first */
		CHECK_NEAR(out.v[1], 125.8, 1e-9);
	}
	rr_samples_free(&out);
}

static void test_pid_filter(void)
{
	int pids[] = { 10, 11 };
	char buf[128];

	rr_pid_filter(pids, 2, buf, sizeof(buf));
	CHECK_STR(buf, "common_pid == 10 || common_pid == 11");
	rr_pid_filter(pids, 1, buf, sizeof(buf));
	CHECK_STR(buf, "common_pid == 10");
}

int main(void)
{
	static const struct t_case cases[] = {
		T(test_decode_fields), T(test_migrate_batches),
		T(test_reclaim_passes), T(test_pid_filter),
	};
	size_t i;

	setup();
	printf("KTAP version 1\n1..%zu\n", sizeof(cases) / sizeof(cases[0]));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		t_run(cases[i].name, cases[i].fn);
	tep_free(tep);
	return t_failures ? 1 : 0;
}

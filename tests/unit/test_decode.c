// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding binary records through libtraceevent, with the event formats
 * recorded from a 6.18 kernel (tests/data), and pairing them into
 * bracket intervals: what rr_bprobe_collect() does with a live buffer.
 */
#include <event-parse.h>
#include <stdlib.h>

#include "harness.h"
#include "probe/bracket.h"
#include "probe/walkfn.h"

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
	unsigned char data[96];
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
	load("6.12-rmap_rmap_walk_start.format", "rmap");
	load("6.12-rmap_rmap_walk_end.format", "rmap");
	load("6.12-migrate_remove_migration_pte.format", "migrate");
	load("synthetic-rmap_rmap_walk.format", "rmap");
	load("6.12-ftrace_funcgraph_entry.format", "ftrace");
	load("6.12-ftrace_funcgraph_exit.format", "ftrace");
	load("6.12-rmap_repro_rr_walk_ksm.format", "rmap_repro");
	load("6.12-rmap_repro_rr_walk_ksm_ret.format", "rmap_repro");
	load("6.12-rmap_repro_rr_part_ksm.format", "rmap_repro");
	load("6.12-rmap_repro_rr_part_ksm_ret.format", "rmap_repro");
}

/* A probe as rr_bprobe_arm() builds it, without a live instance. */
static void probe_for(struct rr_bprobe *bp, int bracket, bool marks)
{
	rr_bprobe_init(bp, tep, bracket);
	CHECK_EQ(rr_bprobe_decoders(bp, marks), 0);
}

/* A __data_loc string: offset and length in the field, text after. */
static void put_string(struct tep_event *ev, unsigned char *data,
		       const char *name, const char *val, int at)
{
	int len = strlen(val) + 1;

	put_field(ev, data, name, (unsigned long long)len << 16 | at);
	memcpy(data + at, val, len);
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

static void walk(struct rr_bprobe *bp, struct tep_event *ev,
		 unsigned long long ts, int pid, unsigned long folio,
		 unsigned long rwc, const char *type)
{
	struct rec r;

	make(&r, ev, ts, pid);
	put_field(ev, r.data, "folio_addr", folio);
	put_field(ev, r.data, "rwc_addr", rwc);
	put_string(ev, r.data, "page_type", type, 40);
	feed(bp, &r);
}

/* rmap/rmap_walk_start and _end of the 6.12 test kernel. */
static void test_rmap_walks(void)
{
	struct tep_event *st = event("rmap", "rmap_walk_start");
	struct tep_event *en = event("rmap", "rmap_walk_end");
	struct rr_samples out = { 0 };
	struct rr_bprobe_result res = { 0 };
	struct rr_bprobe bp;

	probe_for(&bp, RR_BR_RMAP_WALK, false);
	bp.type = "ksm";
	/* a KSM walk of 730 ms, with an anon walk of another folio nested
	 * on the same task (skipped: not the case's type) */
	walk(&bp, st, 1000000, 9, 0xf1, 0xa1, "ksm");
	walk(&bp, st, 2000000, 9, 0xf2, 0xa2, "anon");
	walk(&bp, en, 2100000, 9, 0xf2, 0xa2, "anon");
	/* another task's KSM walk of the same folio, other rwc */
	walk(&bp, st, 3000000, 10, 0xf1, 0xa3, "ksm");
	walk(&bp, en, 731000000, 9, 0xf1, 0xa1, "ksm");
	walk(&bp, en, 900000000, 10, 0xf1, 0xa3, "ksm");
	/* an end whose rwc differs from every open start: dropped */
	walk(&bp, en, 950000000, 10, 0xf1, 0xa9, "ksm");
	rr_bprobe_finish(&bp, &out, &res);
	CHECK_EQ(bp.other_type, 2);
	CHECK_EQ(res.counted, 2);
	CHECK_EQ(res.unpaired, 1);
	CHECK_EQ(out.n, 2);
	if (out.n == 2) {
		CHECK_NEAR(out.v[0], 730.0, 1e-9);
		CHECK_NEAR(out.v[1], 897.0, 1e-9);
	}
	rr_samples_free(&out);
}

/* Under compaction only walks that touched the pattern count. */
static void test_rmap_walk_marks(void)
{
	struct tep_event *st = event("rmap", "rmap_walk_start");
	struct tep_event *en = event("rmap", "rmap_walk_end");
	struct tep_event *rm = event("migrate", "remove_migration_pte");
	struct rr_samples out = { 0 };
	struct rr_bprobe_result res = { 0 };
	struct rr_bprobe bp;
	struct rec r;

	probe_for(&bp, RR_BR_RMAP_WALK, true);
	CHECK(bp.use_marks);
	CHECK_EQ(bp.ndec, 4);
	walk(&bp, st, 100, 3, 0xf1, 0xb1, "anon");
	walk(&bp, en, 200, 3, 0xf1, 0xb1, "anon");	/* not ours */
	walk(&bp, st, 300, 3, 0xf2, 0xb2, "anon");
	make(&r, rm, 350, 3);
	put_field(rm, r.data, "addr", 0x7f0000001000ULL);
	feed(&bp, &r);
	walk(&bp, en, 1300, 3, 0xf2, 0xb2, "anon");
	rr_bprobe_finish(&bp, &out, &res);
	CHECK_EQ(res.intervals, 2);
	CHECK_EQ(res.counted, 1);
	CHECK_EQ(res.marks, 1);
	if (out.n == 1)
		CHECK_NEAR(out.v[0], 0.001, 1e-12);
	rr_samples_free(&out);
}

/* The early single-event form: a duration field, no pairing. */
static void test_rmap_walk_v1(void)
{
	struct tep_event *ev = event("rmap", "rmap_walk");
	struct rr_samples out = { 0 };
	struct rr_bprobe_result res = { 0 };
	struct rr_bprobe bp;
	struct rec r;

	probe_for(&bp, RR_BR_RMAP_WALK_V1, false);
	bp.type = "ksm";
	make(&r, ev, 800000000, 5);
	put_field(ev, r.data, "duration_ns", 705120000);
	put_string(ev, r.data, "page_type", "ksm", 40);
	feed(&bp, &r);
	make(&r, ev, 900000000, 5);
	put_field(ev, r.data, "duration_ns", 70000);
	put_string(ev, r.data, "page_type", "file", 40);
	feed(&bp, &r);
	rr_bprobe_finish(&bp, &out, &res);
	CHECK_EQ(res.counted, 1);
	CHECK_EQ(bp.other_type, 1);
	if (out.n == 1)
		CHECK_NEAR(out.v[0], 705.12, 1e-9);
	rr_samples_free(&out);
}

/* The walk functions of the 6.12 test kernel, from its kallsyms. */
static void fns_612(struct rr_walkfn fns[RR_PT_MAX])
{
	char path[256], buf[4096];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/6.12-kallsyms-excerpt.txt",
		 getenv("TEST_DATA") ? getenv("TEST_DATA") : "tests/data");
	f = fopen(path, "r");
	CHECK(f != NULL);
	n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
	CHECK_EQ(rr_walkfn_parse(buf, fns), 3);
}

static void graph(struct rr_bprobe *bp, bool exit, unsigned long long ts,
		  int pid, unsigned long func, unsigned long long call,
		  unsigned long long ret)
{
	struct tep_event *ev = event("ftrace", exit ? "funcgraph_exit" :
				     "funcgraph_entry");
	struct rec r;

	make(&r, ev, ts, pid);
	put_field(ev, r.data, "func", func);
	if (exit) {
		put_field(ev, r.data, "calltime", call);
		put_field(ev, r.data, "rettime", ret);
	}
	feed(bp, &r);
}

/* function_graph: the type from the function, the length from the exit. */
static void test_funcgraph(void)
{
	struct rr_samples out = { 0 };
	struct rr_bprobe_result res = { 0 };
	struct rr_walkfn fns[RR_PT_MAX];
	struct rr_bprobe bp;
	unsigned long ksm, anon;

	fns_612(fns);
	ksm = fns[RR_PT_KSM].addr + 4;	/* past ENDBR64 */
	anon = fns[RR_PT_ANON].addr;
	probe_for(&bp, RR_BR_FUNCGRAPH, false);
	bp.fns = fns;
	bp.type = "ksm";
	graph(&bp, false, 1000, 7, ksm, 0, 0);
	graph(&bp, false, 2000, 7, anon, 0, 0);		/* other type */
	graph(&bp, true, 2500, 7, anon, 2000, 2400);
	graph(&bp, true, 733000000, 7, ksm, 5000, 733004000);
	graph(&bp, false, 800000000, 7, 0xffffffff81000000UL, 0, 0);
	rr_bprobe_finish(&bp, &out, &res);
	CHECK_EQ(res.counted, 1);
	CHECK_EQ(bp.other_type, 2);
	CHECK_EQ(bp.other_func, 1);
	CHECK_EQ(res.unpaired, 0);
	/* rettime - calltime, not the record timestamps */
	if (out.n == 1)
		CHECK_NEAR(out.v[0], 732.999, 1e-9);
	rr_samples_free(&out);
}

/* kprobe + kretprobe of the suite's group: the type is in the name. */
static void test_kprobe(void)
{
	struct tep_event *en = event("rmap_repro", "rr_walk_ksm");
	struct tep_event *ex = event("rmap_repro", "rr_walk_ksm_ret");
	struct rr_samples out = { 0 };
	struct rr_bprobe_result res = { 0 };
	struct rr_bprobe bp;
	struct rec r;

	/* Only the ksm pair exists here: the others are left out. */
	probe_for(&bp, RR_BR_KPROBE, false);
	CHECK_EQ(bp.ndec, 2);
	bp.type = "ksm";
	make(&r, en, 1000000, 3); feed(&bp, &r);
	make(&r, en, 1500000, 4); feed(&bp, &r);
	make(&r, ex, 981000000, 3); feed(&bp, &r);
	make(&r, ex, 982500000, 4); feed(&bp, &r);
	make(&r, ex, 990000000, 5); feed(&bp, &r);	/* no entry seen */
	rr_bprobe_finish(&bp, &out, &res);
	CHECK_EQ(res.counted, 2);
	CHECK_EQ(res.unpaired, 1);
	if (out.n == 2) {
		CHECK_NEAR(out.v[0], 980.0, 1e-9);
		CHECK_NEAR(out.v[1], 981.0, 1e-9);
	}
	rr_samples_free(&out);
}

/*
 * The part's kprobe pair (collect_procs_ksm) and the walk's, in one
 * buffer: each probe pairs its own events only, so that the split's part
 * and walks never count the same time.
 */
static void test_part_apart(void)
{
	struct tep_event *we = event("rmap_repro", "rr_walk_ksm");
	struct tep_event *wx = event("rmap_repro", "rr_walk_ksm_ret");
	struct tep_event *pe = event("rmap_repro", "rr_part_ksm");
	struct tep_event *px = event("rmap_repro", "rr_part_ksm_ret");
	struct rr_samples wout = { 0 }, pout = { 0 };
	struct rr_bprobe_result wres = { 0 }, pres = { 0 };
	struct rr_bprobe walk, part;
	struct rec r;

	probe_for(&walk, RR_BR_KPROBE, false);
	probe_for(&part, RR_BR_PART, false);
	CHECK_EQ(walk.ndec, 2);
	CHECK_EQ(part.ndec, 2);
	/* collect_procs_ksm 10..610 ms, then the unmapping walk 611..700 */
	make(&r, pe, 10000000, 3); feed(&walk, &r); feed(&part, &r);
	make(&r, px, 610000000, 3); feed(&walk, &r); feed(&part, &r);
	make(&r, we, 611000000, 3); feed(&walk, &r); feed(&part, &r);
	make(&r, wx, 700000000, 3); feed(&walk, &r); feed(&part, &r);
	rr_bprobe_finish(&walk, &wout, &wres);
	rr_bprobe_finish(&part, &pout, &pres);
	CHECK_EQ(wres.counted, 1);
	CHECK_EQ(pres.counted, 1);
	CHECK_EQ(wres.unpaired + pres.unpaired, 0);
	if (wout.n == 1 && pout.n == 1) {
		CHECK_NEAR(wout.v[0], 89.0, 1e-9);
		CHECK_NEAR(pout.v[0], 600.0, 1e-9);
	}
	rr_samples_free(&wout);
	rr_samples_free(&pout);
}

/* Records of tasks outside the reproducer are dropped when decoding. */
static void test_pid_drop(void)
{
	struct rr_samples out = { 0 };
	struct rr_bprobe_result res = { 0 };
	struct tep_event *en = event("rmap_repro", "rr_walk_ksm");
	struct tep_event *ex = event("rmap_repro", "rr_walk_ksm_ret");
	struct rr_bprobe bp;
	struct rec r;

	probe_for(&bp, RR_BR_KPROBE, false);
	bp.pids[0] = 3;
	bp.npids = 1;
	make(&r, en, 10, 3); feed(&bp, &r);
	make(&r, en, 11, 99); feed(&bp, &r);
	make(&r, ex, 20, 99); feed(&bp, &r);
	make(&r, ex, 30, 3); feed(&bp, &r);
	rr_bprobe_finish(&bp, &out, &res);
	CHECK_EQ(res.counted, 1);
	CHECK_EQ(res.unpaired, 0);
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
	rr_pid_filter(pids, 0, buf, sizeof(buf));
	CHECK_STR(buf, "");
}

/*
 * A trigger at work anywhere names no task: its walk events are still
 * filtered by page type in the kernel (an empty pid filter once made the
 * filter "() && page_type == ...", which the kernel refused, so the
 * events went unfiltered and a pressure phase overflowed the buffer).
 */
static void test_bracket_filter(void)
{
	int pids[] = { 10, 11 };
	char own[64], buf[160];

	rr_pid_filter(pids, 0, own, sizeof(own));
	rr_bracket_filter(RR_BR_RMAP_WALK, own, "ksm", true, buf,
			  sizeof(buf));
	CHECK_STR(buf, "page_type == \"ksm\"");
	rr_bracket_filter(RR_BR_RMAP_WALK, NULL, "anon", true, buf,
			  sizeof(buf));
	CHECK_STR(buf, "page_type == \"anon\"");
	rr_bracket_filter(RR_BR_RMAP_WALK, own, "ksm", false, buf,
			  sizeof(buf));
	CHECK_STR(buf, "");
	rr_pid_filter(pids, 2, own, sizeof(own));
	rr_bracket_filter(RR_BR_RMAP_WALK, own, "file", true, buf,
			  sizeof(buf));
	CHECK_STR(buf,
		  "(common_pid == 10 || common_pid == 11) && page_type == \"file\"");
	rr_bracket_filter(RR_BR_RMAP_WALK, own, "file", false, buf,
			  sizeof(buf));
	CHECK_STR(buf, "common_pid == 10 || common_pid == 11");
	/* a bracket without a type field: the tasks only */
	rr_bracket_filter(RR_BR_MEMCG_RECLAIM, own, "ksm", true, buf,
			  sizeof(buf));
	CHECK_STR(buf, "common_pid == 10 || common_pid == 11");
}

int main(void)
{
	static const struct t_case cases[] = {
		T(test_decode_fields), T(test_migrate_batches),
		T(test_bracket_filter),
		T(test_reclaim_passes), T(test_rmap_walks),
		T(test_rmap_walk_marks), T(test_rmap_walk_v1),
		T(test_funcgraph), T(test_kprobe), T(test_part_apart), T(test_pid_drop),
		T(test_pid_filter),
	};
	size_t i;

	setup();
	printf("KTAP version 1\n1..%zu\n", sizeof(cases) / sizeof(cases[0]));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		t_run(cases[i].name, cases[i].fn);
	tep_free(tep);
	return t_failures ? 1 : 0;
}

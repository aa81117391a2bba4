// SPDX-License-Identifier: GPL-2.0
/*
 * Lock waits: pairing lock:contention_begin/end per task and address,
 * the nesting of a wait_lock inside an rwsem's wait, a mutex's spin then
 * sleep, mmap_lock waits told apart, and the figures of a group.
 */
#include "harness.h"
#include "probe/waits.h"

#define MS 1000000ULL

static void test_one_wait(void)
{
	struct rr_waits ws;

	rr_waits_init(&ws);
	CHECK_EQ(rr_waits_begin(&ws, 7, 100, 0xa0, RR_LCB_WRITE), 0);
	CHECK_EQ(rr_waits_end(&ws, 7, 100 + 5 * MS, 0xa0), 0);
	rr_waits_finish(&ws);
	CHECK_EQ(ws.n, 1);
	CHECK_EQ(ws.w[0].pid, 7);
	CHECK_EQ(ws.w[0].addr, 0xa0);
	CHECK_EQ(ws.w[0].end - ws.w[0].start, 5 * MS);
	CHECK_EQ(ws.w[0].flags, RR_LCB_WRITE);
	CHECK_EQ(ws.unpaired, 0);
	rr_waits_free(&ws);
}

/* Two tasks on one lock, interleaved: each pairs with its own. */
static void test_tasks_apart(void)
{
	struct rr_waits ws;

	rr_waits_init(&ws);
	rr_waits_begin(&ws, 1, 10, 0xa0, RR_LCB_WRITE);
	rr_waits_begin(&ws, 2, 20, 0xa0, RR_LCB_READ);
	rr_waits_end(&ws, 2, 25, 0xa0);
	rr_waits_end(&ws, 1, 90, 0xa0);
	rr_waits_finish(&ws);
	CHECK_EQ(ws.n, 2);
	CHECK_EQ(ws.w[0].pid, 2);
	CHECK_EQ(ws.w[0].end - ws.w[0].start, 5);
	CHECK_EQ(ws.w[1].pid, 1);
	CHECK_EQ(ws.w[1].end - ws.w[1].start, 80);
	rr_waits_free(&ws);
}

/*
 * The rwsem's slow path spins on its wait_lock inside the rwsem's wait:
 * the spinlock's wait is counted apart, the rwsem's kept whole.
 */
static void test_nested_spinlock(void)
{
	struct rr_waits ws;

	rr_waits_init(&ws);
	rr_waits_begin(&ws, 1, 10, 0xa0, RR_LCB_WRITE);
	rr_waits_begin(&ws, 1, 11, 0xb0, RR_LCB_SPIN);
	rr_waits_end(&ws, 1, 12, 0xb0);
	rr_waits_end(&ws, 1, 50, 0xa0);
	rr_waits_finish(&ws);
	CHECK_EQ(ws.n, 1);
	CHECK_EQ(ws.w[0].addr, 0xa0);
	CHECK_EQ(ws.w[0].end - ws.w[0].start, 40);
	CHECK_EQ(ws.spins, 1);
	CHECK_EQ(ws.unpaired, 0);
	rr_waits_free(&ws);
}

/* A mutex spins (MUTEX|SPIN), then sleeps (MUTEX): one wait. */
static void test_mutex_spin_then_sleep(void)
{
	struct rr_waits ws;

	rr_waits_init(&ws);
	rr_waits_begin(&ws, 1, 10, 0xc0, RR_LCB_MUTEX | RR_LCB_SPIN);
	rr_waits_begin(&ws, 1, 30, 0xc0, RR_LCB_MUTEX);
	rr_waits_end(&ws, 1, 70, 0xc0);
	/* and a mutex taken by spinning alone is a mutex wait too */
	rr_waits_begin(&ws, 1, 80, 0xc0, RR_LCB_MUTEX | RR_LCB_SPIN);
	rr_waits_end(&ws, 1, 85, 0xc0);
	rr_waits_finish(&ws);
	CHECK_EQ(ws.n, 2);
	CHECK_EQ(ws.w[0].start, 10);
	CHECK_EQ(ws.w[0].end, 70);
	CHECK_EQ(ws.w[0].flags, RR_LCB_MUTEX);
	CHECK_STR(rr_wait_kind(ws.w[0].flags), "mutex");
	CHECK_EQ(ws.spins, 0);
	rr_waits_free(&ws);
}

/* Edges of the trace: an end first, a begin last; never guessed. */
static void test_edges_dropped(void)
{
	struct rr_waits ws;
	int i;

	rr_waits_init(&ws);
	rr_waits_end(&ws, 1, 5, 0xa0);
	rr_waits_begin(&ws, 1, 10, 0xa0, RR_LCB_WRITE);
	rr_waits_end(&ws, 1, 20, 0xa0);
	rr_waits_begin(&ws, 2, 30, 0xa0, RR_LCB_READ);
	/* an end on another lock pops nothing */
	rr_waits_end(&ws, 2, 35, 0xd0);
	rr_waits_finish(&ws);
	CHECK_EQ(ws.n, 1);
	CHECK_EQ(ws.unpaired, 3);
	rr_waits_free(&ws);

	/* deeper than RR_WAIT_DEPTH: the extra begin is dropped */
	rr_waits_init(&ws);
	for (i = 0; i <= RR_WAIT_DEPTH; i++)
		rr_waits_begin(&ws, 1, 10 + i, 0x100 + i, RR_LCB_WRITE);
	CHECK_EQ(ws.unpaired, 1);
	/* an end of an outer lock drops the inner ones still open */
	rr_waits_end(&ws, 1, 100, 0x100);
	CHECK_EQ(ws.n, 1);
	CHECK_EQ(ws.unpaired, 1 + RR_WAIT_DEPTH - 1);
	rr_waits_free(&ws);
}

/* Inside start_locking .. acquire_returned: the mmap_lock's. */
static void test_mmap_lock(void)
{
	struct rr_waits ws;

	rr_waits_init(&ws);
	rr_waits_mmap(&ws, 1, true);
	rr_waits_begin(&ws, 1, 10, 0xa0, RR_LCB_WRITE);
	rr_waits_end(&ws, 1, 20, 0xa0);
	rr_waits_mmap(&ws, 1, false);
	rr_waits_begin(&ws, 1, 30, 0xe0, RR_LCB_WRITE);
	rr_waits_end(&ws, 1, 40, 0xe0);
	rr_waits_finish(&ws);
	CHECK_EQ(ws.n, 2);
	CHECK(ws.w[0].flags & RR_WAIT_MMAP);
	CHECK_STR(rr_wait_kind(ws.w[0].flags), "write, mmap_lock");
	CHECK(!(ws.w[1].flags & RR_WAIT_MMAP));
	CHECK_STR(rr_wait_kind(ws.w[1].flags), "write");
	rr_waits_free(&ws);
}

static void test_sleeping(void)
{
	CHECK(rr_wait_sleeping(RR_LCB_WRITE));
	CHECK(rr_wait_sleeping(RR_LCB_READ));
	CHECK(rr_wait_sleeping(RR_LCB_PERCPU | RR_LCB_WRITE));
	CHECK(rr_wait_sleeping(RR_LCB_MUTEX | RR_LCB_SPIN));
	CHECK(rr_wait_sleeping(RR_LCB_RT));
	CHECK(!rr_wait_sleeping(RR_LCB_SPIN));
	/* rwlock_t: spins, reader or writer */
	CHECK(!rr_wait_sleeping(RR_LCB_SPIN | RR_LCB_READ));
	CHECK(!rr_wait_sleeping(RR_LCB_SPIN | RR_LCB_WRITE));
}

static bool is_one(const void *ctx, int pid)
{
	return pid == *(const int *)ctx;
}

/* The part of a task's waits inside a call, clipped to it. */
static void test_within(void)
{
	struct rr_waits ws;
	unsigned int flags;
	int one = 1;

	rr_waits_init(&ws);
	rr_waits_begin(&ws, 1, 0, 0xa0, RR_LCB_READ);
	rr_waits_end(&ws, 1, 4 * MS, 0xa0);
	rr_waits_begin(&ws, 1, 6 * MS, 0xb0, RR_LCB_WRITE);
	rr_waits_end(&ws, 1, 9 * MS, 0xb0);
	rr_waits_begin(&ws, 2, 0, 0xb0, RR_LCB_WRITE);
	rr_waits_end(&ws, 2, 10 * MS, 0xb0);
	rr_waits_finish(&ws);
	/* [2, 8) ms: 2 ms of the first, 2 of the second; not task 2's */
	CHECK_NEAR(rr_waits_within(&ws, is_one, &one, 2 * MS, 8 * MS, &flags),
		   4, 1e-9);
	CHECK_EQ(flags, RR_LCB_READ | RR_LCB_WRITE);
	CHECK_NEAR(rr_waits_within(&ws, is_one, &one, 4 * MS, 6 * MS, &flags),
		   0, 1e-9);
	CHECK_EQ(flags, 0);
	rr_waits_free(&ws);
}

/* A group's figures: counts by kind, the lock that took the most. */
static void test_figures(void)
{
	struct rr_wait_acc a = { 0 };
	struct rr_wait_fig f = { 0 };
	struct rr_wait w = { .pid = 1 };
	int i;

	w.addr = 0xa0;
	w.flags = RR_LCB_WRITE;
	for (i = 1; i <= 3; i++) {
		w.start = 0;
		w.end = i * MS;
		rr_wait_acc_add(&a, &w);
	}
	w.addr = 0xb0;
	w.flags = RR_LCB_READ;
	w.end = 10 * MS;
	rr_wait_acc_add(&a, &w);
	w.addr = 0xc0;
	w.flags = RR_LCB_MUTEX;
	w.end = MS / 2;
	rr_wait_acc_add(&a, &w);
	rr_wait_acc_fig(&a, &f);
	CHECK_EQ(f.ms.count, 5);
	CHECK_NEAR(f.ms.max, 10, 1e-9);
	CHECK_NEAR(f.total_ms, 16.5, 1e-9);
	CHECK_EQ(f.writes, 3);
	CHECK_EQ(f.reads, 1);
	CHECK_EQ(f.mutexes, 1);
	CHECK_EQ(f.locks, 3);
	CHECK(!f.locks_more);
	/* 0xb0 took 10 ms in one wait, 0xa0 6 ms in three */
	CHECK_EQ(f.top_addr, 0xb0);
	CHECK_EQ(f.top_count, 1);
	CHECK_NEAR(f.top_ms, 10, 1e-9);
	CHECK_EQ(f.top_flags, RR_LCB_READ);
	/* more locks than the table holds: said, and the waits counted */
	for (i = 0; i < RR_WAIT_LOCKS; i++) {
		w.addr = 0x1000 + i;
		rr_wait_acc_add(&a, &w);
	}
	rr_wait_acc_fig(&a, &f);
	CHECK_EQ(f.locks, RR_WAIT_LOCKS);
	CHECK(f.locks_more);
	CHECK_EQ(f.ms.count, 5 + RR_WAIT_LOCKS);
	rr_wait_acc_free(&a);
}

/* A hist file keyed by stack: the top entry's caller, past the lock code. */
static void test_stack_parse(void)
{
	static const char text[] =
		"# event histogram\n#\n# trigger info: hist:keys=common_stacktrace:vals=hitcount:sort=hitcount.descending:size=256 if common_pid == 7 [active]\n#\n\n"
		"{ common_stacktrace:\n"
		"         rwsem_down_write_slowpath+0x2ad/0x560\n"
		"         down_write+0x62/0x70\n"
		"         unlink_anon_vmas+0x7c/0x1c0\n"
		"         vma_complete+0x1a4/0x3a0\n"
		"         commit_merge+0x13c/0x1c0\n"
		"         entry_SYSCALL_64_after_hwframe+0x76/0x7e\n"
		"} hitcount:        177\n"
		"{ stacktrace:\n"
		"         __rwsem_down_write_slowpath+0x10/0x20\n"
		"         anon_vma_clone+0x5e/0x1e0\n"
		"         __split_vma+0x12f/0x2f0\n"
		"} hitcount:         40\n"
		"\nTotals:\n    Hits: 217\n    Entries: 2\n    Dropped: 0\n";
	struct rr_wait_stack st;

	rr_waits_stack_parse(text, &st);
	CHECK_STR(st.caller, "unlink_anon_vmas < vma_complete < commit_merge");
	CHECK_EQ(st.hits, 177);
	CHECK_EQ(st.all, 217);
	/* a stack of lock code alone: no caller, the hits counted */
	rr_waits_stack_parse("{ stacktrace:\n  down_write+0x1/0x2\n} hitcount: 3\n",
			     &st);
	CHECK_STR(st.caller, "");
	CHECK_EQ(st.all, 3);
	rr_waits_stack_parse("", &st);
	CHECK_EQ(st.all, 0);
}

/*
 * Reclaim's give-ups from the hist trigger's text (recorded from the
 * 6.12 test kernel under the pressure trigger, with -1 lines added: the
 * hist prints a key as a u64, the s32's -1 sign-extended; 4294967295 and
 * -1 read as -1 too): every return counts as a call, the -1 ones as
 * give-ups.
 */
static void test_giveups_parse(void)
{
	static const char text[] =
		"# event histogram\n#\n# trigger info: hist:keys=ret:vals=hitcount:sort=hitcount:size=2048 [active]\n#\n\n"
		"{ ret:        256 } hitcount:          2\n"
		"{ ret:          1 } hitcount:       9332\n"
		"{ ret: 18446744073709551615 } hitcount:         40\n"
		"{ ret: 4294967295 } hitcount:          2\n"
		"{ ret:         -1 } hitcount:          3\n"
		"{ ret:          0 } hitcount:      57777\n"
		"\nTotals:\n    Hits: 67156\n    Entries: 6\n    Dropped: 0\n";
	unsigned long long calls, giveups;

	rr_giveups_parse(text, &calls, &giveups);
	CHECK_EQ(calls, 67156);
	CHECK_EQ(giveups, 45);
	rr_giveups_parse("", &calls, &giveups);
	CHECK_EQ(calls, 0);
	CHECK_EQ(giveups, 0);
}

TEST_MAIN(T(test_one_wait), T(test_tasks_apart), T(test_nested_spinlock),
	  T(test_mutex_spin_then_sleep), T(test_edges_dropped),
	  T(test_mmap_lock), T(test_sleeping), T(test_within),
	  T(test_figures), T(test_stack_parse), T(test_giveups_parse))

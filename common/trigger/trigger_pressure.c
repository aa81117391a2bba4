// SPDX-License-Identifier: GPL-2.0
/*
 * Trigger pressure: the whole machine runs short of memory, as a
 * production machine does, while the pattern is resident and swap (zram)
 * is on. stress-ng locks memory until free memory sinks below the low
 * watermark (pressure.h says how it is bounded); kswapd, and any task
 * that allocates below the min watermark, then reclaim, and walk the
 * pattern's pages with every other page they scan. The load is stopped
 * as soon as the pattern is unmapped, or when it stops going, or
 * RR_PRESSURE_MAX_S after the pressure began (RR_PRESSURE_FILL_S if it
 * never began); at once if MemFree falls below --min-free-mb.
 *
 * The walks run in kswapd and in the allocating tasks: the probes trace
 * every task (the trigger is "anywhere") and the report counts who ran
 * each interval. Opt-in only: auto never picks it.
 */
#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "journal/fault.h"
#include "journal/journal.h"
#include "lib/util.h"
#include "mm/pressure.h"
#include "mm/swap.h"
#include "model/repro.h"
#include "model/result.h"
#include "probe/bracket.h"
#include "probe/tasks.h"
#include "trigger/trigger.h"

/* Longest pressure in a phase, s: from kswapd's first scan, or below low. */
#define RR_PRESSURE_MAX_S 45
/*
 * Longest the load may take to fill memory down to the low watermark,
 * s. Filling is not pressure, and its pace is the machine's: a guest
 * whose freed memory went back to its host (free page reporting) faults
 * it in again at well under 1 GiB/s, 20-45 s for a 24 GiB one here.
 */
#define RR_PRESSURE_FILL_S 120
/* How long the pattern may stop going before the load is stopped. */
#define STALL_MS 3000
#define WSF_PATH "/proc/sys/vm/watermark_scale_factor"

static const char *const kconfig[] = { "SWAP", "MEMCG", NULL };

/*
 * Its figures of the run, over all its phases (in rr_result.trig): what
 * the load held, how low free memory went, how each phase ended.
 */
struct figures {
	unsigned int phases;
	unsigned int reached;		/* the whole pattern unmapped */
	unsigned int partly;		/* some of it, then no more */
	unsigned int missed;		/* none of it within the bound */
	unsigned int emergency;		/* stopped below the floor */
	unsigned int revived;		/* dormant kswapd revivals */
	unsigned long long kswapd_scanned; /* pgscan_kswapd, grown */
	bool no_counters;		/* no VM event counters: unknown */
	double max_s;			/* longest phase, s */
	double max_fill_s;		/* longest until the pressure began */
	double max_reach_s;		/* longest wait for the pattern, s */
	unsigned long long max_bytes;	/* most the load was asked to lock */
	unsigned long long min_free_kb, min_avail_kb;	/* lowest seen */
	unsigned long long floor_kb;
	unsigned long long oom_kills;	/* /proc/vmstat oom_kill, grown */
	int workers;
	double bound_s, fill_bound_s;
	char watermarks[192];		/* what was changed, or not */
	char cmd[256];			/* the load's command (last) */
};

_Static_assert(sizeof(struct figures) <= RR_TRIG_BYTES,
	       "the pressure trigger's figures fit rr_result.trig");

static struct figures *figures_of(struct rr_result *r)
{
	return (struct figures *)r->trig;
}

static const struct figures *figures_in(const struct rr_result *r)
{
	return (const struct figures *)r->trig;
}

/* The load tasks a phase may have: more go unreaped, to init. */
#define MAX_SEEN 64

struct state {
	struct rr_memcg cg;		/* the load's group */
	int seen[MAX_SEEN];		/* its tasks met in this phase */
	int nr_seen;
	struct rr_memcg scratch;	/* where kswapd is revived */
	struct rr_memcg home;		/* the reproducer's own group */
	unsigned long wsf_found, wsf_want;	/* watermark_scale_factor */
	struct rr_result *res;
};

static struct state st;

static bool available(char *why, size_t len)
{
	char mnt[256];

	if (!rr_have_command("stress-ng")) {
		snprintf(why, len,
			 "stress-ng is not installed (scripts/install-deps installs it)");
		return false;
	}
	if (rr_memcg_detect(mnt, sizeof(mnt), why, len) == RR_MEMCG_NONE)
		return false;
	if (!rr_swap_available(why, len))
		return false;
	return rr_bracket_available(RR_BR_LRU_BATCH, why, len);
}

/*
 * Widen the min-to-low gap to four times the floor (journaled), for a
 * phase only: raised watermarks count as reserved in MemAvailable, which
 * the floor checks between phases read. w gets the watermarks set.
 */
static int raise_watermarks(struct rr_watermarks *w, char *why, size_t len)
{
	char v[32];
	int err;

	if (st.wsf_want == st.wsf_found)
		return rr_watermarks_read(w);
	snprintf(v, sizeof(v), "%lu", st.wsf_want);
	err = journal_knob_set(WSF_PATH, v);
	if (!err)
		err = rr_watermarks_read(w);
	if (err)
		snprintf(why, len, "vm.watermark_scale_factor %s: %s", v,
			 strerror(-err));
	return err;
}

/*
 * Back to the value found (the journal keeps it for a killed run). A
 * failure leaves the watermarks raised between phases, where the floor
 * checks read MemAvailable: said, in the result's watermarks and here.
 */
static int lower_watermarks(struct figures *pr)
{
	size_t o = strlen(pr->watermarks);
	char v[32];
	int err;

	snprintf(v, sizeof(v), "%lu", st.wsf_found);
	if (st.wsf_want == st.wsf_found)
		return 0;
	err = journal_knob_set(WSF_PATH, v);
	if (!err)
		return 0;
	rr_warn("cannot put vm.watermark_scale_factor back to %s between phases: %s",
		v, strerror(-err));
	if (!strstr(pr->watermarks, "NOT put back") &&
	    o < sizeof(pr->watermarks))
		snprintf(pr->watermarks + o, sizeof(pr->watermarks) - o,
			 "; NOT put back between phases: %s", strerror(-err));
	return err;
}

/* What the phases will set, and whether the floor fits below it. */
static int watermarks(struct figures *pr, char *why, size_t len)
{
	struct rr_watermarks w;
	unsigned long long now = 0, left;
	int err;

	err = rr_watermarks_read(&w);
	if (!err)
		err = rr_read_ull(WSF_PATH, &now);
	if (err) {
		snprintf(why, len, "cannot read the watermarks: %s",
			 strerror(-err));
		return err;
	}
	st.wsf_found = now;
	st.wsf_want = rr_pressure_wsf(&w, now, pr->floor_kb);
	err = raise_watermarks(&w, why, len);
	pr->watermarks[0] = '\0';
	lower_watermarks(pr);
	if (err)
		return err;
	if (pr->watermarks[0]) {
		snprintf(why, len, "vm.watermark_scale_factor could not be put back to %llu%s",
			 now, pr->watermarks);
		return -EIO;
	}
	if (st.wsf_want == now)
		snprintf(pr->watermarks, sizeof(pr->watermarks),
			 "as found (vm.watermark_scale_factor %llu; min %llu MiB, low %llu MiB)",
			 now, w.min_kb >> 10, w.low_kb >> 10);
	else
		snprintf(pr->watermarks, sizeof(pr->watermarks),
			 "vm.watermark_scale_factor %llu -> %lu during each phase (journaled): min %llu MiB, low %llu MiB, high %llu MiB",
			 now, st.wsf_want, w.min_kb >> 10, w.low_kb >> 10,
			 w.high_kb >> 10);
	/* the gap cannot hold the floor: a skip that says what would */
	left = w.min_kb + (w.low_kb - w.min_kb) / 3;
	if (left < pr->floor_kb) {
		snprintf(why, len,
			 "the --min-free-mb floor of %llu MiB does not fit below the low watermark even at vm.watermark_scale_factor %lu: at most %llu MiB here",
			 pr->floor_kb >> 10, st.wsf_want, left >> 10);
		return -ENODEV;
	}
	return 0;
}

static int setup(struct rr_trigger_ctx *ctx, struct rr_result *res,
		 char *why, size_t len)
{
	struct figures *pr = figures_of(res);
	char name[64];
	int err;

	st.res = res;
	/* the loads' orphaned workers come to us, to be reaped */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	pr->floor_kb = rr_cfg.min_free_mb << 10;
	pr->bound_s = RR_PRESSURE_MAX_S;
	pr->fill_bound_s = RR_PRESSURE_FILL_S;
	pr->min_free_kb = pr->min_avail_kb = ~0ULL;
	err = rr_swappiness_set(why, len);
	if (!err)
		err = rr_swap_setup(res, why, len);
	if (err)
		return err;
	rr_phase(res, "setup: the load's memory cgroup");
	snprintf(name, sizeof(name), RR_MEMCG_PREFIX "load-%d", getpid());
	err = rr_memcg_create(&st.cg, name, why, len);
	if (err)
		return err;
	snprintf(res->memcg, sizeof(res->memcg), "%s %s",
		 rr_memcg_ver_name(st.cg.ver), st.cg.path);
	snprintf(name, sizeof(name), RR_MEMCG_PREFIX "revive-%d", getpid());
	err = rr_memcg_current(&st.home, why, len);
	if (!err)
		err = rr_memcg_create(&st.scratch, name, why, len);
	if (err)
		return err;
	rr_phase(res, "setup: watermarks");
	return watermarks(pr, why, len);
}

static void meminfo(struct figures *pr,
		    unsigned long long *free_kb)
{
	unsigned long long avail;

	if (!rr_read_keyed("/proc/meminfo", "MemFree", free_kb) &&
	    *free_kb < pr->min_free_kb)
		pr->min_free_kb = *free_kb;
	if (!rr_read_keyed("/proc/meminfo", "MemAvailable", &avail) &&
	    avail < pr->min_avail_kb)
		pr->min_avail_kb = avail;
}

/* The load's tasks do the direct reclaims: note them as they come. */
static void note_load(void)
{
	int pids[64], n, i, k;

	n = rr_memcg_tasks(&st.cg, pids, 64);
	for (i = 0; i < n; i++) {
		rr_tasks_add(RR_TASK_LOAD, pids[i]);
		for (k = 0; k < st.nr_seen && st.seen[k] != pids[i]; k++)
			;
		if (k == st.nr_seen && k < MAX_SEEN)
			st.seen[st.nr_seen++] = pids[i];
	}
}

/*
 * The loads' workers, orphaned when stress-ng's main process is killed,
 * come to the measuring process (a child subreaper): reap them, so that
 * no task of a load outlives its phase.
 */
static void reap_seen(void)
{
	int i, status;

	for (i = 0; i < st.nr_seen; i++)
		waitpid(st.seen[i], &status, 0);
	st.nr_seen = 0;
}

/*
 * Let kswapd finish the batches the load started while the trace still
 * runs: until pgscan_kswapd stops moving (at most 2 s).
 */
static void settle(void)
{
	unsigned long long a = 0, b = 1;
	int i;

	for (i = 0; i < 10 && a != b; i++) {
		rr_read_keyed("/proc/vmstat", "pgscan_kswapd", &a);
		rr_sleep_ms(200);
		rr_read_keyed("/proc/vmstat", "pgscan_kswapd", &b);
	}
}

static void revive(struct figures *pr)
{
	char how[160];
	int err = rr_kswapd_revive(&st.scratch, &st.home, how, sizeof(how));

	if (!err)
		pr->revived++;
	if (getenv("RMAP_REPRO_DEBUG"))
		rr_msg("debug: kswapd revival: %s",
		       err ? strerror(-err) : how);
}

/*
 * Memory a load just killed frees for a while after its tasks are gone:
 * size the next one only once MemFree has stopped rising (at most 5 s).
 */
static void settle_free(void)
{
	unsigned long long a = 0, b = 0;
	int i;

	rr_read_keyed("/proc/meminfo", "MemFree", &a);
	for (i = 0; i < 50; i++) {
		rr_sleep_ms(100);
		rr_read_keyed("/proc/meminfo", "MemFree", &b);
		if (b < a + (16 << 10))
			break;
		a = b;
	}
}

enum outcome { REACHED, PARTLY, BOUND_PARTLY, MISSED, UNFILLED, EMERGENCY,
	       FAILED };

/* Loads a phase may start: the first, then top-ups (each 2 s apart). */
#define MAX_LOADS 8

struct phase {
	struct rr_load load[MAX_LOADS];
	int nloads, workers;
	unsigned long long bytes;	/* all loads together */
	uint64_t started;		/* the last load, ns */
};

/* The phase in words (how), counted; the trigger's return. */
static int outcome(enum outcome out, const struct phase *ph,
		   size_t present0, size_t last, uint64_t fill_ns,
		   uint64_t reach_ns,
		   bool probe_pass, const char *why, char *how, size_t len)
{
	struct figures *pr = figures_of(st.res);
	static const char *const ends[] = {
		[REACHED] = "the pattern was unmapped",
		[PARTLY] = "no more of the pattern went for 3 s",
		[BOUND_PARTLY] = "the bound passed with part of the pattern gone",
		[MISSED] = "the bound passed before any of the pattern went",
		[UNFILLED] = "free memory did not reach the low watermark within the fill bound",
		[EMERGENCY] = "EMERGENCY: MemFree went below --min-free-mb",
	};

	if (out == FAILED) {
		snprintf(how, len, "%s", why);
		return -ECHILD;
	}
	snprintf(how, len,
		 "stress-ng locked %llu MiB (%d load%s of %d workers); the pressure began after %.1f s; %zu of %zu resident pattern pages unmapped, the first %.1f s into the pressure; stopped: %s",
		 ph->bytes >> 20, ph->nloads, ph->nloads == 1 ? "" : "s",
		 ph->workers, (double)fill_ns / NSEC_PER_SEC,
		 present0 - last, present0,
		 (double)reach_ns / NSEC_PER_SEC, ends[out]);
	switch (out) {
	case REACHED:
		pr->reached++;
		return 0;
	case PARTLY:
	case BOUND_PARTLY:
		pr->partly++;
		return 0;
	case MISSED:
	case UNFILLED:
		pr->missed++;
		/*
		 * With a victim writing the rmap lock, kswapd's walks back
		 * off and may never unmap the pattern: the victim's pass
		 * measures its stalls all the same.
		 */
		return probe_pass ? -ENODATA : 0;
	default:
		pr->emergency++;
		return -ENOMEM;
	}
}

/* One more load of bytes, the group's cap raised to hold it too. */
static int add_load(struct phase *ph, unsigned long long bytes, char *why,
		    size_t len)
{
	unsigned long long total = ph->bytes + bytes;
	int err;

	/* its own pages, page tables and stacks beside what it locks */
	err = rr_memcg_cap(&st.cg, total + ((64ULL << 20) + total / 128));
	if (!err)
		err = rr_load_start(&ph->load[ph->nloads], &st.cg, bytes,
				    ph->workers,
				    RR_PRESSURE_FILL_S + RR_PRESSURE_MAX_S + 5,
				    why, len);
	if (err)
		return err;
	ph->nloads++;
	ph->bytes = total;
	ph->started = rr_now_ns();
	return 0;
}

/*
 * The loads hold all they were asked for and free memory is still above
 * the low watermark (memory came back since the first was sized): top
 * up. Sized again from the watermarks, 2 s after the last load. Any
 * margin above the low watermark is a band where nothing pushes: the
 * loads hold, kswapd sleeps, and the phase waits out its fill bound
 * (MemFree 4,499 MiB against a low watermark of 4,366 MiB and a reserve
 * of 97 MiB, with a 64 MiB margin, in one make check of 2026-12-07).
 */
static int top_up(struct phase *ph, const struct rr_watermarks *w,
		  unsigned long long free_kb, uint64_t now, char *why,
		  size_t len)
{
	struct figures *pr = figures_of(st.res);
	unsigned long long usage = 0, bytes;
	char no[256];

	if (ph->nloads == MAX_LOADS || now - ph->started < 2 * NSEC_PER_SEC ||
	    free_kb < w->low_kb + w->reserve_kb ||
	    rr_memcg_usage(&st.cg, &usage) || usage < ph->bytes / 100 * 99)
		return 0;
	bytes = rr_pressure_bytes(w, free_kb, pr->floor_kb, no, sizeof(no));
	return bytes ? add_load(ph, bytes, why, len) : 0;
}

static bool any_exited(struct phase *ph, char *why, size_t len)
{
	int i;

	for (i = 0; i < ph->nloads; i++)
		if (rr_load_exited(&ph->load[i], why, len))
			return true;
	return false;
}

static void stop_loads(struct phase *ph)
{
	int i;

	note_load();
	for (i = 0; i < ph->nloads; i++)
		rr_load_stop(&ph->load[i], &st.cg);
	reap_seen();
}

/*
 * What a phase publishes for its progress line (how_far(), run in the
 * ticker's thread): the pattern's resident pages at its start and now,
 * and the load it started. 0 pages: no phase under way.
 */
static atomic_size_t far_present0, far_left;
static atomic_ullong far_load_mib;

/* Swap used and in all, MiB (0 and 0 where meminfo cannot say). */
static void swap_mib(unsigned long long *used, unsigned long long *total)
{
	unsigned long long sfree = 0;

	*total = 0;
	if (rr_read_keyed("/proc/meminfo", "SwapTotal", total) ||
	    rr_read_keyed("/proc/meminfo", "SwapFree", &sfree) ||
	    sfree > *total)
		*total = sfree = 0;
	*used = (*total - sfree) >> 10;
	*total >>= 10;
}

static void how_far(char *buf, size_t len)
{
	unsigned long long used, total;
	size_t p0 = atomic_load(&far_present0), left = atomic_load(&far_left);

	buf[0] = '\0';
	if (!p0)
		return;
	swap_mib(&used, &total);
	snprintf(buf, len,
		 "%zu of %zu pattern pages out, swap %llu of %llu MiB used, the load %llu MiB",
		 p0 - (left < p0 ? left : p0), p0, used, total,
		 atomic_load(&far_load_mib));
}

/* What a phase watches: the clock, the pattern, kswapd's scans. */
struct watch {
	uint64_t t0, now;
	uint64_t changed;		/* the pattern last shrank */
	uint64_t ran_at;		/* kswapd last scanned */
	uint64_t pressed;		/* the pressure began; 0: not yet */
	uint64_t reach_ns;		/* then until the pattern first shrank */
	bool went;			/* the pattern shrank */
	size_t present0, last;		/* pattern pages resident */
	unsigned long long scan0, seen;	/* pgscan_kswapd */
};

/* How long the load took to fill memory: until the pressure, or now. */
static uint64_t fill_ns(const struct watch *wt)
{
	return (wt->pressed ? wt->pressed : wt->now) - wt->t0;
}

/*
 * The pressure begins when free memory is below the low watermark,
 * kswapd scans or the pattern starts to go, whichever comes first.
 */
static void note_pressure(struct watch *wt, const struct rr_watermarks *w,
			  unsigned long long free_kb, bool scanned)
{
	if (!wt->pressed && (scanned || wt->last < wt->present0 ||
			     free_kb < w->low_kb + w->reserve_kb))
		wt->pressed = wt->now;
}

/*
 * Watch a phase every 100 ms until the pattern is unmapped, stops
 * going, a bound passes (the fill's, or the pressure's), free memory
 * falls below the floor or a load fails; revive kswapd where it gave up.
 * Returns how it ended.
 */
static enum outcome watch_phase(const struct rr_pattern *p,
				struct phase *ph, const struct rr_watermarks *w,
				struct figures *pr, struct watch *wt,
				char *why, size_t len)
{
	unsigned long long free_kb = 0, scan = 0;
	size_t present, swapped;
	bool scanned;

	for (;;) {
		rr_sleep_ms(100);
		wt->now = rr_now_ns();
		meminfo(pr, &free_kb);
		if (free_kb < pr->floor_kb)
			return EMERGENCY;
		if (any_exited(ph, why, len) ||
		    top_up(ph, w, free_kb, wt->now, why, len))
			return FAILED;
		note_load();
		scanned = !rr_read_keyed("/proc/vmstat", "pgscan_kswapd",
					 &scan) && scan != wt->seen;
		if (!rr_pattern_residency(p, &present, &swapped) &&
		    present != wt->last) {
			wt->last = present;
			wt->changed = wt->now;
			atomic_store(&far_left, present);
		}
		note_pressure(wt, w, free_kb, scanned);
		if (wt->last < wt->present0 && !wt->went) {
			wt->went = true;
			wt->reach_ns = wt->now - wt->pressed;
		}
		if (!wt->last)
			return REACHED;
		if (wt->last < wt->present0 &&
		    wt->now - wt->changed > STALL_MS * NSEC_PER_MSEC)
			return PARTLY;
		if (!wt->pressed &&
		    wt->now - wt->t0 > RR_PRESSURE_FILL_S * NSEC_PER_SEC)
			return UNFILLED;
		if (wt->pressed &&
		    wt->now - wt->pressed > RR_PRESSURE_MAX_S * NSEC_PER_SEC)
			return wt->last < wt->present0 ? BOUND_PARTLY : MISSED;
		/*
		 * Below the low watermark and kswapd scans nothing: it gave
		 * up (16 runs without progress) and must be revived.
		 */
		if (scanned) {
			wt->seen = scan;
			wt->ran_at = wt->now;
		} else if (free_kb < w->low_kb + w->reserve_kb &&
			   wt->now - wt->ran_at > NSEC_PER_SEC) {
			revive(pr);
			wt->ran_at = wt->now;
		}
	}
}

/* The phase's figures added to the run's, once its load is gone. */
static void account_phase(struct figures *pr, const struct phase *ph,
			  const struct watch *wt, unsigned long long oom0)
{
	unsigned long long oom1 = 0;
	double s = (double)(wt->now - wt->t0) / NSEC_PER_SEC;

	pr->kswapd_scanned += wt->seen - wt->scan0;
	rr_read_keyed("/proc/vmstat", "oom_kill", &oom1);
	pr->oom_kills += oom1 - oom0;
	pr->phases++;
	if (ph->bytes > pr->max_bytes)
		pr->max_bytes = ph->bytes;
	if (s > pr->max_s)
		pr->max_s = s;
	s = (double)fill_ns(wt) / NSEC_PER_SEC;
	if (s > pr->max_fill_s)
		pr->max_fill_s = s;
	if ((double)wt->reach_ns / NSEC_PER_SEC > pr->max_reach_s)
		pr->max_reach_s = (double)wt->reach_ns / NSEC_PER_SEC;
}

/*
 * A phase that did not unmap the whole pattern: what the machine looked
 * like when it ended, on stderr, for whoever wonders why (swap full,
 * kswapd asleep for good, free memory never below low).
 */
static void phase_state(const struct watch *wt, const struct rr_watermarks *w,
			const struct figures *pr, unsigned int revived)
{
	unsigned long long used, total, free_kb = 0;
	char scanned[64] = "kswapd's scans unknown (no VM event counters)";

	if (!pr->no_counters)
		snprintf(scanned, sizeof(scanned), "kswapd scanned %llu pages",
			 wt->seen - wt->scan0);
	swap_mib(&used, &total);
	rr_read_keyed("/proc/meminfo", "MemFree", &free_kb);
	rr_msg("pressure phase: %zu of %zu pattern pages left; %s, revived %u times; swap %llu of %llu MiB used; MemFree %llu MiB (low watermark %llu MiB)",
	       wt->last, wt->present0, scanned, revived, used, total,
	       free_kb >> 10, w->low_kb >> 10);
}

static int fire(struct rr_trigger_ctx *ctx, char *how, size_t len)
{
	struct figures *pr = figures_of(st.res);
	const struct rr_pattern *p = ctx->pattern;
	unsigned long long free_kb = 0, bytes, oom0 = 0;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct phase ph = { .workers = cpus < 1 ? 1 : cpus > 8 ? 8 : cpus };
	struct watch wt = { 0 };
	struct rr_watermarks w;
	enum outcome out;
	char why[256] = "";
	unsigned int revived;
	size_t swapped;
	int err;

	rr_read_keyed("/proc/vmstat", "oom_kill", &oom0);
	if (rr_pattern_residency(p, &wt.present0, &swapped) || !wt.present0) {
		snprintf(how, len, "no page of the pattern is resident");
		return -ENODATA;
	}
	settle_free();
	meminfo(pr, &free_kb);
	err = raise_watermarks(&w, how, len);
	if (err)
		return err;
	bytes = rr_pressure_bytes(&w, free_kb, pr->floor_kb, how, len);
	err = bytes ? add_load(&ph, bytes, why, sizeof(why)) : -ENOSPC;
	if (err) {
		lower_watermarks(pr);
		if (bytes)
			snprintf(how, len, "%s", why[0] ? why : strerror(-err));
		return err;
	}
	snprintf(pr->cmd, sizeof(pr->cmd), "%s", ph.load[0].cmd);
	pr->workers = ph.workers;
	revive(pr);
	/* CONFIG_VM_EVENT_COUNTERS off: no scan count, no oom_kill */
	pr->no_counters = rr_read_keyed("/proc/vmstat", "pgscan_kswapd",
					&wt.scan0) != 0;
	wt.seen = wt.scan0;
	/* a test's signal, the load running (fault.h) */
	rr_test_hold("trigger pressure: the load started");
	wt.t0 = wt.changed = wt.ran_at = wt.now = rr_now_ns();
	wt.last = wt.present0;
	atomic_store(&far_left, wt.present0);
	atomic_store(&far_load_mib, bytes >> 20);
	atomic_store(&far_present0, wt.present0);
	revived = pr->revived;
	out = watch_phase(p, &ph, &w, pr, &wt, why, sizeof(why));
	atomic_store(&far_present0, 0);
	if (out != REACHED && out != FAILED)
		phase_state(&wt, &w, pr, pr->revived - revived);
	if (getenv("RMAP_REPRO_DEBUG"))
		rr_msg("debug: pressure: %d loads, kswapd scanned %llu pages, %zu of %zu pattern pages left",
		       ph.nloads, wt.seen - wt.scan0, wt.last, wt.present0);
	stop_loads(&ph);
	err = lower_watermarks(pr);
	settle();
	account_phase(pr, &ph, &wt, oom0);
	/*
	 * A knob the run cannot put back is the run's error, not a note:
	 * what follows would run with the watermarks raised, and the
	 * restore would most likely fail to write it too.
	 */
	if (err) {
		snprintf(how, len,
			 "vm.watermark_scale_factor could not be put back to %lu after a phase: %s",
			 st.wsf_found, strerror(-err));
		return err;
	}
	return outcome(out, &ph, wt.present0, wt.last,
		       fill_ns(&wt), wt.reach_ns,
		       ctx->probe_pass, why, how, len);
}

static void reach(const struct rr_case_result *c, char *buf, size_t len)
{
	snprintf(buf, len,
		 "%llu of %llu filled pages unmapped by machine-wide reclaim (pagemap)",
		 c->gone, c->filled);
}

/* The report's one line on the phases (text, KTAP, JSON "text"). */
static void summary(const struct rr_result *r, char *buf, size_t size)
{
	const struct figures *pr = figures_in(r);
	size_t o;
	char scanned[32] = "an unknown number of", ooms[96] =
		"unknown (no VM event counters: see the kernel log line)";

	if (!pr->no_counters) {
		snprintf(scanned, sizeof(scanned), "%llu", pr->kswapd_scanned);
		snprintf(ooms, sizeof(ooms), "%llu", pr->oom_kills);
	}
	if (!pr->phases) {
		snprintf(buf, size, "no pressure phase ran; watermarks %s",
			 pr->watermarks[0] ? pr->watermarks : "untouched");
		return;
	}
	/* the load */
	o = snprintf(buf, size,
		     "%u phase%s (stress-ng vm workers locking memory, in their own memcg, oom_score_adj 1000): up to %llu MiB locked by %d workers; the pressure (below the low watermark, or kswapd scanning) began after %.1f s at the latest (bound %.0f s: filling memory is the machine's pace), lasted at most %.0f s, and the pattern's first page went %.1f s into it at the latest; the longest phase %.1f s; ",
		     pr->phases, pr->phases == 1 ? "" : "s",
		     pr->max_bytes >> 20, pr->workers, pr->max_fill_s,
		     pr->fill_bound_s, pr->bound_s, pr->max_reach_s,
		     pr->max_s);
	/* how low memory went, and how the phases ended */
	if (o < size)
		o += snprintf(buf + o, size - o,
			      "MemFree went down to %llu MiB (floor %llu MiB, --min-free-mb), MemAvailable to %llu MiB; the pattern was reached %u times, partly %u, missed %u (a victim's pass may miss: kswapd backs off from a writer); emergency stops %u; ",
			      pr->min_free_kb >> 10, pr->floor_kb >> 10,
			      pr->min_avail_kb >> 10, pr->reached,
			      pr->partly, pr->missed, pr->emergency);
	/* kswapd, the watermarks and the OOM killer */
	if (o < size)
		snprintf(buf + o, size - o,
			 "kswapd scanned %s pages (pgscan_kswapd) and was revived %u times (a 4 MiB page-cache reclaim in a scratch memcg: kswapd sleeps for good after 16 runs without progress); watermarks %s; OOM kills during the phases %s; MemAvailable counts the raised high watermarks as reserved, so the stop watches MemFree",
			 scanned, pr->revived, pr->watermarks, ooms);
}

static void text(const struct rr_result *r, FILE *f, rr_field_fn *field)
{
	char buf[PATH_MAX + 2048];

	summary(r, buf, sizeof(buf));
	field(f, "Pressure", buf);
	snprintf(buf, sizeof(buf), "the load's memcg %s; swap %s", r->memcg,
		 r->swap);
	field(f, "", buf);
}

static void json(const struct rr_result *r, struct rr_json *j)
{
	const struct figures *pr = figures_in(r);

	json_uint(j, "phases", pr->phases);
	json_uint(j, "reached", pr->reached);
	json_uint(j, "partly", pr->partly);
	json_uint(j, "missed", pr->missed);
	json_uint(j, "emergency_stops", pr->emergency);
	json_num(j, "bound_s", pr->bound_s, 1);
	json_num(j, "fill_bound_s", pr->fill_bound_s, 1);
	json_num(j, "max_fill_s", pr->max_fill_s, 3);
	json_num(j, "max_phase_s", pr->max_s, 3);
	json_num(j, "max_reach_s", pr->max_reach_s, 3);
	json_uint(j, "max_locked_bytes", pr->max_bytes);
	json_int(j, "workers", pr->workers);
	json_uint(j, "min_free_kb", pr->phases ? pr->min_free_kb : 0);
	json_uint(j, "min_available_kb", pr->phases ? pr->min_avail_kb : 0);
	json_uint(j, "floor_kb", pr->floor_kb);
	if (pr->no_counters)
		json_null(j, "kswapd_scanned");
	else
		json_uint(j, "kswapd_scanned", pr->kswapd_scanned);
	json_uint(j, "kswapd_revived", pr->revived);
	if (pr->no_counters)
		json_null(j, "oom_kills");
	else
		json_uint(j, "oom_kills", pr->oom_kills);
	json_str(j, "watermarks", pr->watermarks);
	json_str(j, "command", pr->cmd);
}

static void example(struct rr_result *r, struct rr_case_result *c)
{
	figures_of(r)->phases = 1;
}

const struct rr_trigger_ops rr_trigger_pressure = {
	.name = "pressure",
	.help = "machine-wide memory pressure from stress-ng, with zram swap; bounded, and only when asked",
	.opts = rr_swap_opts,
	.opts_valid = rr_swap_opts_valid,
	.kconfig = kconfig,
	.bracket = RR_BR_LRU_BATCH,
	.backs_off = true,
	.backs_off_why = rr_reclaim_backs_off_why,
	.anywhere = true,
	.available = available,
	.setup = setup,
	.fire = fire,
	.how_far = how_far,
	.reach = reach,
	.text = text,
	.key = "pressure",
	.summary = summary,
	.json = json,
	.example = example,
};

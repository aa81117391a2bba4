// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include <tracefs.h>

#include "lib/util.h"
#include "mm/ksm.h"
#include "pattern/pattern.h"
#include "probe/bracket.h"
#include "probe/walkfn.h"

const struct rr_bracket_def rr_brackets[RR_BR_MAX] = {
	[RR_BR_MIGRATE] = {
		.id = "migrate-batch",
		.system = "migrate",
		.start = "mm_migrate_pages_start",
		.end = "mm_migrate_pages",
		.value_field = "succeeded",
		.what = "one migrate_pages() batch, counted when it set a migration PTE in the pattern (migrate/set_migration_pte on the pattern's addresses)",
		.bounds = "a batch holds two rmap walks (unmap, remap) for every page it moves; its duration bounds each walk in it from above; it is not one walk",
		.mark_system = "migrate",
		.mark_event = { "set_migration_pte" },
	},
	[RR_BR_MEMCG_RECLAIM] = {
		.id = "memcg-reclaim",
		.system = "vmscan",
		.start = "mm_vmscan_memcg_reclaim_begin",
		.end = "mm_vmscan_memcg_reclaim_end",
		.value_field = "nr_reclaimed",
		.what = "one memcg reclaim pass (try_to_free_mem_cgroup_pages) run by the reproducer's tasks",
		.bounds = "a pass holds the folio_referenced() and try_to_unmap() walks of every page it scans; its duration bounds each walk in it from above; it is not one walk",
	},
	[RR_BR_RMAP_WALK] = {
		.id = "rmap-tp",
		.system = "rmap",
		.start = "rmap_walk_start",
		.end = "rmap_walk_end",
		.key_field = "folio_addr",
		.key2_field = "rwc_addr",
		.type_field = "page_type",
		.walk = true,
		.what = "one rmap walk (rmap_walk() or rmap_walk_locked()) of a folio of the case's page type, in the reproducer's tasks, paired by folio and rwc",
		.bounds = "it is the walk itself, entry to exit, including any wait for the rmap lock",
		.mark_system = "migrate",
		.mark_event = { "set_migration_pte", "remove_migration_pte" },
	},
	[RR_BR_RMAP_WALK_V1] = {
		.id = "rmap-tp",
		.system = "rmap",
		.start = "rmap_walk",
		.dur_field = "duration_ns",
		.type_field = "page_type",
		.walk = true,
		.what = "one rmap walk of a folio of the case's page type, in the reproducer's tasks, as timed by the kernel (duration_ns)",
		.bounds = "it is the walk itself, as the early rmap/rmap_walk tracepoint times it",
		.mark_system = "migrate",
		.mark_event = { "set_migration_pte", "remove_migration_pte" },
	},
	[RR_BR_FUNCGRAPH] = {
		.id = "funcgraph",
		.system = "ftrace",
		.start = "funcgraph_entry",
		.end = "funcgraph_exit",
		.func_field = "func",
		.key_field = "func",
		.call_field = "calltime",
		.ret_field = "rettime",
		.from_tracer = true,
		.walk = true,
		.what = "one call of the case's walk function (rmap_walk_ksm, rmap_walk_anon or the file walk), traced by function_graph with only the walk functions in set_ftrace_filter, in the reproducer's tasks; length from the exit record's calltime and rettime",
		.bounds = "it is the walk function itself, entry to return, including any wait for the rmap lock; the tracer adds its own entry and exit cost",
		.mark_system = "migrate",
		.mark_event = { "set_migration_pte", "remove_migration_pte" },
	},
	[RR_BR_KPROBE] = {
		.id = "kprobe",
		.system = RR_KPROBE_GROUP,
		.per_type_events = true,
		.prefix = "rr_walk",
		.walk = true,
		.what = "one call of the case's walk function, from a kprobe at its entry to a kretprobe at its return (dynamic events of the suite's own group), in the reproducer's tasks",
		.bounds = "it is the walk function itself, entry to return, including any wait for the rmap lock; each probe adds a breakpoint's cost",
		.mark_system = "migrate",
		.mark_event = { "set_migration_pte", "remove_migration_pte" },
	},
	[RR_BR_LRU_BATCH] = {
		.id = "lru-batch",
		.system = "vmscan",
		.start = "mm_vmscan_lru_isolate",
		.end = "mm_vmscan_lru_shrink_inactive",
		.end2 = "mm_vmscan_lru_shrink_active",
		.value_field = "nr_reclaimed",
		.what = "one batch of at most 32 folios taken off an LRU list and shrunk (isolate_lru_folios() to the end of shrink_inactive_list() or shrink_active_list()), in any task: the walks of machine-wide pressure run in kswapd and in the allocators (direct reclaim), not in the reproducer",
		.bounds = "a batch holds the folio_referenced() and try_to_unmap() walks of each folio in it, the pattern's or any other task's; its duration bounds each walk in it from above; it is not one walk",
	},
	[RR_BR_KSM_SCAN] = {
		.id = "ksm-scan",
		.system = "ksm",
		.start = "ksm_start_scan",
		.end = "ksm_stop_scan",
		.key_field = "seq",
		.value_field = "rmap_entries",
		.what = "one full scan of ksmd over every area opted in to KSM, from ksm/ksm_start_scan to ksm/ksm_stop_scan of the same scan number, in ksmd",
		.bounds = "it is the whole scan, the pauses between batches of pages_to_scan included (sleep_millisecs, 0 during the run): a scan's length, not an rmap walk",
		.polled_by = RR_BR_KSM_POLL,
	},
	[RR_BR_KSM_POLL] = {
		.id = "ksm-poll",
		.poll_counter = "full_scans",
		.poll_dir = rr_ksm_dir,
		.poll_task = RR_TASK_KSMD,
		.what = "one full scan of ksmd over every area opted in to KSM, from one change of KSM's full_scans counter to the next, read every 1 ms by a thread of the measuring process (no ksm tracepoints: kernels before 6.8)",
		.bounds = "it is the whole scan and the pause after it (sleep_millisecs, 0 during the run), to within the 1 ms polling period at each end: a scan's length, not an rmap walk; scans shorter than a few ms are not resolved",
	},
	[RR_BR_PART] = {
		.id = "kprobe",
		.system = RR_KPROBE_GROUP,
		.per_type_events = true,
		.prefix = "rr_part",
		.what = "one call of the kernel function that does a named part of the trigger's call (memory_failure(): collect_procs_ksm, _anon or _file), from a kprobe at its entry to a kretprobe at its return, in the reproducer's tasks",
		.bounds = "it is that function, entry to return, including any wait for a lock; each probe adds a breakpoint's cost",
	},
};

void rr_kprobe_names(int bracket, int type, char *entry, char *ret,
		     size_t size)
{
	const char *pre = rr_brackets[bracket].prefix;

	snprintf(entry, size, "%s_%s", pre, rr_page_type_name(type));
	snprintf(ret, size, "%s_%s_ret", pre, rr_page_type_name(type));
}

bool rr_bracket_available(int bracket, char *why, size_t len)
{
	const struct rr_bracket_def *d = &rr_brackets[bracket];
	char path[PATH_MAX];
	unsigned long long v;

	if (d->poll_counter) {
		rr_bracket_poll_path(bracket, path, sizeof(path));
		if (rr_read_ull(path, &v)) {
			snprintf(why, len, "cannot read %s", path);
			return false;
		}
		return true;
	}
	if (!d->start) {
		snprintf(why, len, "%s has no fixed tracepoints", d->id);
		return false;
	}
	if (!rr_trace_event_exists(d->system, d->start) ||
	    (d->end && !rr_trace_event_exists(d->system, d->end))) {
		snprintf(why, len, "no tracepoint %s/%s%s%s", d->system,
			 d->start, d->end ? " or " : "", d->end ? d->end : "");
		return false;
	}
	if (d->end2 && !rr_trace_event_exists(d->system, d->end2)) {
		snprintf(why, len, "no tracepoint %s/%s", d->system, d->end2);
		return false;
	}
	return true;
}

void rr_bracket_poll_path(int bracket, char *buf, size_t size)
{
	const struct rr_bracket_def *d = &rr_brackets[bracket];

	buf[0] = '\0';
	if (d->poll_counter)
		snprintf(buf, size, "%s/%s", d->poll_dir(), d->poll_counter);
}

void rr_pid_filter(const int *pids, int n, char *buf, size_t size)
{
	size_t o = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && o < size; i++)
		o += snprintf(buf + o, size - o, "%scommon_pid == %d",
			      i ? " || " : "", pids[i]);
}

void rr_bprobe_init(struct rr_bprobe *bp, struct tep_handle *tep,
		    int bracket)
{
	memset(bp, 0, sizeof(*bp));
	bp->bracket = bracket;
	bp->tep = tep;
	rr_pairer_init(&bp->pairer);
}

static int add_decoder(struct rr_bprobe *bp, const char *sys,
		       const char *name, enum rr_ev_kind kind, int type)
{
	struct tep_event *ev = tep_find_event_by_name(bp->tep, sys, name);

	if (!ev || bp->ndec == RR_MAX_DECODERS)
		return -ENOENT;
	bp->dec[bp->ndec].id = ev->id;
	bp->dec[bp->ndec].kind = kind;
	bp->dec[bp->ndec].type = type;
	bp->ndec++;
	return 0;
}

/* kprobe: an entry and a return event for each type that has them. */
static int kprobe_decoders(struct rr_bprobe *bp)
{
	char entry[64], ret[64];
	int t, found = 0;

	for (t = 0; t < RR_PT_MAX; t++) {
		rr_kprobe_names(bp->bracket, t, entry, ret, sizeof(entry));
		if (add_decoder(bp, RR_KPROBE_GROUP, entry, RR_EV_START, t))
			continue;
		if (add_decoder(bp, RR_KPROBE_GROUP, ret, RR_EV_END, t)) {
			bp->ndec--;
			continue;
		}
		found++;
	}
	return found ? 0 : -ENOENT;
}

int rr_bprobe_decoders(struct rr_bprobe *bp, bool marks)
{
	const struct rr_bracket_def *d = &rr_brackets[bp->bracket];
	int err, i;

	bp->ndec = 0;
	bp->use_marks = marks && d->mark_event[0];
	if (d->per_type_events) {
		err = kprobe_decoders(bp);
	} else {
		err = add_decoder(bp, d->system, d->start,
				  d->end ? RR_EV_START : RR_EV_SAMPLE, -1);
		if (!err && d->end)
			err = add_decoder(bp, d->system, d->end, RR_EV_END,
					  -1);
		if (!err && d->end2)
			err = add_decoder(bp, d->system, d->end2, RR_EV_END,
					  -1);
	}
	for (i = 0; !err && bp->use_marks && i < RR_MAX_MARKS; i++)
		if (d->mark_event[i])
			err = add_decoder(bp, d->mark_system, d->mark_event[i],
					  RR_EV_MARK, -1);
	return err;
}

void rr_bracket_filter(int bracket, const char *pids, const char *type,
		       bool with_type, char *buf, size_t size)
{
	const struct rr_bracket_def *d = &rr_brackets[bracket];
	bool own = pids && pids[0];

	if (with_type && type && d->type_field)
		snprintf(buf, size, "%s%s%s%s == \"%s\"",
			 own ? "(" : "", own ? pids : "", own ? ") && " : "",
			 d->type_field, type);
	else
		snprintf(buf, size, "%s", own ? pids : "");
}

static int enable(struct rr_trace *t, int bracket, const char *event,
		  const char *pids, const char *type)
{
	const struct rr_bracket_def *d = &rr_brackets[bracket];
	char f[256];

	rr_bracket_filter(bracket, pids, type, true, f, sizeof(f));
	if (!rr_trace_enable(t, d->system, event, f[0] ? f : NULL))
		return 0;
	/*
	 * An event without the type field (an end event of another
	 * revision): filter by task only; decoding checks the type.
	 */
	rr_bracket_filter(bracket, pids, type, false, f, sizeof(f));
	return rr_trace_enable(t, d->system, event, f[0] ? f : NULL);
}

int rr_bprobe_arm(struct rr_bprobe *bp, struct rr_trace *t,
		  const char *pid_filter, const char *type,
		  unsigned long lo, unsigned long hi, char *why, size_t len)
{
	const struct rr_bracket_def *d = &rr_brackets[bp->bracket];
	char f[128];
	int err, i;

	/*
	 * Only the case's page type: told by a field (rmap-tp), by the
	 * traced function (funcgraph) or by the event's name (kprobe, part:
	 * collect_procs() runs around collect_procs_ksm(), and each has a
	 * pair of its own).
	 */
	bp->type = d->type_field || d->func_field || d->per_type_events ?
		   type : NULL;
	err = rr_bprobe_decoders(bp, hi > lo);
	if (err) {
		snprintf(why, len, "event formats of %s not found", d->id);
		return err;
	}
	if (d->per_type_events) {
		/* kprobe: every event of the group, typed by its name */
		for (i = 0; !err && i < bp->ndec; i++) {
			struct tep_event *ev = tep_find_event(bp->tep,
							      bp->dec[i].id);

			if (ev && !strcmp(ev->system, d->system))
				err = rr_trace_enable(t, d->system, ev->name,
						      pid_filter);
		}
	} else if (!d->from_tracer) {
		err = enable(t, bp->bracket, d->start, pid_filter, bp->type);
		if (!err && d->end)
			err = enable(t, bp->bracket, d->end, pid_filter,
				     bp->type);
		if (!err && d->end2)
			err = enable(t, bp->bracket, d->end2, pid_filter,
				     bp->type);
	}
	for (i = 0; !err && bp->use_marks && i < RR_MAX_MARKS; i++) {
		if (!d->mark_event[i])
			continue;
		snprintf(f, sizeof(f), "addr >= 0x%lx && addr < 0x%lx", lo, hi);
		err = rr_trace_enable(t, d->mark_system, d->mark_event[i], f);
	}
	if (err)
		snprintf(why, len, "cannot enable the events of %s", d->id);
	return err;
}

static unsigned long long num(struct tep_event *ev, struct tep_record *rec,
			      const char *name)
{
	struct tep_format_field *f;
	unsigned long long val = 0;

	if (!name)
		return 0;
	f = tep_find_field(ev, name);
	if (!f || tep_read_number_field(f, rec->data, &val))
		return 0;
	return val;
}

/* Does the record's type string (__string / __data_loc) match? */
static bool type_matches(struct rr_bprobe *bp, struct tep_event *ev,
			 struct tep_record *rec)
{
	const struct rr_bracket_def *d = &rr_brackets[bp->bracket];
	const char *s;
	size_t n;
	int len;

	if (!bp->type || !tep_find_field(ev, d->type_field))
		return true;
	s = tep_get_field_raw(NULL, ev, d->type_field, rec, &len, 0);
	if (!s || len <= 0)
		return true;
	/* A __string's length counts its NUL; a char[] may be padded. */
	n = strnlen(s, len);
	return n == strlen(bp->type) && !memcmp(s, bp->type, n);
}

bool rr_bprobe_decode(struct rr_bprobe *bp, struct tep_event *ev,
		      struct tep_record *rec, struct rr_event *out)
{
	const struct rr_bracket_def *d = &rr_brackets[bp->bracket];
	int i;

	for (i = 0; i < bp->ndec; i++) {
		const struct rr_decoder *dec = &bp->dec[i];

		int type = dec->type, pid, k;

		if (dec->id != ev->id)
			continue;
		pid = tep_data_pid(bp->tep, rec);
		for (k = 0; k < bp->npids && bp->pids[k] != pid; k++)
			;
		if (bp->npids && k == bp->npids)
			return false;	/* another task */
		if (dec->kind != RR_EV_MARK && d->func_field && bp->fns) {
			/* funcgraph: which walk function is this? */
			unsigned long ip = num(ev, rec, d->func_field);

			type = rr_walkfn_type(bp->fns, ip);
			if (type < 0) {
				if (!bp->other_func++ && getenv("RMAP_REPRO_DEBUG"))
					rr_msg("debug: %s at 0x%lx is no walk function",
					       ev->name, ip);
				return false;
			}
		}
		if (dec->kind != RR_EV_MARK &&
		    (type >= 0 ? bp->type &&
		     strcmp(bp->type, rr_page_type_name(type)) :
		     !type_matches(bp, ev, rec))) {
			bp->other_type++;
			return false;
		}
		memset(out, 0, sizeof(*out));
		out->ts = rec->ts;
		out->pid = tep_data_pid(bp->tep, rec);
		out->kind = dec->kind;
		out->bracket = bp->bracket;
		switch (dec->kind) {
		case RR_EV_START:
		case RR_EV_END:
			out->key = num(ev, rec, d->key_field);
			out->key2 = num(ev, rec, d->key2_field);
			if (d->per_type_events)
				out->key = type + 1;
			if (dec->kind == RR_EV_END && d->call_field) {
				/* the kernel timed it: ret - call */
				out->value = num(ev, rec, d->ret_field) -
					     num(ev, rec, d->call_field);
				out->exact = true;
			} else if (dec->kind == RR_EV_END) {
				out->value = num(ev, rec, d->value_field);
			}
			break;
		case RR_EV_SAMPLE:
			out->value = num(ev, rec, d->dur_field);
			break;
		case RR_EV_MARK:
			out->value = 1;	/* one PTE of the pattern */
			break;
		}
		return true;
	}
	return false;
}

struct feed {
	struct rr_bprobe **bps;
	int n;
	rr_also_fn also;
	void *ctx;
};

static int feed_cb(struct tep_event *ev, struct tep_record *rec, int cpu,
		   void *ctx)
{
	struct feed *f = ctx;
	struct rr_event e;
	int i;

	/* Every probe sees every record: they measure the same walks. */
	for (i = 0; i < f->n; i++)
		if (rr_bprobe_decode(f->bps[i], ev, rec, &e))
			rr_pairer_feed(&f->bps[i]->pairer, &e);
	if (f->also)
		f->also(f->ctx, ev, rec);
	return 0;
}

void rr_bprobe_finish(struct rr_bprobe *bp, struct rr_samples *out,
		      struct rr_bprobe_result *res)
{
	struct rr_pairer *p = &bp->pairer;
	bool debug = getenv("RMAP_REPRO_DEBUG");
	enum rr_task_kind kind;
	size_t i;

	rr_pairer_finish(p);
	for (i = 0; i < p->nr_iv; i++) {
		const struct rr_interval *iv = &p->iv[i];

		if (iv->bracket != bp->bracket)
			continue;
		if (debug)
			rr_msg("debug: %s%s interval pid %d key %llu %llu..%llu ns",
			       rr_brackets[bp->bracket].id,
			       bp->bracket == RR_BR_PART ? " (part)" : "",
			       iv->pid, (unsigned long long)iv->key,
			       (unsigned long long)iv->start,
			       (unsigned long long)iv->end);
		res->intervals++;
		res->marks += iv->marks;
		if (bp->use_marks && !iv->marks)
			continue;
		kind = rr_task_kind(iv->pid);
		res->by_task[kind]++;
		if (bp->skip_own && kind == RR_TASK_REPRO)
			continue;
		res->counted++;
		rr_samples_add(out, (double)(iv->exact ? iv->end_value :
					     iv->end - iv->start) /
				    NSEC_PER_MSEC);
	}
	res->unpaired += p->ends_without_start + p->starts_without_end;
	rr_pairer_free(p);
}

int rr_bprobe_collect_many(struct rr_bprobe **bps, int n,
			   struct rr_trace *t, struct rr_samples **outs,
			   struct rr_bprobe_result *res)
{
	return rr_bprobe_collect_also(bps, n, t, outs, res, NULL, NULL);
}

int rr_bprobe_collect_also(struct rr_bprobe **bps, int n,
			   struct rr_trace *t, struct rr_samples **outs,
			   struct rr_bprobe_result *res, rr_also_fn also,
			   void *ctx)
{
	struct feed f = { .bps = bps, .n = n, .also = also, .ctx = ctx };
	unsigned long long lost;
	int err = rr_trace_read(t, feed_cb, &f), i;

	lost = rr_trace_lost(t);
	for (i = 0; i < n; i++) {
		res[i].lost += lost;
		rr_bprobe_finish(bps[i], outs[i], &res[i]);
	}
	return err;
}

int rr_bprobe_collect(struct rr_bprobe *bp, struct rr_trace *t,
		      struct rr_samples *out, struct rr_bprobe_result *res)
{
	return rr_bprobe_collect_many(&bp, 1, t, &out, res);
}

const char *rr_probe_clock(int bracket)
{
	const struct rr_bracket_def *d = &rr_brackets[bracket];

	if (d->poll_counter)
		return "CLOCK_MONOTONIC of the measuring process, read when the polled counter was seen to change";
	if (d->call_field)
		return "the tracer's own calltime and rettime (trace_clock_local)";
	if (d->dur_field)
		return "the kernel's own duration field";
	return "mono (the instance's trace_clock)";
}

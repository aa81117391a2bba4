// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include <event-parse.h>
#include <tracefs.h>

#include "bracket.h"
#include "util.h"

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
		.mark_event = "set_migration_pte",
		.mark_field = "addr",
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
};

bool rr_bracket_available(int bracket, char *why, size_t len)
{
	const struct rr_bracket_def *d = &rr_brackets[bracket];

	if (!rr_trace_event_exists(d->system, d->start) ||
	    !rr_trace_event_exists(d->system, d->end)) {
		snprintf(why, len, "no tracepoint %s/%s or %s/%s",
			 d->system, d->start, d->system, d->end);
		return false;
	}
	return true;
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

static int add_decoder(struct rr_bprobe *bp, const char *sys,
		       const char *name, enum rr_ev_kind kind,
		       const char *field)
{
	struct tep_event *ev = tep_find_event_by_name(bp->tep, sys, name);
	struct rr_decoder *d;

	if (!ev || bp->ndec == RR_MAX_DECODERS)
		return -ENOENT;
	d = &bp->dec[bp->ndec++];
	d->id = ev->id;
	d->kind = kind;
	d->bracket = bp->bracket;
	d->field = field;
	return 0;
}

int rr_bprobe_setup(struct rr_bprobe *bp, struct rr_trace *t, int bracket,
		    const char *pid_filter, unsigned long lo,
		    unsigned long hi, char *why, size_t len)
{
	const struct rr_bracket_def *d = &rr_brackets[bracket];
	char filter[128];
	int err;

	memset(bp, 0, sizeof(*bp));
	bp->bracket = bracket;
	bp->tep = t->tep;
	bp->use_marks = d->mark_event && hi > lo;
	rr_pairer_init(&bp->pairer);

	err = add_decoder(bp, d->system, d->start, RR_EV_START, NULL);
	if (!err)
		err = add_decoder(bp, d->system, d->end, RR_EV_END,
				  d->value_field);
	if (!err && bp->use_marks)
		err = add_decoder(bp, d->mark_system, d->mark_event,
				  RR_EV_MARK, NULL);
	if (err) {
		snprintf(why, len, "event formats of %s not found", d->id);
		return err;
	}
	err = rr_trace_enable(t, d->system, d->start, pid_filter);
	if (!err)
		err = rr_trace_enable(t, d->system, d->end, pid_filter);
	if (!err && bp->use_marks) {
		snprintf(filter, sizeof(filter), "%s >= 0x%lx && %s < 0x%lx",
			 d->mark_field, lo, d->mark_field, hi);
		err = rr_trace_enable(t, d->mark_system, d->mark_event,
				      filter);
	}
	if (err)
		snprintf(why, len, "cannot enable the events of %s", d->id);
	return err;
}

bool rr_bprobe_decode(const struct rr_bprobe *bp, struct tep_event *ev,
		      struct tep_record *rec, struct rr_event *out)
{
	unsigned long long val = 0;
	int i;

	for (i = 0; i < bp->ndec; i++) {
		const struct rr_decoder *d = &bp->dec[i];
		struct tep_format_field *f;

		if (d->id != ev->id)
			continue;
		if (d->field) {
			f = tep_find_field(ev, d->field);
			if (!f || tep_read_number_field(f, rec->data, &val))
				val = 0;
		}
		memset(out, 0, sizeof(*out));
		out->ts = rec->ts;
		out->pid = tep_data_pid(bp->tep, rec);
		out->kind = d->kind;
		out->bracket = d->bracket;
		/* Every mark is one PTE of the pattern. */
		out->value = d->kind == RR_EV_MARK ? 1 : val;
		return true;
	}
	return false;
}

static int feed_cb(struct tep_event *ev, struct tep_record *rec, int cpu,
		   void *ctx)
{
	struct rr_bprobe *bp = ctx;
	struct rr_event e;

	if (rr_bprobe_decode(bp, ev, rec, &e))
		rr_pairer_feed(&bp->pairer, &e);
	return 0;
}

void rr_bprobe_finish(struct rr_bprobe *bp, struct rr_samples *out,
		      struct rr_bprobe_result *res)
{
	struct rr_pairer *p = &bp->pairer;
	size_t i;

	rr_pairer_finish(p);
	for (i = 0; i < p->nr_iv; i++) {
		const struct rr_interval *iv = &p->iv[i];

		if (iv->bracket != bp->bracket)
			continue;
		res->intervals++;
		res->marks += iv->marks;
		if (bp->use_marks && !iv->marks)
			continue;
		res->counted++;
		rr_samples_add(out, (double)(iv->end - iv->start) /
				    NSEC_PER_MSEC);
	}
	res->unpaired += p->ends_without_start + p->starts_without_end;
	rr_pairer_free(p);
}

int rr_bprobe_collect(struct rr_bprobe *bp, struct rr_trace *t,
		      struct rr_samples *out, struct rr_bprobe_result *res)
{
	int err = rr_trace_read(t, feed_cb, bp);

	res->lost += rr_trace_lost(t);
	rr_bprobe_finish(bp, out, res);
	return err;
}

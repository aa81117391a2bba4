// SPDX-License-Identifier: GPL-2.0
/* The list of figures (figure.h), and what their files share. */
#include <stdarg.h>

#include "figure/figure.h"
#include "lib/json.h"
#include "lib/util.h"

const struct rr_figure *const rr_figures[] = {
#define X(name) &rr_figure_##name,
	RR_FIGURES(X)
#undef X
	NULL
};

void rr_fig_text(const struct rr_figure *fig, FILE *f,
		 const struct rr_result *r, rr_field_fn *field)
{
	if (fig->text)
		fig->text(f, r, field);
	else if (fig->sentence && fig->label)
		rr_fig_per_case(f, r, field, fig->label, fig->sentence);
}

void rr_fig_ktap(const struct rr_figure *fig, FILE *f,
		 const struct rr_result *r, const struct rr_case_result *c)
{
	char buf[768];

	if (fig->ktap) {
		fig->ktap(f, r, c);
	} else if (fig->sentence && fig->ktap_what) {
		fig->sentence(r, c, buf, sizeof(buf));
		rr_fig_diag(f, c->name, fig->ktap_what, buf);
	}
}

void rr_fig_per_case(FILE *f, const struct rr_result *r, rr_field_fn *field,
		     const char *label, rr_case_text_fn *text)
{
	char buf[1024], line[1100];
	int i, shown = 0;

	for (i = 0; i < r->nr_cases; i++) {
		text(r, &r->cases[i], buf, sizeof(buf));
		if (!buf[0])
			continue;
		snprintf(line, sizeof(line), "%s: %s", r->cases[i].name, buf);
		field(f, shown++ ? "" : label, line);
	}
}

void rr_fig_diag(FILE *f, const char *name, const char *what,
		 const char *text)
{
	if (text[0])
		fprintf(f, "    # %s: %s%s\n", name, what, text);
}

void rr_fig_add(char *buf, size_t size, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*o >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *o, size - *o, fmt, ap);
	va_end(ap);
	if (n > 0)
		*o = *o + n < size ? *o + n : size;
}

void rr_fig_stats_table(FILE *f, const struct rr_result *r,
			const struct rr_stats *(*of)(const struct rr_case_result *),
			const char *last,
			unsigned long long (*last_of)(const struct rr_case_result *))
{
	int i;

	fprintf(f, "%-5s %6s %9s %9s %9s %9s %9s", "case", "n", "min",
		"p50", "p90", "p99", "max");
	if (last)
		fprintf(f, " %6s\n", last);
	else
		fputc('\n', f);
	for (i = 0; i < r->nr_cases; i++) {
		const struct rr_case_result *c = &r->cases[i];
		const struct rr_stats *s = of(c);

		if (!c->ran)
			continue;
		if (!s->count) {
			fprintf(f, "%-5s %6s  %s%s\n", c->name,
				"0", c->refused[0] ? "refused: " :
				!c->error[0] && c->not_reached[0] ?
				"not reached: " : "",
				c->refused[0] ? c->refused :
				c->error[0] ? c->error :
				c->not_reached[0] ? c->not_reached :
				"nothing measured");
			continue;
		}
		fprintf(f, "%-5s %6zu %9.3f %9.3f %9.3f %9.3f %9.3f", c->name,
			s->count, s->min, s->p50, s->p90, s->p99, s->max);
		if (last)
			fprintf(f, " %6llu\n", last_of(c));
		else
			fputc('\n', f);
	}
}

void rr_victim_text(const struct rr_result *r, char *buf, size_t size)
{
	const struct rr_trigger_ops *ops = rr_trigger_get(r->trigger);
	const char *how, *backs_off = ops && ops->backs_off ?
				      ops->backs_off_why : NULL;

	switch (r->victim) {
	case RR_VICTIM_OFF:
		snprintf(buf, size, "off (--victim off)");
		return;
	case RR_VICTIM_SAME:
		how = " It ran during the probe's pass, so the walks it waited for also waited for it.";
		break;
	default:
		how = " It ran in a pass of its own, on a fresh copy of the pattern, so that the probe's pass measured the walks undisturbed.";
	}
	snprintf(buf, size, "%s; CLOCK_MONOTONIC around each call.%s%s%s",
		 r->victim_what[0] ? r->victim_what :
		 "a thread toggling mprotect() on one page inside the split mapping during the trigger; each call merges or splits VMAs and so needs the rmap lock (anon_vma or i_mmap) for write",
		 how, backs_off ? " " : "", backs_off ? backs_off : "");
}

/*
 * The summary of a set of samples: latencies (ms, 4 decimals) with p90
 * and p99, or counts (whole numbers, a mean to one decimal).
 */
static void summary(struct rr_json *j, const struct rr_stats *s,
		    bool latency)
{
	const struct {
		const char *name;
		double v;
		bool latency_only;
		int count_digits;
	} f[] = {
		{ "min", s->min }, { "mean", s->mean, false, 1 },
		{ "p50", s->p50 }, { "p90", s->p90, true }, { "p99", s->p99, true },
		{ "max", s->max },
	};
	size_t i;

	json_uint(j, "count", s->count);
	for (i = 0; i < ARRAY_SIZE(f); i++) {
		if (f[i].latency_only && !latency)
			continue;
		if (!s->count)
			json_null(j, f[i].name);
		else
			json_num(j, f[i].name, f[i].v,
				 latency ? 4 : f[i].count_digits);
	}
}

void rr_json_counts(struct rr_json *j, const char *key,
		    const struct rr_stats *s)
{
	json_obj_begin(j, key);
	summary(j, s, false);
	json_obj_end(j);
}

void rr_json_stats(struct rr_json *j, const char *key,
		   const struct rr_stats *s)
{
	int b;

	json_obj_begin(j, key);
	summary(j, s, true);
	json_arr_begin(j, "log2_histogram");
	for (b = 0; b < RR_HIST_BUCKETS; b++) {
		double lo, hi;

		if (!s->hist[b])
			continue;
		rr_hist_bounds(b, &lo, &hi);
		json_obj_begin(j, NULL);
		json_num(j, "lo_us", lo, 0);
		json_num(j, "hi_us", hi, 0);
		json_uint(j, "count", s->hist[b]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

void rr_json_num_or_null(struct rr_json *j, const char *key, double v,
			 int decimals)
{
	if (v >= 0)
		json_num(j, key, v, decimals);
	else
		json_null(j, key);
}

void rr_json_str_or_null(struct rr_json *j, const char *key, const char *s)
{
	if (s[0])
		json_str(j, key, s);
	else
		json_null(j, key);
}

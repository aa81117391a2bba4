// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's log while a case ran (mm/kmsg.h): the lines that matter
 * (a stall, a BUG, a warning), or that there were none, or why the log
 * was not read.
 */
#include "figure/figure.h"
#include "lib/json.h"

static void klog_text(const struct rr_result *r,
		      const struct rr_case_result *c, char *buf, size_t size)
{
	const struct rr_klog *k = &c->klog;
	size_t o = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < k->lines && o < size; i++)
		o += snprintf(buf + o, size - o, "%s%s", i ? " | " : "",
			      k->line[i]);
	if (k->more && o < size)
		snprintf(buf + o, size - o, " (and %u more)", k->more);
}

/* "Kernel   log, ksm: LINE | LINE" for every case with lines. */
static void lines_of(FILE *f, const struct rr_result *r, rr_field_fn *field)
{
	char buf[1024], line[1100];
	int i, shown = 0;

	for (i = 0; i < r->nr_cases; i++) {
		klog_text(r, &r->cases[i], buf, sizeof(buf));
		if (!buf[0])
			continue;
		snprintf(line, sizeof(line), "log, %s: %s", r->cases[i].name,
			 buf);
		field(f, shown++ ? "" : "Kernel", line);
	}
}

static void text(FILE *f, const struct rr_result *r, rr_field_fn *field)
{
	unsigned long long records = 0;
	int i, read = 0, lines = 0;
	const char *why = "";
	char buf[256];

	for (i = 0; i < r->nr_cases; i++) {
		const struct rr_klog *k = &r->cases[i].klog;

		if (!r->cases[i].ran)
			continue;
		if (k->read)
			read++;
		else if (k->why[0])
			why = k->why;
		records += k->records;
		lines += k->lines;
	}
	if (lines) {
		lines_of(f, r, field);
		return;
	}
	if (read)
		snprintf(buf, sizeof(buf),
			 "log: nothing that matters during the cases (/dev/kmsg, %llu records read; taint unchanged)",
			 records);
	else
		snprintf(buf, sizeof(buf), "log: not read (%s)",
			 why[0] ? why : "no case ran");
	field(f, "Kernel", buf);
}

static void ktap(FILE *f, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	unsigned int k;

	for (k = 0; k < c->klog.lines; k++)
		fprintf(f, "    # %s: kernel log: %s\n", c->name,
			c->klog.line[k]);
}

static void json(struct rr_json *j, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	unsigned int l;

	if (!c->klog.read) {
		json_null(j, "kernel_log");
		json_null(j, "kernel_log_more");
		json_null(j, "kernel_log_records");
		return;
	}
	json_arr_begin(j, "kernel_log");
	for (l = 0; l < c->klog.lines; l++)
		json_str(j, NULL, c->klog.line[l]);
	json_arr_end(j);
	json_uint(j, "kernel_log_more", c->klog.more);
	json_uint(j, "kernel_log_records", c->klog.records);
}

static void example(struct rr_result *r, struct rr_case_result *c,
		    double ms)
{
	c->klog.read = true;
	c->klog.lines = 1;
	snprintf(c->klog.line[0], sizeof(c->klog.line[0]), "a line");
}

static const char *const keys[] = {
	"kernel_log", "kernel_log_more", "kernel_log_records", NULL
};

const struct rr_figure rr_figure_klog = {
	.name = "klog",
	.keys = keys,
	.text = text,
	.ktap = ktap,
	.ktap_first = true,
	.json = json,
	.example = example,
};

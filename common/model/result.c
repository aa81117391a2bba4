// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "journal/fault.h"
#include "lib/util.h"
#include "model/repro.h"
#include "model/result.h"

const char *const rr_victim_names[] = {
	[RR_VICTIM_AUTO] = "auto",
	[RR_VICTIM_APART] = "apart",
	[RR_VICTIM_SAME] = "same",
	[RR_VICTIM_OFF] = "off",
	NULL
};

const char *const rr_verdict_names[] = {
	[RR_REPRODUCED] = "reproduced",
	[RR_NOT_REPRODUCED] = "not-reproduced",
	[RR_SKIP] = "skip",
	[RR_ERROR] = "error",
	[RR_INCONCLUSIVE] = "inconclusive",
};

const char *const rr_run_verdict_names[] = {
	[RR_RUN_NONE] = "none",
	[RR_RUN_REPRODUCED] = "reproduced",
	[RR_RUN_NOT_REPRODUCED] = "not-reproduced",
	[RR_RUN_INCOMPLETE] = "incomplete",
	[RR_RUN_UNJUDGED] = "unjudged",
};

const char *const rr_role_names[] = {
	[RR_SUBJECT] = "subject",
	[RR_CONTROL] = "control",
};

const char *const rr_policy_names[] = {
	[RR_POLICY_BOTH] = "latency and correctness",
	[RR_POLICY_LATENCY] = "latency",
	[RR_POLICY_CORRECTNESS] = "correctness",
	[RR_POLICY_BENCHMARK] = "benchmark",
};

struct rr_case_result *rr_result_subject(const struct rr_result *r)
{
	int i;

	for (i = 0; i < r->nr_cases; i++)
		if (r->cases[i].role == RR_SUBJECT)
			return (struct rr_case_result *)&r->cases[i];
	return NULL;
}

const char *rr_case_label(const struct rr_case_result *c)
{
	return strcmp(c->name, "ksm") ? c->name : "KSM";
}

struct rr_case_result *rr_result_case(const struct rr_result *r,
				      enum rr_page_type t)
{
	int i;

	/* as strchr(): the caller's constness is the caller's */
	for (i = 0; i < r->nr_cases; i++)
		if (r->cases[i].type == t)
			return (struct rr_case_result *)&r->cases[i];
	return NULL;
}

void rr_set_verdict(struct rr_result *r, enum rr_verdict v,
		    const char *fmt, ...)
{
	va_list ap;

	const char *refused = journal_refusal();
	size_t o;

	r->verdict = v;
	va_start(ap, fmt);
	vsnprintf(r->reason, sizeof(r->reason), fmt, ap);
	va_end(ap);
	/* an error after a refused change names it, once */
	o = strlen(r->reason);
	if (v == RR_ERROR && refused[0] && !strstr(r->reason, refused) &&
	    o < sizeof(r->reason))
		snprintf(r->reason + o, sizeof(r->reason) - o,
			 " (the last change refused in the run: %s)",
			 refused);
	/*
	 * One line: a reason may quote a path or a kernel's message, and
	 * a line break there would start a line of its own in the KTAP.
	 */
	for (char *p = r->reason; *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			*p = ' ';
}

double rr_case_trigger_s(const struct rr_case_result *c)
{
	double s = 0;
	int p;

	for (p = 0; p < RR_PASS_MAX; p++)
		s += c->pass_s[p];
	return s;
}

void rr_result_timing(const struct rr_result *r, double *setup,
		      double *merge, double *trigger)
{
	int i;

	*setup = *merge = *trigger = 0;
	for (i = 0; i < r->nr_cases; i++) {
		*setup += r->cases[i].setup_s;
		*merge += r->cases[i].merge_s;
		*trigger += rr_case_trigger_s(&r->cases[i]);
	}
}

void rr_result_param(struct rr_result *r, const char *name,
		     unsigned long long value)
{
	struct rr_param *p;

	if (r->nr_params == RR_MAX_PARAMS)
		return;
	p = &r->params[r->nr_params++];
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->value = value;
}

void rr_result_param_text(struct rr_result *r, const char *name,
			  const char *text)
{
	int n = r->nr_params;

	rr_result_param(r, name, 0);
	if (r->nr_params > n)
		snprintf(r->params[n].text, sizeof(r->params[n].text), "%s",
			 text);
}

unsigned int rr_max_runs(unsigned int asked, unsigned int given)
{
	unsigned int max = given ? given : asked * 3;

	if (max > RR_MAX_RUNS)
		max = RR_MAX_RUNS;
	return max < asked ? asked : max;
}

const struct rr_stats *rr_judged(const struct rr_result *r,
				 const struct rr_case_result *c)
{
	return r->judge_calls ? &c->calls : &c->latency;
}

bool rr_oracle_failed(const struct rr_oracle *o)
{
	return o->ran && (o->pages_failed || o->mappings_missed);
}

int rr_exit_code(enum rr_verdict v)
{
	switch (v) {
	case RR_NOT_REPRODUCED:
		return 0;
	case RR_REPRODUCED:
		return 1;
	case RR_SKIP:
		return 4;
	case RR_INCONCLUSIVE:
		return 3;
	default:
		return 2;
	}
}

int rr_bisect_code(enum rr_verdict v)
{
	switch (v) {
	case RR_NOT_REPRODUCED:
		return 0;
	case RR_REPRODUCED:
		return 1;
	default:
		return RR_BISECT_SKIP;
	}
}

int rr_result_counts_text(const struct rr_result *r, char *buf, size_t len)
{
	size_t o;
	int i;

	o = snprintf(buf, len,
		     " Processes and VMAs of the pattern summed over their /proc/PID/maps:");
	for (i = 0; i < r->nr_cases; i++) {
		const struct rr_case_result *c = &r->cases[i];
		size_t left = o < len ? len - o : 0;

		if (!c->procs)
			o += snprintf(buf + o, left, "%s %s never built",
				      i ? ";" : "", c->name);
		else
			o += snprintf(buf + o, left,
				      "%s %s %u process%s, %zu VMAs",
				      i ? ";" : "", c->name, c->procs,
				      c->procs == 1 ? "" : "es", c->vmas);
	}
	return o;
}

void rr_case_words(enum rr_page_type t, enum rr_role role, const char *what,
		   char *buf, size_t len)
{
	static const char *const pages[RR_PT_MAX] = {
		[RR_PT_KSM] = "KSM-merged anonymous pages",
		[RR_PT_ANON] = "the same pattern, plain anonymous pages, no KSM",
		[RR_PT_FILE] = "the same pattern on a MAP_SHARED memfd (shmem) mapping",
	};
	static const char *const walk[RR_PT_MAX] = {
		[RR_PT_KSM] = "rmap_walk_ksm",
		[RR_PT_ANON] = "rmap_walk_anon",
		[RR_PT_FILE] = "rmap_walk_file",
	};

	if (what && what[0])
		snprintf(buf, len, "%s", what);
	else if (t >= RR_PT_MAX)
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%s (%s%s)", pages[t], walk[t],
			 role == RR_CONTROL ? ", control" : "");
}

void rr_case_what(const struct rr_case_result *c, char *buf, size_t len)
{
	rr_case_words(c->type, c->role, c->what, buf, len);
}

const char *rr_case_declared_what(const struct rr_repro *r,
				  const struct rr_case *c)
{
	const char *what = r->case_what ? r->case_what(c) : NULL;

	return what ? what : c->what;
}

bool rr_repro_valid(const struct rr_repro *r, char *why, size_t len)
{
	int i, j, subjects = 0;

	if (r->nr_cases < 2 || r->nr_cases > RR_MAX_CASES) {
		snprintf(why, len, "%d cases: a subject and 1 to %d controls",
			 r->nr_cases, RR_MAX_CASES - 1);
		return false;
	}
	for (i = 0; i < r->nr_cases; i++) {
		const struct rr_case *c = &r->cases[i];
		const char *n = c->name ? c->name : rr_page_type_name(c->type);

		if (c->type >= RR_PT_MAX) {
			snprintf(why, len, "case %d: no page type", i + 1);
			return false;
		}
		subjects += c->role == RR_SUBJECT;
		for (j = 0; j < i; j++) {
			const struct rr_case *o = &r->cases[j];

			if (!strcmp(n, o->name ? o->name :
				    rr_page_type_name(o->type))) {
				snprintf(why, len, "two cases named %s", n);
				return false;
			}
		}
		if (strlen(n) >= sizeof(((struct rr_case_result *)0)->name) ||
		    strspn(n, "abcdefghijklmnopqrstuvwxyz0123456789-") !=
		    strlen(n)) {
			snprintf(why, len,
				 "case name '%s': lower case letters, digits and '-', at most 23",
				 n);
			return false;
		}
	}
	if (subjects != 1) {
		snprintf(why, len, "%d subject cases: one is needed", subjects);
		return false;
	}
	return true;
}

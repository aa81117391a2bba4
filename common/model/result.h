/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a run found. The measuring child fills this in memory shared with
 * its parent, so the parent can still report (and say where the child
 * was) when the child is interrupted or dies, and can add whether the
 * machine was restored. Only fixed-size data: no heap pointers.
 */
#ifndef RR_RESULT_H
#define RR_RESULT_H

#include <limits.h>
#include <stdbool.h>

#include "lib/signif.h"
#include "lib/stats.h"
#include "mm/kmsg.h"
#include "mm/ksm.h"
#include "mm/sysinfo.h"
#include "pattern/pattern.h"
#include "probe/call_part.h"
#include "probe/iters.h"
#include "probe/probe.h"
#include "probe/tasks.h"
#include "probe/waits.h"

/*
 * When the victim runs: in a pass of its own on a fresh copy of the
 * pattern (the probe's pass then measures undisturbed walks), in the
 * probe's pass, or not at all. auto: apart, except for compaction, which
 * cannot be repeated on the same pages.
 */
enum rr_victim_mode {
	RR_VICTIM_AUTO,
	RR_VICTIM_APART,
	RR_VICTIM_SAME,
	RR_VICTIM_OFF,
};

extern const char *const rr_victim_names[];

/*
 * inconclusive: the runs disagreed and kept disagreeing up to
 * --max-runs (verdict.h): neither verdict has two thirds of the runs.
 */
enum rr_verdict {
	RR_REPRODUCED,
	RR_NOT_REPRODUCED,
	RR_SKIP,
	RR_ERROR,
	RR_INCONCLUSIVE,
};

extern const char *const rr_verdict_names[];

/*
 * A case: one copy of the pattern, measured on its own. The subject is
 * the case whose walks the reproducer claims pathological; controls are
 * the same pattern where they should be short (another page type, or
 * the same pages in one process). The verdict compares the subject
 * with the controls that were reached.
 */
enum rr_role { RR_CONTROL, RR_SUBJECT };

extern const char *const rr_role_names[];

/*
 * What decides the verdict: the subject's latency against the
 * controls', and an oracle's outcome where one ran (both, the
 * default); the latency alone (an oracle's outcome is reported, not
 * judged); or the oracle alone (latency reported, not judged).
 */
enum rr_policy { RR_POLICY_BOTH, RR_POLICY_LATENCY, RR_POLICY_CORRECTNESS,
		 RR_POLICY_BENCHMARK };

extern const char *const rr_policy_names[];

/*
 * The passes of a case run, each on a fresh copy of the pattern: the
 * probe's, the victim's (when apart), one with no probe at all
 * (--probe-cost), one counting interval-tree steps (--iterations).
 */
enum rr_pass { RR_PASS_PROBE, RR_PASS_VICTIM, RR_PASS_BARE, RR_PASS_COUNT,
	       RR_PASS_MAX };

#define RR_MAX_PARAMS 8

/* Runs a verdict may take (--runs, --max-runs). */
#define RR_MAX_RUNS 100

/* Samples of a case kept for the JSON (and scripts/compare's tests). */
#define RR_KEEP_SAMPLES 1000

/* One run judged on its own (verdict.h). */
enum rr_run_verdict {
	RR_RUN_NONE,			/* not made, or not judged yet */
	RR_RUN_REPRODUCED,
	RR_RUN_NOT_REPRODUCED,
	RR_RUN_INCOMPLETE,		/* not reproduced, figures lost */
	RR_RUN_UNJUDGED,		/* no subject figure, no control */
};

extern const char *const rr_run_verdict_names[];

/*
 * A case in one run: its judged figure (the probe's intervals, or the
 * trigger's calls where those are judged) in that run, and what the
 * probe's pass may have missed.
 */
struct rr_run_fig {
	unsigned int count;
	double p50, max;
	unsigned long long lost;	/* events lost (ring buffer, or a
					 * polled counter that moved by
					 * more than one between reads) */
	unsigned long unpaired;		/* starts and ends dropped */
	unsigned long read_errors;	/* polled counter reads failed */
};

/*
 * The subject's samples against one control's (signif.h), kept in the
 * control's result: is the subject longer, beyond noise?
 */
struct rr_case_test {
	bool ran;
	struct rr_mwu mwu;		/* one-sided: the subject longer */
	struct rr_ratio_ci ratio;	/* the subject's median over its */
};

/* p below this: the test calls the subject longer (significant). */
#define RR_ALPHA 0.01

/* Cases of a reproducer: a subject and its controls. */
#define RR_MAX_CASES 6

/* Walk-level probes run beside the chosen one (--cross-check). */
#define RR_MAX_CROSS 2

/*
 * A correctness oracle's outcome, summed over a case's runs: after the
 * trigger, was every page it should have acted on acted on, through
 * every mapping? A mapping the rmap walk did not find shows here, however
 * fast the walk was.
 */
struct rr_oracle {
	bool ran;
	unsigned long long pages_checked, pages_failed;
	unsigned long long mappings_checked, mappings_missed;
	char reason[256];		/* the first failure, or what was checked */
};

/*
 * Room for a trigger's own figures (trigger.h): of the run, and of each
 * case. The trigger's file alone knows what they hold.
 */
#define RR_TRIG_BYTES 1024
#define RR_TRIG_CASE_BYTES 128

struct rr_case_result {
	char name[24];
	enum rr_page_type type;
	enum rr_role role;
	char what[192];			/* the reproducer's words; "": default */
	bool ran;
	char error[256];		/* set: the case failed */
	/*
	 * set: the kernel refuses what the case does (an op returned
	 * -EOPNOTSUPP with the kernel's reason): the run is a skip
	 */
	char refused[256];
	/*
	 * set: a control the trigger could not reach (in some run); with
	 * no sample at all, the verdict leaves it out and says so
	 */
	char not_reached[256];
	struct rr_stats latency;	/* probe intervals, ms */
	struct rr_stats victim;		/* victim mprotect(), ms */
	/* its calls with no trigger running (--victim-alone), ms */
	struct rr_stats victim_alone;
	/* seconds the victim ran: during the firings, and alone */
	double victim_with_s, victim_alone_s;
	/* calls the trigger timed itself (hwpoison's writes), ms */
	struct rr_stats calls;
	/* the part of those calls timed apart (rr_result.part), ms */
	struct rr_stats part;
	unsigned long part_unpaired;
	struct rr_stats cross[RR_MAX_CROSS];	/* the same walks, other probes */
	double pass_s[RR_PASS_MAX];	/* trigger time in each kind of pass */
	unsigned int passes[RR_PASS_MAX];
	/* --iterations: steps counted in the counting pass */
	unsigned long long iter_first, iter_next, count_walks;
	struct rr_stats count_lat;	/* the walks while counting, ms */
	/* steps (counts, not ms) per walk and per rmap_item, when per_item */
	struct rr_stats walk_steps, item_steps;
	unsigned long long count_walks_begun; /* by the counting kprobe */
	unsigned long long walks_without_items; /* counted as 0 steps */
	unsigned long long items_dropped; /* the hist had no room for */
	struct rr_iter_callers iter_callers; /* steps by caller (iters.h) */
	unsigned long victim_errors;
	bool victim_truncated;
	unsigned long long lost_events;
	unsigned long unpaired;
	unsigned long intervals;	/* all paired intervals */
	unsigned long long marks;	/* pattern PTEs marked (migrate) */
	unsigned long long filled;	/* pattern pages, summed over runs */
	unsigned long long gone;	/* of those, not present after */
	unsigned long long moved;	/* migrate: pages moved */
	unsigned long long move_failed;	/* migrate: pages that did not */
	size_t pages, vmas;		/* vmas: summed over its processes */
	unsigned int procs;		/* processes mapping the pattern */
	struct rr_ksm_counters ksm;	/* after the last merge */
	unsigned int runs;
	/* each run's judged figure, run 1 first */
	struct rr_run_fig run[RR_MAX_RUNS];
	/*
	 * the judged samples of every run, thinned to at most
	 * RR_KEEP_SAMPLES evenly spaced order statistics (signif.h), sorted
	 */
	unsigned int kept;
	double keep[RR_KEEP_SAMPLES];
	struct rr_case_test test;	/* a control's: the subject vs it */
	double setup_s, merge_s;
	struct rr_oracle oracle;
	struct rr_klog klog;		/* the kernel's log while it ran */
	/* the probe's counted intervals by the task that ran them */
	unsigned long long walkers[RR_TASK_MAX];
	/*
	 * Lock waits (probe/waits.h) of the victim, in the pass it ran in,
	 * and of the reproducer's other tasks (the one that fires the
	 * trigger, the family's members) in the probe's pass.
	 */
	struct rr_wait_fig waits_victim, waits_walker;
	unsigned long waits_unpaired;	/* begins or ends dropped */
	unsigned long waits_spins;	/* spinlock waits, not kept */
	unsigned long long waits_lost;	/* events lost in their passes */
	/*
	 * The victim's longest call, and the part of it spent in lock
	 * waits (ms), with those waits' flags or'ed: how much of the stall
	 * the kernel saw as waiting.
	 */
	double stall_ms, stall_waited_ms;
	unsigned int stall_flags;
	/*
	 * folio_referenced() returns during the firings, of any task, and
	 * those that gave up on a contended rmap lock: [0] in passes
	 * without the victim, [1] with it
	 */
	unsigned long long ref_calls[2], ref_giveups[2];
	/*
	 * Where the victim's waits began most often (a hist trigger keyed
	 * by stack): "caller < its caller < ...", its hits, and all hits
	 */
	char wait_caller[160];
	unsigned long long wait_caller_hits, wait_stack_hits;
	/* the trigger's own figures of the case (ctx->figures) */
	_Alignas(16) unsigned char trig[RR_TRIG_CASE_BYTES];
};

struct rr_result {
	char reproducer[64];
	enum rr_verdict verdict;
	char reason[1024];
	bool done;			/* the child reached the end */
	char phase[128];		/* what the child was doing */
	char options[512];		/* command line, for repeating */
	struct rr_sysinfo sys;
	int trigger;			/* enum rr_trigger */
	char trigger_why[256];		/* why this trigger */
	char trigger_how[256];		/* what the last trigger did */
	int victim;			/* enum rr_victim_mode, resolved */
	unsigned long long victim_alone_ms;	/* --victim-alone */
	/* the pattern's own victim call (rr_victim_op); empty: mprotect() */
	char victim_call[48];
	char victim_what[320];
	struct rr_probe_setup probe;	/* chosen by the parent */
	int nr_cross;
	struct rr_probe_setup cross[RR_MAX_CROSS];
	bool probe_cost;		/* a bare pass was run */
	bool iterations;		/* a counting pass was run */
	bool iter_items;		/* ... counting per rmap_item too */
	char iter_items_note[256];	/* why not, if not */
	struct rr_iter_syms iter_syms;	/* the iterators it hooked */
	char probe_why[512];		/* better probes passed over, why */
	struct rr_part part;		/* a part of the trigger's calls */
	bool anywhere;			/* probes traced every task */
	bool waits;			/* lock waits recorded (waits.h) */
	bool waits_mmap;		/* mmap_lock waits told apart */
	bool giveups;			/* reclaim's give-ups counted */
	bool waits_stack;		/* the victim's waits' stacks kept */
	char waits_stack_why[96];	/* why not */
	char giveups_why[160];		/* why not */
	char waits_why[160];		/* why not */
	/* the trigger's own figures of the run (trigger.h) */
	_Alignas(16) unsigned char trig[RR_TRIG_BYTES];
	char swap[192];
	char memcg[PATH_MAX + 16];
	char instance[64];
	unsigned int runs;		/* runs made */
	unsigned int runs_asked;	/* --runs: complete runs first made */
	unsigned int max_runs;		/* --max-runs */
	unsigned char run_verdict[RR_MAX_RUNS];	/* enum rr_run_verdict */
	unsigned int runs_agreeing;	/* the runs that gave the verdict */
	/*
	 * How busy the host was in each run: the share of the run's wall
	 * time in which some task waited for a CPU (mm/psi.h), percent;
	 * negative when unknown, cpu_pressure_why saying why.
	 */
	double cpu_pressure[RR_MAX_RUNS];
	char cpu_pressure_why[96];
	unsigned long long buffer_kb;	/* the trace buffer at the end */
	double threshold_ms, min_ratio;
	enum rr_policy policy;
	bool judge_calls;		/* the verdict on trigger calls */
	double bench_ms_per_gb;		/* a benchmark's bound; 0: none */
	/* pattern parameters, for the report */
	unsigned long long pages;
	unsigned long long max_page_sharing;
	/* the reproducer's own: JSON pattern fields, its sentence */
	struct rr_param {
		char name[32];
		unsigned long long value;
		char text[32];		/* set: a string field instead */
	} params[RR_MAX_PARAMS];
	int nr_params;
	char pattern_text[768];
	int nr_cases;			/* 0: stopped before measuring */
	struct rr_case_result cases[RR_MAX_CASES];
	double total_s;
	unsigned long long oom_kill_before, oom_kill_after;
	bool oom_unknown;		/* no oom_kill in /proc/vmstat */
	long max_rss_kb;		/* of the measuring child */
	bool restore_ran;
	int restored;			/* journal records undone */
	int restore_left;		/* changed since by others: left */
	int restore_retired;		/* frames retired until reboot */
	int restore_failures;
};

/* Did an oracle that ran find a page or mapping not acted on? */
bool rr_oracle_failed(const struct rr_oracle *o);
/* Add a pattern field of the reproducer's (describe()). */
void rr_result_param(struct rr_result *r, const char *name,
		     unsigned long long value);
void rr_result_param_text(struct rr_result *r, const char *name,
			  const char *text);
/*
 * For a pattern sentence: " Processes and VMAs of the pattern summed
 * over their /proc/PID/maps: NAME N processes, M VMAs; ..." for every
 * case (a case not built says so). Returns what snprintf() would.
 */
int rr_result_counts_text(const struct rr_result *r, char *buf,
			  size_t len);
/* The first case of a page type, or NULL. */
struct rr_case_result *rr_result_case(const struct rr_result *r,
				      enum rr_page_type t);
/* The subject case, or NULL. */
struct rr_case_result *rr_result_subject(const struct rr_result *r);
/*
 * A case in words, for the report and --help: what, else the default
 * words of its page type and role ("KSM-merged anonymous pages
 * (rmap_walk_ksm)").
 */
void rr_case_words(enum rr_page_type t, enum rr_role role, const char *what,
		   char *buf, size_t len);
/* The same of a case that ran: its what, else its type's and role's. */
void rr_case_what(const struct rr_case_result *c, char *buf, size_t len);
/* A case in sentences: its name ("KSM" for the ksm case). */
const char *rr_case_label(const struct rr_case_result *c);
/* --max-runs: given, else three times the runs asked, within limits */
unsigned int rr_max_runs(unsigned int asked, unsigned int given);
/* The judged samples of a case: its probe intervals, or its calls. */
const struct rr_stats *rr_judged(const struct rr_result *r,
				 const struct rr_case_result *c);
void rr_set_verdict(struct rr_result *r, enum rr_verdict v,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Seconds spent firing triggers in a case, all passes. */
double rr_case_trigger_s(const struct rr_case_result *c);
/* The run's phase times: sums over its cases. */
void rr_result_timing(const struct rr_result *r, double *setup,
		      double *merge, double *trigger);
/*
 * kselftest exit code: 0 not reproduced, 1 reproduced, 4 skip, 2 error,
 * 3 inconclusive
 */
int rr_exit_code(enum rr_verdict v);
/*
 * --bisect: the codes of git bisect run. Not reproduced is good (0),
 * reproduced bad (1); a skip, an error or an inconclusive verdict cannot
 * judge this kernel (125, skip it); a usage error aborts the bisection
 * (128).
 */
#define RR_BISECT_SKIP 125
#define RR_BISECT_ABORT 128
int rr_bisect_code(enum rr_verdict v);

#endif

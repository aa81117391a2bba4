/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who did a walk. A trigger whose work runs outside the reproducer
 * (machine-wide pressure: kswapd, and direct reclaim in the tasks that
 * allocate) is traced in every task; each interval the probe counts is
 * then told by its task: the reproducer's own, a kswapd thread, the
 * load the trigger started (stress-ng), ksmd, the kdamond the trigger
 * started, or any other task.
 */
#ifndef RR_TASKS_H
#define RR_TASKS_H

enum rr_task_kind {
	RR_TASK_REPRO,
	RR_TASK_KSWAPD,
	RR_TASK_LOAD,
	RR_TASK_KSMD,
	RR_TASK_KDAMOND,		/* the damon trigger's */
	RR_TASK_OTHER,
	RR_TASK_MAX
};

/*
 * JSON keys: "reproducer", "kswapd", "load", "ksmd", "kdamond",
 * "other".
 */
extern const char *const rr_task_kind_names[];
/* The report's words for each. */
extern const char *const rr_task_kind_words[];

/* Note a task of a kind (the reproducer's, the load's). */
void rr_tasks_add(enum rr_task_kind kind, int pid);
/*
 * The kind of a task: one noted, else a kswapd thread (its comm, read
 * once), else other.
 */
enum rr_task_kind rr_task_kind(int pid);

#endif

// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "probe/tasks.h"

const char *const rr_task_kind_names[] = {
	[RR_TASK_REPRO] = "reproducer",
	[RR_TASK_KSWAPD] = "kswapd",
	[RR_TASK_LOAD] = "load",
	[RR_TASK_KSMD] = "ksmd",
	[RR_TASK_KDAMOND] = "kdamond",
	[RR_TASK_OTHER] = "other",
};

const char *const rr_task_kind_words[] = {
	[RR_TASK_REPRO] = "the reproducer",
	[RR_TASK_KSWAPD] = "kswapd",
	[RR_TASK_LOAD] = "the load (direct reclaim)",
	[RR_TASK_KSMD] = "ksmd",
	[RR_TASK_KDAMOND] = "kdamond",
	[RR_TASK_OTHER] = "other tasks",
};

/* Enough for a load of a few hundred workers; more are "other". */
#define MAX_NOTED 512

static struct {
	int pid;
	enum rr_task_kind kind;
} noted[MAX_NOTED];
static int nr_noted;
static bool kswapd_found;

void rr_tasks_add(enum rr_task_kind kind, int pid)
{
	int i;

	for (i = 0; i < nr_noted; i++)
		if (noted[i].pid == pid) {
			noted[i].kind = kind;
			return;
		}
	if (nr_noted < MAX_NOTED) {
		noted[nr_noted].pid = pid;
		noted[nr_noted++].kind = kind;
	}
}

/* kswapd0, kswapd1, ...: kernel threads named after their node. */
static void find_kswapd(void)
{
	char path[64], comm[32];
	struct dirent *d;
	DIR *dir = opendir("/proc");

	kswapd_found = true;
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		int pid = atoi(d->d_name);

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/comm", pid);
		if (!rr_read_file(path, comm, sizeof(comm)) &&
		    !strncmp(comm, "kswapd", 6))
			rr_tasks_add(RR_TASK_KSWAPD, pid);
	}
	closedir(dir);
}

enum rr_task_kind rr_task_kind(int pid)
{
	int i;

	if (!kswapd_found)
		find_kswapd();
	for (i = 0; i < nr_noted; i++)
		if (noted[i].pid == pid)
			return noted[i].kind;
	return RR_TASK_OTHER;
}

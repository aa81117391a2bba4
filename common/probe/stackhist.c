// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "probe/stackhist.h"

int rr_stackhist_arm(struct rr_trace *t, const char *system,
		     const char *event, const char *opts, int pid)
{
	static const char *const key[] = { "common_stacktrace", "stacktrace" };
	char trig[192];
	int i;

	for (i = 0; i < 2; i++) {
		snprintf(trig, sizeof(trig),
			 "hist:keys=%s:vals=hitcount%s if common_pid == %d",
			 key[i], opts ? opts : "", pid);
		if (tracefs_event_file_append(t->inst, system, event,
					      "trigger", trig) >= 0)
			return 0;
	}
	return -EOPNOTSUPP;
}

bool rr_stackhist_next(const char **pos, struct rr_stack_entry *e)
{
	const char *p = *pos;

	while (p && (p = strstr(p, "{ "))) {
		const char *key = p + 2, *end;

		if (strncmp(key, "common_stacktrace:", 18) &&
		    strncmp(key, "stacktrace:", 11)) {
			p = key;
			continue;
		}
		end = strstr(key, "hitcount:");
		if (!end)
			break;
		e->frames = strchr(key, '\n');
		e->end = end;
		e->hits = strtoull(end + 9, NULL, 10);
		*pos = end + 9;
		return true;
	}
	*pos = NULL;
	return false;
}

bool rr_stack_frame(const char **p, const struct rr_stack_entry *e,
		    char *name, size_t len)
{
	const char *q = *p ? *p : e->frames;
	size_t n;

	if (!q || q >= e->end)
		return false;
	q += strspn(q, " \t\n");
	n = strcspn(q, "+ \t\n");
	if (!n || q >= e->end || *q == '}')
		return false;
	snprintf(name, len, "%.*s", (int)n, q);
	*p = strchr(q, '\n');
	if (!*p)
		*p = e->end;
	return true;
}

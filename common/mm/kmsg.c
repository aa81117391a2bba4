// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/hooks.h"
#include "lib/util.h"
#include "mm/kmsg.h"

#define TAINTED "/proc/sys/kernel/tainted"

/*
 * What a reader of the figures must see: the trigger's own kernel
 * messages, and every sign that the walk stalled the machine.
 */
static const char *const matters[] = {
	"Memory failure", "memory_failure", "Soft offlin", "soft offline",
	"soft_offline",
	"HWPoison", "hwpoison", "can't handle KSM",
	"soft lockup", "hard LOCKUP", "detected stall",
	"detected expedited stall", "blocked for more than",
	"BUG:", "WARNING:", "Oops", "general protection fault",
	"Kernel panic", "Out of memory", "oom-kill",
	NULL
};

bool rr_kmsg_matters(const char *msg)
{
	int i;

	for (i = 0; matters[i]; i++)
		if (strstr(msg, matters[i]))
			return true;
	return false;
}

bool rr_kmsg_parse(const char *rec, char *msg, size_t size)
{
	const char *semi = strchr(rec, ';'), *p;
	size_t n;

	if (!semi || rec[0] < '0' || rec[0] > '9')
		return false;
	/* the prefix: digits and commas (and the flag '-', 'c', ...) */
	for (p = rec; p < semi; p++)
		if (*p == '\n')
			return false;
	n = strcspn(semi + 1, "\n");
	if (n >= size)
		n = size - 1;
	memcpy(msg, semi + 1, n);
	msg[n] = '\0';
	return true;
}

void rr_klog_add(struct rr_klog *out, const char *msg)
{
	if (out->lines < RR_KLOG_LINES)
		snprintf(out->line[out->lines++], RR_KLOG_LEN, "%s", msg);
	else
		out->more++;
}

void rr_kmsg_open(struct rr_kmsg *k)
{
	const char *path = rr_hook_env("RMAP_REPRO_KMSG");

	if (!path)
		path = "/dev/kmsg";
	k->why[0] = '\0';
	if (rr_read_long(TAINTED, &k->taint))
		k->taint = -1;
	k->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0) {
		snprintf(k->why, sizeof(k->why), "%s: %s", path,
			 strerror(errno));
		return;
	}
	/* Only what comes from now on. */
	if (lseek(k->fd, 0, SEEK_END) < 0) {
		snprintf(k->why, sizeof(k->why), "%s: seek: %s", path,
			 strerror(errno));
		close(k->fd);
		k->fd = -1;
	}
}

/*
 * /dev/kmsg gives one record per read(); a plain file (the tests')
 * gives many: split them at the newlines that start a record.
 */
static void take(struct rr_klog *out, char *buf)
{
	char msg[RR_KLOG_LEN * 2], *rec = buf, *nl;

	while (rec && *rec) {
		nl = strchr(rec, '\n');
		/* continuation lines (" KEY=value") belong to the record */
		while (nl && nl[1] == ' ')
			nl = strchr(nl + 1, '\n');
		if (rr_kmsg_parse(rec, msg, sizeof(msg))) {
			out->records++;
			if (rr_kmsg_matters(msg))
				rr_klog_add(out, msg);
		}
		rec = nl ? nl + 1 : NULL;
	}
}

void rr_kmsg_collect(struct rr_kmsg *k, struct rr_klog *out)
{
	char buf[8192 + 1], msg[96];
	unsigned long long lost = 0;
	long taint;
	ssize_t n;

	if (k->fd < 0) {
		if (!out->read)
			snprintf(out->why, sizeof(out->why), "%s", k->why);
		return;
	}
	out->read = true;
	out->why[0] = '\0';
	for (;;) {
		n = read(k->fd, buf, sizeof(buf) - 1);
		if (n < 0 && errno == EINTR)
			continue;
		/* overwritten before we read it: counted, and on */
		if (n < 0 && errno == EPIPE) {
			lost++;
			continue;
		}
		if (n <= 0)
			break;
		buf[n] = '\0';
		take(out, buf);
	}
	close(k->fd);
	k->fd = -1;
	if (lost) {
		snprintf(msg, sizeof(msg),
			 "(%llu records overwritten before they were read)",
			 lost);
		rr_klog_add(out, msg);
	}
	if (k->taint >= 0 && !rr_read_long(TAINTED, &taint) &&
	    taint != k->taint) {
		snprintf(msg, sizeof(msg), "taint changed from %ld to %ld",
			 k->taint, taint);
		rr_klog_add(out, msg);
	}
}

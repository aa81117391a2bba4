/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel logged while a case ran: /dev/kmsg read from the
 * case's start to its end, keeping what matters to a reader of the
 * figures (memory failure and soft offline lines, soft lockups, RCU
 * stalls, hung tasks, BUG/WARNING/Oops) and a change of the taint mask.
 * A walk long enough to stall RCU is a finding the report must show.
 */
#ifndef RR_KMSG_H
#define RR_KMSG_H

#include <stdbool.h>
#include <stddef.h>

#define RR_KLOG_LINES 8
#define RR_KLOG_LEN 160

/* Kept for a case, over its runs (fixed size: shared memory). */
struct rr_klog {
	bool read;			/* /dev/kmsg could be read */
	char why[96];			/* if not, why */
	unsigned int lines;		/* kept, at most RR_KLOG_LINES */
	unsigned int more;		/* that mattered, with no room */
	unsigned long long records;	/* records read */
	char line[RR_KLOG_LINES][RR_KLOG_LEN];
};

/* A reader, open from a case's start. */
struct rr_kmsg {
	int fd;
	long taint;
	char why[96];
};

/*
 * Start reading at the log's end (RMAP_REPRO_KMSG names another file,
 * for the tests); taint noted. Failing is not an error: collect says
 * why it read nothing.
 */
void rr_kmsg_open(struct rr_kmsg *k);
/* Read to the end, keep what matters into out, close. */
void rr_kmsg_collect(struct rr_kmsg *k, struct rr_klog *out);

/*
 * One record, "LEVEL,SEQ,USEC,FLAGS;TEXT" (dev-kmsg ABI): its text,
 * without continuation lines, into msg. false if it is not a record.
 */
bool rr_kmsg_parse(const char *rec, char *msg, size_t size);
/* Does a message matter to the report? */
bool rr_kmsg_matters(const char *msg);
/* Keep one line (or count it, when full). */
void rr_klog_add(struct rr_klog *out, const char *msg);

#endif

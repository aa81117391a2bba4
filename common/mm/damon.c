// SPDX-License-Identifier: GPL-2.0
/* DAMON's sysfs interface: one kdamond of ours, paddr, over given frames. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal/journal.h"
#include "journal/trust.h"
#include "lib/util.h"
#include "mm/damon.h"

#define KD "/kdamonds"
#define CTX KD "/0/contexts/0"

const char *rr_damon_admin(void)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s/kernel/mm/damon/admin", rr_sys_dir());
	return buf;
}

/* Write value to admin/rel. */
static int put(const char *admin, const char *rel, const char *value)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s", admin, rel);
	return rr_write_file(path, value);
}

static int put_ul(const char *admin, const char *rel, unsigned long long v)
{
	char val[32];

	snprintf(val, sizeof(val), "%llu", v);
	return put(admin, rel, val);
}

bool rr_damon_available(char *why, size_t len)
{
	char path[512];
	long n;

	snprintf(path, sizeof(path), "%s" KD "/nr_kdamonds", rr_damon_admin());
	if (!rr_path_exists(path)) {
		snprintf(why, len,
			 "no DAMON sysfs interface (CONFIG_DAMON_SYSFS off)");
		return false;
	}
	if (rr_read_long(path, &n)) {
		snprintf(why, len, "cannot read %s", path);
		return false;
	}
	if (n) {
		snprintf(why, len,
			 "DAMON's sysfs interface is in use (%ld kdamonds configured): left alone",
			 n);
		return false;
	}
	return true;
}

int rr_damon_setup(const struct rr_damon_attrs *a, char *why, size_t len)
{
	const char *admin = rr_damon_admin();
	int err;

	err = journal_record(J_DAMON, admin, "");
	if (err) {
		snprintf(why, len, "journal: %s", strerror(-err));
		return err;
	}
	err = put(admin, KD "/nr_kdamonds", "1");
	if (!err)
		err = put(admin, KD "/0/contexts/nr_contexts", "1");
	if (err) {
		snprintf(why, len, "cannot add a kdamond: %s", strerror(-err));
		return err;
	}
	if (put(admin, CTX "/operations", "paddr")) {
		snprintf(why, len,
			 "no paddr operations (CONFIG_DAMON_PADDR off)");
		return -ENODEV;
	}
	err = put_ul(admin, CTX "/monitoring_attrs/intervals/sample_us",
		     a->sample_us);
	if (!err)
		err = put_ul(admin, CTX "/monitoring_attrs/intervals/aggr_us",
			     a->aggr_us);
	if (!err)
		err = put_ul(admin, CTX "/monitoring_attrs/intervals/update_us",
			     a->update_us);
	if (!err && a->max_regions > 1000)
		err = put_ul(admin, CTX "/monitoring_attrs/nr_regions/max",
			     a->max_regions);
	if (!err)
		err = put(admin, CTX "/targets/nr_targets", "1");
	if (err)
		snprintf(why, len, "cannot configure the kdamond: %s",
			 strerror(-err));
	return err;
}

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

size_t rr_damon_ranges(unsigned long long *pfn, size_t n, size_t page_size,
		       struct rr_damon_range *out, size_t max)
{
	size_t i, k = 0;

	qsort(pfn, n, sizeof(*pfn), cmp_ull);
	for (i = 0; i < n; i++) {
		unsigned long long s = pfn[i] * page_size;

		/* the same frame twice, or the next one: one range */
		if (k && s <= out[k - 1].end) {
			if (s + page_size > out[k - 1].end)
				out[k - 1].end = s + page_size;
			continue;
		}
		if (k == max)
			break;
		out[k].start = s;
		out[k].end = s + page_size;
		k++;
	}
	return k;
}

int rr_damon_set_regions(const struct rr_damon_range *r, size_t n)
{
	const char *admin = rr_damon_admin();
	char rel[128];
	size_t i;
	int err;

	err = put_ul(admin, CTX "/targets/0/regions/nr_regions", n);
	for (i = 0; !err && i < n; i++) {
		snprintf(rel, sizeof(rel), CTX "/targets/0/regions/%zu/start",
			 i);
		err = put_ul(admin, rel, r[i].start);
		snprintf(rel, sizeof(rel), CTX "/targets/0/regions/%zu/end", i);
		if (!err)
			err = put_ul(admin, rel, r[i].end);
	}
	return err;
}

int rr_damon_state(bool on)
{
	return put(rr_damon_admin(), KD "/0/state", on ? "on" : "off");
}

int rr_damon_pid(void)
{
	char path[512];
	long pid;
	int err;

	snprintf(path, sizeof(path), "%s" KD "/0/pid", rr_damon_admin());
	err = rr_read_long(path, &pid);
	if (err)
		return err;
	return pid > 0 ? (int)pid : -ESRCH;
}

/* Our kdamond off, then gone, with every setting beneath it. */
static int undo_damon(const char *admin, const char *unused, bool verbose)
{
	char path[512], state[16] = "";
	long n = 0;
	int err;

	snprintf(path, sizeof(path), "%s" KD "/nr_kdamonds", admin);
	if (rr_read_long(path, &n) || !n)
		return 0;
	snprintf(path, sizeof(path), "%s" KD "/0/state", admin);
	if (!rr_read_file(path, state, sizeof(state)) &&
	    !strncmp(state, "on", 2))
		put(admin, KD "/0/state", "off");
	err = put(admin, KD "/nr_kdamonds", "0");
	/* said done only when the interface says so too */
	snprintf(path, sizeof(path), "%s" KD "/nr_kdamonds", admin);
	if (!err && (rr_read_long(path, &n) || n))
		err = -EBUSY;
	if (!err && verbose)
		rr_msg("removed the DAMON kdamond of the run");
	return err;
}

/* DAMON's admin directory in sysfs (a stand-in's in the unit tests). */
static int check_damon(const char *admin, const char *unused, char *why,
		       size_t len)
{
	static const char *const ours[] = { "/sys/kernel/mm/damon/admin", NULL };
	char real[PATH_MAX];

	return journal_trust_path(admin, ours, RR_FS_SYSFS, real, sizeof(real),
				  why, len);
}

const struct journal_undo rr_undo_damon = {
	J_DAMON, undo_damon, check_damon, EBUSY
};

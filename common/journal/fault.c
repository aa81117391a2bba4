// SPDX-License-Identifier: GPL-2.0
/*
 * The journal's fault hooks (fault.h). The change count lives in a file,
 * not in memory: the changes of one run are made by its measuring child
 * and by the parent around it, and the run lock keeps a second run out.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "journal/fault.h"
#include "lib/hooks.h"
#include "lib/util.h"

#define CHANGES "test-changes"
#define HOLDS "test-holds"

/* A hook's list in the state directory (one in use at a time). */
static const char *state_file(const char *name)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", rr_state_dir(), name);
	return path;
}

static bool hooked(long *n)
{
	const char *v = rr_hook_env("RMAP_REPRO_TEST_FAIL_CHANGE");
	unsigned long long u;

	if (!v || !rr_parse_ull(v, &u) || u > INT_MAX)
		return false;
	*n = (long)u;
	return true;
}

#define REFUSAL_BYTES 512
static char *refusal;

const char *journal_refusal(void)
{
	return refusal ? refusal : "";
}

void journal_refused(const char *op, const char *what, int err)
{
	if (refusal)
		snprintf(refusal, REFUSAL_BYTES, "%s %s: %s", op, what,
			 strerror(err < 0 ? -err : err));
}

void journal_fault_begin(void)
{
	long n;

	if (!refusal) {
		refusal = mmap(NULL, REFUSAL_BYTES, PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (refusal == MAP_FAILED)
			refusal = NULL;
	}
	if (refusal)
		refusal[0] = '\0';

	if (hooked(&n))
		unlink(state_file(CHANGES));
	if (rr_hook_env("RMAP_REPRO_TEST_HOLD_AT"))
		unlink(state_file(HOLDS));
}

/* The count of changes so far: the lines of the list. */
static long listed(void)
{
	char buf[4096];
	long lines = 0;
	ssize_t got;
	int fd = open(state_file(CHANGES), O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	while ((got = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < got; i++)
			lines += buf[i] == '\n';
	close(fd);
	return lines;
}

int journal_fault(const char *op, const char *what, int refusal)
{
	char line[PATH_MAX + 64];
	long fail, n;
	int fd, len, e;

	if (!hooked(&fail))
		return 0;
	n = listed() + 1;
	len = snprintf(line, sizeof(line), "%ld\t%s\t%s\n", n, op, what);
	fd = open(state_file(CHANGES), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
		  0644);
	if (fd >= 0) {
		if (write(fd, line, len) != len)
			rr_warn("test hook: cannot list change %ld", n);
		close(fd);
	}
	if (n != fail)
		return 0;
	e = refusal;
	journal_refused(op, what, e);
	rr_warn("test hook RMAP_REPRO_TEST_FAIL_CHANGE=%ld: change %ld (%s %s) refused with %s",
	       fail, n, op, what, strerror(e));
	return -e;
}

bool journal_undo_broken(const char *op)
{
	const char *v = rr_hook_env("RMAP_REPRO_TEST_BREAK_UNDO");

	return v && !strcmp(v, op);
}

void rr_test_hold(const char *point)
{
	const char *at = rr_hook_env("RMAP_REPRO_TEST_HOLD_AT");
	const char *ms = rr_hook_env("RMAP_REPRO_TEST_HOLD_MS");
	static bool held;
	unsigned long long t = 8000;
	FILE *f;

	if (!at)
		return;
	f = fopen(state_file(HOLDS), "ae");
	if (f) {
		fprintf(f, "%s\n", point);
		fclose(f);
	}
	if (held || strcmp(at, point))
		return;
	held = true;
	if (ms)
		rr_parse_ull(ms, &t);
	rr_warn("test hook: holding at %s for %llu ms", point, t);
	rr_sleep_ms((unsigned int)t);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Progress lines: when they are due (never a line a second), and what a
 * ticker says, with the phase's own words of how far it has come.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "lib/util.h"

#define S(x) ((uint64_t)(x) * NSEC_PER_SEC)

static void test_schedule(void)
{
	uint64_t at = 0, prev = 0;
	int lines = 0;

	/* 1, 2, 5, 10, 20, 30 s into the phase, then every 30 s */
	CHECK_EQ(rr_progress_next(0), S(1));
	CHECK_EQ(rr_progress_next(S(1)), S(2));
	CHECK_EQ(rr_progress_next(S(2) + 5), S(5));
	CHECK_EQ(rr_progress_next(S(5)), S(10));
	CHECK_EQ(rr_progress_next(S(12)), S(20));
	CHECK_EQ(rr_progress_next(S(20)), S(30));
	CHECK_EQ(rr_progress_next(S(30)), S(60));
	CHECK_EQ(rr_progress_next(S(61)), S(90));
	/* a 300 s phase (a pressure run beside QEMU): 15 lines, not 300 */
	while ((at = rr_progress_next(at)) <= S(300)) {
		CHECK(at > prev);
		prev = at;
		lines++;
	}
	CHECK_EQ(lines, 15);
}

static void far(char *buf, size_t len)
{
	snprintf(buf, len, "7 of 9 pattern pages out");
}

/* The ticker's lines go to stderr: read them back from a file. */
static void test_ticker(void)
{
	char path[] = "/tmp/test_progress.XXXXXX", buf[1024] = "";
	int fd = mkstemp(path), saved = dup(2);
	struct rr_ticker *t;
	FILE *f;
	size_t n;

	CHECK(fd >= 0 && saved >= 0);
	dup2(fd, 2);
	t = rr_ticker_start("case ksm: trigger pressure", far);
	CHECK(t != NULL);
	usleep(2300 * 1000);
	rr_ticker_stop(t);
	dup2(saved, 2);
	close(saved);
	f = fdopen(fd, "r");
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	unlink(path);
	/* two lines in 2.3 s: at 1 s and 2 s, each saying how far */
	CHECK_CONTAINS(buf,
		"case ksm: trigger pressure: still running (1 s): 7 of 9 pattern pages out\n");
	CHECK_CONTAINS(buf, "still running (2 s): 7 of 9");
	CHECK(strstr(buf, "(3 s)") == NULL);
}

TEST_MAIN(T(test_schedule), T(test_ticker))

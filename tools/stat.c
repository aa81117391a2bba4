// SPDX-License-Identifier: GPL-2.0
/*
 * rmap-stat: the reproducers' tests (signif.h) on samples a script
 * gives, so that scripts/compare judges a change between two runs with
 * the same arithmetic as the verdict. Reads lines
 *
 *   KEY N x1 .. xN M y1 .. yM
 *
 * and prints for each
 *
 *   KEY p_two p_greater p_less ratio lo hi method p_min
 *
 * where the p-values are Mann-Whitney U's (x against y), ratio is
 * median(x) / median(y) and [lo, hi] its 95% bootstrap interval ("-" for
 * what is undefined); p_min is the smallest one-sided p these sample
 * sizes can give. KEY is a word without blanks.
 *
 * With --fit, it reads lines "KEY N x1 y1 .. xN yN" (a y of "nan": no
 * figure) and prints "KEY slope points": the least-squares slope of
 * log(y) on log(x) over the points with both positive (stats.h), "-"
 * with fewer than two or one x; scripts/sweep's fit.
 *
 * Every number is read as the option parser reads one (decimal: no
 * 0x10, inf or nan but --fit's "nan" y) and must not be negative; a
 * line with anything else, or more than its counts say, is refused:
 * exit 2, and no answer for it.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hooks.h"
#include "lib/opts.h"
#include "lib/signif.h"
#include "lib/stats.h"
#include "lib/util.h"

/*
 * The next blank-separated word of the line at *p into buf: its length,
 * 0 at the line's end, -1 when it is longer than buf.
 */
static int word(char **p, char *buf, size_t size)
{
	size_t n;

	*p += strspn(*p, " \t\n");
	n = strcspn(*p, " \t\n");
	if (n >= size)
		return -1;
	memcpy(buf, *p, n);
	buf[n] = '\0';
	*p += n;
	return n;
}

/*
 * A sample, as the option parser reads a decimal number (lib/util.h:
 * no 0x10, inf or nan), and not negative: every sample is a time or a
 * count. With nan_ok, "nan" is taken too (--fit's point without a
 * figure).
 */
static bool sample(char **p, double *v, bool nan_ok)
{
	char buf[64];

	if (word(p, buf, sizeof(buf)) <= 0)
		return false;
	if (nan_ok && !strcmp(buf, "nan")) {
		*v = NAN;
		return true;
	}
	return rr_parse_double(buf, v) && *v >= 0;
}

/* A count of at most max, in plain decimal digits. */
static bool count(char **p, size_t *n, unsigned long long max)
{
	unsigned long long k;
	char buf[24];

	if (word(p, buf, sizeof(buf)) <= 0 || rr_parse_dec(buf, &k) || k > max)
		return false;
	*n = k;
	return true;
}

/* N numbers from the line at *p into a new array. */
static double *numbers(char **p, size_t *n)
{
	double *v;
	size_t i, k;

	if (!count(p, &k, 1u << 24))
		return NULL;
	v = malloc((k ? k : 1) * sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < k; i++) {
		if (!sample(p, &v[i], false)) {
			free(v);
			return NULL;
		}
	}
	*n = k;
	return v;
}

/* Nothing but blanks left on the line. */
static bool at_end(char *p)
{
	return !p[strspn(p, " \t\n")];
}

static void num(double x)
{
	if (x == x)
		printf(" %.6g", x);
	else
		printf(" -");
}

/* --fit: "KEY N x1 y1 .. xN yN" into "KEY slope points". */
static int fit_one(char *line)
{
	char key[256], *p = line;
	double *xy, *x, *y, slope;
	size_t n, i, used;
	int got;

	if (sscanf(p, "%255s%n", key, &got) != 1)
		return 0;		/* a blank line */
	p += got;
	if (!count(&p, &n, 1u << 20))
		return -EINVAL;
	xy = malloc((2 * n + 1) * sizeof(*xy));
	if (!xy)
		return -ENOMEM;
	x = xy;
	y = xy + n;
	for (i = 0; i < 2 * n; i++) {
		if (!sample(&p, i % 2 ? &y[i / 2] : &x[i / 2], i % 2)) {
			free(xy);
			return -EINVAL;
		}
	}
	if (!at_end(p)) {
		free(xy);
		return -EINVAL;
	}
	used = rr_loglog_slope(x, y, n, &slope);
	if (slope == slope)
		printf("%s %.12g %zu\n", key, slope, used);
	else
		printf("%s - %zu\n", key, used);
	free(xy);
	return 0;
}

static int one(char *line)
{
	char key[256], *p = line;
	double *x = NULL, *y = NULL;
	size_t nx = 0, ny = 0;
	struct rr_ratio_ci ci;
	struct rr_mwu m;
	int used, ret = -EINVAL;

	if (sscanf(p, "%255s%n", key, &used) != 1)
		return 0;		/* a blank line */
	p += used;
	x = numbers(&p, &nx);
	y = x ? numbers(&p, &ny) : NULL;
	if (!x || !y || !nx || !ny || !at_end(p))
		goto out;
	ret = rr_mwu(x, nx, y, ny, &m);
	if (!ret)
		ret = rr_ratio_ci(x, nx, y, ny, &ci);
	if (ret)
		goto out;
	printf("%s", key);
	num(m.p_two);
	num(m.p_greater);
	num(m.p_less);
	num(ci.defined ? ci.ratio : 0.0 / 0.0);
	num(ci.defined ? ci.lo : 0.0 / 0.0);
	num(ci.defined ? ci.hi : 0.0 / 0.0);
	printf(" %s", m.method == RR_MWU_EXACT ? "exact" : "normal");
	num(m.p_min);
	putchar('\n');
out:
	free(x);
	free(y);
	return ret;
}

int main(int argc, char **argv)
{
	static bool fit;
	const struct rr_opt opts[] = {
		{ "fit", OPT_FLAG, &fit, NULL,
		  "read 'KEY N x1 y1 .. xN yN' lines instead and print 'KEY slope points': the least-squares slope of log(y) on log(x) over the points with both positive (a y of nan is no figure), - with fewer than two or one x (scripts/sweep)" },
		RR_OPT_END
	};
	const struct rr_opt *tables[] = { opts, NULL };
	char err[256], *line = NULL;
	size_t cap = 0;
	int ret, bad = 0;

	rr_set_prog("rmap-stat");
	ret = rr_hooks_refuse("rmap-stat", 2);
	if (ret)
		return ret;
	ret = rr_opts_parse(tables, argc, argv, err, sizeof(err));
	if (ret == 1) {
		rr_opts_help(stdout, "rmap-stat [--fit] < LINES",
			     "For each line 'KEY N x1 .. xN M y1 .. yM' on stdin, print 'KEY p_two p_greater p_less ratio lo hi method p_min': Mann-Whitney U of x against y (exact for small samples without ties, else the normal approximation with the tie and continuity corrections), and the ratio of the medians of x and y with its 95% bootstrap interval (1000 resamples, a fixed seed). scripts/compare uses it. Numbers are decimal, finite and not negative (samples are times and counts), as the options take them. Exit: 0, or 2 on a line it cannot read.",
			     tables);
		return 0;
	}
	if (ret < 0) {
		fprintf(stderr, "rmap-stat: %s\n", err);
		return 2;
	}
	while (getline(&line, &cap, stdin) > 0) {
		if (fit ? fit_one(line) : one(line)) {
			char *c;

			/* the line as text: no control character reaches a terminal */
			for (c = line; *c; c++)
				if ((unsigned char)*c < ' ' || *c == 0x7f)
					*c = '?';
			fprintf(stderr, "rmap-stat: cannot read: %.60s\n",
				line);
			bad = 1;
		}
	}
	free(line);
	return bad ? 2 : 0;
}

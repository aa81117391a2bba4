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
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hooks.h"
#include "lib/opts.h"
#include "lib/signif.h"
#include "lib/stats.h"
#include "lib/util.h"

/* N numbers from the line at *p into a new array. */
static double *numbers(char **p, size_t *n)
{
	unsigned long long k;
	double *v;
	char *end;
	size_t i;

	k = strtoull(*p, &end, 10);
	if (end == *p || k > (1u << 24))
		return NULL;
	*p = end;
	v = malloc((k ? k : 1) * sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < k; i++) {
		v[i] = strtod(*p, &end);
		if (end == *p) {
			free(v);
			return NULL;
		}
		*p = end;
	}
	*n = k;
	return v;
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
	char key[256], *p = line, *end;
	double *xy, *x, *y, slope;
	size_t n, i, used;
	int got;

	if (sscanf(p, "%255s%n", key, &got) != 1)
		return 0;		/* a blank line */
	p += got;
	n = strtoull(p, &end, 10);
	if (end == p || n > (1u << 20))
		return -EINVAL;
	p = end;
	xy = malloc((2 * n + 1) * sizeof(*xy));
	if (!xy)
		return -ENOMEM;
	x = xy;
	y = xy + n;
	for (i = 0; i < 2 * n; i++) {
		double v = strtod(p, &end);

		if (end == p) {
			free(xy);
			return -EINVAL;
		}
		p = end;
		if (i % 2)
			y[i / 2] = v;
		else
			x[i / 2] = v;
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
	if (!x || !y || !nx || !ny)
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
			     "For each line 'KEY N x1 .. xN M y1 .. yM' on stdin, print 'KEY p_two p_greater p_less ratio lo hi method p_min': Mann-Whitney U of x against y (exact for small samples without ties, else the normal approximation with the tie and continuity corrections), and the ratio of the medians of x and y with its 95% bootstrap interval (1000 resamples, a fixed seed). scripts/compare uses it. Exit: 0, or 2 on a line it cannot read.",
			     tables);
		return 0;
	}
	if (ret < 0) {
		fprintf(stderr, "rmap-stat: %s\n", err);
		return 2;
	}
	while (getline(&line, &cap, stdin) > 0) {
		if (fit ? fit_one(line) : one(line)) {
			fprintf(stderr, "rmap-stat: cannot read: %.60s\n",
				line);
			bad = 1;
		}
	}
	free(line);
	return bad ? 2 : 0;
}

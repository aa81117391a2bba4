/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal KTAP test harness for the unit tests: each CHECK is one
 * assertion; each TEST function becomes one KTAP test line. tests/run
 * counts the lines.
 */
#ifndef RR_HARNESS_H
#define RR_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int t_failed_checks;
static int t_tests, t_failures;
static int t_setup_failures;	/* checks failed outside a test */

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		printf("    # %s:%d: CHECK(%s) failed\n", __FILE__,	\
		       __LINE__, #cond);				\
		t_failed_checks++;					\
	}								\
} while (0)

#define CHECK_EQ(a, b) do {						\
	long long _a = (long long)(a), _b = (long long)(b);		\
	if (_a != _b) {							\
		printf("    # %s:%d: %s == %lld, expected %lld\n",	\
		       __FILE__, __LINE__, #a, _a, _b);			\
		t_failed_checks++;					\
	}								\
} while (0)

#define CHECK_NEAR(a, b, eps) do {					\
	double _a = (a), _b = (b);					\
	if (!(fabs(_a - _b) <= (eps))) {				\
		printf("    # %s:%d: %s == %g, expected %g\n",		\
		       __FILE__, __LINE__, #a, _a, _b);			\
		t_failed_checks++;					\
	}								\
} while (0)

#define CHECK_STR(a, b) do {						\
	const char *_a = (a), *_b = (b);				\
	if (!_a || strcmp(_a, _b)) {					\
		printf("    # %s:%d: %s == \"%s\", expected \"%s\"\n",	\
		       __FILE__, __LINE__, #a, _a ? _a : "(null)", _b);	\
		t_failed_checks++;					\
	}								\
} while (0)

#define CHECK_CONTAINS(hay, needle) do {				\
	const char *_h = (hay), *_n = (needle);				\
	if (!_h || !strstr(_h, _n)) {					\
		printf("    # %s:%d: \"%s\" not found in %s\n",		\
		       __FILE__, __LINE__, _n, #hay);			\
		t_failed_checks++;					\
	}								\
} while (0)

/*
 * A check that failed outside any test (a program's shared setup) fails
 * every test after it: their results rest on that setup.
 */
static inline void t_run(const char *name, void (*fn)(void))
{
	t_setup_failures += t_failed_checks;
	t_failed_checks = 0;
	fn();
	t_tests++;
	if (t_failed_checks || t_setup_failures)
		t_failures++;
	printf("%s %d %s%s\n", t_failed_checks || t_setup_failures ?
	       "not ok" : "ok", t_tests, name,
	       t_setup_failures && !t_failed_checks ? " # setup failed" : "");
	t_failed_checks = 0;
	fflush(stdout);
}

struct t_case {
	const char *name;
	void (*fn)(void);
};

#define T(fn) { #fn, fn }

#define TEST_MAIN(...)							\
int main(void)								\
{									\
	static const struct t_case t_cases[] = { __VA_ARGS__ };	\
	size_t n = sizeof(t_cases) / sizeof(t_cases[0]), i;		\
									\
	printf("KTAP version 1\n1..%zu\n", n);			\
	for (i = 0; i < n; i++)						\
		t_run(t_cases[i].name, t_cases[i].fn);			\
	return t_failures ? 1 : 0;					\
}

#endif

// SPDX-License-Identifier: GPL-2.0
/* The kernel line beside a verdict on a KSM walk (model/kline.h). */
#include <string.h>

#include "harness.h"
#include "model/kline.h"

static void test_release(void)
{
	CHECK_EQ(rr_release_has_fix("7.3.0-rc1"), 1);
	CHECK_EQ(rr_release_has_fix("7.3.0"), 1);
	CHECK_EQ(rr_release_has_fix("7.10.2"), 1);
	CHECK_EQ(rr_release_has_fix("8.0.0"), 1);
	CHECK_EQ(rr_release_has_fix("7.2.9-cachyos"), 0);
	CHECK_EQ(rr_release_has_fix("6.12.118+deb13-amd64"), 0);
	CHECK_EQ(rr_release_has_fix("6.18.0"), 0);
	CHECK_EQ(rr_release_has_fix("6.1.0-44-amd64"), 0);
	CHECK_EQ(rr_release_has_fix("unknown"), -1);
	CHECK_EQ(rr_release_has_fix(""), -1);
	CHECK_EQ(rr_release_has_fix(NULL), -1);
}

static void one(struct rr_result *r, const char *release,
		enum rr_page_type subject, enum rr_verdict v)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->sys.release, sizeof(r->sys.release), "%s", release);
	r->nr_cases = 2;
	r->cases[0].type = subject;
	r->cases[0].role = RR_SUBJECT;
	r->cases[1].type = RR_PT_ANON;
	r->cases[1].role = RR_CONTROL;
	r->verdict = v;
}

static void test_line(void)
{
	static struct rr_result r;
	char buf[512];

	one(&r, "7.3.0", RR_PT_KSM, RR_REPRODUCED);
	CHECK(strstr(rr_kernel_line(&r, buf, sizeof(buf)),
		     "a regression to report, not the known bug") != NULL);
	one(&r, "7.4.1", RR_PT_KSM, RR_NOT_REPRODUCED);
	CHECK(strstr(rr_kernel_line(&r, buf, sizeof(buf)),
		     "as expected on this line") != NULL);
	one(&r, "6.12.118", RR_PT_KSM, RR_REPRODUCED);
	CHECK(strstr(rr_kernel_line(&r, buf, sizeof(buf)),
		     "before 7.3") != NULL);
	CHECK(strstr(buf, "says it has none") != NULL);
	CHECK(strstr(buf, "scripts/fingerprint") != NULL);
	one(&r, "6.12.118", RR_PT_KSM, RR_NOT_REPRODUCED);
	CHECK(strstr(rr_kernel_line(&r, buf, sizeof(buf)),
		     "may be one") != NULL);
	one(&r, "weird", RR_PT_KSM, RR_REPRODUCED);
	CHECK(strstr(rr_kernel_line(&r, buf, sizeof(buf)),
		     "gives no version") != NULL);
	/* no KSM subject, or no verdict on the walk: nothing */
	one(&r, "7.3.0", RR_PT_ANON, RR_REPRODUCED);
	CHECK_STR(rr_kernel_line(&r, buf, sizeof(buf)), "");
	one(&r, "7.3.0", RR_PT_KSM, RR_SKIP);
	CHECK_STR(rr_kernel_line(&r, buf, sizeof(buf)), "");
	one(&r, "7.3.0", RR_PT_KSM, RR_INCONCLUSIVE);
	CHECK_STR(rr_kernel_line(&r, buf, sizeof(buf)), "");
}

TEST_MAIN(T(test_release), T(test_line))

// SPDX-License-Identifier: GPL-2.0
/*
 * How busy the host was in each run: /proc/pressure/cpu read (mm/psi.h,
 * from a stand-in /proc) and the Host CPU sentence (model/hostcpu.h):
 * every run's share, unknown runs said, heavy at 25% and only there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "harness.h"
#include "mm/psi.h"
#include "model/hostcpu.h"

static char dir[256];

static int write_psi(const char *text)
{
	char path[300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/pressure/cpu", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static void test_psi_read(void)
{
	unsigned long long us = 0;

	CHECK_EQ(write_psi("some avg10=1.50 avg60=0.40 avg300=0.10 total=3094408\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"), 0);
	CHECK_EQ(rr_psi_cpu_some_us(&us), 0);
	CHECK_EQ(us, 3094408);
	CHECK_EQ(write_psi("full avg10=0.00 avg60=0.00 avg300=0.00 total=7\n"), 0);
	CHECK_EQ(rr_psi_cpu_some_us(&us), -EINVAL);
}

static struct rr_result res;

static void runs(unsigned int n, const double *pct)
{
	unsigned int i;

	memset(&res, 0, sizeof(res));
	res.runs = n;
	for (i = 0; i < n; i++)
		res.cpu_pressure[i] = pct[i];
}

static void test_text(void)
{
	char buf[1024];

	runs(0, NULL);
	rr_cpu_pressure_text(&res, buf, sizeof(buf));
	CHECK_STR(buf, "");
	runs(3, (const double[]){ 3.25, 10.0, 24.9 });
	rr_cpu_pressure_text(&res, buf, sizeof(buf));
	CHECK_CONTAINS(buf, "waited for a CPU during 3.2% of run 1, 10.0% of run 2, 24.9% of run 3");
	CHECK_CONTAINS(buf, "under 25% in every run: not a busy host");
	CHECK(!rr_cpu_pressure_heavy(&res));
	CHECK_EQ(rr_cpu_pressure_max(&res), 2);
	runs(3, (const double[]){ 3.0, 58.1, -1 });
	rr_cpu_pressure_text(&res, buf, sizeof(buf));
	CHECK_CONTAINS(buf, "58.1% of run 2, run 3: not known");
	CHECK_CONTAINS(buf, "run 2 at 58.1% is heavy (25% or more)");
	CHECK_CONTAINS(buf, "this verdict was decided under heavy CPU pressure");
	CHECK(rr_cpu_pressure_heavy(&res));
	/* exactly at the bound is heavy */
	runs(1, (const double[]){ 25.0 });
	CHECK(rr_cpu_pressure_heavy(&res));
	runs(2, (const double[]){ -1, -1 });
	snprintf(res.cpu_pressure_why, sizeof(res.cpu_pressure_why),
		 "/proc/pressure/cpu: PSI is off (psi=0)");
	rr_cpu_pressure_text(&res, buf, sizeof(buf));
	CHECK_STR(buf, "not known: /proc/pressure/cpu: PSI is off (psi=0)");
	CHECK(!rr_cpu_pressure_heavy(&res));
	CHECK_EQ(rr_cpu_pressure_max(&res), -1);
}

__attribute__((constructor)) static void setup(void)
{
	const char *tmp = getenv("TEST_TMPDIR");
	char sub[300];

	snprintf(dir, sizeof(dir), "%s/hostcpu.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		t_setup_failures++;
		return;
	}
	snprintf(sub, sizeof(sub), "%s/pressure", dir);
	mkdir(sub, 0755);
	setenv("RMAP_REPRO_PROC_DIR", dir, 1);
}

TEST_MAIN(T(test_psi_read), T(test_text))

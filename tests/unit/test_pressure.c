// SPDX-License-Identifier: GPL-2.0
/*
 * The pressure trigger's sizing: zoneinfo parsing, the watermark scale
 * factor that widens the min-to-low gap, and how much the load locks.
 */
#include "harness.h"
#include "mm/pressure.h"

/* This machine's shape: DMA, DMA32 and Normal with memory, two empty. */
static const char zoneinfo[] =
	"Node 0, zone      DMA\n"
	"  pages free     3840\n"
	"        boost    0\n"
	"        min      10\n"
	"        low      13\n"
	"        high     16\n"
	"        managed  3840\n"
	"        protection: (0, 3018, 24090, 24090, 24090)\n"
	"Node 0, zone    DMA32\n"
	"  pages free     747668\n"
	"        min      2115\n"
	"        low      2887\n"
	"        high     3659\n"
	"        managed  772798\n"
	"        protection: (0, 0, 21071, 21071, 21071)\n"
	"Node 0, zone   Normal\n"
	"  pages free     5124885\n"
	"        min      14769\n"
	"        low      20163\n"
	"        high     25557\n"
	"        managed  5394249\n"
	"        protection: (0, 0, 0, 0, 0)\n"
	"Node 0, zone  Movable\n"
	"  pages free     0\n"
	"        min      32\n"
	"        low      32\n"
	"        high     32\n"
	"        managed  0\n"
	"        protection: (0, 0, 0, 0, 0)\n";

static void test_parse(void)
{
	struct rr_watermarks w;

	CHECK_EQ(rr_zoneinfo_parse(zoneinfo, 4, &w), 0);
	/* Movable has no managed pages: its 32-page marks do not count */
	CHECK_EQ(w.min_kb, (10 + 2115 + 14769) * 4ULL);
	CHECK_EQ(w.low_kb, (13 + 2887 + 20163) * 4ULL);
	CHECK_EQ(w.high_kb, (16 + 3659 + 25557) * 4ULL);
	CHECK_EQ(w.managed_kb, (3840 + 772798 + 5394249) * 4ULL);
	/* DMA keeps back all it has (3840 < 24090), DMA32 21071 pages */
	CHECK_EQ(w.reserve_kb, (3840 + 21071) * 4ULL);
	CHECK(rr_zoneinfo_parse("nothing here\n", 4, &w) < 0);
}

static void test_wsf(void)
{
	struct rr_watermarks w;
	unsigned long wsf;

	CHECK_EQ(rr_zoneinfo_parse(zoneinfo, 4, &w), 0);
	/* a 512 MiB floor wants a 2 GiB gap: 2 GiB of 23.5 GiB is 8.5% */
	wsf = rr_pressure_wsf(&w, 10, 512 << 10);
	CHECK(wsf >= 850 && wsf <= 851);
	/* never lowered, never above the kernel's 3000 */
	CHECK_EQ(rr_pressure_wsf(&w, 2000, 512 << 10), 2000);
	CHECK_EQ(rr_pressure_wsf(&w, 10, 8ULL << 20), 3000);
	/* a gap wide enough already: as found */
	CHECK_EQ(rr_pressure_wsf(&w, 10, 1024), 10);
}

static void test_bytes(void)
{
	struct rr_watermarks w = {
		.min_kb = 65536, .low_kb = 65536 + (2048 << 10),
		.reserve_kb = 100 << 10, .managed_kb = 24ULL << 20,
	};
	unsigned long long left = 65536 + (2048 << 10) / 3;
	char why[256] = "";

	/* free memory down to a third of the way, above the reserve */
	CHECK_EQ(rr_pressure_bytes(&w, 20ULL << 20, 512 << 10, why,
				   sizeof(why)),
		 ((20ULL << 20) - (100 << 10) - left) << 10);
	/* already below the target */
	CHECK_EQ(rr_pressure_bytes(&w, 500 << 10, 512 << 10, why,
				   sizeof(why)), 0);
	CHECK_CONTAINS(why, "already below");
	/* the floor would not hold: refused, with the reason */
	CHECK_EQ(rr_pressure_bytes(&w, 20ULL << 20, 2048 << 10, why,
				   sizeof(why)), 0);
	CHECK_CONTAINS(why, "--min-free-mb");
}

TEST_MAIN(T(test_parse), T(test_wsf), T(test_bytes))

// SPDX-License-Identifier: GPL-2.0
/*
 * Trigger page-idle: idle page tracking (mm/page_idle.c), the interface
 * working-set estimators use. Writing a frame's bit to
 * /sys/kernel/mm/page_idle/bitmap marks the page idle, and to do so the
 * kernel clears the accessed bit of every PTE that maps it, through an
 * rmap walk whose rmap_walk_control has no try_lock: unlike reclaim's,
 * it never backs off, and a writer of the page's anon_vma (or i_mmap)
 * waits for the whole walk. Reading the bit back walks the page again
 * if it is still idle.
 *
 * For each distinct frame of the pattern's filled pages (frame numbers
 * from pagemap, root only), the trigger writes its bit alone (one
 * 64-bit word per write) and reads the word back; the two together are
 * timed as one trigger call. The read walks every page of the word's 64
 * that is still idle, the pattern's others among them. The idle flag is
 * the page's own and goes with its next access: nothing is changed that
 * a run must put back, and nothing is journaled.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "journal/fault.h"
#include "lib/stats.h"
#include "lib/util.h"
#include "mm/pageflags.h"
#include "model/result.h"
#include "trigger/trigger.h"

#define BITMAP "/sys/kernel/mm/page_idle/bitmap"

static const char *const kconfig[] = { "IDLE_PAGE_TRACKING", NULL };

static bool available(char *why, size_t len)
{
	if (geteuid()) {
		snprintf(why, len, "needs root (frame numbers, %s)", BITMAP);
		return false;
	}
	if (!rr_path_exists(BITMAP)) {
		snprintf(why, len, "no %s (CONFIG_IDLE_PAGE_TRACKING off)",
			 BITMAP);
		return false;
	}
	return true;
}

/*
 * Mark one frame idle (a walk), then read its word back (a walk of each
 * page of it still idle): timed together, as one call. -ERANGE: the
 * frame is in the bitmap's last word, which ends at max_pfn: the kernel
 * walks its frames below max_pfn all the same, then says it wrote 0
 * bytes. That call is timed too, since the probe saw its walk (else the
 * walks would outgrow the calls that hold them), and the frame counts
 * as failed: its bit cannot be read back.
 */
static int mark(int fd, unsigned long long pfn, struct rr_samples *calls,
		bool *idle)
{
	uint64_t word = 1ULL << (pfn % 64), back = 0, t0;
	off_t off = (off_t)(pfn / 64 * sizeof(word));
	ssize_t w, r = 0;

	t0 = rr_now_ns();
	w = pwrite(fd, &word, sizeof(word), off);
	if (w == sizeof(word))
		r = pread(fd, &back, sizeof(back), off);
	if (w < 0 || r < 0)
		return -errno;
	if (calls)
		rr_samples_add(calls, (double)(rr_now_ns() - t0) /
				      NSEC_PER_MSEC);
	if (w != sizeof(word) || r != sizeof(back))
		return -ERANGE;
	*idle = back & word;
	return 0;
}

static int fire(struct rr_trigger_ctx *ctx, char *how, size_t len)
{
	unsigned long long *pfn = NULL;
	unsigned long marked = 0, failed = 0, idle = 0;
	size_t n = 0, i;
	int err, fd, first = 0;
	bool was_idle = false;

	err = rr_pattern_pfns(ctx->pattern, &pfn, &n, how, len);
	if (err) {
		free(pfn);
		return err;
	}
	fd = open(BITMAP, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		snprintf(how, len, "%s: %s", BITMAP, strerror(errno));
		free(pfn);
		return err;
	}
	for (i = 0; i < n; i++) {
		err = mark(fd, pfn[i], ctx->calls, &was_idle);
		if (err) {
			if (!failed++)
				rr_msg("page-idle: frame %#llx: %s", pfn[i],
				       err == -ERANGE ?
				       "in the bitmap's last, partial word" :
				       strerror(-err));
			first = first ? first : -err;
			continue;
		}
		marked++;
		idle += was_idle;
		/* a test's signal, half the frames marked (fault.h) */
		if (i == n / 2)
			rr_test_hold("trigger page-idle: half marked");
	}
	close(fd);
	free(pfn);
	ctx->moved += marked;
	ctx->failed += failed;
	/* short: rr_result.trigger_how holds 256 characters */
	snprintf(how, len,
		 "each of %zu frames marked idle alone in %s, then read back: %lu marked (an rmap walk each), %lu still idle, %lu failed%s%s",
		 n, BITMAP, marked, idle, failed, failed ? ": " : "",
		 !failed ? "" : first == ERANGE ?
		 "in the bitmap's last, partial word" : strerror(first));
	if (!marked)
		return n ? -first : -ENODATA;
	return 0;
}

static void reach(const struct rr_case_result *c, char *buf, size_t len)
{
	snprintf(buf, len,
		 "%llu of %llu present frames of the filled pages marked idle (page_idle bitmap), %llu failed",
		 c->moved, c->moved + c->move_failed, c->move_failed);
}

const struct rr_trigger_ops rr_trigger_page_idle = {
	.name = "page-idle",
	.help = "idle page tracking: each frame of the pattern marked idle in /sys/kernel/mm/page_idle/bitmap, an rmap walk that never backs off; needs a walk-level probe",
	.kconfig = kconfig,
	.bracket = -1,			/* no stock bracket: a walk probe */
	.available = available,
	.fire = fire,
	.walks_what = "clearing the accessed bits of the page's mappings",
	.call_rest = "the bitmap's write and read themselves",
	.reach = reach,
};

// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "model/kline.h"

int rr_release_has_fix(const char *release)
{
	int major, minor;

	if (!release || sscanf(release, "%d.%d", &major, &minor) != 2)
		return -1;
	if (major != RR_FIX_MAJOR)
		return major > RR_FIX_MAJOR;
	return minor >= RR_FIX_MINOR;
}

const char *rr_kernel_line(const struct rr_result *r, char *buf,
			   size_t len)
{
	const struct rr_case_result *s = rr_result_subject(r);
	bool repro = r->verdict == RR_REPRODUCED;
	int fixed = rr_release_has_fix(r->sys.release);

	buf[0] = '\0';
	if (!s || s->type != RR_PT_KSM ||
	    (r->verdict != RR_REPRODUCED && r->verdict != RR_NOT_REPRODUCED))
		return buf;
	if (fixed < 0)
		snprintf(buf, len,
			 "the kernel release '%s' gives no version: mainline has had the KSM walk fix since %d.%d, and a backport cannot be told from the version (scripts/fingerprint counts the walk's steps)",
			 r->sys.release, RR_FIX_MAJOR, RR_FIX_MINOR);
	else if (fixed && repro)
		snprintf(buf, len,
			 "Linux %d.%d and later have the KSM walk fix (mainline since %d.%d-rc1): a long KSM walk here is a regression to report, not the known bug",
			 RR_FIX_MAJOR, RR_FIX_MINOR, RR_FIX_MAJOR, RR_FIX_MINOR);
	else if (fixed)
		snprintf(buf, len,
			 "as expected on this line: mainline has had the KSM walk fix since %d.%d-rc1",
			 RR_FIX_MAJOR, RR_FIX_MINOR);
	else
		snprintf(buf, len,
			 "before %d.%d: mainline's KSM walk fix is not in this line, but a distribution may carry a backport%s; scripts/fingerprint tells by the walk's steps",
			 RR_FIX_MAJOR, RR_FIX_MINOR,
			 repro ? " (this walk says it has none)" :
			 " (a short KSM walk here may be one)");
	return buf;
}

// SPDX-License-Identifier: GPL-2.0
/* /proc/pressure/cpu (psi.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "mm/psi.h"

int rr_psi_cpu_some_us(unsigned long long *us)
{
	char path[4096], buf[512], *p;
	int ret;

	/* the test build's stand-in /proc (RMAP_REPRO_PROC_DIR) */
	snprintf(path, sizeof(path), "%s/pressure/cpu", rr_proc_dir());
	ret = rr_read_file(path, buf, sizeof(buf));
	if (ret)
		return ret;
	p = strstr(buf, "some ");
	p = p ? strstr(p, "total=") : NULL;
	if (!p || sscanf(p, "total=%llu", us) != 1)
		return -EINVAL;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The undo handlers of the journal's records (journal.h), each defined
 * beside the change it undoes, with the errno a kernel refusing that
 * change gives. The journal knows records, not handlers: the program
 * hands it this table (rr_undos_use()) before it begins or replays a
 * journal. A module that journals a new kind of change adds its handler
 * here.
 */
#include <stddef.h>

#include "core/undo.h"
#include "mm/damon.h"
#include "mm/hwpoison.h"
#include "mm/memcg.h"
#include "mm/swap.h"
#include "probe/probe.h"
#include "probe/trace.h"

const struct journal_undo *const rr_undos[] = {
	&rr_undo_swapon, &rr_undo_zram, &rr_undo_module,
	&rr_undo_cgroup,
	&rr_undo_instance, &rr_undo_mount,
	&rr_undo_dynevent,
	&rr_undo_unpoison,
	&rr_undo_damon,
	NULL
};

void rr_undos_use(void)
{
	journal_set_undos(rr_undos);
}

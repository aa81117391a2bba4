/* SPDX-License-Identifier: GPL-2.0 */
/* The journal's undo handlers, by kind of record (core/undo.c). */
#ifndef RR_CORE_UNDO_H
#define RR_CORE_UNDO_H

#include "journal/journal.h"

extern const struct journal_undo *const rr_undos[];
/* Hand the table to the journal (journal_set_undos()). */
void rr_undos_use(void);

#endif

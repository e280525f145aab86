/* ws-counters-text.h: a run's counters beside its theory, in words.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-run.h"

G_BEGIN_DECLS

/* "Achieved occupancy 82%, of the theoretical 100%. DRAM: 80.0 MB read and 40.0 MB written,
 * against 120 MB by the formula. …": the run's counters beside what theory said, each
 * sentence where its counters were read; NULL for a run without counters. */
char *ws_run_dup_measured_text (WsRun *run);

G_END_DECLS

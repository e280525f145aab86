/* ws-run-counters.h: a run's hardware counters (--counters, docs/counters.md), read by the
 * runner in one launch after the run's timed ones: the `counters` record, by the catalogue's
 * keys (ws-counters-catalogue.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "ws-counters-catalogue.h"
#include "ws-record.h"

G_BEGIN_DECLS

typedef struct
{
  char *chip;         /* CUPTI's name of the chip: "GH100" */
  char *groups;       /* as asked for: "basic", "memory,stalls" */
  int passes;         /* kernel replays they took */
  double cost_ns;     /* reading them, replays included */
  double values[WS_COUNTERS_MAX]; /* by the catalogue's index (ws_counters_index); NaN where
                                   * not read */
} WsCounters;

/* The counters of a `counters` record; a key this version does not know is left out. */
WsCounters *ws_counters_new_from_record (const WsRecord *record);
void ws_counters_free (WsCounters *counters);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCounters, ws_counters_free)

/* A counter by its key ("achieved_occupancy"), NaN when not read or `counters` is NULL. */
double ws_counters_get (const WsCounters *counters, const char *key);

G_END_DECLS

/* ws-run-counters.c: a run's hardware counters, read from its `counters` record.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-run-counters.h"

#include <math.h>

#include "ws-protocol.h"

WsCounters *
ws_counters_new_from_record (const WsRecord *r)
{
  WsCounters *c = g_new0 (WsCounters, 1);
  WsRecordNode values = ws_record_object (r, WS_RECORD_ROOT, WS_KEY_VALUES);
  size_t n;

  ws_counters_metrics (&n);
  for (size_t i = 0; i < G_N_ELEMENTS (c->values); i++)
    c->values[i] = NAN;
  c->chip = g_strdup (ws_record_string (r, WS_RECORD_ROOT, WS_KEY_CHIP));
  c->groups = g_strdup (ws_record_string (r, WS_RECORD_ROOT, WS_KEY_GROUPS));
  c->passes = (int) ws_record_int (r, WS_RECORD_ROOT, WS_KEY_PASSES, 0);
  c->cost_ns = ws_record_double (r, WS_RECORD_ROOT, WS_KEY_COST_NS, 0);
  for (WsRecordNode m = values != WS_RECORD_NONE ? ws_record_first_child (r, values)
                                                 : WS_RECORD_NONE;
       m != WS_RECORD_NONE; m = ws_record_next_sibling (r, m))
    {
      int i = ws_counters_index (ws_record_key (r, m));
      double v;

      if (i >= 0 && (size_t) i < n && ws_record_node_double (r, m, &v) && isfinite (v))
        c->values[i] = v;
    }
  return c;
}

void
ws_counters_free (WsCounters *c)
{
  if (c == NULL)
    return;
  g_free (c->chip);
  g_free (c->groups);
  g_free (c);
}

double
ws_counters_get (const WsCounters *counters, const char *key)
{
  int i = ws_counters_index (key);

  return counters != NULL && i >= 0 ? counters->values[i] : NAN;
}

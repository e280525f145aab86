/* ws-trace-query.c: what a trace holds, for the tables, the findings and the views: program
 * runs, processes, spans and events, time ranges, counts, devices with their ceilings.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-trace-private.h"

/* ---- queries ------------------------------------------------------------------------------ */

gboolean
ws_trace_is_from_runner (WsTrace *trace)
{
  g_return_val_if_fail (trace != NULL, FALSE);
  return trace->from_runner;
}

GPtrArray *
ws_trace_get_programs (WsTrace *trace)
{
  g_return_val_if_fail (trace != NULL, NULL);
  return trace->programs;
}

const WsTraceProgram *
ws_trace_get_program (WsTrace *trace, guint id)
{
  g_return_val_if_fail (trace != NULL, NULL);
  return _ws_trace_find_program (trace, id);
}

GPtrArray *
ws_trace_get_processes (WsTrace *trace)
{
  g_return_val_if_fail (trace != NULL, NULL);
  return trace->processes;
}

const WsSpan *
ws_trace_get_spans (WsTrace *trace, guint *n_spans)
{
  g_return_val_if_fail (trace != NULL, NULL);
  if (n_spans != NULL)
    *n_spans = trace->spans->len;
  return (const WsSpan *) trace->spans->data;
}

const WsTraceEvent *
ws_trace_get_events (WsTrace *trace, guint *n_events)
{
  g_return_val_if_fail (trace != NULL, NULL);
  if (n_events != NULL)
    *n_events = trace->events->len;
  return (const WsTraceEvent *) trace->events->data;
}

void
ws_trace_count (WsTrace *trace, guint *kernels, guint *copies)
{
  g_return_if_fail (trace != NULL);
  if (kernels != NULL)
    *kernels = trace->n_kernels;
  if (copies != NULL)
    *copies = trace->n_copies;
}

/* The runner's monotonic clock on the axis, through a process of the run. */
static gboolean
monotonic_on_axis (WsTrace *t, guint program, guint64 mono, gint64 *at)
{
  for (guint i = 0; mono > 0 && i < t->processes->len; i++)
    {
      WsTraceProcess *p = g_ptr_array_index (t->processes, i);

      if (p->program == program && p->monotonic_origin_ns > 0)
        {
          *at = (gint64) mono - p->monotonic_origin_ns + (p->clock_origin_ns - t->origin);
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
ws_trace_get_program_range (WsTrace *trace, guint program, gint64 *start, gint64 *end)
{
  const WsTraceProgram *p;
  gint64 lo = G_MAXINT64, hi = G_MININT64, at;

  g_return_val_if_fail (trace != NULL, FALSE);
  for (guint i = 0; i < trace->processes->len; i++)
    {
      WsTraceProcess *process = g_ptr_array_index (trace->processes, i);

      if (process->program != program)
        continue;
      lo = MIN (lo, process->start);
      hi = MAX (hi, process->end);
    }
  if (lo > hi)
    return FALSE;
  /* The runner saw the program start before its first process initialized CUDA (an exec
   * through a shell) and end after its last record; a time that puts it minutes away is from
   * another clock (a stream put together from recordings) and is left out. */
  if ((p = _ws_trace_find_program (trace, program)) != NULL)
    {
      if (monotonic_on_axis (trace, program, p->start_monotonic_ns, &at) && at <= lo
          && lo - at < 60 * G_GINT64_CONSTANT (1000000000))
        lo = at;
      if (monotonic_on_axis (trace, program, p->end_monotonic_ns, &at) && at >= hi
          && at - hi < 60 * G_GINT64_CONSTANT (1000000000))
        hi = at;
    }
  if (start != NULL)
    *start = lo;
  if (end != NULL)
    *end = hi;
  return TRUE;
}

const WsDeviceInfo *
ws_trace_get_device (WsTrace *trace, guint process, guint device)
{
  g_return_val_if_fail (trace != NULL, NULL);
  /* Its own process first, then any process of the trace that described that index. */
  for (guint pass = 0; pass < 2; pass++)
    for (guint p = 0; p < trace->processes->len; p++)
      {
        GArray *infos = g_ptr_array_index (trace->infos, p);

        if (pass == 0 && p != process)
          continue;
        for (guint d = 0; d < infos->len; d++)
          if (g_array_index (infos, WsDeviceInfo, d).index == (int) device)
            return &g_array_index (infos, WsDeviceInfo, d);
      }
  return NULL;
}

/* ws-chart-breakdown-trace.c: the time breakdown of a traced program: a bar per program run,
 * its wall time split into what the GPU was doing (kernels, copies by direction, memsets and
 * other copies) and the time it did nothing, with how much of it the host spent in CUDA calls.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>

#include "ws-chart-breakdown-private.h"
#include "ws-chart-format-private.h"
#include "ws-trace-command.h"
#include "ws-trace.h"
#include "ws-units.h"

/* The API calls' union is counted beside the GPU's segments, as WS_N_SEGMENTS. */
#define API WS_N_SEGMENTS

typedef struct
{
  gint64 at;
  int what; /* a WsSegment, or API */
  int step; /* +1 starts, -1 ends */
} Edge;

static int
compare_edges (const void *a, const void *b)
{
  const Edge *x = a, *y = b;

  if (x->at != y->at)
    return x->at < y->at ? -1 : 1;
  return x->step - y->step; /* an end before a start at the same instant */
}

static int
segment_of (const WsSpan *s)
{
  switch (s->kind)
    {
    case WS_ACTIVITY_KERNEL:
      return WS_SEGMENT_KERNEL;
    case WS_ACTIVITY_MEMCPY:
      return s->direction == WS_COPY_HTOD   ? WS_SEGMENT_H2D
             : s->direction == WS_COPY_DTOH ? WS_SEGMENT_D2H
                                            : WS_SEGMENT_OTHER;
    case WS_ACTIVITY_MEMSET:
      return WS_SEGMENT_OTHER;
    case WS_ACTIVITY_API:
      return API;
    default:
      return -1;
    }
}

/* Sweeps the run's spans in time order: each instant goes to the first of kernel, H2D, D2H,
 * other that is busy then, else to idle, so that the segments add up to the wall time. */
static gboolean
measure (WsTrace *trace, guint program, double ns[WS_N_SEGMENTS + 1], gint64 *wall)
{
  static const int order[] = { WS_SEGMENT_KERNEL, WS_SEGMENT_H2D, WS_SEGMENT_D2H,
                               WS_SEGMENT_OTHER };
  guint n;
  const WsSpan *spans = ws_trace_get_spans (trace, &n);
  g_autoptr (GArray) edges = g_array_new (FALSE, FALSE, sizeof (Edge));
  gint64 start, end, at;
  int busy[WS_N_SEGMENTS + 1] = { 0 };

  if (!ws_trace_get_program_range (trace, program, &start, &end) || end <= start)
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      int what = spans[i].run == program ? segment_of (&spans[i]) : -1;
      gint64 s = MAX (spans[i].start, start), e = MIN (spans[i].end, end);

      if (what < 0 || e <= s)
        continue;
      g_array_append_val (edges, ((Edge) { s, what, +1 }));
      g_array_append_val (edges, ((Edge) { e, what, -1 }));
    }
  qsort (edges->data, edges->len, sizeof (Edge), compare_edges);
  memset (ns, 0, sizeof (double) * (WS_N_SEGMENTS + 1));
  at = start;
  for (guint i = 0; i <= edges->len; i++)
    {
      gint64 next = i < edges->len ? g_array_index (edges, Edge, i).at : end;
      int segment = WS_SEGMENT_IDLE;

      for (guint k = 0; k < G_N_ELEMENTS (order); k++)
        if (busy[order[k]] > 0)
          {
            segment = order[k];
            break;
          }
      ns[segment] += (double) (next - at);
      if (busy[API] > 0)
        ns[API] += (double) (next - at);
      at = next;
      if (i < edges->len)
        busy[g_array_index (edges, Edge, i).what] += g_array_index (edges, Edge, i).step;
    }
  *wall = end - start;
  return TRUE;
}

static char *
row_label (const WsTraceProgram *p)
{
  g_autofree char *params = NULL;

  if (p == NULL || p->of <= 1)
    return g_strdup (_("the program"));
  params = ws_trace_describe_params (p);
  return g_strdup_printf (_("run %u · %s"), p->id, params);
}

gboolean
_ws_breakdown_collect_trace (WsBreakdownData *data, WsSession *session)
{
  WsTrace *trace = ws_session_get_trace (session);
  GPtrArray *programs = trace != NULL ? ws_trace_get_programs (trace) : NULL;
  guint ids = programs != NULL && programs->len > 0 ? programs->len : 1;

  if (trace == NULL)
    return FALSE;
  for (guint i = 0; i < ids && data->rows->len < WS_BREAKDOWN_MAX_ROWS; i++)
    {
      const WsTraceProgram *p = programs != NULL && programs->len > 0
                                  ? g_ptr_array_index (programs, i)
                                  : NULL;
      double ns[WS_N_SEGMENTS + 1];
      gint64 wall;
      WsBreakdownRow row = { 0 };
      g_autofree char *span = NULL, *copies = NULL, *api = NULL;

      if (!measure (trace, p != NULL ? p->id : 0, ns, &wall))
        continue;
      for (int s = 0; s < WS_N_SEGMENTS; s++)
        row.share[s] = ns[s] / (double) wall;
      row.copies = row.share[WS_SEGMENT_H2D] + row.share[WS_SEGMENT_D2H];
      row.span_ns = wall;
      row.run = p != NULL ? (int) p->id : 1;
      row.label = row_label (p);
      span = ws_units_duration ((double) wall);
      copies = ws_units_percent (row.copies);
      api = ws_units_percent (ns[API] / (double) wall);
      /* Translators: the program's wall time, the share of it with a copy on the GPU, and
       * the share with the host inside a CUDA call. */
      row.right = g_strdup_printf (_("%1$s · copies %2$s · CUDA calls %3$s"), span, copies,
                                   api);
      g_array_append_val (data->rows, row);
    }
  data->n_runs = data->rows->len;
  if (data->rows->len == 0)
    return FALSE;
  data->frame.title = g_strdup_printf ("%s · %s", ws_chart_kind_title (WS_CHART_BREAKDOWN),
                                       _("the traced program"));
  data->frame.subtitle = _ws_chart_subtitle (session,
                                             _("where the program's wall time went on the GPU; "
                                               "idle is when it ran nothing, and the host was "
                                               "busy in Python, JIT compiles or waiting"));
  data->widest = g_strdup_printf (_("%1$s · copies %2$s · CUDA calls %3$s"), "999 ms", "100%",
                                  "100%");
  /* A bar is the program run from its first CUDA call to its exit, not a sequence of copies
   * and kernels. */
  data->whole = _("wall time");
  data->axis_title = _("Share of the wall time (%)");
  return TRUE;
}

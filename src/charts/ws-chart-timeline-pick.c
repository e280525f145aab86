/* ws-chart-timeline-pick.c: the timeline widget's queries: its geometry, the range its window
 * may show, and the span under the pointer (a run's activity, or a traced program's span or
 * wait for a compile, with its hover text), each from what the collect step gathered, laid
 * out without drawing.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <math.h>
#include <string.h>

#include "ws-chart-timeline-private.h"
#include "ws-trace-command.h"

/* ---- the widget's queries --------------------------------------------------------------- */

gboolean
ws_timeline_get_full_range (WsSession *session, const WsChartOptions *options, gint64 *start,
                            gint64 *end)
{
  WsChartRequest request;
  WsRun *a, *b;

  g_return_val_if_fail (options != NULL, FALSE);
  _ws_chart_request_init (&request, NULL, options);
  if (_ws_timeline_compare_runs (session, &request.base, &a, &b))
    {
      *start = 0;
      *end = ws_runs_compared_length (a, b);
      return TRUE;
    }
  if (session == NULL)
    return FALSE;
  return ws_session_get_time_range (session, start, end) && *end > *start;
}

/* Collects and lays out what the widget shows, without drawing. */
static WsTimelineData *
measure (WsSession *session, const WsChartOptions *options, WsChartRequest *request,
         WsChartContext *ctx, WsTimelineFrame *frame)
{
  WsTimelineData *data;

  _ws_chart_request_init (request, NULL, options);
  _ws_chart_context_init (ctx, NULL, &request->base);
  data = _ws_timeline_collect (session, &request->base, &request->timeline);
  memset (frame, 0, sizeof *frame);
  if (data->frame.message == NULL)
    _ws_timeline_layout (ctx, data, FALSE, frame);
  return data;
}

void
ws_timeline_get_geometry (WsSession *session, const WsChartOptions *options,
                          WsTimelineGeometry *geometry)
{
  WsChartRequest request;
  WsChartContext ctx;
  WsTimelineFrame f;
  WsTimelineData *data;

  g_return_if_fail (options != NULL);
  g_return_if_fail (geometry != NULL);
  memset (geometry, 0, sizeof *geometry);
  data = measure (session, options, &request, &ctx, &f);
  if (f.n_groups > 0)
    {
      const WsTimelineLayout *first = &f.group[0], *last = &f.group[f.n_groups - 1];

      geometry->plot_x = first->plot.x;
      geometry->plot_y = first->plot.y;
      geometry->plot_width = first->plot.width;
      geometry->plot_height = last->plot.y + last->plot.height - first->plot.y;
      geometry->start = data->window_start;
      geometry->end = data->window_end;
    }
  _ws_timeline_frame_clear (&f);
  _ws_timeline_data_free (data);
  _ws_chart_context_clear (&ctx);
}

typedef struct
{
  WsRun *run;
  guint index;
  double best;
  gboolean found;
} Pick;

/* Inside a span beats beside one; of nested spans the shortest wins. */
static void
pick_in_lane (const WsLane *lane, WsRun *run, gint64 t, double tolerance, Pick *pick)
{
  for (guint k = ws_lane_first_reaching (lane, (gint64) ((double) t - tolerance));
       k < lane->n && (double) lane->spans[k].start <= (double) t + tolerance; k++)
    {
      const WsLaneSpan *s = &lane->spans[k];
      double d = (t >= s->start && t < s->end)
                     ? -1.0 / (1.0 + ((double) s->end - (double) s->start))
                     : MIN (fabs ((double) t - (double) s->start),
                            fabs ((double) t - (double) s->end));

      if (d <= tolerance && d < pick->best)
        *pick = (Pick) { run, s->index, d, TRUE };
    }
}

static void
pick_in_group (WsChartContext *ctx, const WsTimelineLayout *l, double x, double y, Pick *pick)
{
  const WsLaneIndex *index = l->group->index;
  double tolerance = 3 * ctx->unit / l->ppn;
  guint64 key;
  gint64 t;

  if (index == NULL) /* a traced program's spans are not a run's activities */
    return;
  if (x < l->plot.x || x >= l->plot.x + l->plot.width || y < l->plot.y
      || y >= l->plot.y + l->plot.height || l->rows->len == 0)
    return;
  key = g_array_index (l->rows, WsTimelineRow,
                       MIN ((guint) ((y - l->plot.y) / l->row_height), l->rows->len - 1))
            .key;
  t = ws_ns_from_double ((double) l->start + (x - l->plot.x) / l->ppn);
  for (guint i = ws_lane_index_first_reaching (index,
                                                ws_ns_from_double ((double) t - tolerance));
       i < index->runs->len; i++)
    {
      const WsRunLanes *lanes = g_ptr_array_index (index->lanes, i);
      const WsLane *lane;

      if ((double) lanes->start > (double) t + tolerance)
        break;
      lane = ws_run_lanes_find (lanes, key);
      if (lane != NULL && (double) lanes->end >= (double) t - tolerance)
        pick_in_lane (lane, g_ptr_array_index (index->runs, i), t, tolerance, pick);
    }
}

/* What is under the pointer on a traced program's timeline: a span, or a wait for a compile
 * (G_MAXUINT: neither). */
typedef struct
{
  guint span, wait;
  double best;
} TracePick;

/* Inside beats beside; of nested ones the shortest: a JIT record inside a wait for a compile
 * is picked where it is drawn, the wait around it elsewhere. */
static double
pick_distance (double t, gint64 start, gint64 end)
{
  if (t >= (double) start && t < (double) end)
    return -1.0 / (1.0 + ((double) end - (double) start));
  return MIN (fabs (t - (double) start), fabs (t - (double) end));
}

/* The span or wait of the row under (x, y) nearest to x within `tolerance` ns. */
static void
pick_in_program (const WsTimelineLayout *l, WsTrace *trace, double x, double y,
                 double tolerance, TracePick *pick)
{
  guint n_spans;
  const WsSpan *spans = ws_trace_get_spans (trace, &n_spans);
  GArray *waits = l->group->waits;
  double t;
  guint64 row_key;

  if (x < l->plot.x || x >= l->plot.x + l->plot.width || y < l->plot.y
      || y >= l->plot.y + l->plot.height || l->rows->len == 0)
    return;
  row_key = g_array_index (l->rows, WsTimelineRow,
                           MIN ((guint) ((y - l->plot.y) / l->row_height), l->rows->len - 1))
                .key;
  t = (double) l->start + (x - l->plot.x) / l->ppn;
  for (guint i = 0; i < n_spans; i++)
    {
      const WsSpan *s = &spans[i];
      guint64 key;
      double d;

      if ((double) s->end < t - tolerance || (double) s->start > t + tolerance
          || !ws_span_lane_key (trace, s, &key) || key != row_key)
        continue;
      d = pick_distance (t, s->start, s->end);
      if (d <= tolerance && d < pick->best)
        *pick = (TracePick) { i, G_MAXUINT, d };
    }
  for (guint i = 0; waits != NULL && row_key == WS_LANE_KEY (WS_LANE_JIT, 0) && i < waits->len;
       i++)
    {
      const WsCodeWait *w = &g_array_index (waits, WsCodeWait, i);
      double d = pick_distance (t, w->start, w->end);

      if (_ws_timeline_draws_wait (w) && d <= tolerance && d < pick->best)
        *pick = (TracePick) { G_MAXUINT, i, d };
    }
}

/* What is under (x, y) on a traced program's timeline, and the data it is in (free with
 * _ws_timeline_data_free); NULL when the session is no trace. */
static WsTimelineData *
pick_trace (WsSession *session, const WsChartOptions *options, double x, double y,
            TracePick *pick)
{
  WsChartRequest request;
  WsChartContext ctx;
  WsTimelineFrame f;
  WsTimelineData *data;

  *pick = (TracePick) { G_MAXUINT, G_MAXUINT, G_MAXDOUBLE };
  if (session == NULL || ws_session_get_trace (session) == NULL)
    return NULL;
  data = measure (session, options, &request, &ctx, &f);
  if (data->trace != NULL && f.n_groups == 1)
    pick_in_program (&f.group[0], data->trace, x, y, 3 * ctx.unit / f.group[0].ppn, pick);
  _ws_timeline_frame_clear (&f);
  _ws_chart_context_clear (&ctx);
  return data;
}

gboolean
ws_timeline_pick_trace (WsSession *session, const WsChartOptions *options, double x, double y,
                        guint *span)
{
  TracePick pick;

  g_return_val_if_fail (options != NULL, FALSE);
  _ws_timeline_data_free (pick_trace (session, options, x, y, &pick));
  if (pick.span != G_MAXUINT)
    *span = pick.span;
  return pick.span != G_MAXUINT;
}

char *
ws_timeline_dup_trace_tooltip (WsSession *session, const WsChartOptions *options, double x,
                               double y)
{
  TracePick pick;
  WsTimelineData *data;
  char *text = NULL;
  guint n_spans;
  const WsSpan *spans;

  g_return_val_if_fail (options != NULL, NULL);
  data = pick_trace (session, options, x, y, &pick);
  if (data == NULL)
    return NULL;
  spans = ws_trace_get_spans (ws_session_get_trace (session), &n_spans);
  if (pick.wait != G_MAXUINT)
    text = ws_trace_describe_code_wait (
        data->trace, &g_array_index (data->groups[0].waits, WsCodeWait, pick.wait));
  else if (pick.span < n_spans)
    text = ws_trace_describe_span (data->trace, &spans[pick.span]);
  _ws_timeline_data_free (data);
  return text;
}

gboolean
ws_timeline_pick (WsSession *session, const WsChartOptions *options, double x, double y,
                  WsRun **run, guint *index)
{
  WsChartRequest request;
  WsChartContext ctx;
  WsTimelineFrame f;
  WsTimelineData *data;
  Pick pick = { NULL, 0, G_MAXDOUBLE, FALSE };

  g_return_val_if_fail (options != NULL, FALSE);
  data = measure (session, options, &request, &ctx, &f);
  for (guint i = 0; i < f.n_groups; i++)
    pick_in_group (&ctx, &f.group[i], x, y, &pick);
  if (pick.found && run)
    *run = pick.run; /* the session keeps it */
  if (pick.found && index)
    *index = pick.index;
  _ws_timeline_frame_clear (&f);
  _ws_timeline_data_free (data);
  _ws_chart_context_clear (&ctx);
  return pick.found;
}

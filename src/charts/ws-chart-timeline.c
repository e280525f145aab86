/* ws-chart-timeline.c: the timeline's collect step: the runs and their lanes (the whole
 * session, or two runs side by side each from its own start), the rows every lane gets, the
 * window, the title, and the spans to outline; and the widget's queries (geometry, the range
 * the window may show, the span under the pointer), which lay out what was collected.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ws-analysis.h"
#include "ws-chart-timeline-private.h"

/* ---- rows ------------------------------------------------------------------------------- */

WsLaneCategory
_ws_timeline_row_category (const WsTimelineRow *row)
{
  return WS_LANE_KEY_CATEGORY (row->key);
}

char *
_ws_timeline_lane_label (guint64 key, gboolean by_stream)
{
  switch (WS_LANE_KEY_CATEGORY (key))
    {
    case WS_LANE_CPU:
      return g_strdup (_("CPU reference"));
    case WS_LANE_H2D:
      return g_strdup (_("H2D copies"));
    case WS_LANE_KERNEL:
      if (by_stream)
        return g_strdup_printf (_("Kernels · stream %u"), WS_LANE_KEY_STREAM (key));
      return g_strdup (_("Kernels"));
    case WS_LANE_D2H:
      return g_strdup (_("D2H copies"));
    case WS_LANE_OTHER_COPY:
      return g_strdup (_("Other copies"));
    case WS_LANE_MEMSET:
      return g_strdup (_("Memsets"));
    case WS_LANE_SYNC:
      return g_strdup (_("Host waits (sync)"));
    case WS_LANE_OVERHEAD:
    case WS_N_LANE_CATEGORIES:
    default:
      return g_strdup (_("CUPTI overhead"));
    }
}

static void
row_clear (WsTimelineRow *row)
{
  g_free (row->label);
}

GArray *
_ws_timeline_rows_new (GArray *keys, WsTimelineLabelFunc label, gpointer data)
{
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (WsTimelineRow));
  guint n_kernel = 0, ordinal = 0;

  g_array_set_clear_func (rows, (GDestroyNotify) row_clear);
  for (guint k = 0; k < keys->len; k++)
    n_kernel += WS_LANE_KEY_CATEGORY (g_array_index (keys, guint64, k)) == WS_LANE_KERNEL;
  for (guint k = 0; k < keys->len; k++)
    {
      guint64 key = g_array_index (keys, guint64, k);
      char *text = label != NULL ? label (key, data) : NULL;
      WsTimelineRow row = { key, text ? text : _ws_timeline_lane_label (key, n_kernel > 1),
                            ordinal };

      if (WS_LANE_KEY_CATEGORY (key) == WS_LANE_KERNEL)
        ordinal++;
      g_array_append_val (rows, row);
    }
  return rows;
}

static int
compare_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

/* A row for every lane of the group's runs, so that lanes stay put while the window pans;
 * with `also`, its lanes as well, so that two runs compared have the same rows. */
static GArray *
collect_rows (const WsLaneIndex *index, const WsLaneIndex *also)
{
  g_autoptr (GArray) keys = g_array_copy (index->keys);

  for (guint k = 0; also && k < also->keys->len; k++)
    {
      guint64 key = g_array_index (also->keys, guint64, k);
      gboolean known = FALSE;

      for (guint j = 0; j < index->keys->len && !known; j++)
        known = g_array_index (index->keys, guint64, j) == key;
      if (!known)
        g_array_append_val (keys, key);
    }
  g_array_sort (keys, compare_u64);
  return _ws_timeline_rows_new (keys, NULL, NULL);
}

/* ---- one group: the whole session ------------------------------------------------------- */

static gint64
add_saturated (gint64 a, gint64 b)
{
  if (b > 0 && a > G_MAXINT64 - b)
    return G_MAXINT64;
  if (b < 0 && a < G_MININT64 - b)
    return G_MININT64;
  return a + b;
}

/* The window asked for, else the whole session (start == end means all, as the widget
 * assumes when it zooms from there); at least a microsecond. */
static void
choose_window (WsTimelineGroup *g, const WsTimelineOptions *o)
{
  if (o->window_end > o->window_start)
    {
      g->start = o->window_start;
      g->end = o->window_end;
    }
  if (g->end <= g->start)
    {
      g->end = add_saturated (g->start, 1000);
      g->start = g->end - 1000;
    }
}

/* The runs with activities in the window (WsRun, borrowed from the index). */
static GPtrArray *
runs_in_view (const WsTimelineGroup *g)
{
  GPtrArray *shown = g_ptr_array_new ();
  const WsLaneIndex *index = g->index;

  for (guint i = ws_lane_index_first_reaching (index, add_saturated (g->start, -1));
       i < index->runs->len; i++)
    {
      const WsRunLanes *lanes = g_ptr_array_index (index->lanes, i);

      if (lanes->start > g->end)
        break;
      if (lanes->end >= g->start)
        g_ptr_array_add (shown, g_ptr_array_index (index->runs, i));
    }
  return shown;
}

static char *
session_title (WsSession *session, const WsTimelineGroup *g, const WsChartBase *base)
{
  WsRun *run = base->run ? ws_session_find_run (session, base->run) : NULL;
  gint64 rs, re;

  /* The run picked names the chart when the window shows that run alone. */
  if (run && ws_run_get_time_range (run, &rs, &re)
      && (double) g->start >= (double) rs - ((double) re - rs) / 10
      && (double) g->end <= (double) re + ((double) re - rs) / 10)
    {
      const WsRunConfig *c = ws_run_get_config (run);
      g_autofree char *size = _ws_chart_dup_size_label (run);
      g_autofree char *block = ws_run_dup_block_label (run);

      if (*block == '\0') /* a library call: it picks its own blocks */
        return g_strdup_printf (_("%s · run %d: %s, %s, %s"),
                                ws_chart_kind_title (WS_CHART_TIMELINE), c->id, c->kernel, size,
                                ws_transfer_label (c->transfer));
      /* TRANSLATORS: "Timeline · run 5: vector_add, n = 10,000, block 256, pinned" */
      return g_strdup_printf (_("%s · run %d: %s, %s, block %s, %s"),
                              ws_chart_kind_title (WS_CHART_TIMELINE), c->id, c->kernel, size,
                              block, ws_transfer_label (c->transfer));
    }
  /* TRANSLATORS: "Timeline · vector_add, 12 runs" */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %s, %u run", "%s · %s, %u runs",
                                       g->index->runs->len),
                          ws_chart_kind_title (WS_CHART_TIMELINE), g->index->kernels,
                          g->index->runs->len);
}

static gboolean
collect_session (WsTimelineData *data, WsSession *session, const WsChartBase *base,
                 const WsTimelineOptions *o, GPtrArray **shown)
{
  WsTimelineGroup *g = &data->groups[0];
  WsLaneIndex *index = ws_session_get_lane_index (session);

  if (index->runs->len == 0)
    {
      ws_lane_index_unref (index);
      return FALSE;
    }
  data->n_groups = 1;
  g->index = index;
  g->rows = collect_rows (index, NULL);
  g->origin = g->start = index->start;
  g->end = index->end;
  choose_window (g, o);
  data->window_start = g->start;
  data->window_end = g->end;
  data->frame.title = session_title (session, g, base);
  data->notes_keep = 6 + g->rows->len;
  /* Only presentation mode needs the runs in view, for their findings. */
  *shown = base->annotate ? runs_in_view (g) : g_ptr_array_new ();
  return TRUE;
}

/* ---- two groups: two runs side by side -------------------------------------------------- */

/* The two runs picked, when both have activities to draw. */
static gboolean
compare_runs (WsSession *session, const WsChartBase *base, WsRun **a, WsRun **b)
{
  if (session == NULL || base->run == 0 || base->compare_run == 0
      || base->run == base->compare_run)
    return FALSE;
  *a = ws_session_find_run (session, base->run);
  *b = ws_session_find_run (session, base->compare_run);
  return *a != NULL && *b != NULL && ws_run_get_time_range (*a, NULL, NULL)
         && ws_run_get_time_range (*b, NULL, NULL);
}

/* The longer run's length: comparing two runs, times count from each run's start. */
static gint64
compare_span (WsRun *a, WsRun *b)
{
  return ws_runs_compared_length (a, b);
}

static void
collect_compare (WsTimelineData *data, WsRun *a, WsRun *b, const WsTimelineOptions *o,
                 GPtrArray **shown)
{
  WsRun *runs[2] = { a, b };
  WsLaneIndex *index[2] = { ws_lane_index_new (&a, 1), ws_lane_index_new (&b, 1) };

  data->n_groups = 2;
  data->window_start = 0;
  data->window_end = compare_span (a, b);
  if (o->window_end > o->window_start)
    {
      data->window_start = o->window_start;
      data->window_end = o->window_end;
    }
  for (guint i = 0; i < 2; i++)
    {
      WsTimelineGroup *g = &data->groups[i];

      g->index = index[i];
      g->rows = collect_rows (index[i], index[1 - i]);
      g->origin = index[i]->start;
      g->start = add_saturated (g->origin, data->window_start);
      g->end = add_saturated (g->origin, data->window_end);
      /* TRANSLATORS: the ruler of one of two runs compared: it counts from that run's start */
      g->caption = g_strdup_printf (_("run %d, from its start"), ws_run_get_config (runs[i])->id);
    }
  /* TRANSLATORS: "Timeline · run 5 beside run 6" */
  data->frame.title = g_strdup_printf (_("%s · run %d beside run %d"),
                                       ws_chart_kind_title (WS_CHART_TIMELINE),
                                       ws_run_get_config (a)->id, ws_run_get_config (b)->id);
  data->notes_keep = 8 + 2 * data->groups[0].rows->len;
  *shown = g_ptr_array_new ();
  g_ptr_array_add (*shown, a);
  g_ptr_array_add (*shown, b);
}

/* ---- outlines --------------------------------------------------------------------------- */

static void
outline_clear (WsTimelineOutline *o)
{
  g_clear_object (&o->run);
}

static void
add_outline (WsTimelineData *data, WsRun *run, guint index)
{
  WsTimelineOutline o = { g_object_ref (run), index };

  g_array_append_val (data->outlines, o);
}

/* Presentation mode: in each run in view, the spans of its most severe finding that points
 * at any (outlines on everything point at nothing). */
static void
collect_finding_outlines (WsTimelineData *data, GPtrArray *findings)
{
  g_autoptr (GHashTable) done = g_hash_table_new (NULL, NULL);

  for (guint f = 0; f < findings->len; f++)
    {
      const WsFinding *finding = g_ptr_array_index (findings, f);
      WsRun *run;

      if (finding->severity < WS_SEVERITY_LOW || finding->activities == NULL
          || finding->activities->len == 0
          || g_hash_table_contains (done, GINT_TO_POINTER (finding->run)))
        continue;
      run = ws_session_find_run (data->session, finding->run);
      if (run == NULL)
        continue;
      g_hash_table_add (done, GINT_TO_POINTER (finding->run));
      for (guint k = 0; k < finding->activities->len && k < 64; k++)
        add_outline (data, run, g_array_index (finding->activities, guint, k));
    }
}

static void
collect_outlines (WsTimelineData *data, const WsChartBase *base, const WsTimelineOptions *o,
                  GPtrArray *shown)
{
  for (guint i = 0; o->highlight && i < o->highlight->len; i++)
    {
      const WsActivityRef *ref = &g_array_index (o->highlight, WsActivityRef, i);
      WsRun *run = ws_session_find_run (data->session, ref->run);

      if (run)
        add_outline (data, run, ref->index);
    }
  data->outline_legend = o->highlight != NULL || base->annotate;
  if (base->annotate && shown->len > 0)
    {
      /* One analysis for both the outlines and the notes. */
      g_autoptr (GPtrArray) findings = _ws_chart_findings (data->session, shown);

      collect_finding_outlines (data, findings);
      _ws_chart_frame_notes_from (&data->frame, findings, base->audience);
    }
}

/* ---- the data --------------------------------------------------------------------------- */

WsTimelineData *
_ws_timeline_collect (WsSession *session, const WsChartBase *base, const WsTimelineOptions *o)
{
  WsTimelineData *data = g_new0 (WsTimelineData, 1);
  g_autoptr (GPtrArray) shown = NULL;
  WsRun *a, *b;

  data->session = session ? g_object_ref (session) : NULL;
  data->outlines = g_array_new (FALSE, FALSE, sizeof (WsTimelineOutline));
  g_array_set_clear_func (data->outlines, (GDestroyNotify) outline_clear);
  data->frame.subtitle = _ws_chart_subtitle (session, NULL);
  if (compare_runs (session, base, &a, &b))
    collect_compare (data, a, b, o, &shown);
  else if (session != NULL && ws_session_get_trace (session) != NULL
           && _ws_timeline_collect_trace (data, session, o))
    shown = g_ptr_array_new ();
  else if (session == NULL || !collect_session (data, session, base, o, &shown))
    {
      data->frame.title = g_strdup (ws_chart_kind_title (WS_CHART_TIMELINE));
      data->frame.message = g_strdup (_("No traced activity yet. Copies, kernels and CPU runs "
                                        "appear here as the runner records them."));
      return data;
    }
  data->has_selection = o->selection_end > o->selection_start;
  data->selection_start = o->selection_start;
  data->selection_end = o->selection_end;
  collect_outlines (data, base, o, shown);
  return data;
}

void
_ws_timeline_data_free (WsTimelineData *data)
{
  if (data == NULL)
    return;
  _ws_chart_frame_clear (&data->frame);
  for (guint i = 0; i < data->n_groups; i++)
    {
      WsTimelineGroup *g = &data->groups[i];

      g_clear_pointer (&g->index, ws_lane_index_unref);
      g_clear_pointer (&g->rows, g_array_unref);
      g_free (g->caption);
    }
  g_clear_pointer (&data->outlines, g_array_unref);
  g_clear_object (&data->session);
  g_free (data);
}

/* ---- the widget's queries --------------------------------------------------------------- */

gboolean
ws_timeline_get_full_range (WsSession *session, const WsChartOptions *options, gint64 *start,
                            gint64 *end)
{
  WsChartRequest request;
  WsRun *a, *b;

  g_return_val_if_fail (options != NULL, FALSE);
  _ws_chart_request_init (&request, NULL, options);
  if (compare_runs (session, &request.base, &a, &b))
    {
      *start = 0;
      *end = compare_span (a, b);
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

gboolean
ws_timeline_pick_trace (WsSession *session, const WsChartOptions *options, double x, double y,
                        guint *span)
{
  WsChartRequest request;
  WsChartContext ctx;
  WsTimelineFrame f;
  WsTimelineData *data;
  gboolean found = FALSE;

  g_return_val_if_fail (options != NULL, FALSE);
  if (session == NULL || ws_session_get_trace (session) == NULL)
    return FALSE;
  data = measure (session, options, &request, &ctx, &f);
  if (data->trace != NULL && f.n_groups == 1)
    found = _ws_timeline_trace_pick (&f.group[0], data->trace, x, y,
                                     3 * ctx.unit / f.group[0].ppn, span);
  _ws_timeline_frame_clear (&f);
  _ws_timeline_data_free (data);
  _ws_chart_context_clear (&ctx);
  return found;
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

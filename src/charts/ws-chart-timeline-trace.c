/* ws-chart-timeline-trace.c: the timeline of a traced program: a lane of API calls and one of
 * NVTX ranges per host thread, the driver's JIT work, copies by direction, a lane of kernels
 * per stream, memsets and the host's waits, all on the trace's one time axis; the band names
 * each program run (a sweep's values). The frame, ruler, rows and selection are the timeline's
 * own (ws-chart-timeline-layout.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ws-chart-timeline-private.h"
#include "ws-trace.h"
#include "ws-span-lanes.h"

static int
lane_order (WsLaneCategory category)
{
  static const WsLaneCategory order[] = { WS_LANE_API,  WS_LANE_NVTX,   WS_LANE_JIT,
                                          WS_LANE_H2D,  WS_LANE_KERNEL, WS_LANE_D2H,
                                          WS_LANE_OTHER_COPY, WS_LANE_MEMSET, WS_LANE_SYNC };

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    if (order[i] == category)
      return (int) i;
  return G_N_ELEMENTS (order);
}

static int
compare_keys (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  int ox = lane_order (WS_LANE_KEY_CATEGORY (x)), oy = lane_order (WS_LANE_KEY_CATEGORY (y));

  if (ox != oy)
    return ox < oy ? -1 : 1;
  return x < y ? -1 : x > y;
}

/* The host's lanes by thread when there are several; kernels always by stream: a program
 * chooses its streams, so its one stream has a name too. The rest as the sweeps' timeline. */
static char *
row_label (guint64 key, gpointer data)
{
  guint n_threads = GPOINTER_TO_UINT (data);
  guint32 low = WS_LANE_KEY_STREAM (key);

  switch (WS_LANE_KEY_CATEGORY (key))
    {
    case WS_LANE_API:
      if (n_threads > 1 && low == 0)
        return g_strdup (_("API calls · main thread"));
      if (n_threads > 1)
        /* TRANSLATORS: a timeline lane: the CUDA calls of one host thread (its system id) */
        return g_strdup_printf (_("API calls · thread %u"), low);
      return g_strdup (_("API calls"));
    case WS_LANE_NVTX:
      if (n_threads > 1 && low == 0)
        return g_strdup (_("NVTX · main thread"));
      if (n_threads > 1)
        /* TRANSLATORS: a timeline lane: the NVTX ranges of one host thread (its system id) */
        return g_strdup_printf (_("NVTX · thread %u"), low);
      return g_strdup (_("NVTX ranges"));
    case WS_LANE_JIT:
      return g_strdup (_("JIT compiles"));
    case WS_LANE_KERNEL:
      return _ws_timeline_lane_label (key, TRUE);
    default:
      return NULL;
    }
}

/* Lanes are few (threads, streams, directions): a look along them is enough. */
static gboolean
has_key (GArray *keys, guint64 key)
{
  for (guint k = 0; k < keys->len; k++)
    if (g_array_index (keys, guint64, k) == key)
      return TRUE;
  return FALSE;
}

/* A row for every lane any span of the trace has, so that lanes stay put while the window
 * pans. */
static GArray *
collect_rows (WsTrace *trace)
{
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr (GHashTable) threads = g_hash_table_new (NULL, NULL);
  guint n_spans;
  const WsSpan *spans = ws_trace_get_spans (trace, &n_spans);

  for (guint i = 0; i < n_spans; i++)
    {
      guint64 key;

      if (!ws_span_lane_key (trace, &spans[i], &key))
        continue;
      if (WS_LANE_KEY_CATEGORY (key) == WS_LANE_API || WS_LANE_KEY_CATEGORY (key) == WS_LANE_NVTX)
        g_hash_table_add (threads, GUINT_TO_POINTER (WS_LANE_KEY_STREAM (key)));
      if (!has_key (keys, key))
        g_array_append_val (keys, key);
    }
  g_array_sort (keys, compare_keys);
  return _ws_timeline_rows_new (keys, row_label,
                                GUINT_TO_POINTER (g_hash_table_size (threads)));
}

/* ---- the range and the data ------------------------------------------------------------- */

/* "python3 vector_add.py": the program as the person typed it, without the folders. */
static char *
program_name (WsTrace *trace)
{
  GPtrArray *programs = ws_trace_get_programs (trace);
  GPtrArray *processes = ws_trace_get_processes (trace);
  const WsTraceProgram *p = programs->len > 0 ? g_ptr_array_index (programs, 0) : NULL;
  char *const *argv = p != NULL && p->argv != NULL ? p->argv : NULL;
  g_autoptr (GString) s = g_string_new (NULL);

  if (argv == NULL && processes->len > 0)
    argv = ((WsTraceProcess *) g_ptr_array_index (processes, 0))->command;
  for (guint i = 0; argv != NULL && argv[i] != NULL && i < 3; i++)
    {
      g_autofree char *base = g_path_get_basename (argv[i]);

      if (s->len > 0)
        g_string_append_c (s, ' ');
      g_string_append (s, i < 2 ? base : argv[i]);
    }
  if (s->len == 0)
    g_string_append (s, _("a traced program"));
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static char *
trace_title (WsTrace *trace)
{
  g_autofree char *name = program_name (trace);
  guint runs = ws_trace_get_programs (trace)->len;

  if (runs > 1)
    /* TRANSLATORS: "Timeline · python3 vadd.py --tpb, 6 program runs" (a sweep) */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %s, %u program run",
                                         "%s · %s, %u program runs", runs),
                            ws_chart_kind_title (WS_CHART_TIMELINE), name, runs);
  /* TRANSLATORS: "Timeline · python3 vector_add.py" (a traced program) */
  return g_strdup_printf (_("%s · %s"), ws_chart_kind_title (WS_CHART_TIMELINE), name);
}

gboolean
_ws_timeline_collect_trace (WsTimelineData *data, WsSession *session,
                            const WsTimelineOptions *o)
{
  WsTrace *trace = ws_session_get_trace (session);
  WsTimelineGroup *g = &data->groups[0];
  gint64 start, end;

  if (trace == NULL || !ws_session_get_time_range (session, &start, &end))
    return FALSE;
  data->trace = trace;
  data->n_groups = 1;
  g->rows = collect_rows (trace);
  g->origin = start;
  g->start = start;
  g->end = end;
  if (o->window_end > o->window_start)
    {
      g->start = o->window_start;
      g->end = o->window_end;
    }
  if (g->end - g->start < 1000)
    g->end = g->start + 1000;
  data->window_start = g->start;
  data->window_end = g->end;
  data->frame.title = trace_title (trace);
  data->notes_keep = 6 + g->rows->len;
  return TRUE;
}

/* ---- the band: one stretch per program run ---------------------------------------------- */

static char *
run_label (const WsTraceProgram *p, guint n_programs)
{
  g_autoptr (GString) s = g_string_new (NULL);

  for (guint i = 0; i < p->n_params; i++)
    g_string_append_printf (s, "%s%s=%s", i > 0 ? ", " : "", p->params[i].name,
                            p->params[i].value);
  if (s->len == 0 && n_programs > 1)
    /* TRANSLATORS: one program run of several, in the timeline's band */
    g_string_printf (s, _("run %u"), p->id);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

void
_ws_timeline_draw_trace_band (WsChartContext *ctx, const WsTimelineLayout *l, WsTrace *trace)
{
  GPtrArray *programs = ws_trace_get_programs (trace);
  cairo_t *cr = ctx->cr;

  cairo_save (cr);
  cairo_rectangle (cr, l->band.x, l->band.y, l->band.width, l->band.height);
  cairo_clip (cr);
  for (guint i = 0; i < programs->len; i++)
    {
      const WsTraceProgram *p = g_ptr_array_index (programs, i);
      g_autofree char *text = run_label (p, programs->len);
      gint64 s, e;
      double x0, x1;

      if (!ws_trace_get_program_range (trace, p->id, &s, &e) || e < l->start || s > l->end)
        continue;
      x0 = _ws_timeline_x (l, s);
      x1 = MAX (_ws_timeline_x (l, e), x0 + 1);
      _ws_set_color_alpha (cr, &ctx->theme->muted, i % 2 ? 0.22 : 0.12);
      cairo_rectangle (cr, x0, l->band.y, x1 - x0, l->band.height);
      cairo_fill (cr);
      if (*text != '\0'
          && _ws_text_width (ctx, WS_FONT_SMALL, text) < x1 - x0 - 4 * ctx->unit)
        _ws_text_show (ctx, WS_FONT_SMALL, text, (MAX (x0, l->plot.x) + MIN (x1, l->plot.x
                                                                              + l->plot.width))
                                                   / 2,
                       l->band.y + l->band.height / 2, 0.5, 0.5, &ctx->theme->foreground);
    }
  cairo_restore (cr);
}

/* ---- the spans -------------------------------------------------------------------------- */

/* What a span wide enough for words says: the kernel's short name, the call's, the range's. */
static char *
span_text (const WsSpan *s)
{
  if (s->name == NULL)
    return NULL;
  if (s->kind == WS_ACTIVITY_KERNEL)
    return ws_trace_kernel_short_name (s->name);
  if (s->kind == WS_ACTIVITY_API || ws_span_is_nvtx_range (s)
      || s->kind == WS_ACTIVITY_JIT)
    return g_strdup (s->name);
  return NULL;
}

/* A span's box: whole pixels, at least one and inside the plot. */
static void
span_box (const WsTimelineLayout *l, const WsSpan *s, double y, WsRect *box)
{
  double pad = MAX (1, round (0.15 * l->row_height));
  double x0 = _ws_timeline_column (l, _ws_timeline_x (l, s->start));
  double x1 = MAX (round (_ws_timeline_x (l, s->end)), x0 + 1);

  *box = (WsRect) { x0, y + pad, x1 - x0, l->row_height - 2 * pad };
}

static void
draw_span (WsChartContext *ctx, const WsTimelineLayout *l, const WsSpan *s, double y,
           const WsColor *color)
{
  WsRect box;

  span_box (l, s, y, &box);
  /* Boxes three pixels wide and more leave their last column empty: a range that starts as
   * the one before it ends, or kernels queued back to back, read as two. */
  if (box.width >= 3)
    box.width -= 1;
  _ws_set_color (ctx->cr, color);
  cairo_rectangle (ctx->cr, box.x, box.y, box.width, box.height);
  cairo_fill (ctx->cr);
}

/* A span's name inside its box, where the name fits and keeps off the names placed already:
 * a range inside a named one (NVTX push and pop nest) is named too where there is room. */
static void
label_span (WsChartContext *ctx, const WsTimelineLayout *l, const WsSpan *s, double y,
            const WsColor *color, WsPlacer *placed)
{
  WsRect box, r;
  double cx0, cx1, w, h;
  g_autofree char *text = NULL;
  WsColor on;

  span_box (l, s, y, &box);
  if (box.width < ctx->small_height || box.height < ctx->small_height
      || (text = span_text (s)) == NULL)
    return;
  cx0 = MAX (box.x, l->plot.x);
  cx1 = MIN (box.x + box.width, l->plot.x + l->plot.width);
  if (!_ws_text_fit (ctx, WS_FONT_SMALL, (const char *const[]) { text, NULL },
                     cx1 - cx0 - 6 * ctx->unit))
    return;
  _ws_text_extent (ctx, WS_FONT_SMALL, text, &w, &h);
  r = (WsRect) { (cx0 + cx1 - w) / 2 - 2 * ctx->unit, y, w + 4 * ctx->unit, l->row_height };
  if (!_ws_placer_try (placed, &r))
    return;
  on = _ws_color_text_on (color);
  _ws_text_show (ctx, WS_FONT_SMALL, text, (cx0 + cx1) / 2, y + l->row_height / 2, 0.5, 0.5,
                 &on);
}

/* Every span in the window onto its row: a few thousand in a program's trace, each at least a
 * pixel, so that a 36 µs kernel in a 2 s program still shows where it ran; then their names,
 * over every box, so that no box drawn later covers one. */
void
_ws_timeline_draw_trace_lanes (WsChartContext *ctx, const WsTimelineLayout *l, WsTrace *trace)
{
  guint n_spans;
  const WsSpan *spans = ws_trace_get_spans (trace, &n_spans);
  cairo_t *cr = ctx->cr;
  WsPlacer placed;

  _ws_placer_init (&placed);
  cairo_save (cr);
  cairo_rectangle (cr, l->plot.x, l->plot.y, l->plot.width, l->plot.height);
  cairo_clip (cr);
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < n_spans; i++)
      {
        const WsSpan *s = &spans[i];
        guint64 key;
        int row;
        WsColor color;
        double y;

        if (s->end < l->start || s->start > l->end || !ws_span_lane_key (trace, s, &key)
            || (row = _ws_timeline_row_of (l, key)) < 0)
          continue;
        color = _ws_timeline_row_color (ctx->theme,
                                        &g_array_index (l->rows, WsTimelineRow, row));
        if (s->flags & WS_SPAN_FAILED)
          color = ctx->theme->severity[3];
        y = l->plot.y + row * l->row_height;
        if (pass == 0)
          draw_span (ctx, l, s, y, &color);
        else
          label_span (ctx, l, s, y, &color, &placed);
      }
  cairo_restore (cr);
  _ws_placer_clear (&placed);
}

gboolean
_ws_timeline_trace_pick (const WsTimelineLayout *l, WsTrace *trace, double x, double y,
                         double tolerance, guint *span)
{
  guint n_spans;
  const WsSpan *spans = ws_trace_get_spans (trace, &n_spans);
  double t, best = G_MAXDOUBLE;
  guint64 row_key;
  gboolean found = FALSE;

  if (x < l->plot.x || x >= l->plot.x + l->plot.width || y < l->plot.y
      || y >= l->plot.y + l->plot.height || l->rows->len == 0)
    return FALSE;
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
      d = (t >= (double) s->start && t < (double) s->end)
            ? -1.0 / (1.0 + ((double) s->end - (double) s->start))
            : MIN (fabs (t - (double) s->start), fabs (t - (double) s->end));
      if (d <= tolerance && d < best)
        {
          best = d;
          *span = i;
          found = TRUE;
        }
    }
  return found;
}

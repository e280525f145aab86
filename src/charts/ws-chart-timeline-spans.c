/* ws-chart-timeline-spans.c: the timeline's spans: wide ones drawn and labelled, a pixel column
 * of narrow ones merged into one density bar, runs a few pixels wide drawn together as density
 * bars of their busy time, and outlines where findings point.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "ws-chart-timeline-private.h"

#define DENSITY_LEVELS 6

/* What one row gets before it is filled: boxes by strength, spans to label, and the busy time
 * of runs drawn together, by pixel column. */
typedef struct
{
  double y, h;
  GArray *solid;                   /* WsRect */
  GArray *density[DENSITY_LEVELS]; /* WsRect */
  GArray *labelled;                /* Labelled */
  double *busy;                    /* ns, a column each; NULL unless runs go together */
} Row;

typedef struct
{
  WsRect rect;
  WsRun *run;
  guint index;
} Labelled;

typedef struct
{
  WsChartContext *ctx;
  const WsTimelineLayout *l;
  Row *rows;
  int *key_rows; /* the row of each of the index's keys; -1: not shown */
  guint columns;
  gboolean used_density;
} Walk;

static void
add_rect (GArray *rects, double x0, double x1, double y, double h)
{
  WsRect r = { x0, y, x1 - x0, h };

  /* Edges on whole pixels: cairo fills pixel-aligned boxes without rasterising, and
   * touching boxes merge into one, so a busy lane costs a few boxes, not thousands. */
  r.x = round (x0);
  r.width = MAX (round (x1) - r.x, 1);
  if (rects->len > 0)
    {
      WsRect *last = &g_array_index (rects, WsRect, rects->len - 1);

      if (last->y == r.y && r.x <= last->x + last->width && r.x >= last->x)
        {
          last->width = MAX (last->width, r.x + r.width - last->x);
          return;
        }
    }
  g_array_append_val (rects, r);
}

static guint
density_level (double busy_fraction)
{
  return (guint) CLAMP (ceil (busy_fraction * DENSITY_LEVELS) - 1, 0, DENSITY_LEVELS - 1);
}

/* ---- a run wide enough to show its spans ------------------------------------------------ */

/* One lane of one run: wide spans as themselves, a pixel column of narrow ones as one bar
 * whose strength is the share of the column they kept busy. */
static void
walk_lane (Walk *w, Row *row, WsRun *run, const WsLane *lane)
{
  const WsTimelineLayout *l = w->l;
  guint i = ws_lane_first_reaching (lane, l->start);

  while (i < lane->n && lane->spans[i].start < l->end)
    {
      const WsLaneSpan *s = &lane->spans[i];
      double x0 = _ws_timeline_x (l, s->start), x1 = _ws_timeline_x (l, s->end);
      double column, busy;
      gint64 column_end;
      guint k;

      if (s->end <= l->start)
        {
          i++;
          continue;
        }
      if (x1 - x0 >= 1.0)
        {
          add_rect (row->solid, x0, x1, row->y, row->h);
          if (x1 - x0 >= 2.5 * w->ctx->line_height)
            {
              Labelled lab = { { x0, row->y, x1 - x0, row->h }, run, s->index };

              g_array_append_val (row->labelled, lab);
            }
          i++;
          continue;
        }
      column = floor (MAX (x0, l->plot.x) - l->plot.x);
      column_end = ws_ns_from_double ((double) l->start + ceil ((column + 1) / l->ppn));
      k = ws_lane_first_starting (lane, i + 1, column_end);
      if (k == i + 1)
        {
          /* A lone narrow span still shows, a pixel wide, inside the plot. */
          x0 = _ws_timeline_column (l, x0);
          add_rect (row->solid, x0, x0 + 1, row->y, row->h);
          i++;
          continue;
        }
      /* The column's last span may reach far beyond it: that one is drawn as itself. */
      if (k - 1 > i && ((double) lane->spans[k - 1].end - (double) lane->spans[k - 1].start)
                               * l->ppn
                           >= 1.0)
        k--;
      busy = ((double) lane->busy[k] - (double) lane->busy[i]) * l->ppn;
      add_rect (row->density[density_level (busy)], l->plot.x + column, l->plot.x + column + 1,
                row->y, row->h);
      w->used_density = TRUE;
      i = k;
    }
}

/* ---- runs a few pixels wide, together --------------------------------------------------- */

/* Run i's busy time in each lane, spread over the columns it covers; read from the index's
 * flat arrays, which a frame of thirteen thousand runs walks from end to end. */
static void
add_busy (Walk *w, guint i)
{
  const WsTimelineLayout *l = w->l;
  const WsLaneIndex *index = l->group->index;
  guint n_keys = index->keys->len;
  const double *busy = index->busy + (gsize) i * n_keys;
  double x0 = ((double) index->starts[i] - (double) l->start) * l->ppn;
  double x1 = ((double) index->ends[i] - (double) l->start) * l->ppn;
  double c0 = MAX (floor (x0), 0), c1 = MIN (ceil (x1), (double) w->columns);

  for (guint k = 0; k < n_keys; k++)
    {
      Row *row;

      if (!(busy[k] > 0) || w->key_rows[k] < 0)
        continue;
      row = &w->rows[w->key_rows[k]];
      if (x1 - x0 < 1e-9 || c1 - c0 <= 1)
        {
          if (c0 < w->columns && x1 >= 0)
            row->busy[(guint) c0] += busy[k];
          continue;
        }
      for (double c = c0; c < c1; c++)
        row->busy[(guint) c] += busy[k] * (MIN (x1, c + 1) - MAX (x0, c)) / (x1 - x0);
    }
}

static void
flush_busy (Walk *w, Row *row)
{
  const WsTimelineLayout *l = w->l;

  for (guint c = 0; row->busy && c < w->columns; c++)
    if (row->busy[c] > 0)
      {
        add_rect (row->density[density_level (row->busy[c] * l->ppn)], l->plot.x + c,
                  l->plot.x + c + 1, row->y, row->h);
        w->used_density = TRUE;
      }
}

/* Each lane of a run to its row: both are sorted by key. */
static void
walk_run (Walk *w, WsRun *run, const WsRunLanes *lanes)
{
  const WsTimelineLayout *l = w->l;
  guint r = 0;

  for (guint j = 0; j < lanes->n_lanes; j++)
    {
      const WsLane *lane = &lanes->lanes[j];

      while (r < l->rows->len && g_array_index (l->rows, WsTimelineRow, r).key < lane->key)
        r++;
      if (r == l->rows->len)
        return;
      if (g_array_index (l->rows, WsTimelineRow, r).key == lane->key)
        walk_lane (w, &w->rows[r], run, lane);
    }
}

/* ---- labels ----------------------------------------------------------------------------- */

/* A span's facts as fragments, most important first; returns how many. */
static guint
fragments (const WsSpan *a, char *frags[4])
{
  double ns = (double) ws_time_length (a->start, a->end);
  g_autofree char *duration = ws_units_duration (ns);
  guint n = 0;

  switch ((WsActivityKind) a->kind)
    {
    case WS_ACTIVITY_MEMCPY:
      /* The lane says which direction. */
      frags[n++] = ws_units_bytes ((double) a->bytes);
      frags[n++] = g_steal_pointer (&duration);
      frags[n++] = ws_units_gbs (ns > 0 ? (double) a->bytes / ns : 0);
      break;
    case WS_ACTIVITY_KERNEL:
      frags[n++] = g_strdup (a->name ? a->name : _("kernel"));
      frags[n++] = g_steal_pointer (&duration);
      if (a->grid[1] <= 1 && a->block[1] <= 1)
        frags[n++] = g_strdup_printf (_("%u blocks × %u threads"), a->grid[0], a->block[0]);
      else
        frags[n++] = g_strdup_printf (_("grid %u×%u × block %u×%u"), a->grid[0], a->grid[1],
                                      a->block[0], a->block[1]);
      break;
    case WS_ACTIVITY_CPU:
      frags[n++] = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "CPU, %u thread",
                                                 "CPU, %u threads", a->threads),
                                    a->threads);
      frags[n++] = g_steal_pointer (&duration);
      break;
    case WS_ACTIVITY_MEMSET:
      frags[n++] = g_steal_pointer (&duration);
      frags[n++] = ws_units_bytes ((double) a->bytes);
      break;
    case WS_ACTIVITY_SYNC:
      frags[n++] = g_steal_pointer (&duration);
      frags[n++] = g_strdup (a->detail ? a->detail : _("sync"));
      break;
    case WS_ACTIVITY_OVERHEAD:
    case WS_ACTIVITY_OTHER:
    default:
      frags[n++] = g_steal_pointer (&duration);
      frags[n++] = g_strdup_printf (_("CUPTI: %s"), a->detail ? a->detail : "");
      break;
    }
  return n;
}

/* One line when all the facts fit; in a tall span one fact a line, as many as fit; else the
 * first that fits. */
static void
label_span (WsChartContext *ctx, const WsTimelineLayout *l, const Labelled *lab,
            const WsColor *fill)
{
  guint n;
  const WsSpan *a = &ws_run_get_activities (lab->run, &n)[lab->index];
  double x0 = MAX (lab->rect.x, l->plot.x);
  double x1 = MIN (lab->rect.x + lab->rect.width, l->plot.x + l->plot.width);
  double width = x1 - x0 - 6 * ctx->unit, line = ctx->small_height;
  guint max_lines = (guint) MAX (0, floor ((lab->rect.height - 4 * ctx->unit) / line));
  char *frags[5] = { NULL };
  const char *lines[4];
  g_autofree char *joined = NULL;
  WsColor text = _ws_color_text_on (fill);
  guint n_frags, shown = 0;

  if (max_lines == 0 || width < ctx->small_height)
    return;
  n_frags = fragments (a, frags);
  joined = g_strjoinv (" · ", frags);
  if (_ws_text_fit (ctx, WS_FONT_SMALL, (const char *const[]) { joined, NULL }, width))
    lines[shown++] = joined;
  else
    for (guint i = 0; i < n_frags && shown < max_lines; i++)
      if (_ws_text_fit (ctx, WS_FONT_SMALL, (const char *const[]) { frags[i], NULL }, width))
        lines[shown++] = frags[i];
  for (guint i = 0; i < shown; i++)
    _ws_text_show (ctx, WS_FONT_SMALL, lines[i], (x0 + x1) / 2,
                   lab->rect.y + lab->rect.height / 2 + (i - (shown - 1) / 2.0) * line, 0.5, 0.5,
                   &text);
  for (guint i = 0; i < n_frags; i++)
    g_free (frags[i]);
}

/* ---- filling ---------------------------------------------------------------------------- */

static void
fill_rects (WsChartContext *ctx, GArray *rects, const WsColor *color, double alpha)
{
  cairo_t *cr = ctx->cr;

  if (rects->len == 0)
    return;
  for (guint i = 0; i < rects->len; i++)
    {
      const WsRect *r = &g_array_index (rects, WsRect, i);

      cairo_rectangle (cr, r->x, r->y, r->width, r->height);
    }
  if (alpha < 1)
    {
      WsColor c = _ws_color_mix (&ctx->theme->background, color, alpha);

      _ws_set_color (cr, &c);
      cairo_fill (cr);
    }
  else
    _ws_fill_shape (ctx, color);
}

/* Density bars first, then the spans themselves, then labels that keep off each other. */
static void
fill_row (Walk *w, Row *row, const WsTimelineRow *info)
{
  WsChartContext *ctx = w->ctx;
  WsColor color = _ws_timeline_row_color (ctx->theme, info);
  double last_end = -G_MAXDOUBLE;

  flush_busy (w, row);
  for (guint lv = 0; lv < DENSITY_LEVELS; lv++)
    fill_rects (ctx, row->density[lv], &color, 0.3 + 0.7 * (lv + 1) / DENSITY_LEVELS);
  fill_rects (ctx, row->solid, &color, 1);
  for (guint k = 0; k < row->labelled->len && k < 400; k++)
    {
      const Labelled *lab = &g_array_index (row->labelled, Labelled, k);

      if (lab->rect.x < last_end)
        continue;
      label_span (ctx, w->l, lab, &color);
      last_end = lab->rect.x + lab->rect.width;
    }
}

static void
rows_init (Walk *w)
{
  const WsTimelineLayout *l = w->l;
  const GArray *keys = l->group->index->keys;

  w->key_rows = g_new (int, MAX (keys->len, 1));
  for (guint k = 0; k < keys->len; k++)
    w->key_rows[k] = _ws_timeline_row_of (l, g_array_index (keys, guint64, k));

  w->columns = (guint) MAX (ceil (l->plot.width), 1);
  w->rows = g_new0 (Row, MAX (l->rows->len, 1));
  for (guint r = 0; r < l->rows->len; r++)
    {
      Row *row = &w->rows[r];

      row->h = MAX (1, round (l->row_height * 0.72));
      row->y = l->plot.y + r * l->row_height + round ((l->row_height - row->h) / 2);
      row->solid = g_array_new (FALSE, FALSE, sizeof (WsRect));
      for (guint lv = 0; lv < DENSITY_LEVELS; lv++)
        row->density[lv] = g_array_new (FALSE, FALSE, sizeof (WsRect));
      row->labelled = g_array_new (FALSE, FALSE, sizeof (Labelled));
      /* Only runs drawn together need columns of busy time. */
      row->busy = l->together ? g_new0 (double, w->columns) : NULL;
    }
}

static void
rows_clear (Walk *w)
{
  for (guint r = 0; r < w->l->rows->len; r++)
    {
      Row *row = &w->rows[r];

      g_array_unref (row->solid);
      for (guint lv = 0; lv < DENSITY_LEVELS; lv++)
        g_array_unref (row->density[lv]);
      g_array_unref (row->labelled);
      g_free (row->busy);
    }
  g_free (w->rows);
  g_free (w->key_rows);
}

/* ---- a traced program's spans ---------------------------------------------------------- */

/* What a span wide enough for words says: the kernel's short name, the call's, the range's. */
static char *
program_span_text (const WsSpan *s)
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

/* The box of [start, end): whole pixels, at least one and inside the plot. */
static void
program_box (const WsTimelineLayout *l, gint64 start, gint64 end, double y, WsRect *box)
{
  double pad = MAX (1, round (0.15 * l->row_height));
  double x0 = _ws_timeline_column (l, _ws_timeline_x (l, start));
  double x1 = MAX (round (_ws_timeline_x (l, end)), x0 + 1);

  *box = (WsRect) { x0, y + pad, x1 - x0, l->row_height - 2 * pad };
}

static void
program_span_box (const WsTimelineLayout *l, const WsSpan *s, double y, WsRect *box)
{
  program_box (l, s->start, s->end, y, box);
}

static void
draw_program_span (WsChartContext *ctx, const WsTimelineLayout *l, const WsSpan *s, double y,
           const WsColor *color)
{
  WsRect box;

  program_span_box (l, s, y, &box);
  /* Boxes three pixels wide and more leave their last column empty: a range that starts as
   * the one before it ends, or kernels queued back to back, read as two. */
  if (box.width >= 3)
    box.width -= 1;
  _ws_set_color (ctx->cr, color);
  cairo_rectangle (ctx->cr, box.x, box.y, box.width, box.height);
  cairo_fill (ctx->cr);
}

/* A name inside a box, where it fits and keeps off the names placed already; returns
 * whether it was shown. */
static gboolean
label_box (WsChartContext *ctx, const WsTimelineLayout *l, const WsRect *box, const char *text,
           double y, const WsColor *color, WsPlacer *placed)
{
  WsRect r;
  double cx0, cx1, w, h;
  WsColor on;

  if (box->width < ctx->small_height || box->height < ctx->small_height || text == NULL)
    return FALSE;
  cx0 = MAX (box->x, l->plot.x);
  cx1 = MIN (box->x + box->width, l->plot.x + l->plot.width);
  if (!_ws_text_fit (ctx, WS_FONT_SMALL, (const char *const[]) { text, NULL },
                     cx1 - cx0 - 6 * ctx->unit))
    return FALSE;
  _ws_text_extent (ctx, WS_FONT_SMALL, text, &w, &h);
  r = (WsRect) { (cx0 + cx1 - w) / 2 - 2 * ctx->unit, y, w + 4 * ctx->unit, l->row_height };
  if (!_ws_placer_try (placed, &r))
    return FALSE;
  on = _ws_color_text_on (color);
  _ws_text_show (ctx, WS_FONT_SMALL, text, (cx0 + cx1) / 2, y + l->row_height / 2, 0.5, 0.5,
                 &on);
  return TRUE;
}

/* A span's name: a range inside a named one (NVTX push and pop nest) is named too where there
 * is room. */
static void
label_program_span (WsChartContext *ctx, const WsTimelineLayout *l, const WsSpan *s, double y,
            const WsColor *color, WsPlacer *placed)
{
  WsRect box;
  g_autofree char *text = program_span_text (s);

  program_span_box (l, s, y, &box);
  label_box (ctx, l, &box, text, y, color, placed);
}

/* A first launch's wait for its code, under the JIT records it holds: a pale box as long as
 * the wait, named "Numba compile · 1.08 s" (or its length alone where that is all that fits)
 * before any span is, since it answers why the first call was slow. */
static void
draw_code_waits (WsChartContext *ctx, const WsTimelineLayout *l, gboolean label,
                 WsPlacer *placed)
{
  GArray *waits = l->group->waits;
  int row = _ws_timeline_row_of (l, WS_LANE_KEY (WS_LANE_JIT, 0));
  WsColor color;
  double y;

  if (waits == NULL || row < 0)
    return;
  color = _ws_timeline_wait_color (ctx->theme);
  y = l->plot.y + row * l->row_height;
  for (guint i = 0; i < waits->len; i++)
    {
      const WsCodeWait *w = &g_array_index (waits, WsCodeWait, i);
      g_autofree char *length = NULL, *text = NULL;
      WsRect box;

      if (!_ws_timeline_draws_wait (w) || w->end < l->start || w->start > l->end)
        continue;
      program_box (l, w->start, w->end, y, &box);
      if (!label)
        {
          _ws_set_color (ctx->cr, &color);
          cairo_rectangle (ctx->cr, box.x, box.y, box.width, box.height);
          cairo_fill (ctx->cr);
          continue;
        }
      length = ws_units_duration ((double) (w->end - w->start));
      text = g_strdup_printf ("%s · %s", ws_code_wait_name (w), length);
      if (!label_box (ctx, l, &box, text, y, &color, placed))
        label_box (ctx, l, &box, length, y, &color, placed);
    }
}

/* Every span in the window onto its row (pass 0: boxes; 1: names): a few thousand in a
 * program's trace, each at least a pixel, so that a 36 µs kernel in a 2 s program still shows
 * where it ran. */
static void
draw_program_spans (WsChartContext *ctx, const WsTimelineLayout *l, WsTrace *trace, guint pass,
                    WsPlacer *placed)
{
  guint n_spans;
  const WsSpan *spans = ws_trace_get_spans (trace, &n_spans);

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
      color = _ws_timeline_row_color (ctx->theme, &g_array_index (l->rows, WsTimelineRow, row));
      if (s->flags & WS_SPAN_FAILED)
        color = ctx->theme->severity[3];
      y = l->plot.y + row * l->row_height;
      if (pass == 0)
        draw_program_span (ctx, l, s, y, &color);
      else
        label_program_span (ctx, l, s, y, &color, placed);
    }
}

/* The waits for code under the spans, then every name over every box, so that no box drawn
 * later covers one. */
static void
draw_program_lanes (WsChartContext *ctx, const WsTimelineLayout *l, WsTrace *trace)
{
  cairo_t *cr = ctx->cr;
  WsPlacer placed;

  _ws_placer_init (&placed);
  cairo_save (cr);
  cairo_rectangle (cr, l->plot.x, l->plot.y, l->plot.width, l->plot.height);
  cairo_clip (cr);
  for (guint pass = 0; pass < 2; pass++)
    {
      draw_code_waits (ctx, l, pass == 1, &placed);
      draw_program_spans (ctx, l, trace, pass, &placed);
    }
  cairo_restore (cr);
  _ws_placer_clear (&placed);
}

/* ---- the lanes ------------------------------------------------------------------------- */

gboolean
_ws_timeline_draw_lanes (WsChartContext *ctx, const WsTimelineLayout *l)
{
  const WsLaneIndex *index = l->group->index;
  cairo_t *cr = ctx->cr;
  Walk w = { ctx, l };
  guint first;

  if (index == NULL)
    {
      draw_program_lanes (ctx, l, l->group->trace);
      return FALSE;
    }
  first = ws_lane_index_first_reaching (index, l->start);
  rows_init (&w);
  /* The runs in view, found by a binary search: each walks its lanes, or, when many are a
   * few pixels wide, those add their busy time to the columns they cover. */
  for (guint i = first; i < index->runs->len && index->starts[i] < l->end; i++)
    {
      if (index->ends[i] < l->start)
        continue;
      if (l->together && ((double) index->ends[i] - (double) index->starts[i]) * l->ppn
                             < WS_TIMELINE_NARROW_RUN * ctx->unit)
        add_busy (&w, i);
      else
        walk_run (&w, g_ptr_array_index (index->runs, i), g_ptr_array_index (index->lanes, i));
    }
  cairo_save (cr);
  cairo_rectangle (cr, l->plot.x, l->plot.y - 1, l->plot.width, l->plot.height + 2);
  cairo_clip (cr);
  for (guint r = 0; r < l->rows->len; r++)
    fill_row (&w, &w.rows[r], &g_array_index (l->rows, WsTimelineRow, r));
  cairo_restore (cr);
  rows_clear (&w);
  return w.used_density;
}

/* ---- outlines --------------------------------------------------------------------------- */

/* Does the group draw this run? The session's draws every run; of two compared, each its own. */
static gboolean
group_has (const WsTimelineLayout *l, WsRun *run)
{
  const WsLaneIndex *index = l->group->index;

  return index->runs->len > 1 || (index->runs->len == 1 && g_ptr_array_index (index->runs, 0)
                                                                 == run);
}

/* Where the outline of a span goes; FALSE when it is not shown. */
static gboolean
outline_rect (WsChartContext *ctx, const WsTimelineLayout *l, WsRun *run, guint index,
              WsRect *rect, int *row)
{
  guint n;
  const WsSpan *a = ws_run_get_activities (run, &n);
  WsLaneCategory category;
  double x0, x1, h;
  gint64 rs, re;

  if (index >= n || !group_has (l, run))
    return FALSE;
  /* Runs drawn together show no spans to point at. */
  if (l->together && ws_run_get_time_range (run, &rs, &re)
      && ((double) re - (double) rs) * l->ppn < WS_TIMELINE_NARROW_RUN * ctx->unit)
    return FALSE;
  category = ws_lane_category (&a[index]);
  *row = _ws_timeline_row_of (l, WS_LANE_KEY (category,
                                              category == WS_LANE_KERNEL ? a[index].stream : 0));
  if (*row < 0 || a[index].end < l->start || a[index].start > l->end)
    return FALSE;
  x0 = _ws_timeline_x (l, a[index].start);
  x1 = MAX (_ws_timeline_x (l, a[index].end), x0 + 1);
  /* A span too short to see is still pointed at: its outline is a few pixels wide. */
  if (x1 - x0 < 6 * ctx->unit)
    {
      double c = (x0 + x1) / 2;

      x0 = c - 3 * ctx->unit;
      x1 = c + 3 * ctx->unit;
    }
  h = MAX (1, round (l->row_height * 0.72));
  *rect = (WsRect) { x0 - 1.5 * ctx->unit,
                     l->plot.y + *row * l->row_height + round ((l->row_height - h) / 2)
                         - 1.5 * ctx->unit,
                     x1 - x0 + 3 * ctx->unit, h + 3 * ctx->unit };
  return TRUE;
}

static void
outline (WsChartContext *ctx, const WsRect *r)
{
  cairo_t *cr = ctx->cr;

  cairo_save (cr);
  cairo_rectangle (cr, r->x, r->y, r->width, r->height);
  _ws_set_color (cr, &ctx->theme->background);
  cairo_set_line_width (cr, 4.5 * ctx->unit);
  cairo_stroke_preserve (cr);
  _ws_set_color (cr, &ctx->theme->highlight);
  cairo_set_line_width (cr, 2.25 * ctx->unit);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* Outlines that overlap in a row become one around them all: a finding that points at sixty
 * copies of a run outlines them as one group, with the copies visible inside, and a finding
 * about every run of a long session does not draw a million boxes. */
void
_ws_timeline_draw_outlines (WsChartContext *ctx, const WsTimelineData *data,
                            const WsTimelineLayout *l)
{
  g_autofree WsRect *open = g_new0 (WsRect, MAX (l->rows->len, 1));

  for (guint i = 0; i < data->outlines->len; i++)
    {
      const WsTimelineOutline *o = &g_array_index (data->outlines, WsTimelineOutline, i);
      WsRect rect, *cur;
      int row;

      if (!outline_rect (ctx, l, o->run, o->index, &rect, &row))
        continue;
      cur = &open[row];
      if (cur->width > 0 && rect.x <= cur->x + cur->width && cur->x <= rect.x + rect.width)
        {
          double x1 = MAX (cur->x + cur->width, rect.x + rect.width);

          cur->x = MIN (cur->x, rect.x);
          cur->width = x1 - cur->x;
          continue;
        }
      if (cur->width > 0)
        outline (ctx, cur);
      *cur = rect;
    }
  for (guint r = 0; r < l->rows->len; r++)
    if (open[r].width > 0)
      outline (ctx, &open[r]);
}

/* ws-chart-blocks-draw.c: the block-size chart drawn from its collected data in steps: the
 * under-occupied shading, the occupancy line on the right-hand axis, each series' band, line,
 * whiskers and points, the fastest configuration's star and words, then the axes.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "ws-chart-blocks-private.h"
#include "ws-chart-format-private.h"

static char *
time_tick (double value, double step, gpointer user_data)
{
  const WsBlocksData *data = user_data;

  if (data->ns_per_unit > 0 && step > 0)
    return _ws_format_tick (value / data->ns_per_unit, step / data->ns_per_unit);
  return _ws_format_log_tick (value / data->ns_per_unit);
}

static char *
percent_tick (double value, double step, gpointer data)
{
  return g_strdup_printf ("%.0f%%", value * 100);
}

static char *
threads_tick (double value, double step, gpointer data)
{
  GHashTable *shapes = data;
  const char *shape = shapes ? g_hash_table_lookup (shapes, GINT_TO_POINTER ((int) value)) : NULL;

  if (shape)
    return g_strdup_printf ("%.0f (%s)", value, shape);
  return g_strdup_printf ("%.0f", value);
}

static void
plot_layout (WsChartContext *ctx, const WsBlocksData *data, const WsRect *content, WsPlot *p)
{
  _ws_axis_init (&p->x, WS_AXIS_BOTTOM, data->x.kind, data->x.lo, data->x.hi, data->x_title);
  p->x.fixed = g_array_copy (data->x_ticks);
  p->x.format = threads_tick;
  p->x.format_data = data->shapes;
  _ws_axis_init (&p->y, WS_AXIS_LEFT, data->y.kind, data->y.lo, data->y.hi, data->y_title);
  p->y.format = time_tick;
  p->y.format_data = (gpointer) data;
  _ws_axis_init (&p->right, WS_AXIS_RIGHT, WS_SCALE_LINEAR, data->right.lo, data->right.hi,
                 data->measured ? _("Occupancy, theoretical and achieved")
                                : _("Theoretical occupancy"));
  p->right.fixed = g_array_new (FALSE, FALSE, sizeof (double));
  for (double v = 0; v <= 1.0001; v += 0.25)
    g_array_append_val (p->right.fixed, v);
  p->right.format = percent_tick;
  p->right.no_grid = TRUE;
  p->right.color = &ctx->theme->series[2];
  _ws_plot_begin (ctx, content, TRUE, p);
}

static void
keep_clear (WsChartContext *ctx, WsPlot *p, double px, double py)
{
  WsRect r = { px - 6 * ctx->unit, py - 6 * ctx->unit, 12 * ctx->unit, 12 * ctx->unit };

  g_array_append_val (p->placer.rects, r);
}

static void
clip_to_plot (cairo_t *cr, const WsPlot *p)
{
  cairo_save (cr);
  cairo_rectangle (cr, p->plot.x, p->plot.y, p->plot.width, p->plot.height);
  cairo_clip (cr);
}

/* Where the shade behind configuration `i` of the `n` at x positions `xs` (ascending) starts
 * and ends: half-way to each neighbour, as far on the side without one, `lone` each side of a
 * configuration alone. */
static void
shade_reach (const double *xs, guint n, guint i, double lone, double *left, double *right)
{
  double before = i > 0 ? (xs[i] - xs[i - 1]) / 2 : -1;
  double after = i + 1 < n ? (xs[i + 1] - xs[i]) / 2 : -1;

  g_assert (i < n);
  /* At an end of the sweep the band reaches as far out as it reaches in: reaching in by
   * half the gap and out by a fixed few units put the band off the point it marks. */
  if (before < 0)
    before = after >= 0 ? after : lone;
  if (after < 0)
    after = before;
  *left = xs[i] - before;
  *right = xs[i] + after;
}

/* Behind the configurations under the threshold, half-way to their neighbours on each side. */
static void
draw_shading (WsChartContext *ctx, const WsBlocksData *data, const WsPlot *p, GArray *curve)
{
  g_autofree double *xs = g_new (double, MAX (curve->len, 1));

  for (guint i = 0; i < curve->len; i++)
    xs[i] = _ws_scale_map (&p->x.scale, g_array_index (curve, WsBlocksVertex, i).tpb);
  for (guint i = 0; i < curve->len; i++)
    {
      const WsBlocksVertex *v = &g_array_index (curve, WsBlocksVertex, i);
      double left, right;
      WsColor shade;

      if (isnan (v->occupancy) || v->occupancy >= data->threshold - 1e-9)
        continue;
      shade_reach (xs, curve->len, i, 8 * ctx->unit, &left, &right);
      left = MAX (left, p->plot.x);
      right = MIN (right, p->plot.x + p->plot.width);
      shade = _ws_blocks_shade (ctx->theme, v->occupancy);
      _ws_set_color (ctx->cr, &shade);
      cairo_rectangle (ctx->cr, left, p->plot.y, right - left, p->plot.height);
      cairo_fill (ctx->cr);
    }
}

/* Where configuration `i` of `curve` has its occupancy on the right-hand axis, the measured
 * one (the GPU's counters) or the theoretical; FALSE where it has none (no counters read, no
 * launch record). */
static gboolean
occupancy_point (const WsPlot *p, GArray *curve, guint i, gboolean measured, double *px,
                 double *py)
{
  const WsBlocksVertex *v = &g_array_index (curve, WsBlocksVertex, i);
  double value = measured ? v->achieved : v->occupancy;

  if (isnan (value))
    return FALSE;
  *px = _ws_scale_map (&p->x.scale, v->tpb);
  *py = _ws_scale_map (&p->right.scale, value);
  return TRUE;
}

/* Occupancy on the right-hand axis: the theoretical a dashed line with a hollow square at each
 * configuration; the measured one, under it, a solid line with filled squares. */
static void
draw_occupancy (WsChartContext *ctx, WsPlot *p, GArray *curve, gboolean measured)
{
  cairo_t *cr = ctx->cr;
  const WsColor *color = &ctx->theme->series[2];
  double dash[] = { 4 * ctx->unit, 3 * ctx->unit };
  gboolean started = FALSE;
  double px, py;

  clip_to_plot (cr, p);
  if (!measured)
    cairo_set_dash (cr, dash, 2, 0);
  _ws_set_color (cr, color);
  cairo_set_line_width (cr, ctx->theme->line_width);
  for (guint i = 0; i < curve->len; i++)
    if (occupancy_point (p, curve, i, measured, &px, &py))
      {
        if (!started)
          cairo_move_to (cr, px, py);
        else
          cairo_line_to (cr, px, py);
        started = TRUE;
      }
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  for (guint i = 0; i < curve->len; i++)
    if (occupancy_point (p, curve, i, measured, &px, &py))
      {
        _ws_draw_marker (ctx, WS_MARKER_SQUARE, px, py, 5 * ctx->unit,
                         measured ? color : &ctx->theme->background, color);
        keep_clear (ctx, p, px, py);
      }
  cairo_restore (cr);
}

/* Many configurations: the spread as a band between the launches' min and max. */
static void
draw_band (WsChartContext *ctx, const WsPlot *p, const WsBlocksSeries *s)
{
  cairo_t *cr = ctx->cr;
  gboolean started = FALSE;

  for (guint pass = 0; pass < 2; pass++)
    for (guint k = 0; k < s->curve->len; k++)
      {
        guint i = pass == 0 ? k : s->curve->len - 1 - k;
        const WsBlocksVertex *v = &g_array_index (s->curve, WsBlocksVertex, i);
        double t = pass == 0 ? v->hi : v->lo;
        double px = _ws_scale_map (&p->x.scale, v->tpb), py = _ws_scale_map (&p->y.scale, t);

        if (!(t > 0))
          continue;
        if (!started)
          cairo_move_to (cr, px, py);
        else
          cairo_line_to (cr, px, py);
        started = TRUE;
      }
  if (started)
    {
      cairo_close_path (cr);
      _ws_set_color_alpha (cr, &s->color, 0.25);
      cairo_fill (cr);
    }
  cairo_new_path (cr);
}

static void
draw_line (WsChartContext *ctx, const WsPlot *p, const WsBlocksSeries *s)
{
  cairo_t *cr = ctx->cr;
  gboolean started = FALSE;

  _ws_set_color (cr, &s->color);
  cairo_set_line_width (cr, ctx->theme->line_width * 1.2);
  for (guint i = 0; i < s->curve->len; i++)
    {
      const WsBlocksVertex *v = &g_array_index (s->curve, WsBlocksVertex, i);
      double px = _ws_scale_map (&p->x.scale, v->tpb);

      if (!(v->value > 0))
        continue;
      if (!started)
        cairo_move_to (cr, px, _ws_scale_map (&p->y.scale, v->value));
      else
        cairo_line_to (cr, px, _ws_scale_map (&p->y.scale, v->value));
      started = TRUE;
    }
  cairo_stroke (cr);
}

/* Each configuration once: its whiskers, a circle (the fastest gets a star later), a ring
 * when tied with the fastest. */
static void
draw_points (WsChartContext *ctx, WsPlot *p, const WsBlocksSeries *s, guint index)
{
  cairo_t *cr = ctx->cr;

  for (guint i = 0; i < s->points->len; i++)
    {
      const WsBlocksPoint *pt = &g_array_index (s->points, WsBlocksPoint, i);
      double px = _ws_scale_map (&p->x.scale, pt->tpb), py = _ws_scale_map (&p->y.scale, pt->value);
      double y0 = _ws_scale_map (&p->y.scale, pt->lo), y1 = _ws_scale_map (&p->y.scale, pt->hi);
      guint tag = (index % 1024) * 4;

      if (!(pt->value > 0))
        continue;
      if (!s->band && pt->whisker
          && (_ws_mark_set_add (&p->marks, px, y0, tag + 1)
              || _ws_mark_set_add (&p->marks, px, y1, tag + 2)))
        _ws_draw_whisker (ctx, px, y0, y1, &s->color);
      if (!_ws_mark_set_add (&p->marks, px, py, tag + (pt->tied ? 3 : 0)))
        continue;
      keep_clear (ctx, p, px, py);
      if (pt->best)
        continue;
      _ws_draw_marker (ctx, WS_MARKER_CIRCLE, px, py, 6 * ctx->unit, &s->color, NULL);
      if (pt->tied)
        {
          cairo_new_sub_path (cr);
          cairo_arc (cr, px, py, 7 * ctx->unit, 0, 2 * G_PI);
          _ws_set_color (cr, &ctx->theme->foreground);
          cairo_set_line_width (cr, 1.5 * ctx->unit);
          cairo_stroke (cr);
        }
    }
}

static void
draw_series (WsChartContext *ctx, WsPlot *p, const WsBlocksSeries *s, guint index)
{
  clip_to_plot (ctx->cr, p);
  if (s->band)
    draw_band (ctx, p, s);
  draw_line (ctx, p, s);
  draw_points (ctx, p, s, index);
  cairo_restore (ctx->cr);
}

/* The fastest configuration: a star, and its time in words where there is room. */
static void
draw_best (WsChartContext *ctx, WsPlot *p, const WsBlocksSeries *s)
{
  static const double dy[] = { 1.0, -2.0, 2.2, -3.2, 3.4, -4.4 };
  const WsBlocksPoint *best = NULL;
  WsColor ink = _ws_color_readable (ctx->theme, &s->color);
  double px, py, w, h;

  for (guint i = 0; i < s->points->len && best == NULL; i++)
    if (g_array_index (s->points, WsBlocksPoint, i).best)
      best = &g_array_index (s->points, WsBlocksPoint, i);
  if (best == NULL)
    return;
  px = _ws_scale_map (&p->x.scale, best->tpb);
  py = _ws_scale_map (&p->y.scale, best->value);
  _ws_draw_marker (ctx, WS_MARKER_STAR, px, py, 12 * ctx->unit, &s->color,
                   &ctx->theme->foreground);
  _ws_text_extent (ctx, WS_FONT_BOLD, s->best_text, &w, &h);
  /* Words wider than the plot would stick out of the figure: the star and the legend say it. */
  if (w > p->plot.width - 4)
    return;
  for (guint attempt = 0; attempt < G_N_ELEMENTS (dy); attempt++)
    {
      WsRect r = { px - w / 2, py + dy[attempt] * h * 0.75, w, h };

      r.x = CLAMP (r.x, p->plot.x + 2, p->plot.x + p->plot.width - w - 2);
      if (r.y < p->plot.y || r.y + h > p->plot.y + p->plot.height)
        continue;
      if (_ws_placer_try (&p->placer, &r))
        {
          _ws_draw_halo (ctx, r.x - 3, r.y, r.width + 6, r.height, 0.85);
          _ws_text_show (ctx, WS_FONT_BOLD, s->best_text, r.x, r.y, 0, 0, &ink);
          return;
        }
    }
}

void
_ws_blocks_draw (WsChartContext *ctx, const WsBlocksData *data)
{
  const WsBlocksSeries *main_series;
  WsRect content;
  WsPlot p;

  _ws_chart_frame_draw (ctx, &data->frame, TRUE, &content);
  if (data->frame.message)
    {
      _ws_chart_message (ctx, &content, data->frame.message);
      return;
    }
  if (data->heatmap)
    {
      _ws_heatmap_draw (ctx, &data->frame, data->heatmap, &content);
      return;
    }
  if (data->params)
    {
      /* Presentation mode: the findings above the plot, as over the block chart. */
      _ws_chart_notes_draw (ctx, &data->frame, WS_CHART_PLOT_KEEP (ctx), TRUE, &content);
      _ws_params_draw (ctx, data->params, &content);
      return;
    }
  main_series = g_ptr_array_index (data->series, 0);
  _ws_legend_draw_above (ctx, &data->legend, &content);
  _ws_chart_notes_draw (ctx, &data->frame, WS_CHART_PLOT_KEEP (ctx), TRUE, &content);
  plot_layout (ctx, data, &content, &p);
  draw_shading (ctx, data, &p, main_series->curve);
  draw_occupancy (ctx, &p, main_series->curve, FALSE);
  draw_occupancy (ctx, &p, main_series->curve, TRUE);
  _ws_axis_draw_grid (ctx, &p.x, &p.plot);
  _ws_axis_draw_grid (ctx, &p.y, &p.plot);
  for (guint i = data->n_main; i < data->series->len; i++)
    draw_series (ctx, &p, g_ptr_array_index (data->series, i), i);
  for (guint i = data->n_main; i-- > 0;)
    draw_series (ctx, &p, g_ptr_array_index (data->series, i), i);
  for (guint i = 0; i < data->n_main; i++)
    draw_best (ctx, &p, g_ptr_array_index (data->series, i));
  _ws_axis_draw (ctx, &p.x, &p.plot);
  _ws_axis_draw (ctx, &p.y, &p.plot);
  _ws_axis_draw (ctx, &p.right, &p.plot);
  _ws_plot_end (&p);
}

/* ws-chart-blocks.c: kernel time against threads per block, with its spread, theoretical
 * occupancy on a second axis, under-occupied configurations shaded, the best configuration and
 * those tied with it marked. Sweeps over 2D block shapes become a heatmap (ws-chart-heatmap.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ws-analysis.h"
#include "ws-chart-axes-private.h"
#include "ws-chart-format-private.h"
#include "ws-chart-frame-private.h"
#include "ws-chart-private.h"
#include "ws-chart-shapes-private.h"

static gboolean
series_has (WsSeries *series, int id)
{
  for (guint i = 0; id != 0 && i < series->runs->len; i++)
    if (ws_run_get_id (g_ptr_array_index (series->runs, i)) == id)
      return TRUE;
  return FALSE;
}

static gboolean
wants_heatmap (WsSeries *series)
{
  g_autoptr (GHashTable) xs = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) ys = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < series->runs->len; i++)
    {
      const WsRunConfig *c = ws_run_get_config (g_ptr_array_index (series->runs, i));

      g_hash_table_add (xs, GUINT_TO_POINTER (c->block[0]));
      g_hash_table_add (ys, GUINT_TO_POINTER (c->block[1]));
    }
  /* A grid of shapes, not a diagonal of square ones (8×8, 16×16, 32×32 read better as a
   * line against threads per block). */
  return g_hash_table_size (xs) >= 2 && g_hash_table_size (ys) >= 2
         && series->runs->len > MAX (g_hash_table_size (xs), g_hash_table_size (ys));
}

static double
series_size (WsSeries *s)
{
  return ws_run_get_config (g_ptr_array_index (s->runs, 0))->size;
}

GPtrArray *
_ws_blocks_pick_series (WsSession *session, const WsChartOptions *options, gboolean *heatmap)
{
  g_autoptr (GPtrArray) all = ws_session_get_series (session, WS_SERIES_BY_BLOCK, 2);
  GPtrArray *picked = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_series_free);
  WsSeries *first = NULL;

  *heatmap = FALSE;
  if (options->run != 0)
    {
      for (guint i = 0; i < all->len; i++)
        {
          WsSeries *s = g_ptr_array_index (all, i);

          if (series_has (s, options->run) || series_has (s, options->compare_run))
            g_ptr_array_add (picked, g_ptr_array_steal_index (all, i--));
        }
    }
  else
    {
      /* The sweep with the most configurations, the largest size on a tie; then the other
       * kernels measured at the same size and transfer mode, to compare them. */
      for (guint i = 0; i < all->len; i++)
        {
          WsSeries *s = g_ptr_array_index (all, i);

          if (first == NULL || s->runs->len > first->runs->len
              || (s->runs->len == first->runs->len && series_size (s) > series_size (first)))
            first = s;
        }
      if (first != NULL)
        {
          const WsRunConfig *fc = ws_run_get_config (g_ptr_array_index (first->runs, 0));

          for (guint i = 0; i < all->len; i++)
            {
              WsSeries *s = g_ptr_array_index (all, i);
              const WsRunConfig *c = ws_run_get_config (g_ptr_array_index (s->runs, 0));

              if (s == first)
                g_ptr_array_insert (picked, 0, g_ptr_array_steal_index (all, i--));
              else if (memcmp (c->shape, fc->shape, sizeof c->shape) == 0
                       && g_strcmp0 (c->transfer, fc->transfer) == 0)
                g_ptr_array_add (picked, g_ptr_array_steal_index (all, i--));
            }
        }
    }
  if (picked->len > 0 && wants_heatmap (g_ptr_array_index (picked, 0)))
    {
      *heatmap = TRUE;
      g_ptr_array_set_size (picked, 1);
    }
  return picked;
}

typedef struct
{
  const char *unit;
  double ns_per_unit;
} TimeFormat;

static char *
time_tick (double value, double step, gpointer data)
{
  const TimeFormat *f = data;
  g_autofree char *v = f->ns_per_unit > 0 && step > 0
                           ? _ws_format_tick (value / f->ns_per_unit, step / f->ns_per_unit)
                           : _ws_format_log_tick (value / f->ns_per_unit);

  return g_strdup (v);
}

static char *
percent_tick (double value, double step, gpointer data)
{
  return g_strdup_printf ("%.0f%%", value * 100);
}

/* Threads per block, with the block's shape when it is 2D: "256 (16×16)". */
static char *
threads_tick (double value, double step, gpointer data)
{
  GHashTable *shapes = data;
  const char *shape = shapes ? g_hash_table_lookup (shapes, GINT_TO_POINTER ((int) value)) : NULL;

  if (shape)
    return g_strdup_printf ("%.0f (%s)", value, shape);
  return g_strdup_printf ("%.0f", value);
}

static double
occupancy_threshold (void)
{
  double t = ws_analysis_threshold ("occupancy_low");

  return t > 0 && t <= 1 ? t : 1.0;
}

static double
tpb (WsRun *run)
{
  return ws_run_get_config (run)->threads_per_block;
}

static void
add_marker_rect (WsPlacer *placer, WsChartContext *ctx, double px, double py)
{
  WsRect r = { px - 6 * ctx->unit, py - 6 * ctx->unit, 12 * ctx->unit, 12 * ctx->unit };

  g_array_append_val (placer->rects, r);
}

static void
draw_series (WsChartContext *ctx, const WsRect *plot, WsAxis *x, WsAxis *y, WsSeries *series,
             const WsColor *color, GPtrArray *tied, WsPlacer *placer)
{
  cairo_t *cr = ctx->cr;
  GPtrArray *runs = series->runs;
  gboolean band = runs->len > 8;
  gboolean started = FALSE;

  cairo_save (cr);
  cairo_rectangle (cr, plot->x, plot->y, plot->width, plot->height);
  cairo_clip (cr);
  if (band)
    {
      /* Many configurations: the spread as a band between min and max. */
      for (guint pass = 0; pass < 2; pass++)
        for (guint k = 0; k < runs->len; k++)
          {
            guint i = pass == 0 ? k : runs->len - 1 - k;
            WsRun *run = g_ptr_array_index (runs, i);
            const WsTiming *t = ws_run_get_timing (run);
            double v = t && t->kernel.n > 0 ? (pass == 0 ? t->kernel.max : t->kernel.min)
                                            : ws_run_get_kernel_ns (run);
            double px = _ws_scale_map (&x->scale, tpb (run));

            if (!(v > 0))
              continue;
            if (!started)
              cairo_move_to (cr, px, _ws_scale_map (&y->scale, v));
            else
              cairo_line_to (cr, px, _ws_scale_map (&y->scale, v));
            started = TRUE;
          }
      if (started)
        {
          cairo_close_path (cr);
          _ws_set_color_alpha (cr, color, 0.25);
          cairo_fill (cr);
        }
      cairo_new_path (cr);
    }
  started = FALSE;
  _ws_set_color (cr, color);
  cairo_set_line_width (cr, ctx->theme->line_width * 1.2);
  for (guint i = 0; i < runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (runs, i);
      double v = ws_run_get_kernel_ns (run);
      double px = _ws_scale_map (&x->scale, tpb (run));

      if (!(v > 0))
        continue;
      if (!started)
        cairo_move_to (cr, px, _ws_scale_map (&y->scale, v));
      else
        cairo_line_to (cr, px, _ws_scale_map (&y->scale, v));
      started = TRUE;
    }
  cairo_stroke (cr);
  for (guint i = 0; i < runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (runs, i);
      const WsTiming *t = ws_run_get_timing (run);
      double v = ws_run_get_kernel_ns (run);
      double px = _ws_scale_map (&x->scale, tpb (run));
      double py = _ws_scale_map (&y->scale, v);
      gboolean is_best = tied && tied->len > 0 && g_ptr_array_index (tied, 0) == run;
      gboolean is_tied = tied && g_ptr_array_find (tied, run, NULL);

      if (!(v > 0))
        continue;
      add_marker_rect (placer, ctx, px, py);
      if (!band && t && t->kernel.n > 1)
        {
          double y0 = _ws_scale_map (&y->scale, t->kernel.min);
          double y1 = _ws_scale_map (&y->scale, t->kernel.max);
          double cap = 3 * ctx->unit;

          _ws_set_color (cr, color);
          cairo_set_line_width (cr, 1.2 * ctx->unit);
          cairo_move_to (cr, px, y0);
          cairo_line_to (cr, px, y1);
          cairo_move_to (cr, px - cap, y0);
          cairo_line_to (cr, px + cap, y0);
          cairo_move_to (cr, px - cap, y1);
          cairo_line_to (cr, px + cap, y1);
          cairo_stroke (cr);
        }
      if (is_best)
        continue;
      _ws_draw_marker (ctx, WS_MARKER_CIRCLE, px, py, 6 * ctx->unit, color, NULL);
      if (is_tied)
        {
          cairo_new_sub_path (cr);
          cairo_arc (cr, px, py, 7 * ctx->unit, 0, 2 * G_PI);
          _ws_set_color (cr, &ctx->theme->foreground);
          cairo_set_line_width (cr, 1.5 * ctx->unit);
          cairo_stroke (cr);
        }
    }
  cairo_restore (cr);
}

/* The fastest configuration: a star, and its time in words where there is room. */
static void
draw_best (WsChartContext *ctx, const WsRect *plot, WsAxis *x, WsAxis *y, WsRun *best,
           guint n_tied, const WsColor *color, WsPlacer *placer, gboolean name_kernel)
{
  double v = ws_run_get_kernel_ns (best);
  double px = _ws_scale_map (&x->scale, tpb (best));
  double py = _ws_scale_map (&y->scale, v);
  const WsRunConfig *c = ws_run_get_config (best);
  g_autofree char *dur = _ws_format_duration (v);
  g_autofree char *shape = ws_run_dup_block_phrase (best);
  g_autofree char *what = name_kernel ? g_strdup_printf ("%s: ", c->kernel) : g_strdup ("");
  g_autofree char *text = NULL;
  WsColor ink = _ws_color_readable (ctx->theme, color);
  double w, h;

  if (n_tied > 1)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "%sfastest: %s, %s (%u more within its spread)",
                                         "%sfastest: %s, %s (%u more within its spread)",
                                         n_tied - 1),
                            what, shape, dur, n_tied - 1);
  else
    text = g_strdup_printf (_("%sfastest: %s, %s"), what, shape, dur);
  _ws_draw_marker (ctx, WS_MARKER_STAR, px, py, 12 * ctx->unit, color, &ctx->theme->foreground);
  _ws_text_extent (ctx, WS_FONT_BOLD, text, &w, &h);
  for (int attempt = 0; attempt < 6; attempt++)
    {
      static const double dy[] = { 1.0, -2.0, 2.2, -3.2, 3.4, -4.4 };
      WsRect r = { px - w / 2, py + dy[attempt] * h * 0.75, w, h };

      r.x = CLAMP (r.x, plot->x + 2, plot->x + plot->width - w - 2);
      if (r.y < plot->y || r.y + h > plot->y + plot->height)
        continue;
      if (_ws_placer_try (placer, &r))
        {
          _ws_draw_halo (ctx, r.x - 3, r.y, r.width + 6, r.height, 0.85);
          _ws_text_show (ctx, WS_FONT_BOLD, text, r.x, r.y, 0, 0, &ink);
          break;
        }
    }
}

/* Below 100% occupancy a configuration is shaded, the darker the lower its occupancy. */
static WsColor
shade_for (WsChartContext *ctx, double occupancy)
{
  double t = CLAMP ((1 - occupancy) / 0.5, 0.3, 1.0);

  return _ws_color_mix (&ctx->theme->background, &ctx->theme->severity[2], 0.28 * t);
}

static gboolean
any_under (WsSeries *series, double threshold)
{
  for (guint i = 0; i < series->runs->len; i++)
    {
      const WsLaunch *launch = ws_run_get_launch (g_ptr_array_index (series->runs, i));

      if (launch && launch->occupancy < threshold - 1e-9)
        return TRUE;
    }
  return FALSE;
}

/* Occupancy on the right-hand axis, and the shading behind under-occupied configurations. */
static void
draw_occupancy (WsChartContext *ctx, const WsRect *plot, WsAxis *x, WsAxis *right,
                WsSeries *series, const WsColor *color, double threshold, WsPlacer *placer)
{
  cairo_t *cr = ctx->cr;
  GPtrArray *runs = series->runs;
  gboolean started = FALSE;
  double half = 8 * ctx->unit;

  for (guint i = 0; i < runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (runs, i);
      const WsLaunch *launch = ws_run_get_launch (run);
      double px = _ws_scale_map (&x->scale, tpb (run)), left, right_edge;
      WsColor shade;

      if (launch == NULL || launch->occupancy >= threshold - 1e-9)
        continue;
      /* Half-way to the neighbours on each side. */
      left = i > 0 ? (px + _ws_scale_map (&x->scale, tpb (g_ptr_array_index (runs, i - 1)))) / 2
                   : px - half;
      right_edge = i + 1 < runs->len
                       ? (px + _ws_scale_map (&x->scale, tpb (g_ptr_array_index (runs, i + 1)))) / 2
                       : px + half;
      shade = shade_for (ctx, launch->occupancy);
      _ws_set_color (cr, &shade);
      cairo_rectangle (cr, MAX (left, plot->x), plot->y,
                       MIN (right_edge, plot->x + plot->width) - MAX (left, plot->x),
                       plot->height);
      cairo_fill (cr);
    }

  cairo_save (cr);
  cairo_rectangle (cr, plot->x, plot->y, plot->width, plot->height);
  cairo_clip (cr);
  {
    double dash[] = { 4 * ctx->unit, 3 * ctx->unit };

    cairo_set_dash (cr, dash, 2, 0);
  }
  _ws_set_color (cr, color);
  cairo_set_line_width (cr, ctx->theme->line_width);
  for (guint i = 0; i < runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (runs, i);
      const WsLaunch *launch = ws_run_get_launch (run);
      double px, py;

      if (launch == NULL)
        continue;
      px = _ws_scale_map (&x->scale, tpb (run));
      py = _ws_scale_map (&right->scale, launch->occupancy);
      if (!started)
        cairo_move_to (cr, px, py);
      else
        cairo_line_to (cr, px, py);
      started = TRUE;
    }
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  for (guint i = 0; i < runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (runs, i);
      const WsLaunch *launch = ws_run_get_launch (run);
      double px, py;

      if (launch == NULL)
        continue;
      px = _ws_scale_map (&x->scale, tpb (run));
      py = _ws_scale_map (&right->scale, launch->occupancy);
      _ws_draw_marker (ctx, WS_MARKER_SQUARE, px, py, 5 * ctx->unit, &ctx->theme->background,
                       color);
      add_marker_rect (placer, ctx, px, py);
    }
  cairo_restore (cr);
}

static gboolean
any_ties (GPtrArray *ties)
{
  for (guint i = 0; i < ties->len; i++)
    if (((GPtrArray *) g_ptr_array_index (ties, i))->len > 1)
      return TRUE;
  return FALSE;
}

static char *
blocks_title (GPtrArray *picked)
{
  WsSeries *main_series = g_ptr_array_index (picked, 0);
  g_autofree char *size = _ws_chart_dup_size_label (g_ptr_array_index (main_series->runs, 0));
  g_autoptr (GString) kernels = g_string_new (main_series->kernel);

  for (guint i = 1; i < picked->len; i++)
    {
      WsSeries *s = g_ptr_array_index (picked, i);

      if (!strstr (kernels->str, s->kernel))
        g_string_append_printf (kernels, _(" vs %s"), s->kernel);
    }
  /* TRANSLATORS: "Block size · vector_add, n = 10,000,000, pageable" */
  return g_strdup_printf (_("%s · %s, %s, %s"), ws_chart_kind_title (WS_CHART_BLOCKS),
                          kernels->str, size, main_series->transfer);
}

void
_ws_chart_blocks (WsChartContext *ctx, GPtrArray *sessions)
{
  WsSession *session = sessions && sessions->len ? g_ptr_array_index (sessions, 0) : NULL;
  g_autoptr (GPtrArray) picked = NULL;
  g_autoptr (GPtrArray) others = NULL;
  g_autoptr (GPtrArray) ties = NULL;
  g_autoptr (GArray) fixed = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GHashTable) shapes = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autofree char *title = NULL, *subtitle = NULL, *ytitle = NULL;
  gboolean heatmap = FALSE, log_x, two_d = FALSE;
  double xlo = G_MAXDOUBLE, xhi = -G_MAXDOUBLE, ylo = G_MAXDOUBLE, yhi = -G_MAXDOUBLE;
  double threshold = occupancy_threshold ();
  WsRect content, plot;
  WsAxis x, y, right;
  TimeFormat tf;
  WsSeries *main_series;
  const WsColor *occ_color = &ctx->theme->series[2];
  WsLegendItem items[16];
  guint n_items = 0;
  WsPlacer placer;

  others = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  ties = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  picked = session ? _ws_blocks_pick_series (session, ctx->options, &heatmap)
                   : g_ptr_array_new ();
  if (picked->len == 0)
    {
      subtitle = _ws_chart_subtitle (session, NULL);
      _ws_chart_frame (ctx, ws_chart_kind_title (WS_CHART_BLOCKS), subtitle, &content);
      _ws_chart_message (ctx, &content,
                         _("No block-size sweep in this session. Run one kernel and size over "
                           "several block sizes (--blocks 32:1024:32) to see which one is "
                           "fastest."));
      return;
    }
  main_series = g_ptr_array_index (picked, 0);
  title = blocks_title (picked);
  subtitle = _ws_chart_subtitle (session, NULL);
  _ws_chart_frame (ctx, title, subtitle, &content);
  if (heatmap)
    {
      _ws_chart_heatmap (ctx, session, main_series, &content);
      return;
    }

  /* Other sessions: the same kernel's sweep, to compare GPUs. */
  for (guint s = 1; sessions && s < sessions->len; s++)
    {
      gboolean hm;
      GPtrArray *p = _ws_blocks_pick_series (g_ptr_array_index (sessions, s), ctx->options, &hm);

      for (guint i = 0; i < p->len; i++)
        if (g_strcmp0 (((WsSeries *) g_ptr_array_index (p, i))->kernel, main_series->kernel) != 0)
          g_ptr_array_remove_index (p, i--);
      g_ptr_array_add (others, p);
    }

  for (guint pass = 0; pass <= others->len; pass++)
    {
      GPtrArray *list = pass == 0 ? picked : g_ptr_array_index (others, pass - 1);

      for (guint i = 0; i < list->len; i++)
        {
          WsSeries *s = g_ptr_array_index (list, i);

          for (guint r = 0; r < s->runs->len; r++)
            {
              WsRun *run = g_ptr_array_index (s->runs, r);
              const WsTiming *t = ws_run_get_timing (run);
              const WsRunConfig *c = ws_run_get_config (run);
              double v = tpb (run);
              gboolean known = FALSE;

              _ws_range_update (v, FALSE, &xlo, &xhi);
              _ws_range_update (ws_run_get_kernel_ns (run), TRUE, &ylo, &yhi);
              if (t && t->kernel.n > 0)
                {
                  _ws_range_update (t->kernel.min, TRUE, &ylo, &yhi);
                  _ws_range_update (t->kernel.max, TRUE, &ylo, &yhi);
                }
              for (guint k = 0; k < fixed->len && !known; k++)
                known = g_array_index (fixed, double, k) == v;
              if (!known)
                g_array_append_val (fixed, v);
              if (c->block[1] > 1)
                {
                  two_d = TRUE;
                  g_hash_table_replace (shapes, GINT_TO_POINTER ((int) v),
                                        ws_run_dup_block_label (run));
                }
            }
        }
    }
  for (guint i = 0; i < picked->len; i++)
    {
      GPtrArray *tied = g_ptr_array_new ();

      /* The best first, then the others tied with it. */
      {
        WsRun *best = ws_analysis_rank_blocks (g_ptr_array_index (picked, i), tied);

        g_ptr_array_remove (tied, best);
        if (best)
          g_ptr_array_insert (tied, 0, best);
      }
      g_ptr_array_add (ties, tied);
    }

  /* Legend. */
  for (guint i = 0; i < picked->len && n_items < 6; i++)
    {
      WsSeries *s = g_ptr_array_index (picked, i);

      items[n_items++] = (WsLegendItem) { picked->len > 1 ? s->kernel : _("kernel time"),
                                          ctx->theme->series[i % 8], WS_LEGEND_LINE,
                                          WS_MARKER_CIRCLE };
    }
  for (guint o = 0; o < others->len; o++)
    {
      GPtrArray *list = g_ptr_array_index (others, o);
      WsDevice *d = ws_session_get_device (g_ptr_array_index (sessions, o + 1));

      if (list->len > 0 && n_items < 10)
        items[n_items++] = (WsLegendItem) { d ? ws_device_get_name (d) : _("other session"),
                                            ctx->theme->series[(picked->len + o) % 8],
                                            WS_LEGEND_LINE, WS_MARKER_CIRCLE };
    }
  items[n_items++] = (WsLegendItem) { main_series->runs->len > 8
                                          ? _("median (band: min–max of the launches)")
                                          : _("median (bars: min–max of the launches)"),
                                      ctx->theme->muted, WS_LEGEND_MARKER, WS_MARKER_CIRCLE };
  items[n_items++] = (WsLegendItem) { _("theoretical occupancy (right axis)"), *occ_color,
                                      WS_LEGEND_DASHED, WS_MARKER_SQUARE };
  if (any_under (main_series, threshold))
    items[n_items++] = (WsLegendItem) { _("under-occupied: the darker, the lower"),
                                        shade_for (ctx, 0.6), WS_LEGEND_BAND, -1 };
  items[n_items++] = (WsLegendItem) { _("fastest"), ctx->theme->series[0], WS_LEGEND_MARKER,
                                      WS_MARKER_STAR };
  if (any_ties (ties))
    items[n_items++] = (WsLegendItem) { _("tied with the fastest (within its min–max)"),
                                        ctx->theme->foreground, WS_LEGEND_OUTLINE, -1 };
  {
    double h = _ws_legend_draw (ctx, items, n_items, content.x, content.y, content.width, TRUE);

    content.y += h + 0.4 * ctx->line_height;
    content.height -= h + 0.4 * ctx->line_height;
  }
  _ws_chart_annotate (ctx, session, main_series->runs, WS_CHART_PLOT_KEEP (ctx), &content);

  /* Square shapes at a few sizes (64, 256, 1024 threads) spread over decades: a log axis
   * with a tick at each; a fine sweep (32, 64, …, 1024) reads best on a linear one. */
  log_x = fixed->len <= 12 && xhi / MAX (xlo, 1) >= 8;
  _ws_axis_init (&x, WS_AXIS_BOTTOM, log_x ? WS_SCALE_LOG : WS_SCALE_LINEAR,
                 log_x ? xlo : 0, xhi,
                 two_d ? _("Threads per block (block shape)") : _("Threads per block"));
  if (log_x)
    {
      _ws_scale_pad (&x.scale, 0.08);
      x.fixed = g_array_ref (fixed);
    }
  else
    {
      double step = 32;

      /* Warp multiples: 32, 64, 128 … whichever keeps about ten ticks. */
      while (xhi / step > 10)
        step *= 2;
      _ws_scale_set_domain (&x.scale, WS_SCALE_LINEAR, 0, xhi + step / 3);
      x.fixed = g_array_new (FALSE, FALSE, sizeof (double));
      for (double v = 0; v <= x.scale.hi + 1e-9; v += step)
        g_array_append_val (x.fixed, v);
    }
  x.format = threads_tick;
  x.format_data = two_d ? shapes : NULL;

  tf.unit = _ws_time_unit (yhi > 0 ? yhi : 1, &tf.ns_per_unit);
  ytitle = g_strdup_printf (_("Kernel time (%s)"), tf.unit);
  _ws_axis_init (&y, WS_AXIS_LEFT, WS_SCALE_LINEAR, 0, yhi > 0 ? yhi * 1.08 : 1, ytitle);
  if (yhi / MAX (ylo, 1) > 30)
    {
      /* Times over orders of magnitude: a log axis keeps the fast ones readable. */
      _ws_scale_set_domain (&y.scale, WS_SCALE_LOG, ylo, yhi);
      _ws_scale_pad (&y.scale, 0.05);
    }
  y.format = time_tick;
  y.format_data = &tf;
  _ws_axis_init (&right, WS_AXIS_RIGHT, WS_SCALE_LINEAR, 0, 1.05,
                 _("Theoretical occupancy"));
  right.fixed = g_array_new (FALSE, FALSE, sizeof (double));
  for (double v = 0; v <= 1.0001; v += 0.25)
    g_array_append_val (right.fixed, v);
  right.format = percent_tick;
  right.no_grid = TRUE;
  right.color = occ_color;
  _ws_plot_layout (ctx, &content, &x, &y, &right, &plot);

  _ws_placer_init (&placer);
  draw_occupancy (ctx, &plot, &x, &right, main_series, occ_color, threshold, &placer);
  _ws_axis_draw_grid (ctx, &x, &plot);
  _ws_axis_draw_grid (ctx, &y, &plot);
  for (guint o = 0; o < others->len; o++)
    {
      GPtrArray *list = g_ptr_array_index (others, o);

      for (guint i = 0; i < list->len; i++)
        draw_series (ctx, &plot, &x, &y, g_ptr_array_index (list, i),
                     &ctx->theme->series[(picked->len + o) % 8], NULL, &placer);
    }
  for (guint i = picked->len; i-- > 0;)
    draw_series (ctx, &plot, &x, &y, g_ptr_array_index (picked, i), &ctx->theme->series[i % 8],
                 g_ptr_array_index (ties, i), &placer);
  for (guint i = 0; i < picked->len; i++)
    {
      GPtrArray *tied = g_ptr_array_index (ties, i);

      if (tied->len > 0)
        draw_best (ctx, &plot, &x, &y, g_ptr_array_index (tied, 0), tied->len,
                   &ctx->theme->series[i % 8], &placer, picked->len > 1);
    }
  _ws_placer_clear (&placer);
  _ws_axis_draw (ctx, &x, &plot);
  _ws_axis_draw (ctx, &y, &plot);
  _ws_axis_draw (ctx, &right, &plot);
  _ws_axis_clear (&x);
  _ws_axis_clear (&y);
  _ws_axis_clear (&right);
}

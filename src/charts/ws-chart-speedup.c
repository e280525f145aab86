/* ws-chart-speedup.c: GPU speedup over the CPU against problem size, log–log: one colour per
 * series (kernel, block, transfer mode; per session when comparing GPUs), solid for the kernel
 * alone and dashed end to end with the copies, circles against one CPU thread and squares
 * against every core; whiskers for the spread, the 1× line, the crossover marked.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ws-analysis.h"
#include "ws-chart-format-private.h"
#include "ws-chart-speedup-private.h"
#include "ws-trace.h"

/* ---- collect ---------------------------------------------------------------------------- */

/* The speedup's spread: the slowest CPU over the fastest GPU and the other way round. */
static void
spread (WsRun *run, gboolean all_cores, gboolean end_to_end, double value, double *lo,
        double *hi)
{
  const WsTiming *t = ws_run_get_timing (run);
  const WsCpuBaseline *cpu;
  const WsStats *gpu;

  *lo = *hi = value;
  if (t == NULL)
    return;
  cpu = all_cores ? &t->cpu_all : &t->cpu_one;
  gpu = end_to_end ? &t->e2e : &t->kernel;
  if (cpu->stats.n > 1 && gpu->n > 1 && gpu->min > 0 && gpu->max > 0)
    {
      *lo = MIN (value, cpu->stats.min / gpu->max);
      *hi = MAX (value, cpu->stats.max / gpu->min);
    }
  if (!isfinite (*lo) || !isfinite (*hi))
    *lo = *hi = value;
}

/* One vertex per size, at the median of the points there: a size measured a thousand times
 * is one point of the line, not a thousand. Points come sorted by size. */
static GArray *
curve_of (GArray *points)
{
  GArray *curve = g_array_new (FALSE, FALSE, sizeof (WsSpeedupVertex));
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < points->len;)
    {
      const WsSpeedupPoint *p = &g_array_index (points, WsSpeedupPoint, i);
      WsSpeedupVertex v = { p->size, 0 };
      guint j = i;

      g_array_set_size (values, 0);
      for (; j < points->len && g_array_index (points, WsSpeedupPoint, j).size == p->size; j++)
        g_array_append_val (values, g_array_index (points, WsSpeedupPoint, j).value);
      v.value = _ws_median (values);
      g_array_append_val (curve, v);
      i = j;
    }
  return curve;
}

static void
series_free (WsSpeedupSeries *s)
{
  g_free (s->label);
  g_free (s->kernel);
  for (int c = 0; c < WS_SPEEDUP_N_COMBOS; c++)
    {
      g_clear_pointer (&s->points[c], g_array_unref);
      g_clear_pointer (&s->curve[c], g_array_unref);
      g_free (s->crossover_text[c]);
    }
  g_free (s);
}

static char *
crossover_text (double size, int combo, int threads)
{
  g_autofree char *n = ws_units_count_approx (size);
  g_autofree char *vs = combo & WS_SPEEDUP_ALL_CORES ? g_strdup_printf (_("%d cores"), threads)
                                                      : g_strdup (_("1 thread"));

  return g_strdup_printf (_("GPU faster above n ≈ %s (%s, vs %s)"), n,
                          combo & WS_SPEEDUP_END_TO_END ? _("with copies") : _("kernel only"),
                          vs);
}

/* The points of one series, and the domains they need. */
static void
collect_points (WsSpeedupData *data, WsSpeedupSeries *s, WsSeries *series)
{
  for (int combo = 0; combo < WS_SPEEDUP_N_COMBOS; combo++)
    {
      gboolean all_cores = combo & WS_SPEEDUP_ALL_CORES, e2e = combo & WS_SPEEDUP_END_TO_END;

      s->points[combo] = g_array_new (FALSE, FALSE, sizeof (WsSpeedupPoint));
      for (guint r = 0; r < series->runs->len; r++)
        {
          WsRun *run = g_ptr_array_index (series->runs, r);
          WsSpeedupPoint p = { ws_run_get_id (run), ws_run_get_config (run)->size,
                               ws_run_get_speedup (run, all_cores, e2e) };

          if (!(p.value > 0) || !isfinite (p.value))
            continue;
          spread (run, all_cores, e2e, p.value, &p.lo, &p.hi);
          g_array_append_val (s->points[combo], p);
          data->any = TRUE;
        }
      s->curve[combo] = curve_of (s->points[combo]);
      if (ws_analysis_find_crossover (series, all_cores, e2e, &s->crossover[combo])
          && s->crossover[combo] > 0 && isfinite (s->crossover[combo]))
        s->crossover_text[combo] = crossover_text (s->crossover[combo], combo,
                                                   data->cpu_threads);
      else
        s->crossover[combo] = 0;
    }
}

static int
cpu_threads (GPtrArray *picked)
{
  for (guint g = 0; g < picked->len; g++)
    {
      WsSeries *series = g_ptr_array_index (picked, g);

      for (guint i = 0; i < series->runs->len; i++)
        {
          const WsTiming *t = ws_run_get_timing (g_ptr_array_index (series->runs, i));

          /* The cores, also where one thread was the faster and is the baseline. */
          if (t && ws_cpu_baseline_get_cores (&t->cpu_all) > 0)
            return ws_cpu_baseline_get_cores (&t->cpu_all);
        }
    }
  return 0;
}

typedef struct
{
  double xlo, xhi, ylo, yhi;
  GArray *sizes; /* double, distinct */
  int rank;
  GPtrArray *runs; /* of the first session, for the findings */
} Ranges;

static void
widen (Ranges *r, WsSpeedupSeries *s, WsSeries *series, gboolean first_session)
{
  for (guint i = 0; i < series->runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (series->runs, i);
      double size = ws_run_get_config (run)->size;
      gboolean known = FALSE;

      r->rank = ws_run_get_config (run)->shape_rank;
      if (first_session)
        g_ptr_array_add (r->runs, run);
      if (!_ws_range_update (size, TRUE, &r->xlo, &r->xhi))
        continue;
      for (guint k = 0; k < r->sizes->len && !known && r->sizes->len <= 14; k++)
        known = g_array_index (r->sizes, double, k) == size;
      if (!known && r->sizes->len <= 14)
        g_array_append_val (r->sizes, size);
    }
  for (int combo = 0; combo < WS_SPEEDUP_N_COMBOS; combo++)
    for (guint i = 0; i < s->points[combo]->len; i++)
      {
        const WsSpeedupPoint *p = &g_array_index (s->points[combo], WsSpeedupPoint, i);

        _ws_range_update (p->lo, TRUE, &r->ylo, &r->yhi);
        _ws_range_update (p->hi, TRUE, &r->ylo, &r->yhi);
      }
}

static void
collect_series (WsSpeedupData *data, GPtrArray *sessions, const WsChartBase *base, Ranges *r)
{
  for (guint si = 0; si < sessions->len; si++)
    {
      WsSession *session = g_ptr_array_index (sessions, si);
      g_autoptr (GPtrArray) picked = _ws_speedup_pick_series (session, base);
      WsDevice *device = ws_session_get_device (session);

      if (data->cpu_threads == 0)
        data->cpu_threads = cpu_threads (picked);
      for (guint i = 0; i < picked->len; i++)
        {
          WsSeries *series = g_ptr_array_index (picked, i);
          WsSpeedupSeries *s = g_new0 (WsSpeedupSeries, 1);

          s->kernel = g_strdup (series->kernel);
          s->session = si;
          s->color = base->theme->series[data->series->len % 8];
          /* With a run picked, the other curves stay, pale, for comparison. */
          s->pale = si == 0 && base->run != 0 && !_ws_series_has_run (series, base->run)
                    && !_ws_series_has_run (series, base->compare_run);
          if (s->pale)
            s->color = _ws_color_mix (&s->color, &base->theme->background, 0.6);
          s->label = sessions->len > 1 && device
                         ? g_strdup_printf ("%s · %s", ws_device_get_name (device), series->label)
                         : g_strdup (series->label);
          collect_points (data, s, series);
          widen (r, s, series, si == 0);
          g_ptr_array_add (data->series, s);
        }
    }
}

static char *
title_for (GPtrArray *series)
{
  GString *title = g_string_new (ws_chart_kind_title (WS_CHART_SPEEDUP));

  for (guint g = 0; g < series->len; g++)
    {
      WsSpeedupSeries *s = g_ptr_array_index (series, g);

      if (g == 0)
        g_string_append_printf (title, " · %s", s->kernel);
      else if (!strstr (title->str, s->kernel))
        g_string_append_printf (title, ", %s", s->kernel);
    }
  return g_string_free (title, FALSE);
}

static char *
subtitle_for (GPtrArray *sessions)
{
  GString *devices;

  if (sessions->len <= 1)
    return _ws_chart_subtitle (sessions->len ? g_ptr_array_index (sessions, 0) : NULL, NULL);
  devices = g_string_new (NULL);
  for (guint s = 0; s < sessions->len; s++)
    {
      WsDevice *d = ws_session_get_device (g_ptr_array_index (sessions, s));

      g_string_append_printf (devices, "%s%s", s ? _(" vs ") : "",
                              d ? ws_device_get_name (d) : _("unknown GPU"));
    }
  return g_string_free (devices, FALSE);
}

/* The series by colour, then what the line and marker styles mean. */
static void
collect_legend (WsSpeedupData *data, const WsTheme *theme)
{
  g_autofree char *vs_all = g_strdup_printf (_("vs %d CPU cores"), data->cpu_threads);

  for (guint g = 0; g < data->series->len && g < 16; g++)
    {
      WsSpeedupSeries *s = g_ptr_array_index (data->series, g);

      _ws_legend_add (&data->legend, s->label, &s->color, WS_LEGEND_LINE, -1);
    }
  _ws_legend_add (&data->legend, _("kernel only"), &theme->muted, WS_LEGEND_LINE, -1);
  _ws_legend_add (&data->legend, _("end to end, with copies"), &theme->muted, WS_LEGEND_DASHED,
                  -1);
  _ws_legend_add (&data->legend, _("vs 1 CPU thread"), &theme->muted, WS_LEGEND_MARKER,
                  WS_MARKER_CIRCLE);
  if (data->cpu_threads > 0)
    _ws_legend_add (&data->legend, vs_all, &theme->muted, WS_LEGEND_MARKER, WS_MARKER_SQUARE);
}

static void
collect_axes (WsSpeedupData *data, Ranges *r)
{
  _ws_scale_set_domain (&data->x, WS_SCALE_LOG, r->xlo, r->xhi);
  _ws_scale_pad (&data->x, 0.06);
  if (r->sizes->len <= 14)
    {
      g_array_sort (r->sizes, _ws_compare_double);
      data->x_ticks = g_array_ref (r->sizes);
    }
  data->x_title = r->rank == 3 ? _("Matrix size n (n×n matrices; log scale)")
                               : _("Problem size n (elements; log scale)");
  _ws_scale_set_domain (&data->y, WS_SCALE_LOG, r->ylo, r->yhi);
  _ws_scale_pad (&data->y, 0.08);
  data->y_title = _("Speedup over the CPU (×, log scale)");
}

const char *
_ws_speedup_no_sweep_message (WsSession *session, WsAudience audience)
{
  /* A program traced as it is ran no CPU code of ours to compare with. */
  if (session != NULL && ws_session_get_trace (session) != NULL)
    return audience == WS_AUDIENCE_APP
             ? _("A traced program has no CPU baseline, so there is no speedup: trace it over "
                 "one of its parameters (Trace a Program…, with a sweep) and compare the "
                 "configurations on the Block Size view.")
             : _("A traced program has no CPU baseline, so there is no speedup: trace a sweep "
                 "with --sweep (trace --sweep TPB=32,64,128 -- …) and compare the "
                 "configurations with --chart blocks.");
  if (audience == WS_AUDIENCE_APP)
    return _("No size sweep to compare with the CPU. In the sidebar's Sweep, give From size "
             "and To size (1000 to 100000000) with CPU, one thread and CPU, all cores on, and "
             "run it to see where the GPU starts to win.");
  return _("No size sweep to compare with the CPU. Run one kernel over several problem sizes "
           "with a CPU baseline (--sizes 1e3:1e8:x10 --cpu 1,all) to see where the GPU starts "
           "to win.");
}

const char *
_ws_speedup_no_baseline_message (WsAudience audience)
{
  if (audience == WS_AUDIENCE_APP)
    return _("These runs have no CPU baseline to compare with: turn on CPU, one thread or CPU, "
             "all cores in the sidebar and run again.");
  return _("These runs have no CPU baseline to compare with: run with --cpu 1,all.");
}

WsSpeedupData *
_ws_speedup_collect (GPtrArray *sessions, const WsChartBase *base)
{
  WsSpeedupData *data = g_new0 (WsSpeedupData, 1);
  g_autoptr (GArray) sizes = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GPtrArray) runs = g_ptr_array_new ();
  Ranges r = { G_MAXDOUBLE, -G_MAXDOUBLE, 1, 1, sizes, 1, runs };

  data->series = g_ptr_array_new_with_free_func ((GDestroyNotify) series_free);
  data->audience = base->audience;
  _ws_legend_init (&data->legend);
  collect_series (data, sessions, base, &r);
  data->frame.title = title_for (data->series);
  data->frame.subtitle = subtitle_for (sessions);
  for (guint i = 0; i < data->series->len; i++)
    if (((WsSpeedupSeries *) g_ptr_array_index (data->series, i))->pale)
      {
        /* Say why some curves are pale: the run picked in the table and its curve are not. */
        char *said = g_strdup_printf (_("%s · run %d ringed, other curves pale"),
                                      data->frame.subtitle, base->run);

        g_free (data->frame.subtitle);
        data->frame.subtitle = said;
        break;
      }
  if (data->series->len == 0)
    {
      data->frame.message = g_strdup (_ws_speedup_no_sweep_message (
        sessions->len > 0 ? g_ptr_array_index (sessions, 0) : NULL, base->audience));
      return data;
    }
  collect_legend (data, base->theme);
  collect_axes (data, &r);
  if (base->annotate)
    _ws_chart_frame_add_notes (&data->frame, g_ptr_array_index (sessions, 0), runs,
                               base->audience);
  return data;
}

void
_ws_speedup_data_free (WsSpeedupData *data)
{
  if (data == NULL)
    return;
  _ws_chart_frame_clear (&data->frame);
  _ws_legend_clear (&data->legend);
  g_clear_pointer (&data->series, g_ptr_array_unref);
  g_clear_pointer (&data->x_ticks, g_array_unref);
  g_free (data);
}

/* ---- draw ------------------------------------------------------------------------------- */

static char *
speedup_label (double value, double step, gpointer data)
{
  g_autofree char *v = _ws_format_log_tick (value);

  return g_strdup_printf ("%s×", v);
}

static char *
size_label (double value, double step, gpointer data)
{
  return ws_units_count_short (value);
}

static void
plot_layout (WsChartContext *ctx, const WsSpeedupData *data, const WsRect *content, WsPlot *p)
{
  _ws_axis_init (&p->x, WS_AXIS_BOTTOM, WS_SCALE_LOG, data->x.lo, data->x.hi, data->x_title);
  p->x.format = size_label;
  if (data->x_ticks)
    p->x.fixed = g_array_copy (data->x_ticks);
  _ws_axis_init (&p->y, WS_AXIS_LEFT, WS_SCALE_LOG, data->y.lo, data->y.hi, data->y_title);
  p->y.brief = _("Speedup (×, log scale)");
  p->y.format = speedup_label;
  _ws_plot_begin (ctx, content, FALSE, p);
}

/* Where 1× is. */
static double
unity_y (const WsPlot *p)
{
  return _ws_scale_map (&p->y.scale, 1);
}

/* The 1× line: above it the GPU wins. */
static void
draw_unity (WsChartContext *ctx, const WsPlot *p)
{
  cairo_t *cr = ctx->cr;
  double y1 = unity_y (p);

  cairo_save (cr);
  _ws_set_color (cr, &ctx->theme->foreground);
  cairo_set_line_width (cr, 1.5 * ctx->unit);
  cairo_move_to (cr, p->plot.x, y1);
  cairo_line_to (cr, p->plot.x + p->plot.width, y1);
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
draw_line (WsChartContext *ctx, WsPlot *p, GArray *curve, const WsColor *color, gboolean all,
           gboolean e2e)
{
  cairo_t *cr = ctx->cr;
  double dash[] = { 7 * ctx->unit, 4 * ctx->unit };

  cairo_set_line_width (cr, ctx->theme->line_width * (all ? 1.3 : 1.0));
  _ws_set_color (cr, color);
  if (e2e)
    cairo_set_dash (cr, dash, 2, 0);
  for (guint i = 0; i < curve->len; i++)
    {
      const WsSpeedupVertex *v = &g_array_index (curve, WsSpeedupVertex, i);
      double px = _ws_scale_map (&p->x.scale, v->size), py = _ws_scale_map (&p->y.scale, v->value);

      if (i == 0)
        cairo_move_to (cr, px, py);
      else
        cairo_line_to (cr, px, py);
    }
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
}

static void
draw_whisker (WsChartContext *ctx, WsPlot *p, const WsSpeedupPoint *pt, double px,
              const WsColor *color, guint tag)
{
  double y0 = _ws_scale_map (&p->y.scale, pt->lo), y1 = _ws_scale_map (&p->y.scale, pt->hi);

  if (!(pt->hi > pt->lo * 1.0001))
    return;
  /* Whiskers of repeated runs coincide as their points do. */
  if (!_ws_mark_set_add (&p->marks, px, y0, 2 * WS_SPEEDUP_N_COMBOS * 64 + tag)
      && !_ws_mark_set_add (&p->marks, px, y1, 3 * WS_SPEEDUP_N_COMBOS * 64 + tag))
    return;
  _ws_draw_whisker (ctx, px, y0, y1, color);
}

/* One series against one baseline: its line, then each point with its whiskers, once. */
static void
draw_curve (WsChartContext *ctx, WsPlot *p, const WsSpeedupSeries *s, guint index, int combo)
{
  cairo_t *cr = ctx->cr;
  gboolean all = combo & WS_SPEEDUP_ALL_CORES, e2e = combo & WS_SPEEDUP_END_TO_END;
  WsColor color = all ? s->color : _ws_color_mix (&s->color, &ctx->theme->background, 0.3);
  guint tag = (index % 64) * WS_SPEEDUP_N_COMBOS + (guint) combo;
  GArray *points = s->points[combo];

  cairo_save (cr);
  cairo_rectangle (cr, p->plot.x, p->plot.y, p->plot.width, p->plot.height);
  cairo_clip (cr);
  draw_line (ctx, p, s->curve[combo], &color, all, e2e);
  for (guint i = 0; i < points->len; i++)
    {
      const WsSpeedupPoint *pt = &g_array_index (points, WsSpeedupPoint, i);
      double px = _ws_scale_map (&p->x.scale, pt->size), py = _ws_scale_map (&p->y.scale, pt->value);
      /* Labels placed later keep off the points. */
      WsRect r = { px - 5 * ctx->unit, py - 5 * ctx->unit, 10 * ctx->unit, 10 * ctx->unit };

      draw_whisker (ctx, p, pt, px, &color, tag);
      if (pt->run != 0 && pt->run == ctx->base->run)
        {
          /* The run picked: a ring round its point on each of its curves. */
          _ws_set_color (cr, &ctx->theme->foreground);
          cairo_set_line_width (cr, 1.5 * ctx->unit);
          cairo_new_sub_path (cr);
          cairo_arc (cr, px, py, 8 * ctx->unit, 0, 2 * G_PI);
          cairo_stroke (cr);
        }
      if (!_ws_mark_set_add (&p->marks, px, py, tag))
        continue;
      _ws_draw_marker (ctx, all ? WS_MARKER_SQUARE : WS_MARKER_CIRCLE, px, py, 7 * ctx->unit,
                       e2e ? &ctx->theme->background : &color, &color);
      g_array_append_val (p->placer.rects, r);
    }
  cairo_restore (cr);
}

/* "GPU faster" above the line and "CPU faster" below, where no point is: the right end, else
 * the left, else somewhere between. */
static void
draw_sides (WsChartContext *ctx, WsPlot *p)
{
  const char *up = _("↑ GPU faster"), *down = _("↓ CPU faster");
  double w = MAX (_ws_text_width (ctx, WS_FONT_SMALL, up), _ws_text_width (ctx, WS_FONT_SMALL,
                                                                           down));
  double h = ctx->small_height;
  double y1 = unity_y (p);
  const double where[] = { 1.0, 0.0, 0.5, 0.25, 0.75 };

  if (y1 < p->plot.y + h || y1 > p->plot.y + p->plot.height - h)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (where); i++)
    {
      double x0 = p->plot.x + 4 * ctx->unit + where[i] * (p->plot.width - w - 8 * ctx->unit);
      WsRect r = { x0, y1 - h - 3 * ctx->unit, w, 2 * h + 6 * ctx->unit };

      if (_ws_placer_try (&p->placer, &r))
        {
          _ws_text_show (ctx, WS_FONT_SMALL, up, x0, y1 - 3 * ctx->unit, 0, 1,
                         &ctx->theme->muted);
          _ws_text_show (ctx, WS_FONT_SMALL, down, x0, y1 + 3 * ctx->unit, 0, 0,
                         &ctx->theme->muted);
          return;
        }
    }
}

/* Below the 1× line first (where the CPU wins), then above it; FALSE where neither has room
 * (the label then goes in the list under the chart). */
static gboolean
crossover_label (WsChartContext *ctx, WsPlot *p, const char *text, double px, const WsColor *color)
{
  WsColor ink = _ws_color_readable (ctx->theme, color);
  double y1 = unity_y (p), w, h;

  _ws_text_extent (ctx, WS_FONT_SMALL, text, &w, &h);
  for (int attempt = 0; attempt < 6; attempt++)
    {
      double dy = (attempt / 2 + 1) * 1.2 * h * (attempt % 2 ? -1 : 1);
      WsRect r = { px + 4 * ctx->unit, y1 + dy - h / 2, w, h };

      if (r.x + r.width > p->plot.x + p->plot.width)
        r.x = px - 4 * ctx->unit - w;
      if (r.y < p->plot.y || r.y + r.height > p->plot.y + p->plot.height || r.x < p->plot.x)
        continue;
      if (_ws_placer_try (&p->placer, &r))
        {
          _ws_draw_halo (ctx, r.x - 2, r.y, r.width + 4, r.height, 0.85);
          _ws_text_show (ctx, WS_FONT_SMALL, text, r.x, r.y, 0, 0, &ink);
          return TRUE;
        }
    }
  return FALSE;
}

/* FALSE when the crossover is drawn but its label found no room beside it. `listed`: a label
 * without room goes in the list under the chart; else (presentation mode, an annotated
 * figure) it is said short, its size alone ("≈ 5.8 K") in its series' colour, where that
 * fits: no crossover is left without its number. */
static gboolean
draw_crossover (WsChartContext *ctx, WsPlot *p, const WsSpeedupSeries *s, int combo,
                gboolean listed)
{
  cairo_t *cr = ctx->cr;
  double px = _ws_scale_map (&p->x.scale, s->crossover[combo]);
  double y1 = unity_y (p);
  double dash[] = { 2 * ctx->unit, 3 * ctx->unit };

  if (s->crossover[combo] <= 0 || px < p->plot.x || px > p->plot.x + p->plot.width)
    return TRUE;
  cairo_save (cr);
  cairo_set_dash (cr, dash, 2, 0);
  cairo_set_line_width (cr, 1 * ctx->unit);
  _ws_set_color (cr, &s->color);
  cairo_move_to (cr, px, y1);
  cairo_line_to (cr, px, p->plot.y + p->plot.height);
  cairo_stroke (cr);
  cairo_restore (cr);
  _ws_draw_marker (ctx, WS_MARKER_DIAMOND, px, y1, 9 * ctx->unit, &s->color,
                   &ctx->theme->foreground);
  if (crossover_label (ctx, p, s->crossover_text[combo], px, &s->color))
    return TRUE;
  if (!listed)
    {
      g_autofree char *n = ws_units_count_approx (s->crossover[combo]);
      /* Translators: a crossover size alone, beside its diamond where its sentence has no
       * room. */
      g_autofree char *brief = g_strdup_printf (_("≈ %s"), n);

      return crossover_label (ctx, p, brief, px, &s->color);
    }
  return FALSE;
}

static guint
count_crossovers (const WsSpeedupData *data)
{
  guint n = 0;

  for (guint g = 0; g < data->series->len; g++)
    for (int combo = 0; combo < WS_SPEEDUP_N_COMBOS; combo++)
      n += ((const WsSpeedupSeries *) g_ptr_array_index (data->series, g))->crossover[combo] > 0;
  return n;
}

/* The plot in `content`; the crossovers whose labels found no room beside their diamond are
 * added to `missed` (series, combo pairs as two guints), when given. */
static void
draw_plot (WsChartContext *ctx, const WsSpeedupData *data, const WsRect *content, GArray *missed)
{
  WsPlot p;

  plot_layout (ctx, data, content, &p);
  _ws_axis_draw_grid (ctx, &p.x, &p.plot);
  _ws_axis_draw_grid (ctx, &p.y, &p.plot);
  /* Without a point, the line at 1× and its two sides would strike through the sentence
   * drawn across the plot's middle, and say nothing. */
  if (data->any)
    draw_unity (ctx, &p);
  /* The pale curves first, under those of the run picked. */
  for (int pale = 1; pale >= 0; pale--)
    for (guint g = 0; g < data->series->len; g++)
      for (int combo = 0; combo < WS_SPEEDUP_N_COMBOS; combo++)
        if (((const WsSpeedupSeries *) g_ptr_array_index (data->series, g))->pale == pale)
          draw_curve (ctx, &p, g_ptr_array_index (data->series, g), g, combo);
  if (data->any)
    draw_sides (ctx, &p);
  for (guint g = 0; g < data->series->len; g++)
    for (int combo = WS_SPEEDUP_N_COMBOS - 1; combo >= 0; combo--)
      if (!draw_crossover (ctx, &p, g_ptr_array_index (data->series, g), combo, missed != NULL)
          && missed)
        {
          guint pair[2] = { g, (guint) combo };

          g_array_append_vals (missed, pair, 2);
        }
  _ws_axis_draw (ctx, &p.x, &p.plot);
  _ws_axis_draw (ctx, &p.y, &p.plot);
  if (!data->any)
    _ws_chart_message (ctx, &p.plot, _ws_speedup_no_baseline_message (data->audience));
  _ws_plot_end (&p);
}

/* Crossover labels go beside their diamond where there is room. Where one has none (a small
 * figure, a crowded plot), the plot is laid out again with a line under it for each
 * crossover, and those that still find no room are listed there, a diamond of their colour
 * before each: at every size each crossover is said, on the plot or under it. In presentation
 * mode the plot keeps its height: the findings under it say where the GPU starts to win. */
static double
crossover_lines (WsChartContext *ctx, const WsSpeedupData *data, const WsRect *content)
{
  guint n = count_crossovers (data), lines;
  double line = 1.3 * ctx->small_height;
  WsTextSink *sink = ctx->sink;

  if (n == 0)
    return 0;
  /* Trials drawn into a group that is thrown away, with no text recorded: the fewest lines
   * that hold the labels finding no room on a plot that leaves those lines (a shorter plot
   * moves the 1× line, and with it where labels fit, so each count is tried), at most four
   * tries, then a line for every crossover. */
  ctx->sink = NULL;
  for (lines = 0; lines < n && lines < 4; lines++)
    {
      g_autoptr (GArray) missed = g_array_new (FALSE, FALSE, sizeof (guint));
      WsRect trial = *content;

      trial.height = MAX (content->height - lines * line, 1);
      cairo_push_group (ctx->cr);
      draw_plot (ctx, data, &trial, missed);
      cairo_pattern_destroy (cairo_pop_group (ctx->cr));
      if (missed->len / 2 <= lines)
        break;
    }
  if (lines == 4 && lines < n)
    lines = n;
  ctx->sink = sink;
  return lines * line;
}

/* One crossover of the list under the plot: a diamond of its colour, then its words. */
static void
draw_listed (WsChartContext *ctx, const WsSpeedupSeries *s, int combo, double x, double y,
             double width)
{
  WsColor ink = _ws_color_readable (ctx->theme, &s->color);
  double d = 0.8 * ctx->small_height;
  g_autofree char *fit = _ws_text_dup_fitting (ctx, WS_FONT_SMALL, s->crossover_text[combo],
                                               width - 1.5 * d);

  _ws_draw_marker (ctx, WS_MARKER_DIAMOND, x + d / 2, y + 0.6 * ctx->small_height,
                   9 * ctx->unit, &s->color, &ctx->theme->foreground);
  _ws_text_show (ctx, WS_FONT_SMALL, fit, x + 1.5 * d, y, 0, 0, &ink);
}

static void
draw_crossover_list (WsChartContext *ctx, const WsSpeedupData *data, GArray *missed,
                     double x, double y, double width, double height)
{
  guint lines = (guint) MAX (floor (height / (1.3 * ctx->small_height)), 1);
  guint n = missed->len / 2;

  for (guint i = 0; i < n; i++, y += 1.3 * ctx->small_height)
    {
      if (i + 1 == lines && n > lines)
        {
          /* No room for the rest: say so, rather than leave them out silently. */
          g_autofree char *more = g_strdup_printf (
              g_dngettext (GETTEXT_PACKAGE, "… and %u more crossover (a larger figure shows it)",
                           "… and %u more crossovers (a larger figure shows them)", n - i),
              n - i);
          g_autofree char *fit = _ws_text_dup_fitting (ctx, WS_FONT_SMALL, more, width);

          _ws_text_show (ctx, WS_FONT_SMALL, fit, x, y, 0, 0, &ctx->theme->muted);
          return;
        }
      draw_listed (ctx, g_ptr_array_index (data->series, g_array_index (missed, guint, 2 * i)),
                   (int) g_array_index (missed, guint, 2 * i + 1), x, y, width);
    }
}

void
_ws_speedup_draw (WsChartContext *ctx, const WsSpeedupData *data)
{
  g_autoptr (GArray) missed = g_array_new (FALSE, FALSE, sizeof (guint));
  WsRect content;
  double list_h;

  _ws_chart_frame_draw (ctx, &data->frame, TRUE, &content);
  if (data->frame.message)
    {
      _ws_chart_message (ctx, &content, data->frame.message);
      return;
    }
  _ws_legend_draw_above (ctx, &data->legend, &content);
  _ws_chart_notes_draw (ctx, &data->frame, WS_CHART_PLOT_KEEP (ctx), TRUE, &content);
  /* The list takes 30% of the height at most (a line at the least, and no more on a short
   * figure, whose plot keeps half of it): past that it counts the crossovers it leaves out. */
  list_h = ctx->base->annotate ? 0 : crossover_lines (ctx, data, &content);
  if (list_h > 0)
    list_h = MIN (list_h, (_ws_chart_is_short (ctx)
                             ? 1
                             : MAX (floor (0.3 * content.height / (1.3 * ctx->small_height)), 1))
                            * 1.3 * ctx->small_height);
  content.height -= list_h;
  draw_plot (ctx, data, &content, list_h > 0 ? missed : NULL);
  draw_crossover_list (ctx, data, missed, content.x, content.y + content.height + 0.15 * list_h,
                       content.width, list_h);
}

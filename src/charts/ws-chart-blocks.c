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
#include "ws-chart-blocks-private.h"
#include "ws-chart-format-private.h"
#include "ws-trace.h"

/* ---- collect ---------------------------------------------------------------------------- */

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median_of (GArray *values)
{
  guint n = values->len;

  if (n == 0)
    return NAN;
  g_array_sort (values, compare_double);
  return n % 2 ? g_array_index (values, double, n / 2)
               : (g_array_index (values, double, n / 2 - 1) + g_array_index (values, double, n / 2))
                     / 2;
}

/* One vertex per threads-per-block value: the median time and occupancy of the points there,
 * and the widest spread. Points come sorted by threads per block. */
GArray *
_ws_blocks_curve_of (GArray *points)
{
  GArray *curve = g_array_new (FALSE, FALSE, sizeof (WsBlocksVertex));
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) occupancies = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < points->len;)
    {
      double tpb = g_array_index (points, WsBlocksPoint, i).tpb;
      WsBlocksVertex v = { tpb, NAN, NAN, NAN, NAN };

      g_array_set_size (values, 0);
      g_array_set_size (occupancies, 0);
      for (; i < points->len && g_array_index (points, WsBlocksPoint, i).tpb == tpb; i++)
        {
          const WsBlocksPoint *p = &g_array_index (points, WsBlocksPoint, i);

          if (p->value > 0)
            g_array_append_val (values, p->value);
          if (p->lo > 0)
            v.lo = isnan (v.lo) ? p->lo : MIN (v.lo, p->lo);
          if (p->hi > 0)
            v.hi = isnan (v.hi) ? p->hi : MAX (v.hi, p->hi);
          if (!isnan (p->occupancy))
            g_array_append_val (occupancies, p->occupancy);
        }
      v.value = median_of (values);
      v.occupancy = median_of (occupancies);
      g_array_append_val (curve, v);
    }
  return curve;
}

void
_ws_blocks_series_free (WsBlocksSeries *s)
{
  g_free (s->kernel);
  g_clear_pointer (&s->points, g_array_unref);
  g_clear_pointer (&s->curve, g_array_unref);
  g_free (s->best_text);
  g_free (s);
}

static char *
best_text (WsRun *best, guint n_tied, gboolean name_kernel)
{
  g_autofree char *dur = ws_units_duration (ws_run_get_kernel_ns (best));
  g_autofree char *shape = ws_run_dup_block_phrase (best);
  g_autofree char *what = name_kernel
                              ? g_strdup_printf ("%s: ", ws_run_get_config (best)->kernel)
                              : g_strdup ("");

  if (n_tied > 1)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "%sfastest: %s, %s (%u more within its spread)",
                                         "%sfastest: %s, %s (%u more within its spread)",
                                         n_tied - 1),
                            what, shape, dur, n_tied - 1);
  return g_strdup_printf (_("%sfastest: %s, %s"), what, shape, dur);
}

/* The points of a series; for the session's own, its fastest and those tied with it. */
static WsBlocksSeries *
collect_series (WsSeries *series, guint session, const WsColor *color, gboolean rank,
                gboolean name_kernel)
{
  WsBlocksSeries *s = g_new0 (WsBlocksSeries, 1);
  g_autoptr (GPtrArray) tied = g_ptr_array_new ();
  WsRun *best = rank ? ws_analysis_rank_blocks (series, tied) : NULL;

  s->kernel = g_strdup (series->kernel);
  s->session = session;
  s->color = *color;
  s->band = series->runs->len > 8;
  s->points = g_array_new (FALSE, FALSE, sizeof (WsBlocksPoint));
  for (guint i = 0; i < series->runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (series->runs, i);
      const WsTiming *t = ws_run_get_timing (run);
      const WsLaunch *launch = ws_run_get_launch (run);
      WsBlocksPoint p = { ws_run_get_id (run), ws_run_get_config (run)->threads_per_block,
                          ws_run_get_kernel_ns (run) };

      p.lo = t && t->kernel.n > 0 ? t->kernel.min : p.value;
      p.hi = t && t->kernel.n > 0 ? t->kernel.max : p.value;
      p.whisker = t && t->kernel.n > 1;
      p.occupancy = launch ? launch->occupancy : NAN;
      p.best = run == best;
      p.tied = best != NULL && g_ptr_array_find (tied, run, NULL);
      g_array_append_val (s->points, p);
    }
  s->curve = _ws_blocks_curve_of (s->points);
  if (best != NULL)
    {
      s->best = ws_run_get_id (best);
      s->n_tied = MAX (tied->len, 1);
      s->best_text = best_text (best, s->n_tied, name_kernel);
    }
  return s;
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
                          kernels->str, size, ws_transfer_label (main_series->transfer));
}

/* The session's series, then the other sessions' sweeps of the same kernel, to compare GPUs:
 * those have a colour per session. */
static void
collect_all_series (WsBlocksData *data, GPtrArray *sessions, GPtrArray *picked,
                    const WsChartBase *base)
{
  const char *kernel = ((WsSeries *) g_ptr_array_index (picked, 0))->kernel;

  for (guint i = 0; i < picked->len; i++)
    g_ptr_array_add (data->series,
                     collect_series (g_ptr_array_index (picked, i), 0,
                                     &base->theme->series[i % 8], TRUE, picked->len > 1));
  data->n_main = picked->len;
  for (guint si = 1; si < sessions->len; si++)
    {
      gboolean heatmap;
      g_autoptr (GPtrArray) p = _ws_blocks_pick_series (g_ptr_array_index (sessions, si), base,
                                                        &heatmap);
      const WsColor *color = &base->theme->series[(picked->len + si - 1) % 8];

      for (guint i = 0; i < p->len; i++)
        if (g_strcmp0 (((WsSeries *) g_ptr_array_index (p, i))->kernel, kernel) == 0)
          g_ptr_array_add (data->series,
                           collect_series (g_ptr_array_index (p, i), si, color, FALSE, FALSE));
    }
}

/* Below 100% occupancy a configuration is shaded, the darker the lower its occupancy. */
WsColor
_ws_blocks_shade (const WsTheme *theme, double occupancy)
{
  double t = CLAMP ((1 - occupancy) / 0.5, 0.3, 1.0);

  return _ws_color_mix (&theme->background, &theme->severity[2], 0.28 * t);
}

/* The other sessions that have a sweep of the kernel: one legend entry each, by GPU. */
static void
legend_sessions (WsBlocksData *data, GPtrArray *sessions)
{
  guint last = 0;

  for (guint i = data->n_main; i < data->series->len; i++)
    {
      const WsBlocksSeries *s = g_ptr_array_index (data->series, i);
      WsDevice *d = ws_session_get_device (g_ptr_array_index (sessions, s->session));

      if (s->session == last || data->legend.items->len >= 10)
        continue;
      last = s->session;
      _ws_legend_add (&data->legend, d ? ws_device_get_name (d) : _("other session"), &s->color,
                      WS_LEGEND_LINE, WS_MARKER_CIRCLE);
    }
}

void
_ws_blocks_collect_legend (WsBlocksData *data, GPtrArray *sessions, const WsTheme *theme)
{
  const WsBlocksSeries *main_series = g_ptr_array_index (data->series, 0);
  gboolean under = FALSE, ties = FALSE;
  WsColor shade = _ws_blocks_shade (theme, 0.6);

  for (guint i = 0; i < data->n_main && i < 6; i++)
    {
      const WsBlocksSeries *s = g_ptr_array_index (data->series, i);

      _ws_legend_add (&data->legend, data->n_main > 1 ? s->kernel : _("kernel time"), &s->color,
                      WS_LEGEND_LINE, WS_MARKER_CIRCLE);
    }
  legend_sessions (data, sessions);
  for (guint i = 0; i < main_series->points->len; i++)
    under |= g_array_index (main_series->points, WsBlocksPoint, i).occupancy
             < data->threshold - 1e-9;
  for (guint i = 0; i < data->n_main; i++)
    ties |= ((WsBlocksSeries *) g_ptr_array_index (data->series, i))->n_tied > 1;
  _ws_legend_add (&data->legend, main_series->band
                                     ? _("median (band: min–max of the launches)")
                                     : _("median (bars: min–max of the launches)"),
                  &theme->muted, WS_LEGEND_MARKER, WS_MARKER_CIRCLE);
  _ws_legend_add (&data->legend, _("theoretical occupancy (right axis)"), &theme->series[2],
                  WS_LEGEND_DASHED, WS_MARKER_SQUARE);
  if (under)
    _ws_legend_add (&data->legend, _("under-occupied: the darker, the lower"), &shade,
                    WS_LEGEND_BAND, -1);
  _ws_legend_add (&data->legend, _("fastest"), &theme->series[0], WS_LEGEND_MARKER,
                  WS_MARKER_STAR);
  if (ties)
    _ws_legend_add (&data->legend, _("tied with the fastest (within its min–max)"),
                    &theme->foreground, WS_LEGEND_OUTLINE, -1);
}

/* Room at each end of the axis for half the gap to the next configuration: the shade behind
 * an end configuration reaches as far out as in, and the plot's edge would cut it off centre. */
static void
room_for_shade (WsScale *x, GArray *tpbs)
{
  g_autoptr (GArray) sorted = g_array_copy (tpbs);
  double t0, t1, tn, tm;

  if (sorted->len < 2)
    return;
  g_array_sort (sorted, compare_double);
  t0 = g_array_index (sorted, double, 0);
  t1 = g_array_index (sorted, double, 1);
  tm = g_array_index (sorted, double, sorted->len - 2);
  tn = g_array_index (sorted, double, sorted->len - 1);
  if (x->kind == WS_SCALE_LOG && t0 > 0)
    _ws_scale_set_domain (x, WS_SCALE_LOG, MIN (x->lo, t0 / sqrt (t1 / t0)),
                          MAX (x->hi, tn * sqrt (tn / tm)));
  else if (x->kind == WS_SCALE_LINEAR)
    _ws_scale_set_domain (x, WS_SCALE_LINEAR, MIN (x->lo, t0 - (t1 - t0) / 2),
                          MAX (x->hi, tn + (tn - tm) / 2));
}

/* Square shapes at a few sizes (64, 256, 1024 threads) spread over decades: a log axis with a
 * tick at each; a fine sweep (32, 64, …, 1024) reads best on a linear one. */
static void
collect_x (WsBlocksData *data, GArray *tpbs, double xlo, double xhi)
{
  if (tpbs->len <= 12 && xhi / MAX (xlo, 1) >= 8)
    {
      _ws_scale_set_domain (&data->x, WS_SCALE_LOG, xlo, xhi);
      _ws_scale_pad (&data->x, 0.08);
      room_for_shade (&data->x, tpbs);
      data->x_ticks = g_array_ref (tpbs);
      return;
    }
  {
    /* Warp multiples: 32, 64, 128 … whichever keeps about ten ticks. */
    double step = 32;

    while (xhi / step > 10)
      step *= 2;
    _ws_scale_set_domain (&data->x, WS_SCALE_LINEAR, 0, xhi + step / 3);
    room_for_shade (&data->x, tpbs);
    data->x_ticks = g_array_new (FALSE, FALSE, sizeof (double));
    for (double v = 0; v <= data->x.hi + 1e-9 && data->x_ticks->len < 64; v += step)
      g_array_append_val (data->x_ticks, v);
  }
}

void
_ws_blocks_collect_axes (WsBlocksData *data)
{
  double xlo = G_MAXDOUBLE, xhi = -G_MAXDOUBLE, ylo = G_MAXDOUBLE, yhi = -G_MAXDOUBLE;
  g_autoptr (GArray) tpbs = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GHashTable) seen = g_hash_table_new (g_double_hash, g_double_equal);

  for (guint i = 0; i < data->series->len; i++)
    {
      const WsBlocksSeries *s = g_ptr_array_index (data->series, i);

      for (guint r = 0; r < s->curve->len; r++)
        {
          const WsBlocksVertex *v = &g_array_index (s->curve, WsBlocksVertex, r);

          _ws_range_update (v->tpb, FALSE, &xlo, &xhi);
          _ws_range_update (v->value, TRUE, &ylo, &yhi);
          _ws_range_update (v->lo, TRUE, &ylo, &yhi);
          _ws_range_update (v->hi, TRUE, &ylo, &yhi);
          if (g_hash_table_add (seen, (gpointer) &v->tpb))
            g_array_append_val (tpbs, v->tpb);
        }
    }
  collect_x (data, tpbs, xlo, xhi);
  data->time_unit = _ws_time_unit (yhi > 0 ? yhi : 1, &data->ns_per_unit);
  data->y_title = g_strdup_printf (_("Kernel time (%s)"), data->time_unit);
  _ws_scale_set_domain (&data->y, WS_SCALE_LINEAR, 0, yhi > 0 ? yhi * 1.08 : 1);
  if (yhi / MAX (ylo, 1) > 30)
    {
      /* Times over orders of magnitude: a log axis keeps the fast ones readable. */
      _ws_scale_set_domain (&data->y, WS_SCALE_LOG, ylo, yhi);
      _ws_scale_pad (&data->y, 0.05);
    }
  _ws_scale_set_domain (&data->right, WS_SCALE_LINEAR, 0, 1.05);
}

/* Threads per block with the block's shape when it is 2D: "256 (16×16)". */
static void
collect_shapes (WsBlocksData *data, GPtrArray *picked)
{
  for (guint i = 0; i < picked->len; i++)
    {
      WsSeries *s = g_ptr_array_index (picked, i);

      for (guint r = 0; r < s->runs->len; r++)
        {
          WsRun *run = g_ptr_array_index (s->runs, r);
          const WsRunConfig *c = ws_run_get_config (run);

          if (c->block[1] <= 1)
            continue;
          if (data->shapes == NULL)
            data->shapes = g_hash_table_new_full (NULL, NULL, NULL, g_free);
          g_hash_table_replace (data->shapes, GINT_TO_POINTER ((int) c->threads_per_block),
                                ws_run_dup_block_label (run));
        }
    }
  data->x_title = data->shapes ? _("Threads per block (block shape)") : _("Threads per block");
}

const char *
_ws_blocks_no_sweep_message (WsSession *session, WsAudience audience)
{
  /* A program traced as it is chose its own blocks: sweeping is its parameters' business. */
  if (session != NULL && ws_session_get_trace (session) != NULL)
    return audience == WS_AUDIENCE_APP
             ? _("A traced program ran each kernel in one configuration, so there is no block "
                 "size to compare: trace it over the parameter that sets its block size "
                 "(Trace a Program…, with a sweep).")
             : _("A traced program ran each kernel in one configuration, so there is no block "
                 "size to compare: trace a sweep over the parameter that sets its block size "
                 "(trace --sweep TPB=32,64,128 -- …).");
  if (audience == WS_AUDIENCE_APP)
    return _("No block-size sweep in this session. In the sidebar's Sweep, give one size as From "
             "size and To size and several Blocks (32,64,128,256,512,1024), and run it to see "
             "which one is fastest.");
  return _("No block-size sweep in this session. Run one kernel and size over several block "
           "sizes (--blocks 32:1024:32) to see which one is fastest.");
}

WsBlocksData *
_ws_blocks_collect (GPtrArray *sessions, const WsChartBase *base)
{
  WsBlocksData *data = g_new0 (WsBlocksData, 1);
  WsSession *session = sessions->len ? g_ptr_array_index (sessions, 0) : NULL;
  g_autoptr (GPtrArray) picked = NULL;
  gboolean heatmap = FALSE;
  double t = ws_analysis_threshold ("occupancy_low");

  data->series = g_ptr_array_new_with_free_func ((GDestroyNotify) _ws_blocks_series_free);
  data->threshold = t > 0 && t <= 1 ? t : 1.0;
  _ws_legend_init (&data->legend);
  picked = session ? _ws_blocks_pick_series (session, base, &heatmap) : g_ptr_array_new ();
  data->frame.subtitle = _ws_chart_subtitle (session, NULL);
  /* An own kernel's parameter swept where no block is (TILE with block = TILE×TILE): the
   * parameter takes the block's place. */
  if (picked->len == 0 && session != NULL
      && (data->params = _ws_params_collect (session, base)) != NULL)
    {
      data->frame.title = data->params->y_name
                            ? g_strdup_printf (_("Kernel time over %s and %s"),
                                               data->params->x_name, data->params->y_name)
                            : g_strdup_printf (_("Kernel time over %s"), data->params->x_name);
      return data;
    }
  if (picked->len == 0 && session != NULL && _ws_blocks_collect_trace (data, session, base))
    return data;
  if (picked->len == 0)
    {
      data->frame.title = g_strdup (ws_chart_kind_title (WS_CHART_BLOCKS));
      data->frame.message = g_strdup (_ws_blocks_no_sweep_message (session, base->audience));
      return data;
    }
  data->frame.title = blocks_title (picked);
  if (base->annotate)
    _ws_chart_frame_add_notes (&data->frame, session,
                               ((WsSeries *) g_ptr_array_index (picked, 0))->runs, base->audience);
  if (heatmap)
    {
      data->heatmap = _ws_heatmap_collect (session, g_ptr_array_index (picked, 0), base->theme);
      return data;
    }
  collect_all_series (data, sessions, picked, base);
  _ws_blocks_collect_legend (data, sessions, base->theme);
  collect_shapes (data, picked);
  _ws_blocks_collect_axes (data);
  return data;
}

void
_ws_blocks_data_free (WsBlocksData *data)
{
  if (data == NULL)
    return;
  _ws_chart_frame_clear (&data->frame);
  _ws_legend_clear (&data->legend);
  g_clear_pointer (&data->heatmap, _ws_heatmap_data_free);
  g_clear_pointer (&data->params, _ws_params_data_free);
  g_clear_pointer (&data->series, g_ptr_array_unref);
  g_clear_pointer (&data->x_ticks, g_array_unref);
  g_clear_pointer (&data->shapes, g_hash_table_unref);
  g_free (data->y_title);
  g_free (data);
}

/* ---- draw ------------------------------------------------------------------------------- */

typedef struct
{
  WsRect plot;
  WsAxis x, y, right;
  WsPlacer placer; /* labels keep off the marks and each other */
  WsMarkSet marks; /* repeated runs are drawn once */
} Plot;

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
plot_layout (WsChartContext *ctx, const WsBlocksData *data, const WsRect *content, Plot *p)
{
  _ws_axis_init (&p->x, WS_AXIS_BOTTOM, data->x.kind, data->x.lo, data->x.hi, data->x_title);
  p->x.fixed = g_array_copy (data->x_ticks);
  p->x.format = threads_tick;
  p->x.format_data = data->shapes;
  _ws_axis_init (&p->y, WS_AXIS_LEFT, data->y.kind, data->y.lo, data->y.hi, data->y_title);
  p->y.format = time_tick;
  p->y.format_data = (gpointer) data;
  _ws_axis_init (&p->right, WS_AXIS_RIGHT, WS_SCALE_LINEAR, data->right.lo, data->right.hi,
                 _("Theoretical occupancy"));
  p->right.fixed = g_array_new (FALSE, FALSE, sizeof (double));
  for (double v = 0; v <= 1.0001; v += 0.25)
    g_array_append_val (p->right.fixed, v);
  p->right.format = percent_tick;
  p->right.no_grid = TRUE;
  p->right.color = &ctx->theme->series[2];
  _ws_plot_layout (ctx, content, &p->x, &p->y, &p->right, &p->plot);
  _ws_placer_init (&p->placer);
  _ws_mark_set_init (&p->marks);
}

static void
plot_clear (Plot *p)
{
  _ws_placer_clear (&p->placer);
  _ws_mark_set_clear (&p->marks);
  _ws_axis_clear (&p->x);
  _ws_axis_clear (&p->y);
  _ws_axis_clear (&p->right);
}

static void
keep_clear (WsChartContext *ctx, Plot *p, double px, double py)
{
  WsRect r = { px - 6 * ctx->unit, py - 6 * ctx->unit, 12 * ctx->unit, 12 * ctx->unit };

  g_array_append_val (p->placer.rects, r);
}

static void
clip_to_plot (cairo_t *cr, const Plot *p)
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
draw_shading (WsChartContext *ctx, const WsBlocksData *data, const Plot *p, GArray *curve)
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

/* Occupancy on the right-hand axis: a dashed line with a square at each configuration. */
static void
draw_occupancy (WsChartContext *ctx, Plot *p, GArray *curve)
{
  cairo_t *cr = ctx->cr;
  const WsColor *color = &ctx->theme->series[2];
  double dash[] = { 4 * ctx->unit, 3 * ctx->unit };
  gboolean started = FALSE;

  clip_to_plot (cr, p);
  cairo_set_dash (cr, dash, 2, 0);
  _ws_set_color (cr, color);
  cairo_set_line_width (cr, ctx->theme->line_width);
  for (guint i = 0; i < curve->len; i++)
    {
      const WsBlocksVertex *v = &g_array_index (curve, WsBlocksVertex, i);
      double px = _ws_scale_map (&p->x.scale, v->tpb);
      double py = _ws_scale_map (&p->right.scale, v->occupancy);

      if (isnan (v->occupancy))
        continue;
      if (!started)
        cairo_move_to (cr, px, py);
      else
        cairo_line_to (cr, px, py);
      started = TRUE;
    }
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  for (guint i = 0; i < curve->len; i++)
    {
      const WsBlocksVertex *v = &g_array_index (curve, WsBlocksVertex, i);
      double px = _ws_scale_map (&p->x.scale, v->tpb);
      double py = _ws_scale_map (&p->right.scale, v->occupancy);

      if (isnan (v->occupancy))
        continue;
      _ws_draw_marker (ctx, WS_MARKER_SQUARE, px, py, 5 * ctx->unit, &ctx->theme->background,
                       color);
      keep_clear (ctx, p, px, py);
    }
  cairo_restore (cr);
}

/* Many configurations: the spread as a band between the launches' min and max. */
static void
draw_band (WsChartContext *ctx, const Plot *p, const WsBlocksSeries *s)
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
draw_line (WsChartContext *ctx, const Plot *p, const WsBlocksSeries *s)
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

static void
draw_whisker (WsChartContext *ctx, const Plot *p, const WsBlocksPoint *pt, double px,
              const WsColor *color)
{
  cairo_t *cr = ctx->cr;
  double y0 = _ws_scale_map (&p->y.scale, pt->lo), y1 = _ws_scale_map (&p->y.scale, pt->hi);
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

/* Each configuration once: its whiskers, a circle (the fastest gets a star later), a ring
 * when tied with the fastest. */
static void
draw_points (WsChartContext *ctx, Plot *p, const WsBlocksSeries *s, guint index)
{
  cairo_t *cr = ctx->cr;

  for (guint i = 0; i < s->points->len; i++)
    {
      const WsBlocksPoint *pt = &g_array_index (s->points, WsBlocksPoint, i);
      double px = _ws_scale_map (&p->x.scale, pt->tpb), py = _ws_scale_map (&p->y.scale, pt->value);
      guint tag = (index % 1024) * 4;

      if (!(pt->value > 0))
        continue;
      if (!s->band && pt->whisker
          && (_ws_mark_set_add (&p->marks, px, _ws_scale_map (&p->y.scale, pt->lo), tag + 1)
              || _ws_mark_set_add (&p->marks, px, _ws_scale_map (&p->y.scale, pt->hi), tag + 2)))
        draw_whisker (ctx, p, pt, px, &s->color);
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
draw_series (WsChartContext *ctx, Plot *p, const WsBlocksSeries *s, guint index)
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
draw_best (WsChartContext *ctx, Plot *p, const WsBlocksSeries *s)
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
  Plot p;

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
  draw_occupancy (ctx, &p, main_series->curve);
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
  plot_clear (&p);
}

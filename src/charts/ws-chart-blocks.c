/* ws-chart-blocks.c: what the block-size chart shows, collected from either source of runs (a
 * sweep's series, or a traced program swept over its own parameter): kernel time against
 * threads per block with its spread, theoretical occupancy for a second axis, which
 * configurations are under-occupied, the best configuration and those tied with it, the legend
 * and the axes' domains. Sweeps over 2D block shapes become a heatmap (ws-chart-heatmap.c); the
 * drawing is in ws-chart-blocks-draw.c.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ws-analysis.h"
#include "ws-chart-blocks-private.h"
#include "ws-chart-format-private.h"
#include "ws-trace-command.h"
#include "ws-trace.h"

/* One vertex per threads-per-block value: the median time and occupancy of the points there,
 * and the widest spread. Points come sorted by threads per block. */
static GArray *
curve_of (GArray *points)
{
  GArray *curve = g_array_new (FALSE, FALSE, sizeof (WsBlocksVertex));
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) occupancies = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) achieved = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < points->len;)
    {
      double tpb = g_array_index (points, WsBlocksPoint, i).tpb;
      WsBlocksVertex v = { tpb, NAN, NAN, NAN, NAN, NAN };

      g_array_set_size (values, 0);
      g_array_set_size (occupancies, 0);
      g_array_set_size (achieved, 0);
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
          if (!isnan (p->achieved))
            g_array_append_val (achieved, p->achieved);
        }
      v.value = _ws_median (values);
      v.occupancy = _ws_median (occupancies);
      v.achieved = _ws_median (achieved);
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

char *
_ws_blocks_best_text (const char *kernel, const char *shape, double ns, guint n_tied)
{
  g_autofree char *dur = ws_units_duration (ns);
  g_autofree char *what = kernel != NULL ? g_strdup_printf ("%s: ", kernel) : g_strdup ("");

  if (n_tied > 1)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "%sfastest: %s, %s (%u more within its spread)",
                                         "%sfastest: %s, %s (%u more within its spread)",
                                         n_tied - 1),
                            what, shape, dur, n_tied - 1);
  return g_strdup_printf (_("%sfastest: %s, %s"), what, shape, dur);
}

static char *
best_text (WsRun *best, guint n_tied, gboolean name_kernel)
{
  g_autofree char *shape = ws_run_dup_block_phrase (best);

  return _ws_blocks_best_text (name_kernel ? ws_run_get_config (best)->kernel : NULL, shape,
                               ws_run_get_kernel_ns (best), n_tied);
}

/* A series of `points` (WsBlocksPoint by threads per block, taken), whichever source gave
 * them; the source marks the fastest. */
static WsBlocksSeries *
series_new (const char *kernel, guint session, const WsColor *color, GArray *points)
{
  WsBlocksSeries *s = g_new0 (WsBlocksSeries, 1);

  s->kernel = g_strdup (kernel);
  s->session = session;
  s->color = *color;
  s->band = points->len > 8;
  s->points = points;
  s->curve = curve_of (s->points);
  return s;
}

/* ---- a sweep's runs ---------------------------------------------------------------------- */

/* The points of a series; for the session's own, its fastest and those tied with it. */
static WsBlocksSeries *
collect_series (WsSeries *series, guint session, const WsColor *color, gboolean rank,
                gboolean name_kernel)
{
  WsBlocksSeries *s;
  GArray *points = g_array_new (FALSE, FALSE, sizeof (WsBlocksPoint));
  g_autoptr (GPtrArray) tied = g_ptr_array_new ();
  WsRun *best = rank ? ws_analysis_rank_blocks (series, tied) : NULL;

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
      p.achieved = ws_counters_get (ws_run_get_counters (run), "achieved_occupancy") / 100;
      p.best = run == best;
      p.tied = best != NULL && g_ptr_array_find (tied, run, NULL);
      g_array_append_val (points, p);
    }
  s = series_new (series->kernel, session, color, points);
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

static void
collect_legend (WsBlocksData *data, GPtrArray *sessions, const WsTheme *theme)
{
  const WsBlocksSeries *main_series = g_ptr_array_index (data->series, 0);
  gboolean under = FALSE, ties = FALSE, measured = FALSE;
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
  for (guint i = 0; i < main_series->points->len; i++)
    measured |= !isnan (g_array_index (main_series->points, WsBlocksPoint, i).achieved);
  data->measured = measured;
  if (measured)
    _ws_legend_add (&data->legend, _("achieved occupancy, measured (right axis)"),
                    &theme->series[2], WS_LEGEND_LINE, WS_MARKER_SQUARE);
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
  g_array_sort (sorted, _ws_compare_double);
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

static void
collect_axes (WsBlocksData *data)
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

/* A sweep's series: the title, the notes and either the heatmap (FALSE: nothing more to
 * collect) or the series, the shapes of 2D blocks and the axis' title. */
static gboolean
sweep_source (WsBlocksData *data, GPtrArray *sessions, GPtrArray *picked, gboolean heatmap,
              const WsChartBase *base)
{
  WsSession *session = g_ptr_array_index (sessions, 0);

  data->frame.title = blocks_title (picked);
  if (base->annotate)
    _ws_chart_frame_add_notes (&data->frame, session,
                               ((WsSeries *) g_ptr_array_index (picked, 0))->runs, base->audience);
  if (heatmap)
    {
      data->heatmap = _ws_heatmap_collect (session, g_ptr_array_index (picked, 0), base->theme);
      return FALSE;
    }
  collect_all_series (data, sessions, picked, base);
  collect_shapes (data, picked);
  return TRUE;
}

/* ---- a traced program's runs ------------------------------------------------------------- */

static int
compare_points (gconstpointer a, gconstpointer b)
{
  const WsBlocksPoint *x = a, *y = b;

  return x->tpb < y->tpb ? -1 : x->tpb > y->tpb;
}

/* Two block sizes at least: something to compare. */
static gboolean
is_sweep (const WsTraceSeries *series)
{
  for (guint i = 1; i < series->points->len; i++)
    if (ws_trace_kernel_threads (g_ptr_array_index (series->points, i))
        != ws_trace_kernel_threads (g_ptr_array_index (series->points, 0)))
      return TRUE;
  return FALSE;
}

gboolean
_ws_blocks_trace_has_sweep (WsSession *session)
{
  WsTrace *trace = ws_session_get_trace (session);
  g_autoptr (GPtrArray) all = NULL;

  if (trace == NULL)
    return FALSE;
  all = ws_trace_collect_series (trace);
  for (guint i = 0; i < all->len; i++)
    if (is_sweep (g_ptr_array_index (all, i)))
      return TRUE;
  return FALSE;
}

static char *
program_best_text (const WsTraceKernel *best, guint n_tied, gboolean name_kernel,
                   WsTrace *trace)
{
  g_autofree char *block = ws_trace_format_dims (best->block);
  const WsTraceProgram *p = ws_trace_get_program (trace, best->program);
  g_autofree char *params = p != NULL ? ws_trace_describe_params (p) : g_strdup ("");
  /* TRANSLATORS: the block of the fastest run, then the sweep's values that gave it:
   * "block 256 (TPB=256)" */
  g_autofree char *shape = *params ? g_strdup_printf (_("block %s (%s)"), block, params)
                                   : g_strdup_printf (_("block %s"), block);

  return _ws_blocks_best_text (name_kernel ? best->short_name : NULL, shape, best->median_ns,
                               n_tied);
}

/* A kernel's configuration in each program run (its most time-consuming one there) at the
 * run's threads per block; the fastest marked, and those whose fastest launch beats its
 * slowest as tied. */
static WsBlocksSeries *
program_series (const WsTraceSeries *t, const WsColor *color, gboolean name_kernel,
                WsTrace *trace)
{
  WsBlocksSeries *s;
  GArray *points = g_array_new (FALSE, FALSE, sizeof (WsBlocksPoint));
  const WsTraceKernel *best = NULL;
  guint n_tied = 0;

  for (guint i = 0; i < t->points->len; i++)
    {
      const WsTraceKernel *k = g_ptr_array_index (t->points, i);

      if (best == NULL || k->median_ns < best->median_ns)
        best = k;
    }
  for (guint i = 0; i < t->points->len; i++)
    {
      const WsTraceKernel *k = g_ptr_array_index (t->points, i);
      WsBlocksPoint p = { (int) k->program, ws_trace_kernel_threads (k), k->median_ns,
                          k->min_ns, k->max_ns };

      p.whisker = k->count > 1;
      p.occupancy = k->has_occupancy ? k->occupancy.occupancy : NAN;
      /* A traced kernel's counters are not read yet. */
      p.achieved = NAN;
      p.best = k == best;
      /* Within the fastest one's spread: the launches overlap. */
      p.tied = best != NULL && k->min_ns <= best->max_ns;
      n_tied += p.tied;
      g_array_append_val (points, p);
    }
  g_array_sort (points, compare_points);
  s = series_new (t->short_name, 0, color, points);
  s->n_tied = n_tied;
  if (best != NULL)
    {
      s->best = (int) best->program;
      s->n_tied = MAX (s->n_tied, 1);
      s->best_text = program_best_text (best, s->n_tied, name_kernel, trace);
    }
  return s;
}

/* A traced program swept over its own parameter (warpscope-cli trace --sweep TPB=…): each
 * kernel run at several block sizes is a series; FALSE when there is none. */
static gboolean
program_source (WsBlocksData *data, WsSession *session, const WsChartBase *base)
{
  WsTrace *trace = ws_session_get_trace (session);
  g_autoptr (GPtrArray) all = trace != NULL ? ws_trace_collect_series (trace) : NULL;
  g_autoptr (GPtrArray) swept = g_ptr_array_new ();
  g_autoptr (GString) kernels = g_string_new (NULL);

  for (guint i = 0; all != NULL && i < all->len; i++)
    if (is_sweep (g_ptr_array_index (all, i)))
      g_ptr_array_add (swept, g_ptr_array_index (all, i));
  if (swept->len == 0)
    return FALSE;
  for (guint i = 0; i < swept->len; i++)
    {
      const WsTraceSeries *t = g_ptr_array_index (swept, i);

      g_ptr_array_add (data->series,
                       program_series (t, &base->theme->series[i % 8], swept->len > 1, trace));
      if (kernels->len < 80)
        g_string_append_printf (kernels, "%s%s", kernels->len ? ", " : "", t->short_name);
    }
  data->n_main = data->series->len;
  /* TRANSLATORS: "Block size · add_kernel, a traced program swept" */
  data->frame.title = g_strdup_printf (_("%s · %s, a traced program's sweep"),
                                       ws_chart_kind_title (WS_CHART_BLOCKS), kernels->str);
  data->x_title = _("Threads per block");
  return TRUE;
}

/* ---- the data, from either --------------------------------------------------------------- */

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
  if (picked->len > 0)
    {
      if (!sweep_source (data, sessions, picked, heatmap, base))
        return data;
    }
  else if (session == NULL || !program_source (data, session, base))
    {
      data->frame.title = g_strdup (ws_chart_kind_title (WS_CHART_BLOCKS));
      data->frame.message = g_strdup (_ws_blocks_no_sweep_message (session, base->audience));
      return data;
    }
  collect_legend (data, sessions, base->theme);
  collect_axes (data);
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

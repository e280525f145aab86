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
#include "ws-chart-axes-private.h"
#include "ws-chart-format-private.h"
#include "ws-chart-frame-private.h"
#include "ws-chart-private.h"
#include "ws-chart-shapes-private.h"

typedef struct
{
  WsSession *session;
  WsSeries *series;
  WsColor color;
  char *label;
} Group;

static void
group_free (Group *g)
{
  g_free (g->label);
  g_free (g);
}

static gboolean
is_default_block (WsSession *session, WsSeries *series)
{
  JsonObject *kernel = ws_session_get_kernel (session, series->kernel);
  const WsRunConfig *c = ws_run_get_config (g_ptr_array_index (series->runs, 0));
  JsonArray *block;

  if (kernel == NULL || !json_object_has_member (kernel, "default_block"))
    return FALSE;
  block = json_object_get_array_member (kernel, "default_block");
  if (block == NULL)
    return FALSE;
  for (guint i = 0; i < MIN (3, json_array_get_length (block)); i++)
    if ((guint) json_array_get_int_element (block, i) != c->block[i])
      return FALSE;
  return TRUE;
}

static gboolean
series_has (WsSeries *series, int id)
{
  for (guint i = 0; id != 0 && i < series->runs->len; i++)
    if (ws_run_get_id (g_ptr_array_index (series->runs, i)) == id)
      return TRUE;
  return FALSE;
}

GPtrArray *
_ws_speedup_pick_series (WsSession *session, const WsChartOptions *options)
{
  g_autoptr (GPtrArray) all = ws_session_get_series (session, WS_SERIES_BY_SIZE, 2);
  GPtrArray *picked = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_series_free);

  for (guint i = 0; i < all->len; i++)
    {
      WsSeries *s = g_ptr_array_index (all, i);
      gboolean keep;

      if (options->run != 0)
        keep = series_has (s, options->run) || series_has (s, options->compare_run);
      else
        {
          /* Several block shapes of one kernel over the same sizes would be a tangle of
           * lines: the kernel's default block stands for them, else the series with most
           * runs. Transfer modes are kept apart: they are what the dashed lines compare. */
          keep = TRUE;
          for (guint j = 0; j < all->len && keep; j++)
            {
              WsSeries *o = g_ptr_array_index (all, j);
              gboolean s_def, o_def;

              if (j == i || g_strcmp0 (o->kernel, s->kernel) != 0
                  || g_strcmp0 (o->transfer, s->transfer) != 0)
                continue;
              s_def = is_default_block (session, s);
              o_def = is_default_block (session, o);
              if (o_def != s_def)
                keep = s_def;
              else if (o->runs->len != s->runs->len)
                keep = s->runs->len > o->runs->len;
              else
                keep = i < j;
            }
        }
      if (keep)
        g_ptr_array_add (picked, g_ptr_array_steal_index (all, i--));
    }
  return picked;
}

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
}

static char *
speedup_label (double value, double step, gpointer data)
{
  g_autofree char *v = _ws_format_log_tick (value);

  return g_strdup_printf ("%s×", v);
}

static char *
size_label (double value, double step, gpointer data)
{
  return _ws_format_count (value);
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static int
cpu_threads (GPtrArray *groups)
{
  for (guint g = 0; g < groups->len; g++)
    {
      Group *group = g_ptr_array_index (groups, g);

      for (guint i = 0; i < group->series->runs->len; i++)
        {
          const WsTiming *t = ws_run_get_timing (g_ptr_array_index (group->series->runs, i));

          if (t && t->cpu_all.threads > 0)
            return t->cpu_all.threads;
        }
    }
  return 0;
}

static void
draw_curve (WsChartContext *ctx, const WsRect *plot, WsAxis *x, WsAxis *y, Group *group,
            gboolean all_cores, gboolean e2e, gboolean *any, WsPlacer *placer)
{
  cairo_t *cr = ctx->cr;
  WsColor color = all_cores ? group->color
                            : _ws_color_mix (&group->color, &ctx->theme->background, 0.3);
  gboolean started = FALSE;
  double dash[] = { 7 * ctx->unit, 4 * ctx->unit };
  GPtrArray *runs = group->series->runs;

  cairo_save (cr);
  cairo_rectangle (cr, plot->x, plot->y, plot->width, plot->height);
  cairo_clip (cr);
  cairo_set_line_width (cr, ctx->theme->line_width * (all_cores ? 1.3 : 1.0));
  _ws_set_color (cr, &color);
  if (e2e)
    cairo_set_dash (cr, dash, 2, 0);
  for (guint i = 0; i < runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (runs, i);
      double s = ws_run_get_speedup (run, all_cores, e2e);

      if (!(s > 0) || !isfinite (s))
        continue;
      if (started)
        cairo_line_to (cr, _ws_scale_map (&x->scale, ws_run_get_config (run)->size),
                       _ws_scale_map (&y->scale, s));
      else
        cairo_move_to (cr, _ws_scale_map (&x->scale, ws_run_get_config (run)->size),
                       _ws_scale_map (&y->scale, s));
      started = TRUE;
    }
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);

  for (guint i = 0; i < runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (runs, i);
      double s = ws_run_get_speedup (run, all_cores, e2e), lo, hi;
      double px, py, cap = 3 * ctx->unit;

      if (!(s > 0) || !isfinite (s))
        continue;
      *any = TRUE;
      px = _ws_scale_map (&x->scale, ws_run_get_config (run)->size);
      py = _ws_scale_map (&y->scale, s);
      spread (run, all_cores, e2e, s, &lo, &hi);
      if (hi > lo * 1.0001)
        {
          double y0 = _ws_scale_map (&y->scale, lo), y1 = _ws_scale_map (&y->scale, hi);

          cairo_set_line_width (cr, 1.2 * ctx->unit);
          _ws_set_color (cr, &color);
          cairo_move_to (cr, px, y0);
          cairo_line_to (cr, px, y1);
          cairo_move_to (cr, px - cap, y0);
          cairo_line_to (cr, px + cap, y0);
          cairo_move_to (cr, px - cap, y1);
          cairo_line_to (cr, px + cap, y1);
          cairo_stroke (cr);
        }
      _ws_draw_marker (ctx, all_cores ? WS_MARKER_SQUARE : WS_MARKER_CIRCLE, px, py,
                       7 * ctx->unit, e2e ? &ctx->theme->background : &color, &color);
      {
        /* Labels placed later keep off the points. */
        WsRect r = { px - 5 * ctx->unit, py - 5 * ctx->unit, 10 * ctx->unit, 10 * ctx->unit };

        g_array_append_val (placer->rects, r);
      }
    }
  cairo_restore (cr);
}

static void
draw_crossovers (WsChartContext *ctx, const WsRect *plot, WsAxis *x, WsAxis *y, GPtrArray *groups,
                 WsPlacer *placer, int threads)
{
  cairo_t *cr = ctx->cr;
  double y1 = _ws_scale_map (&y->scale, 1);

  for (guint g = 0; g < groups->len; g++)
    {
      Group *group = g_ptr_array_index (groups, g);

      for (int combo = 3; combo >= 0; combo--)
        {
          gboolean all_cores = combo & 1, e2e = combo >> 1;
          double size, px;

          if (!ws_analysis_find_crossover (group->series, all_cores, e2e, &size) || !(size > 0))
            continue;
          px = _ws_scale_map (&x->scale, size);
          if (px < plot->x || px > plot->x + plot->width)
            continue;
          cairo_save (cr);
          {
            double dash[] = { 2 * ctx->unit, 3 * ctx->unit };

            cairo_set_dash (cr, dash, 2, 0);
            cairo_set_line_width (cr, 1 * ctx->unit);
            _ws_set_color (cr, &group->color);
            cairo_move_to (cr, px, y1);
            cairo_line_to (cr, px, plot->y + plot->height);
            cairo_stroke (cr);
          }
          cairo_restore (cr);
          _ws_draw_marker (ctx, WS_MARKER_DIAMOND, px, y1, 9 * ctx->unit, &group->color,
                           &ctx->theme->foreground);
          {
            g_autofree char *n = _ws_format_count_approx (size);
            g_autofree char *vs = all_cores
                                      ? g_strdup_printf (_("%d cores"), threads)
                                      : g_strdup (_("1 thread"));
            g_autofree char *text = g_strdup_printf (_("GPU faster above n ≈ %s (%s, vs %s)"), n,
                                                     e2e ? _("with copies") : _("kernel only"),
                                                     vs);
            WsColor ink = _ws_color_readable (ctx->theme, &group->color);
            double w, h;

            _ws_text_extent (ctx, WS_FONT_SMALL, text, &w, &h);
            /* Below the 1× line first (where the CPU wins), then above it. */
            for (int attempt = 0; attempt < 6; attempt++)
              {
                double dy = (attempt / 2 + 1) * 1.2 * h * (attempt % 2 ? -1 : 1);
                WsRect r = { px + 4 * ctx->unit, y1 + dy - h / 2, w, h };

                if (r.x + r.width > plot->x + plot->width)
                  r.x = px - 4 * ctx->unit - w;
                if (r.y < plot->y || r.y + r.height > plot->y + plot->height
                    || r.x < plot->x)
                  continue;
                if (_ws_placer_try (placer, &r))
                  {
                    _ws_draw_halo (ctx, r.x - 2, r.y, r.width + 4, r.height, 0.85);
                    _ws_text_show (ctx, WS_FONT_SMALL, text, r.x, r.y, 0, 0, &ink);
                    break;
                  }
              }
          }
        }
    }
}

void
_ws_chart_speedup (WsChartContext *ctx, GPtrArray *sessions)
{
  WsSession *main_session = sessions && sessions->len ? g_ptr_array_index (sessions, 0) : NULL;
  g_autoptr (GPtrArray) groups = g_ptr_array_new_with_free_func ((GDestroyNotify) group_free);
  g_autoptr (GPtrArray) owned = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GString) title = g_string_new (ws_chart_kind_title (WS_CHART_SPEEDUP));
  g_autofree char *subtitle = NULL;
  g_autoptr (GArray) sizes = g_array_new (FALSE, FALSE, sizeof (double));
  double xlo = G_MAXDOUBLE, xhi = -G_MAXDOUBLE, ylo = 1, yhi = 1;
  WsRect content, plot;
  WsAxis x, y;
  WsLegendItem items[24];
  guint n_items = 0;
  gboolean any = FALSE;
  int threads, rank = 1;
  WsPlacer placer;
  g_autoptr (GPtrArray) all_runs = g_ptr_array_new ();

  for (guint s = 0; sessions && s < sessions->len; s++)
    {
      WsSession *session = g_ptr_array_index (sessions, s);
      GPtrArray *picked = _ws_speedup_pick_series (session, ctx->options);
      WsDevice *device = ws_session_get_device (session);

      g_ptr_array_add (owned, picked);
      for (guint i = 0; i < picked->len; i++)
        {
          Group *g = g_new0 (Group, 1);

          g->session = session;
          g->series = g_ptr_array_index (picked, i);
          g->color = ctx->theme->series[groups->len % 8];
          g->label = sessions->len > 1 && device
                         ? g_strdup_printf ("%s · %s", ws_device_get_name (device),
                                            g->series->label)
                         : g_strdup (g->series->label);
          g_ptr_array_add (groups, g);
          for (guint r = 0; r < g->series->runs->len; r++)
            {
              WsRun *run = g_ptr_array_index (g->series->runs, r);
              double size = ws_run_get_config (run)->size;
              gboolean known = FALSE;

              rank = ws_run_get_config (run)->shape_rank;
              if (s == 0)
                g_ptr_array_add (all_runs, run);
              if (_ws_range_update (size, TRUE, &xlo, &xhi))
                {
                  for (guint k = 0; k < sizes->len && !known; k++)
                    known = g_array_index (sizes, double, k) == size;
                  if (!known)
                    g_array_append_val (sizes, size);
                }
              for (int combo = 0; combo < 4; combo++)
                {
                  double v = ws_run_get_speedup (run, combo & 1, combo >> 1), lo, hi;

                  if (!(v > 0))
                    continue;
                  spread (run, combo & 1, combo >> 1, v, &lo, &hi);
                  _ws_range_update (lo, TRUE, &ylo, &yhi);
                  _ws_range_update (hi, TRUE, &ylo, &yhi);
                }
            }
        }
    }
  if (groups->len > 0)
    {
      Group *first = g_ptr_array_index (groups, 0);

      g_string_append_printf (title, " · %s", first->series->kernel);
    }
  for (guint g = 1; g < groups->len; g++)
    {
      Group *group = g_ptr_array_index (groups, g);

      if (!strstr (title->str, group->series->kernel))
        g_string_append_printf (title, ", %s", group->series->kernel);
    }
  if (sessions && sessions->len > 1)
    {
      GString *devices = g_string_new (NULL);

      for (guint s = 0; s < sessions->len; s++)
        {
          WsDevice *d = ws_session_get_device (g_ptr_array_index (sessions, s));

          g_string_append_printf (devices, "%s%s", s ? _(" vs ") : "",
                                  d ? ws_device_get_name (d) : _("unknown GPU"));
        }
      subtitle = g_string_free (devices, FALSE);
    }
  else
    subtitle = _ws_chart_subtitle (main_session, NULL);
  _ws_chart_frame (ctx, title->str, subtitle, &content);
  if (groups->len == 0)
    {
      _ws_chart_message (ctx, &content,
                         _("No size sweep to compare with the CPU. Run one kernel over several "
                           "problem sizes with a CPU baseline (--sizes 1e3:1e8:x10 --cpu "
                           "1,all) to see where the GPU starts to win."));
      return;
    }
  threads = cpu_threads (groups);

  /* Legend: the series by colour, then what line and marker styles mean. */
  for (guint g = 0; g < groups->len && n_items < 16; g++)
    {
      Group *group = g_ptr_array_index (groups, g);

      items[n_items++] = (WsLegendItem) { group->label, group->color, WS_LEGEND_LINE, -1 };
    }
  {
    g_autofree char *vs_all = g_strdup_printf (_("vs %d CPU cores"), threads);

    items[n_items++] = (WsLegendItem) { _("kernel only"), ctx->theme->muted, WS_LEGEND_LINE, -1 };
    items[n_items++] = (WsLegendItem) { _("end to end, with copies"), ctx->theme->muted,
                                        WS_LEGEND_DASHED, -1 };
    items[n_items++] = (WsLegendItem) { _("vs 1 CPU thread"), ctx->theme->muted,
                                        WS_LEGEND_MARKER, WS_MARKER_CIRCLE };
    if (threads > 0)
      items[n_items++] = (WsLegendItem) { vs_all, ctx->theme->muted, WS_LEGEND_MARKER,
                                          WS_MARKER_SQUARE };
    {
      double h = _ws_legend_draw (ctx, items, n_items, content.x, content.y, content.width, TRUE);

      content.y += h + 0.4 * ctx->line_height;
      content.height -= h + 0.4 * ctx->line_height;
    }
  }
  _ws_chart_annotate (ctx, main_session, all_runs, WS_CHART_PLOT_KEEP (ctx), &content);

  _ws_axis_init (&x, WS_AXIS_BOTTOM, WS_SCALE_LOG, xlo, xhi,
                 rank == 3 ? _("Matrix size n (n×n matrices; log scale)")
                           : _("Problem size n (elements; log scale)"));
  _ws_scale_pad (&x.scale, 0.06);
  x.format = size_label;
  if (sizes->len <= 14)
    {
      g_array_sort (sizes, compare_double);
      x.fixed = g_array_ref (sizes);
    }
  _ws_axis_init (&y, WS_AXIS_LEFT, WS_SCALE_LOG, ylo, yhi,
                 _("Speedup over the CPU (×, log scale)"));
  _ws_scale_pad (&y.scale, 0.08);
  y.format = speedup_label;
  _ws_plot_layout (ctx, &content, &x, &y, NULL, &plot);
  _ws_axis_draw_grid (ctx, &x, &plot);
  _ws_axis_draw_grid (ctx, &y, &plot);

  /* The 1× line: above it the GPU wins. */
  {
    double y1 = _ws_scale_map (&y.scale, 1);
    cairo_t *cr = ctx->cr;

    cairo_save (cr);
    _ws_set_color (cr, &ctx->theme->foreground);
    cairo_set_line_width (cr, 1.5 * ctx->unit);
    cairo_move_to (cr, plot.x, y1);
    cairo_line_to (cr, plot.x + plot.width, y1);
    cairo_stroke (cr);
    cairo_restore (cr);
  }
  _ws_placer_init (&placer);
  for (guint g = 0; g < groups->len; g++)
    for (int combo = 0; combo < 4; combo++)
      draw_curve (ctx, &plot, &x, &y, g_ptr_array_index (groups, g), combo & 1, combo >> 1, &any,
                  &placer);
  {
    /* "GPU faster" above the line and "CPU faster" below, where no point is: the right end,
     * else the left, else somewhere between. */
    double y1 = _ws_scale_map (&y.scale, 1);
    const char *up = _("↑ GPU faster"), *down = _("↓ CPU faster");
    double w = MAX (_ws_text_width (ctx, WS_FONT_SMALL, up),
                    _ws_text_width (ctx, WS_FONT_SMALL, down));
    double h = ctx->small_height;
    const double where[] = { 1.0, 0.0, 0.5, 0.25, 0.75 };

    for (guint i = 0; i < G_N_ELEMENTS (where); i++)
      {
        double x0 = plot.x + 4 * ctx->unit + where[i] * (plot.width - w - 8 * ctx->unit);
        WsRect r = { x0, y1 - h - 3 * ctx->unit, w, 2 * h + 6 * ctx->unit };

        if (y1 < plot.y + h || y1 > plot.y + plot.height - h)
          break;
        if (_ws_placer_try (&placer, &r))
          {
            _ws_text_show (ctx, WS_FONT_SMALL, up, x0, y1 - 3 * ctx->unit, 0, 1,
                           &ctx->theme->muted);
            _ws_text_show (ctx, WS_FONT_SMALL, down, x0, y1 + 3 * ctx->unit, 0, 0,
                           &ctx->theme->muted);
            break;
          }
      }
  }
  draw_crossovers (ctx, &plot, &x, &y, groups, &placer, threads);
  _ws_placer_clear (&placer);
  _ws_axis_draw (ctx, &x, &plot);
  _ws_axis_draw (ctx, &y, &plot);
  if (!any)
    _ws_chart_message (ctx, &plot,
                       _("These runs have no CPU baseline to compare with: run with --cpu 1,all."));
  _ws_axis_clear (&x);
  _ws_axis_clear (&y);
}

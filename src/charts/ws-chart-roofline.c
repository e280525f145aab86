/* ws-chart-roofline.c: kernels placed by arithmetic intensity (FLOP per byte of the least
 * traffic any kernel needs) and achieved GFLOP/s, under the device's measured memory
 * bandwidth and FP32 peak, with cuBLAS's rate when the session measured it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "ws-chart-axes-private.h"
#include "ws-chart-format-private.h"
#include "ws-chart-frame-private.h"
#include "ws-chart-private.h"
#include "ws-chart-shapes-private.h"

typedef struct
{
  WsRun *run;
  double intensity, gflops;
  guint kernel;  /* colour index */
  guint session; /* marker index */
} Point;

static char *
log_tick (double value, double step, gpointer data)
{
  return _ws_format_log_tick (value);
}

static gboolean
sizes_share_intensity (GArray *points)
{
  for (guint i = 0; i < points->len; i++)
    for (guint j = i + 1; j < points->len; j++)
      {
        const Point *p = &g_array_index (points, Point, i), *q = &g_array_index (points, Point, j);

        if (p->kernel == q->kernel && fabs (p->intensity - q->intensity) <= 1e-3 * p->intensity
            && ws_run_get_config (p->run)->size != ws_run_get_config (q->run)->size)
          return TRUE;
      }
  return FALSE;
}

static guint
kernel_index (GPtrArray *kernels, const char *name)
{
  for (guint i = 0; i < kernels->len; i++)
    if (g_strcmp0 (g_ptr_array_index (kernels, i), name) == 0)
      return i;
  g_ptr_array_add (kernels, (gpointer) name);
  return kernels->len - 1;
}

/* A label along the segment (x0, y0)–(x1, y1), just above it, where it keeps off the points
 * and other labels: the middle first, then towards either end. */
static void
line_label (WsChartContext *ctx, const char *text, double x0, double y0, double x1, double y1,
            const WsColor *color, WsPlacer *placer)
{
  static const double along[] = { 0.5, 0.35, 0.65, 0.2, 0.8 };
  double angle = atan2 (y1 - y0, x1 - x0);
  double w = _ws_text_width (ctx, WS_FONT_SMALL, text), h = ctx->small_height;
  double len = hypot (x1 - x0, y1 - y0);

  if (w + 2 * ctx->line_height > len)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (along); i++)
    {
      double t = CLAMP (along[i], (w / 2 + ctx->line_height) / len,
                        1 - (w / 2 + ctx->line_height) / len);
      double cx = x0 + (x1 - x0) * t, cy = y0 + (y1 - y0) * t;
      /* The box of the turned text, lifted off the line by its height. */
      double nx = sin (angle), ny = -cos (angle);
      double mx = cx + nx * (h / 2 + 3 * ctx->unit), my = cy + ny * (h / 2 + 3 * ctx->unit);
      double hw = fabs (cos (angle)) * w / 2 + fabs (sin (angle)) * h / 2;
      double hh = fabs (sin (angle)) * w / 2 + fabs (cos (angle)) * h / 2;
      WsRect r = { mx - hw, my - hh, 2 * hw, 2 * hh };

      if (_ws_placer_try (placer, &r))
        {
          _ws_text_show_rotated (ctx, WS_FONT_SMALL, text, cx + nx * 3 * ctx->unit,
                                 cy + ny * 3 * ctx->unit, angle, 0.5, 1, color);
          return;
        }
    }
}

static char *
gbs_tick (double value, double step, gpointer data)
{
  return _ws_format_tick (value, step);
}

/* Kernels that do no arithmetic (a transpose, a copy) have no place on a roofline: their only
 * ceiling is the memory bandwidth, so they get a bar each against it. */
static void
draw_memory_only (WsChartContext *ctx, WsSession *session, GPtrArray *runs, double bw)
{
  g_autoptr (GPtrArray) best = g_ptr_array_new ();
  g_autoptr (GPtrArray) kernels = g_ptr_array_new ();
  g_autoptr (GString) title = g_string_new (ws_chart_kind_title (WS_CHART_ROOFLINE));
  g_autofree char *subtitle = NULL;
  double label_w = 0, gmax = bw, row_h;
  WsRect content, area, plot;
  WsAxis x;
  cairo_t *cr = ctx->cr;

  /* The fastest run of each kernel and size. */
  for (guint i = 0; i < runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (runs, i);
      const WsRunConfig *c = ws_run_get_config (run);
      gboolean replaced = FALSE, seen = FALSE;

      for (guint j = 0; j < best->len && !seen; j++)
        {
          WsRun *other = g_ptr_array_index (best, j);
          const WsRunConfig *o = ws_run_get_config (other);

          if (g_strcmp0 (o->kernel, c->kernel) == 0 && o->size == c->size)
            {
              seen = TRUE;
              if (ws_run_get_kernel_ns (run) < ws_run_get_kernel_ns (other))
                {
                  g_ptr_array_index (best, j) = run;
                  replaced = TRUE;
                }
            }
        }
      if (!seen && !replaced)
        g_ptr_array_add (best, run);
      if (!strstr (title->str, c->kernel))
        g_string_append_printf (title, "%s%s", i == 0 ? " · " : ", ", c->kernel);
      gmax = MAX (gmax, c->bytes / ws_run_get_kernel_ns (run));
    }
  subtitle = _ws_chart_subtitle (session, _("no arithmetic: memory bandwidth is the only ceiling"));
  _ws_chart_frame (ctx, title->str, subtitle, &content);
  _ws_chart_annotate (ctx, session, runs, WS_CHART_PLOT_KEEP (ctx), &content);
  for (guint i = 0; i < best->len; i++)
    {
      WsRun *run = g_ptr_array_index (best, i);
      g_autofree char *size = _ws_chart_dup_size_label (run);
      g_autofree char *label = g_strdup_printf ("%s, %s", ws_run_get_config (run)->kernel, size);

      label_w = MAX (label_w, _ws_text_width (ctx, WS_FONT_NORMAL, label));
    }
  label_w = MIN (label_w + ctx->line_height, content.width * 0.4);
  area = (WsRect) { content.x + label_w, content.y, content.width - label_w, content.height };
  _ws_axis_init (&x, WS_AXIS_BOTTOM, WS_SCALE_LINEAR, 0, gmax * 1.08,
                 _("Achieved bandwidth (GB/s of the least traffic: each byte read once, written "
                   "once)"));
  x.format = gbs_tick;
  _ws_plot_layout (ctx, &area, &x, NULL, NULL, &plot);
  plot.x = area.x;
  plot.width = area.width - ctx->line_height;
  x.scale.p0 = plot.x;
  x.scale.p1 = plot.x + plot.width;
  _ws_axis_compute_ticks (ctx, &x);
  row_h = MIN (4 * ctx->line_height, plot.height / MAX (best->len, 1));
  _ws_axis_draw_grid (ctx, &x, &plot);
  for (guint i = 0; i < best->len; i++)
    {
      WsRun *run = g_ptr_array_index (best, i);
      const WsRunConfig *c = ws_run_get_config (run);
      double gbs = c->bytes / ws_run_get_kernel_ns (run);
      double y = plot.y + i * row_h + row_h * 0.15, h = row_h * 0.7;
      double x1 = _ws_scale_map (&x.scale, gbs);
      g_autofree char *size = _ws_chart_dup_size_label (run);
      g_autofree char *label = g_strdup_printf ("%s, %s", c->kernel, size);
      g_autofree char *rate = _ws_format_gbs (gbs);
      g_autofree char *share = bw > 0 ? _ws_format_percent (gbs / bw) : NULL;
      g_autofree char *value = share ? g_strdup_printf (_("%s, %s of the copy bandwidth"), rate,
                                                        share)
                                     : g_strdup (rate);
      /* One colour per kernel, as on the roofline. */
      WsColor color = ctx->theme->series[kernel_index (kernels, c->kernel) % 8];
      double w = _ws_text_width (ctx, WS_FONT_SMALL, value);

      cairo_rectangle (cr, plot.x, y, MAX (x1 - plot.x, 1), h);
      _ws_fill_shape (ctx, &color);
      _ws_text_show (ctx, WS_FONT_NORMAL, label, plot.x - 0.5 * ctx->line_height, y + h / 2, 1,
                     0.5, &ctx->theme->foreground);
      if (x1 - plot.x > w + 12 * ctx->unit)
        {
          WsColor ink = _ws_color_text_on (&color);

          _ws_text_show (ctx, WS_FONT_SMALL, value, x1 - 6 * ctx->unit, y + h / 2, 1, 0.5, &ink);
        }
      else
        _ws_text_show (ctx, WS_FONT_SMALL, value, x1 + 6 * ctx->unit, y + h / 2, 0, 0.5,
                       &ctx->theme->foreground);
    }
  if (bw > 0)
    {
      double xb = _ws_scale_map (&x.scale, bw);
      g_autofree char *v = _ws_format_gbs (bw);
      g_autofree char *t = g_strdup_printf (_("measured copy bandwidth: %s"), v);
      double dash[] = { 6 * ctx->unit, 4 * ctx->unit };

      cairo_save (cr);
      cairo_set_dash (cr, dash, 2, 0);
      _ws_set_color (cr, &ctx->theme->foreground);
      cairo_set_line_width (cr, ctx->theme->line_width * 1.3);
      cairo_move_to (cr, xb, plot.y);
      cairo_line_to (cr, xb, plot.y + plot.height);
      cairo_stroke (cr);
      cairo_restore (cr);
      _ws_text_show (ctx, WS_FONT_SMALL, t, xb - 4 * ctx->unit, plot.y + plot.height - 4,
                     1, 1, &ctx->theme->foreground);
    }
  _ws_axis_draw (ctx, &x, &plot);
  _ws_axis_clear (&x);
}

void
_ws_chart_roofline (WsChartContext *ctx, GPtrArray *sessions)
{
  WsSession *session = sessions && sessions->len ? g_ptr_array_index (sessions, 0) : NULL;
  WsDevice *device = session ? ws_session_get_device (session) : NULL;
  const WsDeviceInfo *info = device ? ws_device_get_info (device) : NULL;
  g_autoptr (GArray) points = g_array_new (FALSE, FALSE, sizeof (Point));
  g_autoptr (GPtrArray) kernels = g_ptr_array_new ();
  g_autoptr (GPtrArray) shown_runs = g_ptr_array_new ();
  g_autoptr (GPtrArray) memory_only = g_ptr_array_new ();
  g_autoptr (GPtrArray) all_refs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *subtitle = NULL, *title = NULL;
  double bw = 0, peak = 0, cublas = 0;
  double xlo = G_MAXDOUBLE, xhi = -G_MAXDOUBLE, ylo = G_MAXDOUBLE, yhi = -G_MAXDOUBLE;
  WsRect content, plot;
  WsAxis x, y;
  WsLegendItem items[16];
  guint n_items = 0;
  WsPlacer placer;
  cairo_t *cr = ctx->cr;

  if (info)
    {
      bw = info->bandwidth_measured_gbs > 0 ? info->bandwidth_measured_gbs
                                            : info->bandwidth_theoretical_gbs;
      peak = info->fp32_peak_gflops;
    }
  for (guint s = 0; sessions && s < sessions->len; s++)
    {
      g_autoptr (GPtrArray) runs = _ws_chart_runs (g_ptr_array_index (sessions, s), ctx->base);

      /* Points and memory_only borrow the runs: all_refs keeps them until the end. */
      g_ptr_array_set_free_func (runs, NULL);
      for (guint i = 0; i < runs->len; i++)
        g_ptr_array_add (all_refs, g_ptr_array_index (runs, i));

      for (guint i = 0; i < runs->len; i++)
        {
          WsRun *run = g_ptr_array_index (runs, i);
          const WsRunConfig *c = ws_run_get_config (run);
          double ns = ws_run_get_kernel_ns (run);
          Point p;

          if (s == 0 && !(c->flops > 0) && c->bytes > 0 && ns > 0)
            g_ptr_array_add (memory_only, run);
          if (!(c->flops > 0 && c->bytes > 0 && ns > 0))
            continue;
          p = (Point) { run, c->flops / c->bytes, c->flops / ns, 0, s };
          /* cuBLAS is the ceiling a hand-written SGEMM is compared with, not a point. */
          if (g_strcmp0 (c->kernel, "matmul_cublas") == 0)
            {
              if (s == 0)
                cublas = MAX (cublas, p.gflops);
              continue;
            }
          p.kernel = kernel_index (kernels, c->kernel);
          g_array_append_val (points, p);
          if (s == 0)
            g_ptr_array_add (shown_runs, run);
          _ws_range_update (p.intensity, TRUE, &xlo, &xhi);
          _ws_range_update (p.gflops, TRUE, &ylo, &yhi);
        }
    }

  if (points->len == 0 && memory_only->len > 0)
    {
      draw_memory_only (ctx, session, memory_only, bw);
      return;
    }
  title = points->len && kernels->len
              ? g_strdup_printf ("%s · %s", ws_chart_kind_title (WS_CHART_ROOFLINE),
                                 (const char *) g_ptr_array_index (kernels, 0))
              : g_strdup (ws_chart_kind_title (WS_CHART_ROOFLINE));
  for (guint k = 1; k < kernels->len; k++)
    {
      char *t = g_strdup_printf ("%s, %s", title, (const char *) g_ptr_array_index (kernels, k));

      g_free (title);
      title = t;
    }
  subtitle = _ws_chart_subtitle (session, _("achieved GFLOP/s against the device's ceilings"));
  _ws_chart_frame (ctx, title, subtitle, &content);
  if (points->len == 0)
    {
      _ws_chart_message (ctx, &content,
                         _("No run with a kernel time and its FLOP and byte counts to place on "
                           "the roofline yet."));
      return;
    }

  for (guint k = 0; k < kernels->len && n_items < 8; k++)
    items[n_items++] = (WsLegendItem) { g_ptr_array_index (kernels, k), ctx->theme->series[k % 8],
                                        WS_LEGEND_MARKER, WS_MARKER_CIRCLE };
  for (guint s = 1; sessions && s < sessions->len && n_items < 12; s++)
    {
      WsDevice *d = ws_session_get_device (g_ptr_array_index (sessions, s));

      items[n_items++] = (WsLegendItem) { d ? ws_device_get_name (d) : _("other session"),
                                          ctx->theme->muted, WS_LEGEND_MARKER,
                                          (int) (s % WS_N_MARKERS) };
    }
  if (bw > 0 || peak > 0)
    items[n_items++] = (WsLegendItem) { _("ceilings of this GPU"), ctx->theme->foreground,
                                        WS_LEGEND_LINE, -1 };
  if (cublas > 0)
    items[n_items++] = (WsLegendItem) { _("cuBLAS SGEMM, measured"), ctx->theme->foreground,
                                        WS_LEGEND_DASHED, -1 };
  {
    double h = _ws_legend_draw (ctx, items, n_items, content.x, content.y, content.width, TRUE);

    content.y += h + 0.4 * ctx->line_height;
    content.height -= h + 0.4 * ctx->line_height;
  }
  _ws_chart_annotate (ctx, session, shown_runs, WS_CHART_PLOT_KEEP (ctx), &content);

  /* Room for the ridge point and the peak, so the roof is seen bending, with the slope of
   * the memory-bound side wide enough to read. */
  if (bw > 0 && peak > 0)
    {
      _ws_range_update (peak / bw / 30, TRUE, &xlo, &xhi);
      _ws_range_update (peak / bw * 4, TRUE, &xlo, &xhi);
      _ws_range_update (peak, TRUE, &ylo, &yhi);
    }
  if (cublas > 0)
    _ws_range_update (cublas, TRUE, &ylo, &yhi);
  _ws_axis_init (&x, WS_AXIS_BOTTOM, WS_SCALE_LOG, xlo, xhi,
                 _("Arithmetic intensity (FLOP per byte of the least traffic; log scale)"));
  _ws_scale_pad (&x.scale, 0.12);
  x.format = log_tick;
  _ws_axis_init (&y, WS_AXIS_LEFT, WS_SCALE_LOG, ylo, yhi, _("Achieved GFLOP/s (log scale)"));
  _ws_scale_pad (&y.scale, 0.08);
  y.format = log_tick;
  _ws_plot_layout (ctx, &content, &x, &y, NULL, &plot);
  _ws_axis_draw_grid (ctx, &x, &plot);
  _ws_axis_draw_grid (ctx, &y, &plot);
  _ws_placer_init (&placer);
  for (guint i = 0; i < points->len; i++)
    {
      const Point *p = &g_array_index (points, Point, i);
      double px = _ws_scale_map (&x.scale, p->intensity), py = _ws_scale_map (&y.scale, p->gflops);
      WsRect r = { px - 5 * ctx->unit, py - 5 * ctx->unit, 10 * ctx->unit, 10 * ctx->unit };

      g_array_append_val (placer.rects, r);
    }

  cairo_save (cr);
  cairo_rectangle (cr, plot.x, plot.y, plot.width, plot.height);
  cairo_clip (cr);
  if (bw > 0 && peak > 0)
    {
      double ridge = peak / bw;
      double x0 = plot.x, y0 = _ws_scale_map (&y.scale, bw * x.scale.lo);
      double xr = _ws_scale_map (&x.scale, ridge), yr = _ws_scale_map (&y.scale, peak);
      double x1 = plot.x + plot.width;
      g_autofree char *bw_text = _ws_format_gbs (bw);
      g_autofree char *mem = g_strdup_printf (_("memory: %s (measured copy)"), bw_text);
      g_autofree char *peak_text = _ws_format_sig (peak, 3);
      g_autofree char *comp = g_strdup_printf (_("FP32 peak: %s GFLOP/s"), peak_text);

      _ws_set_color (cr, &ctx->theme->foreground);
      cairo_set_line_width (cr, ctx->theme->line_width * 1.6);
      cairo_move_to (cr, x0, y0);
      cairo_line_to (cr, xr, yr);
      cairo_line_to (cr, x1, yr);
      cairo_stroke (cr);
      cairo_restore (cr);
      {
        /* The label goes on the part of the slope that is inside the plot. */
        double lo = MAX (x.scale.lo, y.scale.lo / bw);
        double vx = _ws_scale_map (&x.scale, lo), vy = _ws_scale_map (&y.scale, bw * lo);

        if (lo < ridge)
          line_label (ctx, mem, vx, vy, xr, yr, &ctx->theme->foreground, &placer);
      }
      {
        double w = _ws_text_width (ctx, WS_FONT_SMALL, comp);
        WsRect r = { x1 - w - 4, yr - 1.3 * ctx->small_height, w, ctx->small_height };

        _ws_placer_try (&placer, &r);
        _ws_text_show (ctx, WS_FONT_SMALL, comp, x1 - 4 * ctx->unit, yr - 3 * ctx->unit, 1, 1,
                       &ctx->theme->foreground);
      }
      /* Later labels keep off the roof: it is marked in the placer every few pixels. */
      for (int seg = 0; seg < 2; seg++)
        {
          double ax = seg ? xr : x0, ay = seg ? yr : y0, bx = seg ? x1 : xr, by = yr;
          double len = hypot (bx - ax, by - ay);

          for (double d = 0; d <= len; d += 6 * ctx->unit)
            {
              double t = len > 0 ? d / len : 0;
              WsRect r = { ax + (bx - ax) * t - 3 * ctx->unit, ay + (by - ay) * t - 3 * ctx->unit,
                           6 * ctx->unit, 6 * ctx->unit };

              if (r.y + r.height >= plot.y && r.y <= plot.y + plot.height)
                g_array_append_val (placer.rects, r);
            }
        }
      cairo_save (cr);
      cairo_rectangle (cr, plot.x, plot.y, plot.width, plot.height);
      cairo_clip (cr);
    }
  if (cublas > 0)
    {
      double yc = _ws_scale_map (&y.scale, cublas);
      double dash[] = { 6 * ctx->unit, 4 * ctx->unit };

      cairo_set_dash (cr, dash, 2, 0);
      _ws_set_color (cr, &ctx->theme->foreground);
      cairo_set_line_width (cr, ctx->theme->line_width);
      cairo_move_to (cr, plot.x, yc);
      cairo_line_to (cr, plot.x + plot.width, yc);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
    }
  cairo_restore (cr);
  if (cublas > 0)
    {
      g_autofree char *v = _ws_format_sig (cublas, 3);
      g_autofree char *t = g_strdup_printf (_("cuBLAS SGEMM (its best size): %s GFLOP/s"), v);
      double yc = _ws_scale_map (&y.scale, cublas), w = _ws_text_width (ctx, WS_FONT_SMALL, t);
      WsRect line = { plot.x, yc - 3 * ctx->unit, plot.width, 6 * ctx->unit };
      WsRect label = { plot.x + plot.width - 4 * ctx->unit - w, yc + 3 * ctx->unit, w,
                       ctx->small_height };

      /* Below the line on the left, where the slope is not. */
      label.x = plot.x + 4 * ctx->unit;
      _ws_text_show (ctx, WS_FONT_SMALL, t, label.x, label.y, 0, 0, &ctx->theme->foreground);
      g_array_append_val (placer.rects, line);
      g_array_append_val (placer.rects, label);
    }

  for (guint i = 0; i < points->len; i++)
    {
      const Point *p = &g_array_index (points, Point, i);
      double px = _ws_scale_map (&x.scale, p->intensity), py = _ws_scale_map (&y.scale, p->gflops);

      _ws_draw_marker (ctx, (WsMarker) (p->session % WS_N_MARKERS), px, py, 9 * ctx->unit,
                       &ctx->theme->series[p->kernel % 8], &ctx->theme->background);
    }
  /* Each kernel's fastest point is ringed and named, with its share of the ceiling above it,
   * in one box where the plot is empty: labels beside points collide in a dense sweep. */
  {
    g_autoptr (GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
    g_autoptr (GArray) colours = g_array_new (FALSE, FALSE, sizeof (WsColor));
    double box_w = 0, line_h = ctx->small_height * 1.25, pad = 0.4 * ctx->line_height;

    for (guint k = 0; k < kernels->len && k < 8; k++)
      {
        const Point *top = NULL;

        for (guint i = 0; i < points->len; i++)
          {
            const Point *p = &g_array_index (points, Point, i);

            if (p->kernel == k && p->session == 0 && (top == NULL || p->gflops > top->gflops))
              top = p;
          }
        if (top == NULL)
          continue;
        {
          double px = _ws_scale_map (&x.scale, top->intensity);
          double py = _ws_scale_map (&y.scale, top->gflops);
          double roof = bw > 0 && peak > 0 ? MIN (peak, bw * top->intensity) : 0;
          const char *name = g_ptr_array_index (kernels, k);
          g_autofree char *size = _ws_chart_dup_size_label (top->run);
          g_autofree char *rate = _ws_format_sig (top->gflops, 3);
          g_autofree char *share = roof > 0 ? _ws_format_percent (top->gflops / roof) : NULL;
          char *text = share ? g_strdup_printf (_("fastest %s: %s GFLOP/s at %s, %s of its roof"),
                                                name, rate, size, share)
                             : g_strdup_printf (_("fastest %s: %s GFLOP/s at %s"), name, rate,
                                                size);
          WsColor ink = _ws_color_readable (ctx->theme, &ctx->theme->series[k % 8]);

          cairo_new_sub_path (cr);
          cairo_arc (cr, px, py, 8 * ctx->unit, 0, 2 * G_PI);
          _ws_set_color (cr, &ink);
          cairo_set_line_width (cr, 2 * ctx->unit);
          cairo_stroke (cr);
          box_w = MAX (box_w, _ws_text_width (ctx, WS_FONT_SMALL, text));
          g_ptr_array_add (texts, text);
          g_array_append_val (colours, ink);
        }
      }
    if (texts->len > 0)
      {
        double bw_ = box_w + 2 * pad, bh = texts->len * line_h + 2 * pad;
        double peak_y = peak > 0 ? _ws_scale_map (&y.scale, peak) : plot.y;
        /* Under the compute roof on the right, else any corner. */
        const double where[][2] = { { 1, 0 }, { 0.5, 0 }, { 1, 1 }, { 0, 1 }, { 0.5, 0.5 } };

        for (guint i = 0; i < G_N_ELEMENTS (where); i++)
          {
            double top = MAX (plot.y, peak_y) + 2.2 * ctx->small_height;
            WsRect r = { plot.x + pad + where[i][0] * (plot.width - bw_ - 2 * pad),
                         top + where[i][1] * (plot.y + plot.height - pad - bh - top), bw_, bh };

            if (r.y < plot.y || r.y + bh > plot.y + plot.height || !_ws_placer_try (&placer, &r))
              continue;
            _ws_draw_halo (ctx, r.x, r.y, r.width, r.height, 0.9);
            for (guint t = 0; t < texts->len; t++)
              _ws_text_show (ctx, WS_FONT_SMALL, g_ptr_array_index (texts, t), r.x + pad,
                             r.y + pad + t * line_h, 0, 0, &g_array_index (colours, WsColor, t));
            break;
          }
      }
  }
  /* Where sizes share one intensity (a vector add is 1 FLOP per 12 bytes at any n) the
   * points get their size, once per kernel and size, where there is room: bigger problems
   * climb towards the roof, which is the lesson of this chart. Elsewhere the intensity
   * already tells the size. */
  if (points->len <= 64 && sizes_share_intensity (points))
    for (guint i = 0; i < points->len; i++)
      {
        const Point *p = &g_array_index (points, Point, i);
        double px = _ws_scale_map (&x.scale, p->intensity);
        double py = _ws_scale_map (&y.scale, p->gflops);
        const WsRunConfig *pc = ws_run_get_config (p->run);
        g_autofree char *count = _ws_format_count (pc->size);
        g_autofree char *size = pc->shape_rank == 1 ? g_strdup_printf ("n = %s", count)
                                                    : _ws_chart_dup_size_label (p->run);
        gboolean first = TRUE;
        double w, h;

        for (guint j = 0; j < i && first; j++)
          {
            const Point *q = &g_array_index (points, Point, j);

            first = !(q->kernel == p->kernel && q->session == p->session
                      && ws_run_get_config (q->run)->size == ws_run_get_config (p->run)->size);
          }
        if (p->session != 0 || !first)
          continue;
        _ws_text_extent (ctx, WS_FONT_SMALL, size, &w, &h);
        for (int side = 0; side < 2; side++)
          {
            WsRect r = { side == 0 ? px - 7 * ctx->unit - w : px + 7 * ctx->unit, py - h / 2, w,
                         h };

            if (r.x < plot.x || r.x + w > plot.x + plot.width || r.y < plot.y
                || r.y + h > plot.y + plot.height)
              continue;
            if (_ws_placer_try (&placer, &r))
              {
                _ws_draw_halo (ctx, r.x - 2, r.y, r.width + 4, r.height, 0.85);
                _ws_text_show (ctx, WS_FONT_SMALL, size, r.x, r.y, 0, 0, &ctx->theme->muted);
                break;
              }
          }
      }
  _ws_placer_clear (&placer);
  _ws_axis_draw (ctx, &x, &plot);
  _ws_axis_draw (ctx, &y, &plot);
  _ws_axis_clear (&x);
  _ws_axis_clear (&y);
}

/* ws-chart-roofline.c: kernels placed by arithmetic intensity (FLOP per byte of the least
 * traffic any kernel needs) and achieved GFLOP/s, under the device's measured memory
 * bandwidth and FP32 peak, with cuBLAS's rate when the session measured it. Kernels without
 * arithmetic get bars against the bandwidth instead (ws-chart-roofline-bars.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ws-chart-format-private.h"
#include "ws-chart-roofline-private.h"
#include "ws-trace.h"

/* ---- collect ---------------------------------------------------------------------------- */

static guint
kernel_index (GPtrArray *kernels, const char *name)
{
  for (guint i = 0; i < kernels->len; i++)
    if (g_strcmp0 (g_ptr_array_index (kernels, i), name) == 0)
      return i;
  g_ptr_array_add (kernels, g_strdup (name));
  return kernels->len - 1;
}

typedef struct
{
  GPtrArray *runs;        /* WsRun of every point, beside data->points (referenced) */
  GPtrArray *shown;       /* the first session's runs with a point, for the findings */
  GPtrArray *memory_only; /* the first session's runs without arithmetic */
  double xlo, xhi, ylo, yhi;
} Gathered;

/* A point per run with a kernel time, FLOP and bytes; cuBLAS is the ceiling a hand-written
 * SGEMM is compared with, not a point. */
static void
gather (WsRooflineData *data, GPtrArray *sessions, const WsChartBase *base, Gathered *g)
{
  for (guint s = 0; s < sessions->len; s++)
    {
      g_autoptr (GPtrArray) runs = _ws_chart_runs (g_ptr_array_index (sessions, s), base);

      for (guint i = 0; i < runs->len; i++)
        {
          WsRun *run = g_ptr_array_index (runs, i);
          const WsRunConfig *c = ws_run_get_config (run);
          double ns = ws_run_get_kernel_ns (run);
          WsRooflinePoint p = { ws_run_get_id (run), c->flops / c->bytes, c->flops / ns, 0, s };

          if (s == 0 && !(c->flops > 0) && c->bytes > 0 && ns > 0)
            g_ptr_array_add (g->memory_only, g_object_ref (run));
          if (!(c->flops > 0 && c->bytes > 0 && ns > 0) || !isfinite (p.intensity)
              || !isfinite (p.gflops))
            continue;
          if (g_strcmp0 (c->kernel, "matmul_cublas") == 0)
            {
              if (s == 0)
                data->cublas = MAX (data->cublas, p.gflops);
              continue;
            }
          p.kernel = kernel_index (data->kernels, c->kernel);
          g_array_append_val (data->points, p);
          g_ptr_array_add (g->runs, g_object_ref (run));
          if (s == 0)
            g_ptr_array_add (g->shown, run);
          _ws_range_update (p.intensity, TRUE, &g->xlo, &g->xhi);
          _ws_range_update (p.gflops, TRUE, &g->ylo, &g->yhi);
        }
    }
}

/* Do sizes share one intensity (a vector add is 1 FLOP per 12 bytes at any n)? */
static gboolean
sizes_share_intensity (WsRooflineData *data, GPtrArray *runs)
{
  for (guint i = 0; i < data->points->len; i++)
    for (guint j = i + 1; j < data->points->len; j++)
      {
        const WsRooflinePoint *p = &g_array_index (data->points, WsRooflinePoint, i);
        const WsRooflinePoint *q = &g_array_index (data->points, WsRooflinePoint, j);

        if (p->kernel == q->kernel && fabs (p->intensity - q->intensity) <= 1e-3 * p->intensity
            && ws_run_get_config (g_ptr_array_index (runs, i))->size
                   != ws_run_get_config (g_ptr_array_index (runs, j))->size)
          return TRUE;
      }
  return FALSE;
}

/* Where sizes share one intensity the points get their size, once per kernel and size:
 * bigger problems climb towards the roof, which is the lesson of this chart. Elsewhere the
 * intensity already tells the size. */
static void
collect_sizes (WsRooflineData *data, GPtrArray *runs)
{
  if (data->points->len > 64 || !sizes_share_intensity (data, runs))
    return;
  for (guint i = 0; i < data->points->len; i++)
    {
      WsRooflinePoint *p = &g_array_index (data->points, WsRooflinePoint, i);
      WsRun *run = g_ptr_array_index (runs, i);
      const WsRunConfig *pc = ws_run_get_config (run);
      gboolean first = p->session == 0;
      g_autofree char *count = NULL;

      for (guint j = 0; j < i && first; j++)
        {
          const WsRooflinePoint *q = &g_array_index (data->points, WsRooflinePoint, j);

          first = !(q->kernel == p->kernel && q->session == p->session
                    && ws_run_get_config (g_ptr_array_index (runs, j))->size == pc->size);
        }
      if (!first)
        continue;
      count = ws_units_count_short (pc->size);
      p->size = pc->shape_rank == 1 ? g_strdup_printf ("n = %s", count)
                                    : _ws_chart_dup_size_label (run);
    }
}

/* Each kernel's fastest point, with its share of the ceiling above it. */
static void
collect_best (WsRooflineData *data, GPtrArray *runs, const WsTheme *theme)
{
  for (guint k = 0; k < data->kernels->len && k < 8; k++)
    {
      const WsRooflinePoint *top = NULL;
      WsRooflineBest best = { 0 };
      const char *name = g_ptr_array_index (data->kernels, k);
      g_autofree char *size = NULL, *rate = NULL, *share = NULL;
      double roof;

      for (guint i = 0; i < data->points->len; i++)
        {
          const WsRooflinePoint *p = &g_array_index (data->points, WsRooflinePoint, i);

          if (p->kernel == k && p->session == 0 && (top == NULL || p->gflops > top->gflops))
            top = p, best.point = i;
        }
      if (top == NULL)
        continue;
      roof = data->bandwidth > 0 && data->peak > 0
                 ? MIN (data->peak, data->bandwidth * top->intensity)
                 : 0;
      size = _ws_chart_dup_size_label (g_ptr_array_index (runs, best.point));
      rate = ws_units_number (top->gflops, 3);
      share = roof > 0 ? ws_units_percent (top->gflops / roof) : NULL;
      best.brief = g_strdup_printf (_("fastest %s: %s GFLOP/s at %s"), name, rate, size);
      best.text = share ? g_strdup_printf (_("fastest %s: %s GFLOP/s at %s, %s of its roof"),
                                           name, rate, size, share)
                        : g_strdup (best.brief);
      best.ink = _ws_color_readable (theme, &theme->series[k % 8]);
      g_array_append_val (data->best, best);
    }
}

static void
collect_legend (WsRooflineData *data, GPtrArray *sessions, const WsTheme *theme)
{
  for (guint k = 0; k < data->kernels->len && k < 8; k++)
    _ws_legend_add (&data->legend, g_ptr_array_index (data->kernels, k), &theme->series[k % 8],
                    WS_LEGEND_MARKER, WS_MARKER_CIRCLE);
  for (guint s = 1; s < sessions->len && data->legend.items->len < 12; s++)
    {
      WsDevice *d = ws_session_get_device (g_ptr_array_index (sessions, s));

      _ws_legend_add (&data->legend, d ? ws_device_get_name (d) : _("other session"),
                      &theme->muted, WS_LEGEND_MARKER, (int) (s % WS_N_MARKERS));
    }
  if (data->bandwidth > 0 || data->peak > 0)
    _ws_legend_add (&data->legend, _("ceilings of this GPU"), &theme->foreground,
                    WS_LEGEND_LINE, -1);
  if (data->cublas > 0)
    _ws_legend_add (&data->legend, _("cuBLAS SGEMM, measured"), &theme->foreground,
                    WS_LEGEND_DASHED, -1);
}

/* Room for the ridge point and the peak, so the roof is seen bending, with the slope of the
 * memory-bound side wide enough to read. */
static void
collect_axes (WsRooflineData *data, Gathered *g)
{
  double bw = data->bandwidth, peak = data->peak;

  if (bw > 0 && peak > 0)
    {
      _ws_range_update (peak / bw / 30, TRUE, &g->xlo, &g->xhi);
      _ws_range_update (peak / bw * 4, TRUE, &g->xlo, &g->xhi);
      _ws_range_update (peak, TRUE, &g->ylo, &g->yhi);
    }
  if (data->cublas > 0)
    _ws_range_update (data->cublas, TRUE, &g->ylo, &g->yhi);
  _ws_scale_set_domain (&data->x, WS_SCALE_LOG, g->xlo, g->xhi);
  _ws_scale_pad (&data->x, 0.12);
  _ws_scale_set_domain (&data->y, WS_SCALE_LOG, g->ylo, g->yhi);
  _ws_scale_pad (&data->y, 0.08);
}

static void
collect_words (WsRooflineData *data, WsSession *session)
{
  GString *title = g_string_new (ws_chart_kind_title (WS_CHART_ROOFLINE));

  for (guint k = 0; k < data->kernels->len; k++)
    g_string_append_printf (title, "%s%s", k == 0 ? " · " : ", ",
                            (const char *) g_ptr_array_index (data->kernels, k));
  data->frame.title = g_string_free (title, FALSE);
  data->frame.subtitle = _ws_chart_subtitle (session, _("achieved GFLOP/s against the device's "
                                                        "ceilings"));
  if (data->bandwidth > 0)
    {
      g_autofree char *bw = ws_units_gbs (data->bandwidth);

      data->memory_text = g_strdup_printf (_("memory: %s (measured copy)"), bw);
    }
  if (data->peak > 0)
    {
      g_autofree char *peak = ws_units_number (data->peak, 3);

      data->peak_text = g_strdup_printf (_("FP32 peak: %s GFLOP/s"), peak);
    }
  if (data->cublas > 0)
    {
      g_autofree char *v = ws_units_number (data->cublas, 3);

      data->cublas_text = g_strdup_printf (_("cuBLAS SGEMM (its best size): %s GFLOP/s"), v);
    }
}

static void
ceilings (WsRooflineData *data, WsSession *session)
{
  WsDevice *device = session ? ws_session_get_device (session) : NULL;
  const WsDeviceInfo *info = device ? ws_device_get_info (device) : NULL;

  if (info == NULL)
    return;
  data->bandwidth = info->bandwidth_measured_gbs > 0 ? info->bandwidth_measured_gbs
                                                     : info->bandwidth_theoretical_gbs;
  data->peak = info->fp32_peak_gflops;
  if (!(data->bandwidth > 0) || !isfinite (data->bandwidth))
    data->bandwidth = 0;
  if (!(data->peak > 0) || !isfinite (data->peak))
    data->peak = 0;
}

static void
point_clear (WsRooflinePoint *p)
{
  g_free (p->size);
}

static void
best_clear (WsRooflineBest *b)
{
  g_free (b->text);
  g_free (b->brief);
}

WsRooflineData *
_ws_roofline_collect (GPtrArray *sessions, const WsChartBase *base)
{
  WsRooflineData *data = g_new0 (WsRooflineData, 1);
  WsSession *session = sessions->len ? g_ptr_array_index (sessions, 0) : NULL;
  g_autoptr (GPtrArray) runs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GPtrArray) shown = g_ptr_array_new ();
  g_autoptr (GPtrArray) memory_only = g_ptr_array_new_with_free_func (g_object_unref);
  Gathered g = { runs, shown, memory_only, G_MAXDOUBLE, -G_MAXDOUBLE, G_MAXDOUBLE,
                 -G_MAXDOUBLE };

  data->kernels = g_ptr_array_new_with_free_func (g_free);
  data->points = g_array_new (FALSE, TRUE, sizeof (WsRooflinePoint));
  g_array_set_clear_func (data->points, (GDestroyNotify) point_clear);
  data->best = g_array_new (FALSE, TRUE, sizeof (WsRooflineBest));
  g_array_set_clear_func (data->best, (GDestroyNotify) best_clear);
  _ws_legend_init (&data->legend);
  ceilings (data, session);
  gather (data, sessions, base, &g);
  if (data->points->len == 0 && memory_only->len > 0)
    {
      _ws_roofline_collect_bars (data, session, memory_only, base);
      return data;
    }
  collect_words (data, session);
  if (data->points->len == 0)
    {
      /* A traced kernel's launch says its grid and block, not what it reads or computes. */
      data->frame.message
        = session != NULL && ws_session_get_trace (session) != NULL
            ? g_strdup (_("A traced program's kernels do not say how many bytes they move or "
                          "how many FLOPs they do, so none can be placed on the roofline. Run "
                          "the kernel as your own kernel (run --source), with its bytes and "
                          "flops in the header, to see it against the ceilings."))
            : g_strdup (_("No run with a kernel time and its FLOP and byte counts to place on "
                          "the roofline yet."));
      return data;
    }
  collect_legend (data, sessions, base->theme);
  collect_axes (data, &g);
  collect_best (data, runs, base->theme);
  collect_sizes (data, runs);
  if (base->annotate)
    _ws_chart_frame_add_notes (&data->frame, session, shown, base->audience);
  return data;
}

void
_ws_roofline_data_free (WsRooflineData *data)
{
  if (data == NULL)
    return;
  _ws_chart_frame_clear (&data->frame);
  _ws_legend_clear (&data->legend);
  g_clear_pointer (&data->kernels, g_ptr_array_unref);
  g_clear_pointer (&data->points, g_array_unref);
  g_clear_pointer (&data->best, g_array_unref);
  g_clear_pointer (&data->bars, g_array_unref);
  g_free (data->memory_text);
  g_free (data->peak_text);
  g_free (data->cublas_text);
  g_free (data->bandwidth_text);
  g_free (data);
}

/* ---- draw ------------------------------------------------------------------------------- */

static char *
log_tick (double value, double step, gpointer data)
{
  return _ws_format_log_tick (value);
}

static void
keep_clear (WsPlot *p, double x, double y, double half)
{
  WsRect r = { x - half, y - half, 2 * half, 2 * half };

  g_array_append_val (p->placer.rects, r);
}

static void
plot_layout (WsChartContext *ctx, const WsRooflineData *data, const WsRect *content, WsPlot *p)
{
  _ws_axis_init (&p->x, WS_AXIS_BOTTOM, WS_SCALE_LOG, data->x.lo, data->x.hi,
                 _("Arithmetic intensity (FLOP per byte of the least traffic; log scale)"));
  p->x.format = log_tick;
  _ws_axis_init (&p->y, WS_AXIS_LEFT, WS_SCALE_LOG, data->y.lo, data->y.hi,
                 _("Achieved GFLOP/s (log scale)"));
  p->y.format = log_tick;
  _ws_plot_begin (ctx, content, FALSE, p);
  for (guint i = 0; i < data->points->len; i++)
    {
      const WsRooflinePoint *pt = &g_array_index (data->points, WsRooflinePoint, i);
      double px = _ws_scale_map (&p->x.scale, pt->intensity);
      double py = _ws_scale_map (&p->y.scale, pt->gflops);

      if (_ws_mark_set_add (&p->marks, px, py, pt->session * 8 + pt->kernel % 8))
        keep_clear (p, px, py, 5 * ctx->unit);
    }
  /* The points' marks are drawn later, each once: start afresh. */
  _ws_mark_set_clear (&p->marks);
  _ws_mark_set_init (&p->marks);
}

/* A label along the segment (x0, y0)–(x1, y1), just above it, where it keeps off the points
 * and other labels: the middle first, then towards either end. */
static void
line_label (WsChartContext *ctx, WsPlot *p, const char *text, double x0, double y0, double x1,
            double y1)
{
  static const double along[] = { 0.5, 0.35, 0.65, 0.2, 0.8 };
  double angle = atan2 (y1 - y0, x1 - x0), nx = sin (angle), ny = -cos (angle);
  double w = _ws_text_width (ctx, WS_FONT_SMALL, text), h = ctx->small_height;
  double len = hypot (x1 - x0, y1 - y0);
  double hw = fabs (cos (angle)) * w / 2 + fabs (sin (angle)) * h / 2;
  double hh = fabs (sin (angle)) * w / 2 + fabs (cos (angle)) * h / 2;

  if (w + 2 * ctx->line_height > len)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (along); i++)
    {
      double t = CLAMP (along[i], (w / 2 + ctx->line_height) / len,
                        1 - (w / 2 + ctx->line_height) / len);
      double cx = x0 + (x1 - x0) * t, cy = y0 + (y1 - y0) * t;
      /* The box of the turned text, lifted off the line by its height. */
      double mx = cx + nx * (h / 2 + 3 * ctx->unit), my = cy + ny * (h / 2 + 3 * ctx->unit);
      WsRect r = { mx - hw, my - hh, 2 * hw, 2 * hh };

      if (_ws_placer_try (&p->placer, &r))
        {
          _ws_text_show_rotated (ctx, WS_FONT_SMALL, text, cx + nx * 3 * ctx->unit,
                                 cy + ny * 3 * ctx->unit, angle, 0.5, 1,
                                 &ctx->theme->foreground);
          return;
        }
    }
}

/* Later labels keep off the roof: it is marked in the placer every few pixels. */
static void
keep_roof_clear (WsChartContext *ctx, WsPlot *p, const double xs[3], const double ys[3])
{
  for (int seg = 0; seg < 2; seg++)
    {
      double ax = xs[seg], ay = ys[seg], bx = xs[seg + 1], by = ys[seg + 1];
      double len = hypot (bx - ax, by - ay);

      for (double d = 0; d <= len && p->placer.rects->len < 100000; d += 6 * ctx->unit)
        {
          double t = len > 0 ? d / len : 0;
          double y = ay + (by - ay) * t;

          if (y + 3 * ctx->unit >= p->plot.y && y - 3 * ctx->unit <= p->plot.y + p->plot.height)
            keep_clear (p, ax + (bx - ax) * t, y, 3 * ctx->unit);
        }
    }
}

/* The memory slope up to the ridge point, then the compute peak, both labelled. */
static void
draw_roof (WsChartContext *ctx, const WsRooflineData *data, WsPlot *p)
{
  cairo_t *cr = ctx->cr;
  double bw = data->bandwidth, peak = data->peak, ridge = peak / bw;
  double xs[3] = { p->plot.x, _ws_scale_map (&p->x.scale, ridge), p->plot.x + p->plot.width };
  double ys[3] = { _ws_scale_map (&p->y.scale, bw * p->x.scale.lo),
                   _ws_scale_map (&p->y.scale, peak), _ws_scale_map (&p->y.scale, peak) };
  /* The slope's label goes on the part of it that is inside the plot. */
  double lo = MAX (p->x.scale.lo, p->y.scale.lo / bw);
  double w = _ws_text_width (ctx, WS_FONT_SMALL, data->peak_text);
  WsRect r = { xs[2] - w - 4, ys[1] - 1.3 * ctx->small_height, w, ctx->small_height };

  cairo_save (cr);
  cairo_rectangle (cr, p->plot.x, p->plot.y, p->plot.width, p->plot.height);
  cairo_clip (cr);
  _ws_set_color (cr, &ctx->theme->foreground);
  cairo_set_line_width (cr, ctx->theme->line_width * 1.6);
  cairo_move_to (cr, xs[0], ys[0]);
  cairo_line_to (cr, xs[1], ys[1]);
  cairo_line_to (cr, xs[2], ys[2]);
  cairo_stroke (cr);
  cairo_restore (cr);
  if (lo < ridge)
    line_label (ctx, p, data->memory_text, _ws_scale_map (&p->x.scale, lo),
                _ws_scale_map (&p->y.scale, bw * lo), xs[1], ys[1]);
  _ws_placer_try (&p->placer, &r);
  _ws_text_show (ctx, WS_FONT_SMALL, data->peak_text, xs[2] - 4 * ctx->unit,
                 ys[1] - 3 * ctx->unit, 1, 1, &ctx->theme->foreground);
  keep_roof_clear (ctx, p, xs, ys);
}

/* cuBLAS's rate as a dashed line, named below it on the left, where the slope is not. */
static void
draw_cublas (WsChartContext *ctx, const WsRooflineData *data, WsPlot *p)
{
  cairo_t *cr = ctx->cr;
  double yc = _ws_scale_map (&p->y.scale, data->cublas);
  double dash[] = { 6 * ctx->unit, 4 * ctx->unit };
  double w = _ws_text_width (ctx, WS_FONT_SMALL, data->cublas_text);
  WsRect line = { p->plot.x, yc - 3 * ctx->unit, p->plot.width, 6 * ctx->unit };
  WsRect label = { p->plot.x + 4 * ctx->unit, yc + 3 * ctx->unit, w, ctx->small_height };

  cairo_save (cr);
  cairo_rectangle (cr, p->plot.x, p->plot.y, p->plot.width, p->plot.height);
  cairo_clip (cr);
  cairo_set_dash (cr, dash, 2, 0);
  _ws_set_color (cr, &ctx->theme->foreground);
  cairo_set_line_width (cr, ctx->theme->line_width);
  cairo_move_to (cr, p->plot.x, yc);
  cairo_line_to (cr, p->plot.x + p->plot.width, yc);
  cairo_stroke (cr);
  cairo_restore (cr);
  _ws_text_show (ctx, WS_FONT_SMALL, data->cublas_text, label.x, label.y, 0, 0,
                 &ctx->theme->foreground);
  g_array_append_val (p->placer.rects, line);
  g_array_append_val (p->placer.rects, label);
}

static void
draw_points (WsChartContext *ctx, const WsRooflineData *data, WsPlot *p)
{
  for (guint i = 0; i < data->points->len; i++)
    {
      const WsRooflinePoint *pt = &g_array_index (data->points, WsRooflinePoint, i);
      double px = _ws_scale_map (&p->x.scale, pt->intensity);
      double py = _ws_scale_map (&p->y.scale, pt->gflops);

      if (!_ws_mark_set_add (&p->marks, px, py, pt->session * 8 + pt->kernel % 8))
        continue;
      _ws_draw_marker (ctx, (WsMarker) (pt->session % WS_N_MARKERS), px, py, 9 * ctx->unit,
                       &ctx->theme->series[pt->kernel % 8], &ctx->theme->background);
    }
}

/* The box of the fastest points' texts (`brief`: without their shares) where the plot is
 * empty: under the compute roof on the right, else any corner. FALSE where none is. */
static gboolean
place_best (WsChartContext *ctx, const WsRooflineData *data, WsPlot *p, gboolean brief)
{
  static const double where[][2] = { { 1, 0 }, { 0.5, 0 }, { 1, 1 }, { 0, 1 }, { 0.5, 0.5 } };
  double box_w = 0, line_h = ctx->small_height * 1.25, pad = 0.4 * ctx->line_height, bw, bh;
  double peak_y = data->peak > 0 ? _ws_scale_map (&p->y.scale, data->peak) : p->plot.y;
  double top = MAX (p->plot.y, peak_y) + 2.2 * ctx->small_height;

  for (guint i = 0; i < data->best->len; i++)
    {
      const WsRooflineBest *b = &g_array_index (data->best, WsRooflineBest, i);

      box_w = MAX (box_w, _ws_text_width (ctx, WS_FONT_SMALL, brief ? b->brief : b->text));
    }
  bw = box_w + 2 * pad;
  bh = data->best->len * line_h + 2 * pad;
  for (guint i = 0; i < G_N_ELEMENTS (where); i++)
    {
      WsRect r = { p->plot.x + pad + where[i][0] * (p->plot.width - bw - 2 * pad),
                   top + where[i][1] * (p->plot.y + p->plot.height - pad - bh - top), bw, bh };

      if (r.y < p->plot.y || r.y + bh > p->plot.y + p->plot.height
          || !_ws_placer_try (&p->placer, &r))
        continue;
      _ws_draw_halo (ctx, r.x, r.y, r.width, r.height, 0.9);
      for (guint t = 0; t < data->best->len; t++)
        {
          const WsRooflineBest *b = &g_array_index (data->best, WsRooflineBest, t);

          _ws_text_show (ctx, WS_FONT_SMALL, brief ? b->brief : b->text, r.x + pad,
                         r.y + pad + t * line_h, 0, 0, &b->ink);
        }
      return TRUE;
    }
  return FALSE;
}

/* Each kernel's fastest point is ringed and named, in one box where the plot is empty:
 * labels beside points collide in a dense sweep. A plot too crowded for the whole texts gets
 * them without their shares of the roof. */
static void
draw_best (WsChartContext *ctx, const WsRooflineData *data, WsPlot *p)
{
  for (guint i = 0; i < data->best->len; i++)
    {
      const WsRooflineBest *b = &g_array_index (data->best, WsRooflineBest, i);
      const WsRooflinePoint *pt = &g_array_index (data->points, WsRooflinePoint, b->point);

      cairo_new_sub_path (ctx->cr);
      cairo_arc (ctx->cr, _ws_scale_map (&p->x.scale, pt->intensity),
                 _ws_scale_map (&p->y.scale, pt->gflops), 8 * ctx->unit, 0, 2 * G_PI);
      _ws_set_color (ctx->cr, &b->ink);
      cairo_set_line_width (ctx->cr, 2 * ctx->unit);
      cairo_stroke (ctx->cr);
    }
  if (data->best->len > 0 && !place_best (ctx, data, p, FALSE))
    place_best (ctx, data, p, TRUE);
}

/* The size beside a point, on whichever side has room. */
static void
draw_sizes (WsChartContext *ctx, const WsRooflineData *data, WsPlot *p)
{
  for (guint i = 0; i < data->points->len; i++)
    {
      const WsRooflinePoint *pt = &g_array_index (data->points, WsRooflinePoint, i);
      double px = _ws_scale_map (&p->x.scale, pt->intensity);
      double py = _ws_scale_map (&p->y.scale, pt->gflops);
      double w, h;

      if (pt->size == NULL)
        continue;
      _ws_text_extent (ctx, WS_FONT_SMALL, pt->size, &w, &h);
      for (int side = 0; side < 2; side++)
        {
          WsRect r = { side == 0 ? px - 7 * ctx->unit - w : px + 7 * ctx->unit, py - h / 2, w,
                       h };

          if (r.x < p->plot.x || r.x + w > p->plot.x + p->plot.width || r.y < p->plot.y
              || r.y + h > p->plot.y + p->plot.height)
            continue;
          if (_ws_placer_try (&p->placer, &r))
            {
              _ws_draw_halo (ctx, r.x - 2, r.y, r.width + 4, r.height, 0.85);
              _ws_text_show (ctx, WS_FONT_SMALL, pt->size, r.x, r.y, 0, 0, &ctx->theme->muted);
              break;
            }
        }
    }
}

void
_ws_roofline_draw (WsChartContext *ctx, const WsRooflineData *data)
{
  WsRect content;
  WsPlot p;

  _ws_chart_frame_draw (ctx, &data->frame, TRUE, &content);
  if (data->bars)
    {
      _ws_roofline_draw_bars (ctx, data, &content);
      return;
    }
  if (data->frame.message)
    {
      _ws_chart_message (ctx, &content, data->frame.message);
      return;
    }
  _ws_legend_draw_above (ctx, &data->legend, &content);
  _ws_chart_notes_draw (ctx, &data->frame, WS_CHART_PLOT_KEEP (ctx), TRUE, &content);
  plot_layout (ctx, data, &content, &p);
  _ws_axis_draw_grid (ctx, &p.x, &p.plot);
  _ws_axis_draw_grid (ctx, &p.y, &p.plot);
  if (data->bandwidth > 0 && data->peak > 0)
    draw_roof (ctx, data, &p);
  if (data->cublas > 0)
    draw_cublas (ctx, data, &p);
  draw_points (ctx, data, &p);
  draw_best (ctx, data, &p);
  draw_sizes (ctx, data, &p);
  _ws_axis_draw (ctx, &p.x, &p.plot);
  _ws_axis_draw (ctx, &p.y, &p.plot);
  _ws_plot_end (&p);
}

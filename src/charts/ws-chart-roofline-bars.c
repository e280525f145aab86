/* ws-chart-roofline-bars.c: kernels that do no arithmetic (a transpose, a copy) have no place on
 * a roofline: their only ceiling is the memory bandwidth, so they get a bar each against it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ws-chart-format-private.h"
#include "ws-chart-roofline-private.h"

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

/* The fastest run of each kernel and size (WsRun, borrowed), in the order they came. */
static GPtrArray *
fastest_of_each (GPtrArray *runs, GString *title)
{
  GPtrArray *best = g_ptr_array_new ();

  for (guint i = 0; i < runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (runs, i);
      const WsRunConfig *c = ws_run_get_config (run);
      gboolean seen = FALSE;

      for (guint j = 0; j < best->len && !seen; j++)
        {
          WsRun *other = g_ptr_array_index (best, j);
          const WsRunConfig *o = ws_run_get_config (other);

          if (g_strcmp0 (o->kernel, c->kernel) == 0 && o->size == c->size)
            {
              seen = TRUE;
              if (ws_run_get_kernel_ns (run) < ws_run_get_kernel_ns (other))
                g_ptr_array_index (best, j) = run;
            }
        }
      if (!seen)
        g_ptr_array_add (best, run);
      if (!strstr (title->str, c->kernel))
        g_string_append_printf (title, "%s%s", i == 0 ? " · " : ", ", c->kernel);
    }
  return best;
}

static void
bar_clear (WsRooflineBar *bar)
{
  g_free (bar->label);
  g_free (bar->value);
}

void
_ws_roofline_collect_bars (WsRooflineData *data, WsSession *session, GPtrArray *runs,
                           const WsChartBase *base)
{
  GString *title = g_string_new (ws_chart_kind_title (WS_CHART_ROOFLINE));
  g_autoptr (GPtrArray) best = fastest_of_each (runs, title);
  double gmax = data->bandwidth;

  data->bars = g_array_new (FALSE, TRUE, sizeof (WsRooflineBar));
  g_array_set_clear_func (data->bars, (GDestroyNotify) bar_clear);
  for (guint i = 0; i < best->len; i++)
    {
      WsRun *run = g_ptr_array_index (best, i);
      const WsRunConfig *c = ws_run_get_config (run);
      g_autofree char *size = _ws_chart_dup_size_label (run);
      g_autofree char *rate = NULL, *share = NULL;
      /* One colour per kernel, as on the roofline. */
      WsRooflineBar bar = { ws_run_get_id (run), g_strdup_printf ("%s, %s", c->kernel, size),
                            c->bytes / ws_run_get_kernel_ns (run) };

      bar.color = base->theme->series[kernel_index (data->kernels, c->kernel) % 8];
      rate = ws_units_gbs (bar.gbs);
      share = data->bandwidth > 0 ? ws_units_percent (bar.gbs / data->bandwidth) : NULL;
      bar.value = share ? g_strdup_printf (_("%s, %s of the copy bandwidth"), rate, share)
                        : g_strdup (rate);
      if (isfinite (bar.gbs))
        gmax = MAX (gmax, bar.gbs);
      g_array_append_val (data->bars, bar);
    }
  data->frame.title = g_string_free (title, FALSE);
  data->frame.subtitle = _ws_chart_subtitle (session, _("no arithmetic: memory bandwidth is the "
                                                        "only ceiling"));
  _ws_scale_set_domain (&data->bar_x, WS_SCALE_LINEAR, 0, gmax * 1.08);
  if (data->bandwidth > 0)
    {
      g_autofree char *v = ws_units_gbs (data->bandwidth);

      data->bandwidth_text = g_strdup_printf (_("measured copy bandwidth: %s"), v);
    }
  if (base->annotate)
    _ws_chart_frame_add_notes (&data->frame, session, runs, base->audience);
}

/* ---- draw ------------------------------------------------------------------------------- */

static char *
gbs_tick (double value, double step, gpointer data)
{
  return _ws_format_tick (value, step);
}

/* The bars' area: labels on the left, as wide as the widest needs. */
static void
bars_layout (WsChartContext *ctx, const WsRooflineData *data, const WsRect *content, WsAxis *x,
             WsRect *plot)
{
  double label_w = 0;
  WsRect area;

  for (guint i = 0; i < data->bars->len; i++)
    label_w = MAX (label_w, _ws_text_width (ctx, WS_FONT_NORMAL,
                                            g_array_index (data->bars, WsRooflineBar, i).label));
  label_w = MIN (label_w + ctx->line_height, content->width * 0.4);
  area = (WsRect) { content->x + label_w, content->y, content->width - label_w,
                    content->height };
  _ws_axis_init (x, WS_AXIS_BOTTOM, WS_SCALE_LINEAR, data->bar_x.lo, data->bar_x.hi,
                 _("Achieved bandwidth (GB/s of the least traffic: each byte read once, written "
                   "once)"));
  x->format = gbs_tick;
  _ws_plot_layout (ctx, &area, x, NULL, NULL, plot);
  plot->x = area.x;
  plot->width = area.width - ctx->line_height;
  x->scale.p0 = plot->x;
  x->scale.p1 = plot->x + plot->width;
  _ws_axis_compute_ticks (ctx, x);
}

static void
draw_bar (WsChartContext *ctx, const WsRooflineBar *bar, const WsAxis *x, const WsRect *plot,
          double y, double h)
{
  double x1 = _ws_scale_map (&x->scale, bar->gbs);
  double w = _ws_text_width (ctx, WS_FONT_SMALL, bar->value);
  double end = plot->x - 0.5 * ctx->line_height;
  /* A label wider than the room left of the bars is cut short, not run off the figure. */
  g_autofree char *label = _ws_text_dup_fitting (ctx, WS_FONT_NORMAL, bar->label,
                                                 end - ctx->area.x - 0.25 * ctx->line_height);

  cairo_rectangle (ctx->cr, plot->x, y, MAX (x1 - plot->x, 1), h);
  _ws_fill_shape (ctx, &bar->color);
  _ws_text_show (ctx, WS_FONT_NORMAL, label, end, y + h / 2, 1, 0.5, &ctx->theme->foreground);
  if (x1 - plot->x > w + 12 * ctx->unit)
    {
      WsColor ink = _ws_color_text_on (&bar->color);

      _ws_text_show (ctx, WS_FONT_SMALL, bar->value, x1 - 6 * ctx->unit, y + h / 2, 1, 0.5,
                     &ink);
    }
  else
    {
      double start = x1 + 6 * ctx->unit;
      g_autofree char *value = _ws_text_dup_fitting (
          ctx, WS_FONT_SMALL, bar->value, ctx->area.x + ctx->area.width - 2 * ctx->unit - start);

      _ws_text_show (ctx, WS_FONT_SMALL, value, start, y + h / 2, 0, 0.5,
                     &ctx->theme->foreground);
    }
}

static void
draw_bandwidth (WsChartContext *ctx, const WsRooflineData *data, const WsAxis *x,
                const WsRect *plot)
{
  cairo_t *cr = ctx->cr;
  double xb = _ws_scale_map (&x->scale, data->bandwidth);
  double dash[] = { 6 * ctx->unit, 4 * ctx->unit };

  cairo_save (cr);
  cairo_set_dash (cr, dash, 2, 0);
  _ws_set_color (cr, &ctx->theme->foreground);
  cairo_set_line_width (cr, ctx->theme->line_width * 1.3);
  cairo_move_to (cr, xb, plot->y);
  cairo_line_to (cr, xb, plot->y + plot->height);
  cairo_stroke (cr);
  cairo_restore (cr);
  _ws_text_show (ctx, WS_FONT_SMALL, data->bandwidth_text, xb - 4 * ctx->unit,
                 plot->y + plot->height - 4, 1, 1, &ctx->theme->foreground);
}

void
_ws_roofline_draw_bars (WsChartContext *ctx, const WsRooflineData *data,
                        const WsRect *content_in)
{
  WsRect content = *content_in, plot;
  WsAxis x;
  double row_h;

  _ws_chart_notes_draw (ctx, &data->frame, WS_CHART_PLOT_KEEP (ctx), TRUE, &content);
  bars_layout (ctx, data, &content, &x, &plot);
  row_h = MIN (4 * ctx->line_height, plot.height / MAX (data->bars->len, 1));
  _ws_axis_draw_grid (ctx, &x, &plot);
  for (guint i = 0; i < data->bars->len; i++)
    draw_bar (ctx, &g_array_index (data->bars, WsRooflineBar, i), &x, &plot,
              plot.y + i * row_h + row_h * 0.15, row_h * 0.7);
  if (data->bandwidth > 0)
    draw_bandwidth (ctx, data, &x, &plot);
  _ws_axis_draw (ctx, &x, &plot);
  _ws_axis_clear (&x);
}

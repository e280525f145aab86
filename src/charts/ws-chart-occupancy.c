/* ws-chart-occupancy.c: the occupancy calculator's three curves side by side, as in Nsight
 * Compute's: occupancy against threads per block, registers per thread and shared memory per
 * block, each with the current configuration marked and the limiting resource named.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "ws-chart-format-private.h"
#include "ws-chart-occupancy-private.h"
#include "ws-chart-shapes-private.h"

static const char *const panel_titles[WS_N_PANELS] = { N_("Threads per block"),
                                                       N_("Registers per thread"),
                                                       N_("Shared memory per block (KiB)") };
/* The same where a panel is too narrow for them. */
static const char *const panel_briefs[WS_N_PANELS] = { N_("Threads"), N_("Registers"),
                                                       N_("Shared memory (KiB)") };

/* ---- collect ---------------------------------------------------------------------------- */

/* The run whose launch the chart shows when the options do not say. */
static WsRun *
pick_run (WsSession *session, int id)
{
  GListModel *runs;

  if (session == NULL)
    return NULL;
  if (id != 0)
    return ws_session_find_run (session, id);
  runs = ws_session_get_runs (session);
  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);

      if (ws_run_get_launch (run) != NULL)
        return run; /* borrowed: the session keeps it */
    }
  return NULL;
}

const char *
_ws_occupancy_chart_input (WsSession *session, const WsChartBase *base,
                           const WsOccupancyOptions *o, WsRun **run, WsOccupancyInput *input)
{
  WsRun *r = pick_run (session, base->run);
  const WsLaunch *launch = r ? ws_run_get_launch (r) : NULL;
  WsDevice *device = session ? ws_session_get_device (session) : NULL;
  const char *sm = device ? ws_device_get_info (device)->sm : NULL;

  /* What the options say, else what the run launched with, else a common kernel. */
  input->threads_per_block = o->block_size > 0 ? o->block_size
                             : launch           ? launch->threads_per_block
                                                : 256;
  input->registers_per_thread = o->registers > 0 ? o->registers
                                : launch          ? launch->registers
                                                  : 32;
  input->smem_per_block = o->smem_bytes > 0 ? o->smem_bytes
                          : launch          ? launch->static_smem + launch->dynamic_smem
                                            : 0;
  if (run)
    *run = r;
  return o->arch ? o->arch : sm ? sm : "sm_90";
}

static WsOccupancyPanel
limiter_panel (WsLimiter limiter)
{
  switch (limiter)
    {
    case WS_LIMITER_REGISTERS:
      return WS_PANEL_REGISTERS;
    case WS_LIMITER_SHARED_MEMORY:
      return WS_PANEL_SMEM;
    case WS_LIMITER_WARPS:
    case WS_LIMITER_BLOCKS:
    default:
      return WS_PANEL_BLOCK;
    }
}

/* Ticks at warps for threads, at powers of two for registers, at KiB for shared memory:
 * whichever multiple keeps about six. */
static GArray *
panel_ticks (WsOccupancyPanel panel, const WsArchLimits *arch, double xmax)
{
  GArray *ticks = g_array_new (FALSE, FALSE, sizeof (double));
  double step = panel == WS_PANEL_SMEM      ? 1024
                : panel == WS_PANEL_BLOCK ? MAX (arch->warp_size, 1)
                                          : 8;

  while (xmax / step > 6)
    step *= 2;
  for (double v = 0; v <= xmax + 1e-9; v += step)
    g_array_append_val (ticks, v);
  return ticks;
}

static void
collect_curve (WsOccupancyCurve *c, WsOccupancyPanel panel, GArray *points, double current,
               const WsOccupancyData *data)
{
  g_autofree char *occ = ws_units_percent (data->result.occupancy);
  /* In the unit of the panel's axis, which its title names (KiB for shared memory). */
  g_autofree char *x = panel == WS_PANEL_SMEM ? ws_units_number (current / 1024, 3)
                                              : g_strdup_printf ("%.0f", current);
  double xmax = 1;

  c->points = points;
  c->current = current;
  c->limiting = limiter_panel (data->result.limiter) == panel;
  c->heading = c->limiting ? g_strdup_printf (_("%s: the limit"), _(panel_titles[panel]))
                           : g_strdup (_(panel_titles[panel]));
  c->x_title = g_strdup (_(panel_titles[panel]));
  for (guint i = 0; i < points->len; i++)
    xmax = MAX (xmax, g_array_index (points, WsOccupancyPoint, i).x);
  _ws_scale_set_domain (&c->x, WS_SCALE_LINEAR, 0, xmax);
  c->x_ticks = panel_ticks (panel, data->arch, xmax);
  c->current_text = g_strdup_printf ("%s → %s", x, occ);
}

static void
collect_words (WsOccupancyData *data, WsRun *run)
{
  g_autofree char *pct = ws_units_percent (data->result.occupancy);
  g_autofree char *smem = ws_units_bytes_binary (data->input.smem_per_block);
  g_autofree char *what = run ? g_strdup_printf (_("run %d, %s"), ws_run_get_id (run),
                                                 ws_run_get_config (run)->kernel)
                              : NULL;
  g_autofree char *limit = g_strdup_printf (_("Occupancy is limited by %s."),
                                            ws_limiter_describe (data->result.limiter));

  /* TRANSLATORS: "Occupancy 50%: 32 of 64 warps per SM, sm_90 (Hopper)" */
  data->frame.title = g_strdup_printf (_("%s %s: %d of %d warps per SM, %s (%s)"),
                                       ws_chart_kind_title (WS_CHART_OCCUPANCY), pct,
                                       data->result.active_warps, data->result.max_warps,
                                       data->arch->arch, data->arch->family);
  data->frame.subtitle = g_strdup_printf (
      _("%s%s%d threads per block · %d registers per thread · %s shared memory per block → "
        "%d blocks per SM. %s"),
      what ? what : "", what ? " · " : "", data->input.threads_per_block,
      data->input.registers_per_thread, smem, data->result.active_blocks, limit);
}

WsOccupancyData *
_ws_occupancy_collect (WsSession *session, const WsChartBase *base,
                       const WsOccupancyOptions *options)
{
  WsOccupancyData *data = g_new0 (WsOccupancyData, 1);
  g_autoptr (GError) error = NULL;
  WsRun *run = NULL;
  const char *arch_name = _ws_occupancy_chart_input (session, base, options, &run,
                                                     &data->input);
  GArray *curves[WS_N_PANELS];
  const double current[WS_N_PANELS] = { data->input.threads_per_block,
                                        data->input.registers_per_thread,
                                        data->input.smem_per_block };

  data->arch = ws_arch_limits_lookup (arch_name);
  data->run = run ? ws_run_get_id (run) : 0;
  if (data->arch == NULL || !ws_occupancy_compute (data->arch, &data->input, &data->result,
                                                   &error))
    {
      data->frame.title = g_strdup (ws_chart_kind_title (WS_CHART_OCCUPANCY));
      data->frame.message = data->arch == NULL
                                ? g_strdup_printf (_("The occupancy calculator does not know the "
                                                     "architecture “%s”."),
                                                   arch_name)
                                : g_strdup (error->message);
      return data;
    }
  collect_words (data, run);
  curves[WS_PANEL_BLOCK] = ws_occupancy_curve_block_size (data->arch, &data->input, NULL);
  curves[WS_PANEL_REGISTERS] = ws_occupancy_curve_registers (data->arch, &data->input, NULL);
  curves[WS_PANEL_SMEM] = ws_occupancy_curve_smem (data->arch, &data->input, NULL);
  for (int p = 0; p < WS_N_PANELS; p++)
    if (curves[p] != NULL)
      collect_curve (&data->curves[p], (WsOccupancyPanel) p, curves[p], current[p], data);
  return data;
}

void
_ws_occupancy_data_free (WsOccupancyData *data)
{
  if (data == NULL)
    return;
  _ws_chart_frame_clear (&data->frame);
  for (int p = 0; p < WS_N_PANELS; p++)
    {
      WsOccupancyCurve *c = &data->curves[p];

      g_clear_pointer (&c->points, g_array_unref);
      g_clear_pointer (&c->x_ticks, g_array_unref);
      g_free (c->heading);
      g_free (c->x_title);
      g_free (c->current_text);
    }
  g_free (data);
}

/* ---- draw ------------------------------------------------------------------------------- */

static char *
percent_tick (double value, double step, gpointer data)
{
  g_autofree char *number = ws_units_fixed (value * 100, 0);

  return g_strdup_printf ("%s%%", number);
}

static char *
kib_tick (double value, double step, gpointer data)
{
  return _ws_format_tick (value / 1024, step / 1024);
}

static void
panel_axes (WsChartContext *ctx, const WsOccupancyCurve *c, WsOccupancyPanel panel,
            const WsRect *area, WsAxis *x, WsAxis *y, WsRect *plot)
{
  _ws_axis_init (x, WS_AXIS_BOTTOM, WS_SCALE_LINEAR, c->x.lo, c->x.hi, c->x_title);
  x->brief = _(panel_briefs[panel]);
  x->fixed = g_array_copy (c->x_ticks);
  if (panel == WS_PANEL_SMEM)
    x->format = kib_tick;
  _ws_axis_init (y, WS_AXIS_LEFT, WS_SCALE_LINEAR, 0, 1.05,
                 panel == WS_PANEL_BLOCK ? _("Occupancy") : NULL);
  y->fixed = g_array_new (FALSE, FALSE, sizeof (double));
  for (double v = 0; v <= 1.0001; v += 0.25)
    g_array_append_val (y->fixed, v);
  y->format = percent_tick;
  _ws_plot_layout (ctx, area, x, y, NULL, plot);
}

/* Steps: between two points a block, a register count or an allocation rounds up to the next
 * point, so each point's occupancy holds back to the one before it. */
static void
panel_curve (WsChartContext *ctx, const WsOccupancyCurve *c, WsOccupancyPanel panel,
             const WsAxis *x, const WsAxis *y, const WsRect *plot, const WsColor *color)
{
  cairo_t *cr = ctx->cr;
  GArray *points = c->points;

  cairo_save (cr);
  cairo_rectangle (cr, plot->x, plot->y - 2, plot->width, plot->height + 4);
  cairo_clip (cr);
  _ws_set_color (cr, color);
  cairo_set_line_width (cr, ctx->theme->line_width * 1.2);
  for (guint i = 0; i < points->len; i++)
    {
      const WsOccupancyPoint *p = &g_array_index (points, WsOccupancyPoint, i);
      double px = _ws_scale_map (&x->scale, p->x), py = _ws_scale_map (&y->scale, p->occupancy);

      if (i == 0)
        cairo_move_to (cr, px, py);
      else
        {
          double prev = _ws_scale_map (&x->scale,
                                       g_array_index (points, WsOccupancyPoint, i - 1).x);

          cairo_line_to (cr, prev, py);
          cairo_line_to (cr, px, py);
        }
    }
  cairo_stroke (cr);
  if (panel == WS_PANEL_BLOCK && points->len <= 64)
    for (guint i = 0; i < points->len; i++)
      {
        const WsOccupancyPoint *p = &g_array_index (points, WsOccupancyPoint, i);

        _ws_draw_marker (ctx, WS_MARKER_CIRCLE, _ws_scale_map (&x->scale, p->x),
                         _ws_scale_map (&y->scale, p->occupancy), 4 * ctx->unit, color, NULL);
      }
  cairo_restore (cr);
}

/* The current configuration: a dashed line, a diamond on the curve, and its numbers near the
 * bottom of the panel, where the curves rarely go: the mark says where, the words how much. */
static void
panel_current (WsChartContext *ctx, const WsOccupancyCurve *c, double occupancy,
               const WsAxis *x, const WsAxis *y, const WsRect *plot)
{
  cairo_t *cr = ctx->cr;
  double px = _ws_scale_map (&x->scale, c->current), py = _ws_scale_map (&y->scale, occupancy);
  double dash[] = { 4 * ctx->unit, 3 * ctx->unit };
  double w = _ws_text_width (ctx, WS_FONT_BOLD, c->current_text);
  double tx = px + 6 * ctx->unit + w <= plot->x + plot->width ? px + 6 * ctx->unit
                                                               : px - 6 * ctx->unit - w;
  double ty = plot->y + plot->height - 1.8 * ctx->line_height;

  cairo_save (cr);
  cairo_set_dash (cr, dash, 2, 0);
  _ws_set_color (cr, &ctx->theme->foreground);
  cairo_set_line_width (cr, 1.2 * ctx->unit);
  cairo_move_to (cr, px, plot->y);
  cairo_line_to (cr, px, plot->y + plot->height);
  cairo_stroke (cr);
  cairo_restore (cr);
  _ws_draw_marker (ctx, WS_MARKER_DIAMOND, px, py, 11 * ctx->unit, &ctx->theme->foreground,
                   &ctx->theme->background);
  /* Inside the plot where it fits, else inside the panel (ctx->area while panels draw). */
  tx = MAX (tx, plot->x + 2);
  tx = MAX (MIN (tx, ctx->area.x + ctx->area.width - w - 2), ctx->area.x + 2);
  _ws_draw_halo (ctx, tx - 2, ty, w + 4, ctx->line_height, 0.85);
  _ws_text_show (ctx, WS_FONT_BOLD, c->current_text, tx, ty, 0, 0, &ctx->theme->foreground);
}

/* A heading wider than its panel wraps inside it instead of running into the next one or off
 * the figure; `draw` FALSE only measures. */
static double
panel_heading (WsChartContext *ctx, const WsOccupancyCurve *c, const WsRect *area,
               gboolean draw)
{
  WsColor ink = _ws_color_readable (ctx->theme, &ctx->theme->severity[2]);

  return _ws_text_show_wrapped (ctx, c->limiting ? WS_FONT_BOLD : WS_FONT_NORMAL, c->heading,
                                area->x, area->y, area->width, PANGO_ALIGN_LEFT,
                                c->limiting ? &ink : &ctx->theme->foreground, draw);
}

/* head: the height of the tallest heading, so that the three plots start level. */
static void
draw_panel (WsChartContext *ctx, const WsOccupancyData *data, WsOccupancyPanel panel,
            const WsRect *area, double head)
{
  const WsOccupancyCurve *c = &data->curves[panel];
  WsRect plot, inner = *area, whole = ctx->area;
  WsAxis x, y;

  panel_heading (ctx, c, area, TRUE);
  inner.y += head + 0.4 * ctx->line_height;
  inner.height = MAX (inner.height - head - 0.4 * ctx->line_height, 1);
  /* The axes keep their labels and titles inside the panel, as they keep them inside the
   * figure. */
  ctx->area = *area;
  panel_axes (ctx, c, panel, &inner, &x, &y, &plot);
  if (c->limiting)
    {
      WsColor tint = _ws_color_mix (&ctx->theme->background, &ctx->theme->severity[2], 0.06);

      _ws_set_color (ctx->cr, &tint);
      cairo_rectangle (ctx->cr, plot.x, plot.y, plot.width, plot.height);
      cairo_fill (ctx->cr);
    }
  _ws_axis_draw_grid (ctx, &x, &plot);
  _ws_axis_draw_grid (ctx, &y, &plot);
  panel_curve (ctx, c, panel, &x, &y, &plot, &ctx->theme->series[panel]);
  panel_current (ctx, c, data->result.occupancy, &x, &y, &plot);
  _ws_axis_draw (ctx, &x, &plot);
  _ws_axis_draw (ctx, &y, &plot);
  ctx->area = whole;
  _ws_axis_clear (&x);
  _ws_axis_clear (&y);
}

void
_ws_occupancy_draw (WsChartContext *ctx, const WsOccupancyData *data)
{
  double gap = 2.2 * ctx->line_height, w, head = 0;
  WsRect content;

  _ws_chart_frame_draw (ctx, &data->frame, TRUE, &content);
  if (data->frame.message)
    {
      _ws_chart_message (ctx, &content, data->frame.message);
      return;
    }
  w = (content.width - 2 * gap) / WS_N_PANELS;
  for (int p = 0; p < WS_N_PANELS; p++)
    {
      WsRect area = { content.x + p * (w + gap), content.y, w, content.height };

      head = MAX (head, panel_heading (ctx, &data->curves[p], &area, FALSE));
    }
  for (int p = 0; p < WS_N_PANELS; p++)
    {
      WsRect area = { content.x + p * (w + gap), content.y, w, content.height };

      if (data->curves[p].points == NULL || data->curves[p].points->len == 0)
        continue;
      draw_panel (ctx, data, (WsOccupancyPanel) p, &area, head);
    }
}

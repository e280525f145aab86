/* ws-chart-occupancy.c: the occupancy calculator's three curves side by side, as in Nsight
 * Compute's: occupancy against threads per block, registers per thread and shared memory per
 * block, each with the current configuration marked and the limiting resource named.
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
#include "ws-occupancy.h"

typedef enum
{
  PANEL_BLOCK,
  PANEL_REGISTERS,
  PANEL_SMEM,
  N_PANELS
} Panel;

static char *
percent_tick (double value, double step, gpointer data)
{
  return g_strdup_printf ("%.0f%%", value * 100);
}

static char *
kib_tick (double value, double step, gpointer data)
{
  return _ws_format_tick (value / 1024, step / 1024);
}

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
_ws_occupancy_chart_input (WsSession *session, const WsChartOptions *o, WsRun **run,
                           WsOccupancyInput *input)
{
  WsRun *r = pick_run (session, o->run);
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

static Panel
limiter_panel (WsLimiter limiter)
{
  switch (limiter)
    {
    case WS_LIMITER_REGISTERS:
      return PANEL_REGISTERS;
    case WS_LIMITER_SHARED_MEMORY:
      return PANEL_SMEM;
    case WS_LIMITER_WARPS:
    case WS_LIMITER_BLOCKS:
    default:
      return PANEL_BLOCK;
    }
}

static void
draw_panel (WsChartContext *ctx, const WsRect *area, Panel panel, GArray *points,
            double current_x, double current_occ, gboolean limiting, const WsArchLimits *arch,
            const WsColor *color)
{
  static const char *const titles[] = { N_("Threads per block"), N_("Registers per thread"),
                                        N_("Shared memory per block (KiB)") };
  cairo_t *cr = ctx->cr;
  WsAxis x, y;
  WsRect plot, inner = *area;
  double xmax = 1;
  g_autofree char *heading = limiting ? g_strdup_printf (_("%s: the limit"), _(titles[panel]))
                                      : g_strdup (_(titles[panel]));

  {
    WsColor ink = _ws_color_readable (ctx->theme, &ctx->theme->severity[2]);

    _ws_text_show (ctx, limiting ? WS_FONT_BOLD : WS_FONT_NORMAL, heading, area->x, area->y, 0,
                   0, limiting ? &ink : &ctx->theme->foreground);
  }
  inner.y += 1.4 * ctx->line_height;
  inner.height -= 1.4 * ctx->line_height;
  for (guint i = 0; i < points->len; i++)
    xmax = MAX (xmax, g_array_index (points, WsOccupancyPoint, i).x);

  _ws_axis_init (&x, WS_AXIS_BOTTOM, WS_SCALE_LINEAR, 0, xmax, _(titles[panel]));
  if (panel == PANEL_SMEM)
    {
      double step = 1024;

      x.format = kib_tick;
      while (xmax / step > 6)
        step *= 2;
      x.fixed = g_array_new (FALSE, FALSE, sizeof (double));
      for (double v = 0; v <= xmax + 1e-9; v += step)
        g_array_append_val (x.fixed, v);
      x.title = _("Shared memory per block (KiB)");
    }
  else
    {
      /* Warps for threads; for registers the same powers of two read naturally. */
      double step = panel == PANEL_BLOCK ? arch->warp_size : 8;

      while (xmax / step > 6)
        step *= 2;
      x.fixed = g_array_new (FALSE, FALSE, sizeof (double));
      for (double v = 0; v <= xmax + 1e-9; v += step)
        g_array_append_val (x.fixed, v);
    }
  _ws_axis_init (&y, WS_AXIS_LEFT, WS_SCALE_LINEAR, 0, 1.05, panel == PANEL_BLOCK
                                                                  ? _("Occupancy")
                                                                  : NULL);
  y.fixed = g_array_new (FALSE, FALSE, sizeof (double));
  for (double v = 0; v <= 1.0001; v += 0.25)
    g_array_append_val (y.fixed, v);
  y.format = percent_tick;
  _ws_plot_layout (ctx, &inner, &x, &y, NULL, &plot);
  if (limiting)
    {
      WsColor tint = _ws_color_mix (&ctx->theme->background, &ctx->theme->severity[2], 0.06);

      _ws_set_color (cr, &tint);
      cairo_rectangle (cr, plot.x, plot.y, plot.width, plot.height);
      cairo_fill (cr);
    }
  _ws_axis_draw_grid (ctx, &x, &plot);
  _ws_axis_draw_grid (ctx, &y, &plot);

  /* Steps: between two points a block, a register count or an allocation rounds up to the
   * next point, so each point's occupancy holds back to the one before it. */
  cairo_save (cr);
  cairo_rectangle (cr, plot.x, plot.y - 2, plot.width, plot.height + 4);
  cairo_clip (cr);
  _ws_set_color (cr, color);
  cairo_set_line_width (cr, ctx->theme->line_width * 1.2);
  for (guint i = 0; i < points->len; i++)
    {
      const WsOccupancyPoint *p = &g_array_index (points, WsOccupancyPoint, i);
      double px = _ws_scale_map (&x.scale, p->x), py = _ws_scale_map (&y.scale, p->occupancy);

      if (i == 0)
        cairo_move_to (cr, px, py);
      else
        {
          double prev = _ws_scale_map (&x.scale, g_array_index (points, WsOccupancyPoint, i - 1).x);

          cairo_line_to (cr, prev, py);
          cairo_line_to (cr, px, py);
        }
    }
  cairo_stroke (cr);
  if (panel == PANEL_BLOCK && points->len <= 64)
    for (guint i = 0; i < points->len; i++)
      {
        const WsOccupancyPoint *p = &g_array_index (points, WsOccupancyPoint, i);

        _ws_draw_marker (ctx, WS_MARKER_CIRCLE, _ws_scale_map (&x.scale, p->x),
                         _ws_scale_map (&y.scale, p->occupancy), 4 * ctx->unit, color, NULL);
      }
  cairo_restore (cr);

  /* The current configuration. */
  {
    double px = _ws_scale_map (&x.scale, current_x), py = _ws_scale_map (&y.scale, current_occ);
    double dash[] = { 4 * ctx->unit, 3 * ctx->unit };
    g_autofree char *occ = _ws_format_percent (current_occ);
    g_autofree char *xs = panel == PANEL_SMEM ? _ws_format_bytes (current_x)
                                              : g_strdup_printf ("%.0f", current_x);
    g_autofree char *text = g_strdup_printf ("%s → %s", xs, occ);
    double w = _ws_text_width (ctx, WS_FONT_BOLD, text);

    cairo_save (cr);
    cairo_set_dash (cr, dash, 2, 0);
    _ws_set_color (cr, &ctx->theme->foreground);
    cairo_set_line_width (cr, 1.2 * ctx->unit);
    cairo_move_to (cr, px, plot.y);
    cairo_line_to (cr, px, plot.y + plot.height);
    cairo_stroke (cr);
    cairo_restore (cr);
    _ws_draw_marker (ctx, WS_MARKER_DIAMOND, px, py, 11 * ctx->unit, &ctx->theme->foreground,
                     &ctx->theme->background);
    {
      /* By the dashed line near the bottom of the panel, where the curves rarely go: the
       * mark says where, the words say how much. */
      double tx = px + 6 * ctx->unit + w <= plot.x + plot.width ? px + 6 * ctx->unit
                                                                 : px - 6 * ctx->unit - w;
      double ty = plot.y + plot.height - 1.8 * ctx->line_height;

      tx = MAX (tx, plot.x + 2);
      _ws_draw_halo (ctx, tx - 2, ty, w + 4, ctx->line_height, 0.85);
      _ws_text_show (ctx, WS_FONT_BOLD, text, tx, ty, 0, 0, &ctx->theme->foreground);
    }
  }
  _ws_axis_draw (ctx, &x, &plot);
  _ws_axis_draw (ctx, &y, &plot);
  _ws_axis_clear (&x);
  _ws_axis_clear (&y);
}

void
_ws_chart_occupancy (WsChartContext *ctx, GPtrArray *sessions)
{
  WsSession *session = sessions && sessions->len ? g_ptr_array_index (sessions, 0) : NULL;
  const WsChartOptions *o = ctx->options;
  WsRun *run = NULL;
  WsOccupancyInput input;
  const char *arch_name = _ws_occupancy_chart_input (session, o, &run, &input);
  const WsArchLimits *arch = ws_arch_limits_lookup (arch_name);
  g_autoptr (GError) error = NULL;
  GArray *curves[N_PANELS] = { NULL };
  g_autofree char *title = NULL, *subtitle = NULL, *limit = NULL;
  WsOccupancy occ;
  WsRect content;
  double gap = 2.2 * ctx->line_height, w;
  double current[N_PANELS];

  if (arch == NULL)
    {
      _ws_chart_frame (ctx, ws_chart_kind_title (WS_CHART_OCCUPANCY), NULL, &content);
      title = g_strdup_printf (_("The occupancy calculator does not know the architecture “%s”."),
                               arch_name);
      _ws_chart_message (ctx, &content, title);
      return;
    }
  if (!ws_occupancy_compute (arch, &input, &occ, &error))
    {
      _ws_chart_frame (ctx, ws_chart_kind_title (WS_CHART_OCCUPANCY), NULL, &content);
      _ws_chart_message (ctx, &content, error->message);
      return;
    }
  curves[PANEL_BLOCK] = ws_occupancy_curve_block_size (arch, &input, NULL);
  curves[PANEL_REGISTERS] = ws_occupancy_curve_registers (arch, &input, NULL);
  curves[PANEL_SMEM] = ws_occupancy_curve_smem (arch, &input, NULL);
  current[PANEL_BLOCK] = input.threads_per_block;
  current[PANEL_REGISTERS] = input.registers_per_thread;
  current[PANEL_SMEM] = input.smem_per_block;

  {
    g_autofree char *pct = _ws_format_percent (occ.occupancy);

    /* TRANSLATORS: "Occupancy 50%: 32 of 64 warps per SM, sm_90 (Hopper)" */
    title = g_strdup_printf (_("%s %s: %d of %d warps per SM, %s (%s)"),
                             ws_chart_kind_title (WS_CHART_OCCUPANCY), pct, occ.active_warps,
                             occ.max_warps, arch->arch, arch->family);
  }
  {
    g_autofree char *smem = _ws_format_bytes (input.smem_per_block);
    g_autofree char *what = run ? g_strdup_printf (_("run %d, %s"), ws_run_get_id (run),
                                                   ws_run_get_config (run)->kernel)
                                : NULL;

    limit = g_strdup_printf (_("Occupancy is limited by %s."), ws_limiter_describe (occ.limiter));
    subtitle = g_strdup_printf (_("%s%s%d threads per block · %d registers per thread · %s "
                                  "shared memory per block → %d blocks per SM. %s"),
                                what ? what : "", what ? " · " : "", input.threads_per_block,
                                input.registers_per_thread, smem, occ.active_blocks, limit);
  }
  _ws_chart_frame (ctx, title, subtitle, &content);
  w = (content.width - 2 * gap) / N_PANELS;
  for (int p = 0; p < N_PANELS; p++)
    {
      WsRect area = { content.x + p * (w + gap), content.y, w, content.height };

      if (curves[p] == NULL || curves[p]->len == 0)
        continue;
      draw_panel (ctx, &area, (Panel) p, curves[p], current[p], occ.occupancy,
                  limiter_panel (occ.limiter) == (Panel) p, arch, &ctx->theme->series[p]);
    }
  for (int p = 0; p < N_PANELS; p++)
    g_clear_pointer (&curves[p], g_array_unref);
}

/* ws-chart-heatmap.c: a sweep over 2D block shapes as a grid of block width × block height,
 * each cell coloured by kernel time with the time and occupancy printed in it, shapes the GPU
 * cannot launch (more threads than a block may have) hatched, the best and its ties outlined.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "ws-analysis.h"
#include "ws-chart-axes-private.h"
#include "ws-chart-format-private.h"
#include "ws-chart-frame-private.h"
#include "ws-chart-private.h"
#include "ws-chart-shapes-private.h"

/* Viridis (van der Walt and Smith, matplotlib): perceptually even, readable in greyscale and
 * with every common colour blindness. Fast cells are light, slow ones dark. */
static const WsColor viridis[] = {
  { 0.993, 0.906, 0.144, 1 }, { 0.369, 0.788, 0.384, 1 }, { 0.128, 0.567, 0.551, 1 },
  { 0.231, 0.322, 0.545, 1 }, { 0.267, 0.005, 0.329, 1 },
};

static WsColor
ramp (double t)
{
  double p = CLAMP (t, 0, 1) * (G_N_ELEMENTS (viridis) - 1);
  guint i = MIN ((guint) p, G_N_ELEMENTS (viridis) - 2);

  return _ws_color_mix (&viridis[i], &viridis[i + 1], p - i);
}

static int
compare_uint (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

static void
add_unique (GArray *values, guint v)
{
  for (guint i = 0; i < values->len; i++)
    if (g_array_index (values, guint, i) == v)
      return;
  g_array_append_val (values, v);
}

static WsRun *
cell_run (WsSeries *series, guint bx, guint by)
{
  for (guint i = 0; i < series->runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (series->runs, i);
      const WsRunConfig *c = ws_run_get_config (run);

      if (c->block[0] == bx && c->block[1] == by)
        return run;
    }
  return NULL;
}

void
_ws_chart_heatmap (WsChartContext *ctx, WsSession *session, WsSeries *series,
                   const WsRect *content_in)
{
  g_autoptr (GArray) xs = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) ys = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GPtrArray) tied = g_ptr_array_new ();
  WsDevice *device = ws_session_get_device (session);
  int max_threads = device && ws_device_get_info (device)->max_threads_per_block > 0
                        ? ws_device_get_info (device)->max_threads_per_block
                        : 1024;
  double lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE;
  WsRect content = *content_in, grid;
  double label_w = 0, cell_w, cell_h, bar_w, title_h = ctx->line_height * 1.4;
  WsRun *best;
  cairo_t *cr = ctx->cr;
  WsLegendItem items[4];
  guint n_items = 0;

  for (guint i = 0; i < series->runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (series->runs, i);
      const WsRunConfig *c = ws_run_get_config (run);

      add_unique (xs, c->block[0]);
      add_unique (ys, c->block[1]);
      _ws_range_update (ws_run_get_kernel_ns (run), TRUE, &lo, &hi);
    }
  g_array_sort (xs, compare_uint);
  g_array_sort (ys, compare_uint);
  best = ws_analysis_rank_blocks (series, tied);

  items[n_items++] = (WsLegendItem) { _("more threads than a block may have"),
                                      ctx->theme->muted, WS_LEGEND_HATCH, -1 };
  items[n_items++] = (WsLegendItem) { _("fastest"), ctx->theme->highlight, WS_LEGEND_OUTLINE,
                                      -1 };
  if (tied->len > 1)
    items[n_items++] = (WsLegendItem) { _("tied with the fastest (dashed)"),
                                        ctx->theme->muted, WS_LEGEND_OUTLINE, -1 };
  {
    double h = _ws_legend_draw (ctx, items, n_items, content.x, content.y, content.width, TRUE);

    content.y += h + 0.4 * ctx->line_height;
    content.height -= h + 0.4 * ctx->line_height;
  }
  _ws_chart_annotate (ctx, session, series->runs, WS_CHART_PLOT_KEEP (ctx), &content);

  for (guint j = 0; j < ys->len; j++)
    {
      g_autofree char *t = g_strdup_printf ("%u", g_array_index (ys, guint, j));

      label_w = MAX (label_w, _ws_text_width (ctx, WS_FONT_NORMAL, t));
    }
  bar_w = 5 * ctx->line_height;
  grid.x = content.x + title_h + label_w + 0.6 * ctx->line_height;
  grid.y = content.y;
  grid.width = MAX (content.width - (grid.x - content.x) - bar_w - ctx->line_height, 1);
  grid.height = MAX (content.height - 2 * title_h - ctx->line_height * 0.4, 1);
  cell_w = grid.width / xs->len;
  cell_h = grid.height / ys->len;

  for (guint i = 0; i < xs->len; i++)
    for (guint j = 0; j < ys->len; j++)
      {
        guint bx = g_array_index (xs, guint, i);
        /* Rows go up: the smallest height at the bottom, as on an axis. */
        guint by = g_array_index (ys, guint, ys->len - 1 - j);
        WsRect cell = { grid.x + i * cell_w + 1, grid.y + j * cell_h + 1, cell_w - 2,
                        cell_h - 2 };
        WsRun *run = cell_run (series, bx, by);

        if (run != NULL && ws_run_get_kernel_ns (run) > 0)
          {
            double v = ws_run_get_kernel_ns (run);
            double t = hi > lo ? (log (v) - log (lo)) / (log (hi) - log (lo)) : 0.0;
            WsColor fill = ramp (t), text = _ws_color_text_on (&fill);
            const WsLaunch *launch = ws_run_get_launch (run);
            g_autofree char *dur = _ws_format_duration (v);
            g_autofree char *occ = launch ? _ws_format_percent (launch->occupancy) : NULL;
            g_autofree char *occ_text = occ ? g_strdup_printf (_("occupancy %s"), occ) : NULL;
            double w_dur = _ws_text_width (ctx, WS_FONT_BOLD, dur);

            cairo_rectangle (cr, cell.x, cell.y, cell.width, cell.height);
            _ws_fill_shape (ctx, &fill);
            if (w_dur <= cell.width - 4 && cell.height >= ctx->line_height)
              {
                gboolean two = occ_text && cell.height >= 2.4 * ctx->line_height
                               && _ws_text_width (ctx, WS_FONT_SMALL, occ_text) <= cell.width - 4;
                double cy = cell.y + cell.height / 2;

                _ws_text_show (ctx, WS_FONT_BOLD, dur, cell.x + cell.width / 2,
                               two ? cy - 0.1 * ctx->line_height : cy, 0.5, two ? 1 : 0.5,
                               &text);
                if (two)
                  _ws_text_show (ctx, WS_FONT_SMALL, occ_text, cell.x + cell.width / 2,
                                 cy + 0.1 * ctx->line_height, 0.5, 0, &text);
              }
          }
        else if ((guint64) bx * by > (guint64) max_threads)
          {
            g_autofree char *why = g_strdup_printf (_("%u threads > %d"), bx * by, max_threads);
            double w = _ws_text_width (ctx, WS_FONT_SMALL, why);

            _ws_draw_hatch (ctx, &cell, &ctx->theme->muted);
            if (w + 8 <= cell.width && ctx->small_height * 1.4 <= cell.height)
              {
                _ws_set_color (cr, &ctx->theme->background);
                cairo_rectangle (cr, cell.x + (cell.width - w) / 2 - 4,
                                 cell.y + cell.height / 2 - ctx->small_height * 0.6, w + 8,
                                 ctx->small_height * 1.2);
                cairo_fill (cr);
                _ws_text_show (ctx, WS_FONT_SMALL, why, cell.x + cell.width / 2,
                               cell.y + cell.height / 2, 0.5, 0.5, &ctx->theme->muted);
              }
          }
        else
          {
            WsColor empty = _ws_color_mix (&ctx->theme->background, &ctx->theme->foreground,
                                           0.05);

            _ws_set_color (cr, &empty);
            cairo_rectangle (cr, cell.x, cell.y, cell.width, cell.height);
            cairo_fill (cr);
            _ws_text_show (ctx, WS_FONT_SMALL, _("not measured"), cell.x + cell.width / 2,
                           cell.y + cell.height / 2, 0.5, 0.5, &ctx->theme->muted);
          }
        if (run != NULL && (run == best || g_ptr_array_find (tied, run, NULL)))
          {
            cairo_save (cr);
            if (run != best)
              {
                double dash[] = { 5 * ctx->unit, 3 * ctx->unit };

                cairo_set_dash (cr, dash, 2, 0);
              }
            cairo_rectangle (cr, cell.x + 2, cell.y + 2, cell.width - 4, cell.height - 4);
            _ws_set_color (cr, run == best ? &ctx->theme->highlight : &ctx->theme->muted);
            cairo_set_line_width (cr, (run == best ? 3.5 : 2) * ctx->unit);
            cairo_stroke (cr);
            cairo_restore (cr);
          }
      }

  /* Axis labels: widths under the columns, heights beside the rows. */
  for (guint i = 0; i < xs->len; i++)
    {
      g_autofree char *t = g_strdup_printf ("%u", g_array_index (xs, guint, i));

      _ws_text_show (ctx, WS_FONT_NORMAL, t, grid.x + (i + 0.5) * cell_w,
                     grid.y + grid.height + 0.2 * ctx->line_height, 0.5, 0,
                     &ctx->theme->foreground);
    }
  for (guint j = 0; j < ys->len; j++)
    {
      g_autofree char *t = g_strdup_printf ("%u", g_array_index (ys, guint, ys->len - 1 - j));

      _ws_text_show (ctx, WS_FONT_NORMAL, t, grid.x - 0.4 * ctx->line_height,
                     grid.y + (j + 0.5) * cell_h, 1, 0.5, &ctx->theme->foreground);
    }
  _ws_text_show (ctx, WS_FONT_NORMAL, _("Block width (threads in x)"), grid.x + grid.width / 2,
                 grid.y + grid.height + 0.3 * ctx->line_height + title_h * 0.8, 0.5, 0,
                 &ctx->theme->foreground);
  _ws_text_show_vertical (ctx, WS_FONT_NORMAL, _("Block height (threads in y)"), content.x,
                          grid.y + grid.height / 2, 0.5, 0, &ctx->theme->foreground);

  /* The colour scale. */
  {
    double bx = grid.x + grid.width + ctx->line_height;
    double bw = 1.2 * ctx->line_height;
    double by = grid.y + 1.5 * ctx->line_height, bh = MAX (grid.height - 3 * ctx->line_height, 10);
    g_autofree char *fast = hi > 0 ? _ws_format_duration (lo) : g_strdup ("–");
    g_autofree char *slow = hi > 0 ? _ws_format_duration (hi) : g_strdup ("–");

    for (int k = 0; k < 64; k++)
      {
        WsColor c = ramp (k / 63.0);

        _ws_set_color (cr, &c);
        cairo_rectangle (cr, bx, by + bh * k / 64.0, bw, bh / 64.0 + 0.5);
        cairo_fill (cr);
      }
    _ws_text_show (ctx, WS_FONT_SMALL, _("Kernel time"), bx, grid.y, 0, 0,
                   &ctx->theme->foreground);
    _ws_text_show (ctx, WS_FONT_SMALL, fast, bx + bw + 4 * ctx->unit, by, 0, 0,
                   &ctx->theme->foreground);
    _ws_text_show (ctx, WS_FONT_SMALL, _("fast"), bx + bw + 4 * ctx->unit,
                   by + ctx->small_height, 0, 0, &ctx->theme->muted);
    _ws_text_show (ctx, WS_FONT_SMALL, slow, bx + bw + 4 * ctx->unit, by + bh, 0, 1,
                   &ctx->theme->foreground);
    _ws_text_show (ctx, WS_FONT_SMALL, _("slow"), bx + bw + 4 * ctx->unit,
                   by + bh - ctx->small_height, 0, 1, &ctx->theme->muted);
  }
}

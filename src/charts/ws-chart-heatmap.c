/* ws-chart-heatmap.c: a sweep over 2D block shapes as a grid of block width × block height,
 * each cell coloured by kernel time with the time and occupancy printed in it, shapes the GPU
 * cannot launch (more threads than a block may have) hatched, the best and its ties outlined.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "ws-analysis.h"
#include "ws-chart-blocks-private.h"
#include "ws-chart-format-private.h"

/* Viridis (van der Walt and Smith, matplotlib): perceptually even, readable in greyscale and
 * with every common colour blindness. Fast cells are light, slow ones dark. */
static const WsColor viridis[] = {
  { 0.993, 0.906, 0.144, 1 }, { 0.369, 0.788, 0.384, 1 }, { 0.128, 0.567, 0.551, 1 },
  { 0.231, 0.322, 0.545, 1 }, { 0.267, 0.005, 0.329, 1 },
};

WsColor
_ws_heatmap_ramp (double t)
{
  double p = CLAMP (t, 0, 1) * (G_N_ELEMENTS (viridis) - 1);
  guint i = MIN ((guint) p, G_N_ELEMENTS (viridis) - 2);

  return _ws_color_mix (&viridis[i], &viridis[i + 1], p - i);
}

/* ---- collect ---------------------------------------------------------------------------- */

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

static void
cell_clear (WsHeatmapCell *cell)
{
  g_free (cell->time);
  g_free (cell->occupancy);
  g_free (cell->why);
}

static void
collect_cell (WsHeatmapData *data, WsHeatmapCell *cell, WsRun *run, int max_threads)
{
  double v = run ? ws_run_get_kernel_ns (run) : 0;

  if (run != NULL && v > 0)
    {
      const WsLaunch *launch = ws_run_get_launch (run);
      g_autofree char *occ = launch ? ws_units_percent (launch->occupancy) : NULL;

      cell->state = WS_CELL_MEASURED;
      cell->value = v;
      cell->shade = data->hi > data->lo
                        ? (log (v) - log (data->lo)) / (log (data->hi) - log (data->lo))
                        : 0.0;
      cell->time = ws_units_duration (v);
      cell->occupancy = occ ? g_strdup_printf (_("occupancy %s"), occ) : NULL;
    }
  else if ((guint64) cell->bx * cell->by > (guint64) max_threads)
    {
      guint64 threads = (guint64) cell->bx * cell->by;

      cell->state = WS_CELL_TOO_BIG;
      cell->why = g_strdup_printf (_("%u threads > %d"), (guint) MIN (threads, G_MAXUINT),
                                   max_threads);
    }
  else
    cell->state = WS_CELL_NOT_MEASURED;
}

static void
collect_legend (WsHeatmapData *data, const WsTheme *theme, guint n_tied)
{
  _ws_legend_add (&data->legend, _("more threads than a block may have"), &theme->muted,
                  WS_LEGEND_HATCH, -1);
  _ws_legend_add (&data->legend, _("fastest"), &theme->highlight, WS_LEGEND_OUTLINE, -1);
  if (n_tied > 1)
    _ws_legend_add (&data->legend, _("tied with the fastest (dashed)"), &theme->muted,
                    WS_LEGEND_OUTLINE, -1);
}

WsHeatmapData *
_ws_heatmap_collect (WsSession *session, WsSeries *series, const WsTheme *theme)
{
  WsHeatmapData *data = g_new0 (WsHeatmapData, 1);
  g_autoptr (GPtrArray) tied = g_ptr_array_new ();
  WsDevice *device = ws_session_get_device (session);
  int max_threads = device && ws_device_get_info (device)->max_threads_per_block > 0
                        ? ws_device_get_info (device)->max_threads_per_block
                        : 1024;
  WsRun *best;

  data->xs = g_array_new (FALSE, FALSE, sizeof (guint));
  data->ys = g_array_new (FALSE, FALSE, sizeof (guint));
  data->cells = g_array_new (FALSE, TRUE, sizeof (WsHeatmapCell));
  g_array_set_clear_func (data->cells, (GDestroyNotify) cell_clear);
  _ws_legend_init (&data->legend);
  data->lo = G_MAXDOUBLE;
  data->hi = -G_MAXDOUBLE;
  for (guint i = 0; i < series->runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (series->runs, i);
      const WsRunConfig *c = ws_run_get_config (run);

      add_unique (data->xs, c->block[0]);
      add_unique (data->ys, c->block[1]);
      _ws_range_update (ws_run_get_kernel_ns (run), TRUE, &data->lo, &data->hi);
    }
  g_array_sort (data->xs, compare_uint);
  g_array_sort (data->ys, compare_uint);
  best = ws_analysis_rank_blocks (series, tied);
  for (guint i = 0; i < data->xs->len; i++)
    for (guint j = 0; j < data->ys->len; j++)
      {
        WsHeatmapCell cell = { g_array_index (data->xs, guint, i),
                               g_array_index (data->ys, guint, j) };
        WsRun *run = cell_run (series, cell.bx, cell.by);

        collect_cell (data, &cell, run, max_threads);
        cell.run = run ? ws_run_get_id (run) : 0;
        cell.best = run != NULL && run == best;
        cell.tied = run != NULL && run != best && g_ptr_array_find (tied, run, NULL);
        g_array_append_val (data->cells, cell);
      }
  data->fast = data->hi > 0 ? ws_units_duration (data->lo) : g_strdup (WS_UNITS_NONE);
  data->slow = data->hi > 0 ? ws_units_duration (data->hi) : g_strdup (WS_UNITS_NONE);
  collect_legend (data, theme, tied->len);
  return data;
}

void
_ws_heatmap_data_free (WsHeatmapData *data)
{
  if (data == NULL)
    return;
  g_clear_pointer (&data->xs, g_array_unref);
  g_clear_pointer (&data->ys, g_array_unref);
  g_clear_pointer (&data->cells, g_array_unref);
  _ws_legend_clear (&data->legend);
  g_free (data->fast);
  g_free (data->slow);
  g_free (data);
}

/* ---- draw ------------------------------------------------------------------------------- */

typedef struct
{
  WsRect content, grid;
  double cell_w, cell_h, title_h;
} Layout;

static void
layout (WsChartContext *ctx, const WsHeatmapData *data, const WsRect *content, Layout *l)
{
  double label_w = 0, bar_w = 5 * ctx->line_height;

  l->content = *content;
  l->title_h = ctx->line_height * 1.4;
  for (guint j = 0; j < data->ys->len; j++)
    {
      g_autofree char *t = g_strdup_printf ("%u", g_array_index (data->ys, guint, j));

      label_w = MAX (label_w, _ws_text_width (ctx, WS_FONT_NORMAL, t));
    }
  l->grid.x = content->x + l->title_h + label_w + 0.6 * ctx->line_height;
  l->grid.y = content->y;
  l->grid.width = MAX (content->width - (l->grid.x - content->x) - bar_w - ctx->line_height, 1);
  l->grid.height = MAX (content->height - 2 * l->title_h - ctx->line_height * 0.4, 1);
  l->cell_w = l->grid.width / MAX (data->xs->len, 1);
  l->cell_h = l->grid.height / MAX (data->ys->len, 1);
}

static void
draw_measured (WsChartContext *ctx, const WsHeatmapCell *cell, const WsRect *r)
{
  WsColor fill = _ws_heatmap_ramp (cell->shade), text = _ws_color_text_on (&fill);
  double w_dur = _ws_text_width (ctx, WS_FONT_BOLD, cell->time);
  gboolean two;
  double cy = r->y + r->height / 2;

  cairo_rectangle (ctx->cr, r->x, r->y, r->width, r->height);
  _ws_fill_shape (ctx, &fill);
  if (w_dur > r->width - 4 || r->height < ctx->line_height)
    return;
  two = cell->occupancy && r->height >= 2.4 * ctx->line_height
        && _ws_text_width (ctx, WS_FONT_SMALL, cell->occupancy) <= r->width - 4;
  _ws_text_show (ctx, WS_FONT_BOLD, cell->time, r->x + r->width / 2,
                 two ? cy - 0.1 * ctx->line_height : cy, 0.5, two ? 1 : 0.5, &text);
  if (two)
    _ws_text_show (ctx, WS_FONT_SMALL, cell->occupancy, r->x + r->width / 2,
                   cy + 0.1 * ctx->line_height, 0.5, 0, &text);
}

static void
draw_too_big (WsChartContext *ctx, const WsHeatmapCell *cell, const WsRect *r)
{
  double w = _ws_text_width (ctx, WS_FONT_SMALL, cell->why);

  _ws_draw_hatch (ctx, r, &ctx->theme->muted);
  if (w + 8 > r->width || ctx->small_height * 1.4 > r->height)
    return;
  _ws_set_color (ctx->cr, &ctx->theme->background);
  cairo_rectangle (ctx->cr, r->x + (r->width - w) / 2 - 4,
                   r->y + r->height / 2 - ctx->small_height * 0.6, w + 8,
                   ctx->small_height * 1.2);
  cairo_fill (ctx->cr);
  _ws_text_show (ctx, WS_FONT_SMALL, cell->why, r->x + r->width / 2, r->y + r->height / 2, 0.5,
                 0.5, &ctx->theme->muted);
}

static void
draw_unmeasured (WsChartContext *ctx, const WsRect *r)
{
  WsColor empty = _ws_color_mix (&ctx->theme->background, &ctx->theme->foreground, 0.05);

  _ws_set_color (ctx->cr, &empty);
  cairo_rectangle (ctx->cr, r->x, r->y, r->width, r->height);
  cairo_fill (ctx->cr);
  _ws_text_show (ctx, WS_FONT_SMALL, _("not measured"), r->x + r->width / 2,
                 r->y + r->height / 2, 0.5, 0.5, &ctx->theme->muted);
}

/* The fastest is outlined, its ties dashed. */
static void
draw_outline (WsChartContext *ctx, const WsHeatmapCell *cell, const WsRect *r)
{
  cairo_t *cr = ctx->cr;
  double dash[] = { 5 * ctx->unit, 3 * ctx->unit };

  if (!cell->best && !cell->tied)
    return;
  cairo_save (cr);
  if (!cell->best)
    cairo_set_dash (cr, dash, 2, 0);
  cairo_rectangle (cr, r->x + 2, r->y + 2, r->width - 4, r->height - 4);
  _ws_set_color (cr, cell->best ? &ctx->theme->highlight : &ctx->theme->muted);
  cairo_set_line_width (cr, (cell->best ? 3.5 : 2) * ctx->unit);
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
draw_cells (WsChartContext *ctx, const WsHeatmapData *data, const Layout *l)
{
  for (guint i = 0; i < data->xs->len; i++)
    for (guint row = 0; row < data->ys->len; row++)
      {
        /* Rows go up: the smallest height at the bottom, as on an axis. */
        guint j = data->ys->len - 1 - row;
        const WsHeatmapCell *cell
            = &g_array_index (data->cells, WsHeatmapCell, i * data->ys->len + j);
        WsRect r = { l->grid.x + i * l->cell_w + 1, l->grid.y + row * l->cell_h + 1,
                     l->cell_w - 2, l->cell_h - 2 };

        if (cell->state == WS_CELL_MEASURED)
          draw_measured (ctx, cell, &r);
        else if (cell->state == WS_CELL_TOO_BIG)
          draw_too_big (ctx, cell, &r);
        else
          draw_unmeasured (ctx, &r);
        draw_outline (ctx, cell, &r);
      }
}

/* Widths under the columns, heights beside the rows. */
static void
draw_labels (WsChartContext *ctx, const WsHeatmapData *data, const Layout *l)
{
  const WsRect *g = &l->grid;

  for (guint i = 0; i < data->xs->len; i++)
    {
      g_autofree char *t = g_strdup_printf ("%u", g_array_index (data->xs, guint, i));

      _ws_text_show (ctx, WS_FONT_NORMAL, t, g->x + (i + 0.5) * l->cell_w,
                     g->y + g->height + 0.2 * ctx->line_height, 0.5, 0, &ctx->theme->foreground);
    }
  for (guint j = 0; j < data->ys->len; j++)
    {
      g_autofree char *t = g_strdup_printf ("%u", g_array_index (data->ys, guint,
                                                                 data->ys->len - 1 - j));

      _ws_text_show (ctx, WS_FONT_NORMAL, t, g->x - 0.4 * ctx->line_height,
                     g->y + (j + 0.5) * l->cell_h, 1, 0.5, &ctx->theme->foreground);
    }
  _ws_text_show (ctx, WS_FONT_NORMAL, _("Block width (threads in x)"), g->x + g->width / 2,
                 g->y + g->height + 0.3 * ctx->line_height + l->title_h * 0.8, 0.5, 0,
                 &ctx->theme->foreground);
  _ws_text_show_vertical (ctx, WS_FONT_NORMAL, _("Block height (threads in y)"), l->content.x,
                          g->y + g->height / 2, 0.5, 0, &ctx->theme->foreground);
}

static void
draw_scale (WsChartContext *ctx, const WsHeatmapData *data, const Layout *l)
{
  double bx = l->grid.x + l->grid.width + ctx->line_height, bw = 1.2 * ctx->line_height;
  double by = l->grid.y + 1.5 * ctx->line_height;
  double bh = MAX (l->grid.height - 3 * ctx->line_height, 10), tx = bx + bw + 4 * ctx->unit;

  for (int k = 0; k < 64; k++)
    {
      WsColor c = _ws_heatmap_ramp (k / 63.0);

      _ws_set_color (ctx->cr, &c);
      cairo_rectangle (ctx->cr, bx, by + bh * k / 64.0, bw, bh / 64.0 + 0.5);
      cairo_fill (ctx->cr);
    }
  _ws_text_show (ctx, WS_FONT_SMALL, _("Kernel time"), bx, l->grid.y, 0, 0,
                 &ctx->theme->foreground);
  _ws_text_show (ctx, WS_FONT_SMALL, data->fast, tx, by, 0, 0, &ctx->theme->foreground);
  _ws_text_show (ctx, WS_FONT_SMALL, _("fast"), tx, by + ctx->small_height, 0, 0,
                 &ctx->theme->muted);
  _ws_text_show (ctx, WS_FONT_SMALL, data->slow, tx, by + bh, 0, 1, &ctx->theme->foreground);
  _ws_text_show (ctx, WS_FONT_SMALL, _("slow"), tx, by + bh - ctx->small_height, 0, 1,
                 &ctx->theme->muted);
}

void
_ws_heatmap_draw (WsChartContext *ctx, const WsChartFrame *frame, const WsHeatmapData *data,
                  const WsRect *content_in)
{
  WsRect content = *content_in;
  Layout l;

  _ws_legend_draw_above (ctx, &data->legend, &content);
  _ws_chart_notes_draw (ctx, frame, WS_CHART_PLOT_KEEP (ctx), TRUE, &content);
  layout (ctx, data, &content, &l);
  draw_cells (ctx, data, &l);
  draw_labels (ctx, data, &l);
  draw_scale (ctx, data, &l);
}

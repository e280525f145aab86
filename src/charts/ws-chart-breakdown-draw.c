/* ws-chart-breakdown-draw.c: the time breakdown drawn: a stacked bar per row with its
 * segments' shares written inside where they fit, its label to the left and its whole to the
 * right, and a line for the rows that did not fit (collected in ws-chart-breakdown.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "ws-chart-axes-private.h"
#include "ws-chart-breakdown-private.h"
#include "ws-chart-format-private.h"

typedef struct
{
  WsRect plot;
  WsAxis x;
  double left, right; /* where the rows' words may start and must end */
  double row_h;
  guint shown;   /* rows drawn */
  gboolean more; /* a line for the rows left out */
  gboolean brief; /* the right-hand column gives the whole alone: a narrow figure */
} Layout;

static char *
percent_tick (double value, double step, gpointer data)
{
  return g_strdup_printf ("%.0f%%", value * 100);
}

/* Rows no smaller than the small font; those that do not fit are said, not squeezed. */
static void
fit_rows (WsChartContext *ctx, const WsBreakdownData *data, Layout *l)
{
  double min_h = ctx->small_height * 1.15;
  guint n = data->rows->len;

  l->row_h = MIN (3.2 * ctx->line_height, l->plot.height / MAX (n, 1));
  l->shown = n;
  if (l->row_h < min_h)
    {
      /* As many rows as fit with a line left for "… and N more"; one at the least. */
      double fit = floor (l->plot.height / min_h);

      l->row_h = min_h;
      l->shown = fit >= 2 ? (guint) MIN (fit - 1, (double) n) : MIN (n, 1);
    }
  l->more = l->shown < data->n_runs;
}

static void
layout (WsChartContext *ctx, const WsBreakdownData *data, const WsRect *content, Layout *l)
{
  double label_w = 0, right_w = _ws_text_width (ctx, WS_FONT_SMALL, data->widest);
  WsRect area = { content->x, content->y + ctx->small_height * 1.2, content->width,
                  MAX (content->height - ctx->small_height * 1.2, 1) };

  _ws_axis_init (&l->x, WS_AXIS_BOTTOM, WS_SCALE_LINEAR, 0, 1, data->axis_title);
  l->x.fixed = g_array_new (FALSE, FALSE, sizeof (double));
  for (double v = 0; v <= 1.0001; v += 0.25)
    g_array_append_val (l->x.fixed, v);
  l->x.format = percent_tick;
  /* The rows' height follows from the axis below them; their labels' width from the rows
   * that fit. */
  _ws_plot_layout (ctx, &area, &l->x, NULL, NULL, &l->plot);
  fit_rows (ctx, data, l);
  for (guint i = 0; i < l->shown; i++)
    label_w = MAX (label_w, _ws_text_width (ctx, WS_FONT_BOLD,
                                            g_array_index (data->rows, WsBreakdownRow, i).label));
  /* A narrow figure (one column of a paper) keeps the bars at least about a third of its
   * width: the right-hand column gives the whole alone, the labels take less. */
  right_w = MAX (right_w, _ws_text_width (ctx, WS_FONT_SMALL, data->whole));
  l->brief = right_w + ctx->line_height > content->width * 0.3;
  if (l->brief)
    right_w = MAX (_ws_text_width (ctx, WS_FONT_SMALL, "999 ms"),
                   _ws_text_width (ctx, WS_FONT_SMALL, data->whole_short));
  label_w = MIN (label_w + 0.6 * ctx->line_height, content->width * (l->brief ? 0.4 : 0.45));
  right_w += ctx->line_height;
  l->left = content->x;
  l->right = content->x + content->width;
  area.x = content->x + label_w;
  area.width = MAX (content->width - label_w - right_w, 1);
  _ws_plot_layout (ctx, &area, &l->x, NULL, NULL, &l->plot);
  l->plot.x = area.x;
  l->plot.width = area.width;
  l->x.scale.p0 = l->plot.x;
  l->x.scale.p1 = l->plot.x + l->plot.width;
  /* The axis sits under the last row. */
  l->plot.height = MIN (l->plot.height, (l->shown + (l->more ? 1 : 0)) * l->row_h);
}

static void
draw_bar (WsChartContext *ctx, const WsBreakdownData *data, const WsBreakdownRow *row,
          const Layout *l, double y, double h)
{
  const WsLegendItem *segments = (const WsLegendItem *) data->legend.items->data;
  double cx = l->plot.x;

  for (int s = 0; s < WS_N_SEGMENTS; s++)
    {
      double w = row->share[s] * l->plot.width;

      if (!(w > 0))
        continue;
      cairo_rectangle (ctx->cr, cx, y, w, h);
      _ws_fill_shape (ctx, &segments[s].color);
      if (h >= ctx->small_height * 0.95)
        {
          g_autofree char *p = ws_units_percent (row->share[s]);
          g_autofree char *named = g_strdup_printf ("%s %s", segments[s].label, p);
          const char *const candidates[] = { named, p, NULL };
          const char *fit = _ws_text_fit (ctx, WS_FONT_SMALL, candidates, w - 6 * ctx->unit);
          WsColor text = _ws_color_text_on (&segments[s].color);

          if (fit)
            _ws_text_show (ctx, WS_FONT_SMALL, fit, cx + w / 2, y + h / 2, 0.5, 0.5, &text);
        }
      cx += w;
    }
}

static void
draw_rows (WsChartContext *ctx, const WsBreakdownData *data, const Layout *l)
{
  for (guint i = 0; i < l->shown; i++)
    {
      const WsBreakdownRow *row = &g_array_index (data->rows, WsBreakdownRow, i);
      double h = l->row_h * 0.72, y = l->plot.y + i * l->row_h + (l->row_h - h) / 2;
      double end = l->plot.x - 0.5 * ctx->line_height;
      double start = l->plot.x + l->plot.width + 0.5 * ctx->line_height;
      /* Runs whose copies take at least half their time are what this chart is for: their
       * names are in bold. Words wider than the room the bars leave them are cut short with
       * an ellipsis, never drawn past the figure's edges. */
      WsFontRole role = row->copies >= 0.5 ? WS_FONT_BOLD : WS_FONT_SMALL;
      g_autofree char *label = _ws_text_dup_fitting (ctx, role, row->label, end - l->left);
      g_autofree char *whole = l->brief ? ws_units_duration ((double) row->span_ns) : NULL;
      g_autofree char *right = _ws_text_dup_fitting (ctx, WS_FONT_SMALL,
                                                     l->brief ? whole : row->right,
                                                     l->right - start);

      draw_bar (ctx, data, row, l, y, h);
      _ws_text_show (ctx, role, label, end, y + h / 2, 1, 0.5, &ctx->theme->foreground);
      _ws_text_show (ctx, WS_FONT_SMALL, right, start, y + h / 2, 0, 0.5,
                     &ctx->theme->foreground);
    }
  if (l->more)
    {
      guint rest = data->n_runs - l->shown;
      g_autofree char *more = g_strdup_printf (
          g_dngettext (GETTEXT_PACKAGE, "… and %u more run (export CSV for all)",
                       "… and %u more runs (export CSV for all)", rest),
          rest);
      /* Under the bars, or moved left (and cut short) to end inside the figure. */
      g_autofree char *fit = _ws_text_dup_fitting (ctx, WS_FONT_SMALL, more, l->right - l->left);
      double x = MAX (l->left, MIN (l->plot.x, l->right - _ws_text_width (ctx, WS_FONT_SMALL,
                                                                          fit)));

      _ws_text_show (ctx, WS_FONT_SMALL, fit, x, l->plot.y + l->shown * l->row_h + l->row_h / 2,
                     0, 0.5, &ctx->theme->muted);
    }
}

void
_ws_breakdown_draw (WsChartContext *ctx, const WsBreakdownData *data)
{
  WsRect content;
  Layout l;

  _ws_chart_frame_draw (ctx, &data->frame, TRUE, &content);
  if (data->frame.message)
    {
      _ws_chart_message (ctx, &content, data->frame.message);
      return;
    }
  _ws_legend_draw_above (ctx, &data->legend, &content);
  _ws_chart_notes_draw (ctx, &data->frame, WS_CHART_PLOT_KEEP (ctx), TRUE, &content);
  if (data->common)
    _ws_text_show (ctx, WS_FONT_SMALL, data->common, content.x, content.y, 0, 0,
                   &ctx->theme->muted);
  layout (ctx, data, &content, &l);
  {
    double x = l.plot.x + l.plot.width + 0.5 * ctx->line_height;
    g_autofree char *whole = _ws_text_dup_fitting (ctx, WS_FONT_SMALL,
                                                   l.brief ? data->whole_short : data->whole,
                                                   l.right - x);

    _ws_text_show (ctx, WS_FONT_SMALL, whole, x, content.y, 0, 0, &ctx->theme->muted);
  }
  _ws_axis_draw_grid (ctx, &l.x, &l.plot);
  draw_rows (ctx, data, &l);
  _ws_axis_draw (ctx, &l.x, &l.plot);
  _ws_axis_clear (&l.x);
}

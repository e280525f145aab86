/* ws-chart-timeline-layout.c: where the timeline's parts go (frame, findings, legend, and for
 * each group its ruler, phase band and rows, which give way when the chart is too short), and
 * the steps that draw it: rows and their labels, lanes, outlines, the selection, the legend.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ws-chart-timeline-private.h"

/* ---- the legend ------------------------------------------------------------------------- */

static WsColor
category_color (const WsTheme *theme, WsLaneCategory category, guint kernel_ordinal)
{
  switch (category)
    {
    case WS_LANE_CPU:
      return theme->cpu;
    case WS_LANE_H2D:
      return theme->h2d;
    case WS_LANE_KERNEL:
      return kernel_ordinal % 2 ? theme->kernel_alt : theme->kernel;
    case WS_LANE_D2H:
      return theme->d2h;
    case WS_LANE_OTHER_COPY:
      return theme->other_copy;
    case WS_LANE_MEMSET:
      return theme->memset;
    case WS_LANE_OVERHEAD:
      return _ws_color_mix (&theme->sync, &theme->background, 0.35);
    case WS_LANE_API:
      return theme->cpu;
    case WS_LANE_NVTX:
      return theme->series[3];
    case WS_LANE_JIT:
      return theme->series[6];
    case WS_LANE_SYNC:
    case WS_N_LANE_CATEGORIES:
    default:
      return theme->sync;
    }
}

gboolean
_ws_timeline_draws_wait (const WsCodeWait *wait)
{
  return wait->kind != WS_CODE_WAIT_MODULE_LOAD;
}

gboolean
_ws_timeline_group_draws_waits (const WsTimelineGroup *group)
{
  for (guint i = 0; group->waits != NULL && i < group->waits->len; i++)
    if (_ws_timeline_draws_wait (&g_array_index (group->waits, WsCodeWait, i)))
      return TRUE;
  return FALSE;
}

WsColor
_ws_timeline_wait_color (const WsTheme *theme)
{
  WsColor jit = category_color (theme, WS_LANE_JIT, 0);

  return _ws_color_mix (&theme->background, &jit, 0.35);
}

WsColor
_ws_timeline_row_color (const WsTheme *theme, const WsTimelineRow *row)
{
  return category_color (theme, _ws_timeline_row_category (row), row->kernel_ordinal);
}

/* The colours of the rows shown, what an outline means, and, once density bars are drawn,
 * what their paleness means. */
static void
legend_for (WsChartContext *ctx, const WsTimelineData *data, GArray *rows, gboolean density,
            WsLegend *legend)
{
  static const struct
  {
    WsLaneCategory category;
    const char *label;
  } items[] = {
    { WS_LANE_H2D, N_("H2D copy") },         { WS_LANE_D2H, N_("D2H copy") },
    { WS_LANE_OTHER_COPY, N_("other copy") }, { WS_LANE_KERNEL, N_("kernel") },
    { WS_LANE_MEMSET, N_("memset") },         { WS_LANE_SYNC, N_("host waits") },
    { WS_LANE_CPU, N_("CPU reference") },     { WS_LANE_OVERHEAD, N_("CUPTI overhead") },
    { WS_LANE_API, N_("API call") },          { WS_LANE_NVTX, N_("NVTX range") },
    { WS_LANE_JIT, N_("JIT compile") },
  };
  const WsTheme *t = ctx->theme;
  gboolean present[WS_N_LANE_CATEGORIES] = { FALSE };

  _ws_legend_init (legend);
  for (guint i = 0; i < rows->len; i++)
    present[_ws_timeline_row_category (&g_array_index (rows, WsTimelineRow, i))] = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    if (present[items[i].category])
      {
        WsColor color = category_color (t, items[i].category, 0);

        _ws_legend_add (legend, _(items[i].label), &color, WS_LEGEND_BOX, -1);
      }
  if (_ws_timeline_group_draws_waits (&data->groups[0]))
    {
      WsColor pale = _ws_timeline_wait_color (t);

      _ws_legend_add (legend, _("waiting for a compile"), &pale, WS_LEGEND_BOX, -1);
    }
  if (data->outline_legend)
    _ws_legend_add (legend, _("a finding points here"), &t->highlight, WS_LEGEND_OUTLINE, -1);
  if (density)
    {
      WsColor pale = _ws_color_mix (&t->kernel, &t->background, 0.55);

      _ws_legend_add (legend, _("pale: spans under a pixel, by share of time busy"), &pale,
                      WS_LEGEND_BOX, -1);
    }
}

static double
legend_height (WsChartContext *ctx, const WsTimelineData *data, const WsRect *content)
{
  WsLegend legend;
  double h;

  legend_for (ctx, data, data->groups[0].rows, TRUE, &legend);
  h = _ws_legend_draw (ctx, (const WsLegendItem *) legend.items->data, legend.items->len,
                       content->x, content->y, content->width, FALSE);
  _ws_legend_clear (&legend);
  return h;
}

/* ---- rows that fit ---------------------------------------------------------------------- */

/* Which lanes go first when the chart is too short for a line of text per lane (a projector
 * in presentation mode, two runs compared): the host's waits, CUPTI's own work and memsets;
 * copies, kernels and the CPU reference stay. */
static int
drop_rank (guint64 key)
{
  switch (WS_LANE_KEY_CATEGORY (key))
    {
    case WS_LANE_OVERHEAD:
      return 3;
    case WS_LANE_SYNC:
      return 2;
    case WS_LANE_MEMSET:
      return 1;
    case WS_LANE_CPU:
    case WS_LANE_H2D:
    case WS_LANE_KERNEL:
    case WS_LANE_D2H:
    case WS_LANE_OTHER_COPY:
    case WS_N_LANE_CATEGORIES:
    default:
      return 0;
    }
}

static void
fit_rows (WsChartContext *ctx, GArray *rows, double avail)
{
  while (rows->len > 1 && avail / rows->len < ctx->small_height * 1.2)
    {
      guint worst = 0;

      for (guint r = 1; r < rows->len; r++)
        if (drop_rank (g_array_index (rows, WsTimelineRow, r).key)
            >= drop_rank (g_array_index (rows, WsTimelineRow, worst).key))
          worst = r;
      if (drop_rank (g_array_index (rows, WsTimelineRow, worst).key) == 0)
        break;
      g_array_remove_index (rows, worst);
    }
}

/* The rows of `rows` that `like` has too, so that two compared runs keep the same lanes. */
static void
keep_rows_like (GArray *rows, GArray *like)
{
  for (guint r = rows->len; r-- > 0;)
    {
      gboolean found = FALSE;

      for (guint k = 0; k < like->len && !found; k++)
        found = g_array_index (like, WsTimelineRow, k).key
                == g_array_index (rows, WsTimelineRow, r).key;
      if (!found)
        g_array_remove_index (rows, r);
    }
}

int
_ws_timeline_row_of (const WsTimelineLayout *l, guint64 key)
{
  for (guint r = 0; r < l->rows->len; r++)
    if (g_array_index (l->rows, WsTimelineRow, r).key == key)
      return (int) r;
  return -1;
}

/* ---- the layout ------------------------------------------------------------------------- */

static double
label_width (WsChartContext *ctx, GArray *rows, const WsRect *content)
{
  double w = 0;

  for (guint i = 0; i < rows->len; i++)
    w = MAX (w, _ws_text_width (ctx, WS_FONT_NORMAL, g_array_index (rows, WsTimelineRow, i).label));
  return MIN (w + ctx->line_height, content->width * 0.3);
}

/* A group's ruler at ruler_y, its band under it, its plot under that; whole pixels, so that
 * span edges and density columns fall on pixel boundaries. Returns the height left for rows. */
static double
place_group (WsChartContext *ctx, WsTimelineLayout *l, const WsTimelineGroup *g,
             const WsRect *content, double ruler_y, double bottom)
{
  l->group = g;
  l->rows = g_array_new (FALSE, FALSE, sizeof (WsTimelineRow));
  g_array_append_vals (l->rows, g->rows->data, g->rows->len);
  l->start = g->start;
  l->end = g->end;
  l->origin = g->origin;
  l->content = *content;
  l->ruler_y = ruler_y;
  l->band.x = round (content->x + l->label_width);
  l->band.width = MAX (round (content->x + content->width) - l->band.x, 1);
  l->band.y = round (ruler_y + ctx->small_height + 6 * ctx->unit);
  l->band.height = 1.5 * ctx->small_height;
  l->plot.x = l->band.x;
  l->plot.width = l->band.width;
  l->plot.y = round (l->band.y + l->band.height + 2 * ctx->unit);
  return bottom - l->plot.y;
}

static void
size_rows (WsTimelineLayout *l, double avail, double max_row)
{
  l->row_height = floor (MIN (MAX (avail, 1) / MAX (l->rows->len, 1), max_row));
  l->row_height = MAX (l->row_height, 1);
  l->plot.height = l->row_height * l->rows->len;
}

/* Are there more narrow runs in view than the plot has room for? Then they go together. */
static void
decide_together (WsChartContext *ctx, WsTimelineLayout *l)
{
  const WsLaneIndex *index = l->group->index;
  double narrow = WS_TIMELINE_NARROW_RUN * ctx->unit, room = l->plot.width / narrow;
  guint n = 0;

  if (index == NULL) /* a traced program: no runs */
    {
      l->together = FALSE;
      return;
    }
  for (guint i = ws_lane_index_first_reaching (index, l->start);
       i < index->runs->len && index->starts[i] < l->end && n <= room; i++)
    if (index->ends[i] >= l->start
        && ((double) index->ends[i] - (double) index->starts[i]) * l->ppn < narrow)
      n++;
  l->together = n > room;
}

static void
layout_single (WsChartContext *ctx, const WsTimelineData *data, const WsRect *content,
               double legend_h, WsTimelineFrame *f)
{
  WsTimelineLayout *l = &f->group[0];
  double avail;

  f->n_groups = 1;
  l->legend_y = content->y;
  l->label_width = label_width (ctx, data->groups[0].rows, content);
  avail = place_group (ctx, l, &data->groups[0], content,
                       content->y + legend_h + 0.5 * ctx->line_height,
                       content->y + content->height);
  fit_rows (ctx, l->rows, avail);
  size_rows (l, avail, 8 * ctx->line_height);
  /* Exact to the nanosecond whatever the times: doubles of 10¹⁸ ns would not be. */
  l->ppn = l->plot.width / (double) MAX (ws_time_length (l->start, l->end), 1);
  decide_together (ctx, l);
}

/* Two groups one above the other, each counted from its own run's start on one scale, so that
 * their lengths and phases line up. */
static void
layout_compare (WsChartContext *ctx, const WsTimelineData *data, const WsRect *content,
                double legend_h, WsTimelineFrame *f)
{
  double width = label_width (ctx, data->groups[0].rows, content);
  double top = content->y + legend_h + 0.5 * ctx->line_height;
  double group_h = (content->y + content->height - top - ctx->line_height) / 2;
  double ppn = 0;

  f->n_groups = 2;
  for (guint i = 0; i < 2; i++)
    {
      WsTimelineLayout *l = &f->group[i];
      double ruler_y = round (top + i * (group_h + ctx->line_height)), avail;

      l->legend_y = content->y;
      l->label_width = width;
      avail = place_group (ctx, l, &data->groups[i], content, ruler_y, ruler_y + group_h);
      if (i == 0)
        fit_rows (ctx, l->rows, avail);
      else
        keep_rows_like (l->rows, f->group[0].rows);
      size_rows (l, avail, 6 * ctx->line_height);
      if (i == 0)
        ppn = l->plot.width
              / (double) MAX (ws_time_length (data->window_start, data->window_end), 1);
      l->ppn = ppn;
      decide_together (ctx, l);
    }
}

void
_ws_timeline_layout (WsChartContext *ctx, const WsTimelineData *data, gboolean draw,
                     WsTimelineFrame *f)
{
  WsRect content;
  double legend_h;

  memset (f, 0, sizeof *f);
  _ws_chart_frame_draw (ctx, &data->frame, draw, &content);
  /* Presentation mode writes the findings about the runs in view at the bottom; the lanes
   * take what is left, keeping a line each with the legend, the ruler and the band. */
  _ws_chart_notes_draw (ctx, &data->frame, data->notes_keep * ctx->line_height, draw, &content);
  legend_h = legend_height (ctx, data, &content);
  if (data->n_groups == 2)
    layout_compare (ctx, data, &content, legend_h, f);
  else
    layout_single (ctx, data, &content, legend_h, f);
}

void
_ws_timeline_frame_clear (WsTimelineFrame *f)
{
  for (guint i = 0; i < f->n_groups; i++)
    g_clear_pointer (&f->group[i].rows, g_array_unref);
  f->n_groups = 0;
}

/* ---- drawing ---------------------------------------------------------------------------- */

/* Rows squeezed below a line of text get the small font, and no label at all when even that
 * would overprint its neighbours (the legend still names the colours). */
static void
draw_rows (WsChartContext *ctx, const WsTimelineLayout *l)
{
  cairo_t *cr = ctx->cr;
  WsFontRole font = l->row_height >= 0.9 * ctx->line_height ? WS_FONT_NORMAL : WS_FONT_SMALL;

  for (guint r = 0; r < l->rows->len; r++)
    {
      const WsTimelineRow *row = &g_array_index (l->rows, WsTimelineRow, r);
      double y = l->plot.y + r * l->row_height;

      if (l->row_height >= 0.8 * ctx->small_height)
        _ws_text_show (ctx, font, row->label, l->content.x, y + l->row_height / 2, 0, 0.5,
                       &ctx->theme->foreground);
      if (r == 0)
        continue;
      _ws_set_color (cr, &ctx->theme->grid);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, l->content.x, round (y) + 0.5);
      cairo_line_to (cr, l->plot.x + l->plot.width, round (y) + 0.5);
      cairo_stroke (cr);
    }
}

/* The selected range, shaded. Comparing, it counts from each run's start. */
static void
draw_selection (WsChartContext *ctx, const WsTimelineData *data, const WsTimelineLayout *l)
{
  cairo_t *cr = ctx->cr;
  gint64 shift = data->n_groups > 1 ? l->origin : 0;
  double x0, x1;

  if (!data->has_selection)
    return;
  /* In integers: (double) G_MAXINT64 is 2^63, which does not fit back into a gint64. */
  x0 = _ws_timeline_x (l, ws_ns_add_saturated (data->selection_start, shift));
  x1 = _ws_timeline_x (l, ws_ns_add_saturated (data->selection_end, shift));
  _ws_set_color_alpha (cr, &ctx->theme->h2d, 0.14);
  cairo_rectangle (cr, x0, l->band.y, MAX (x1 - x0, 1), l->plot.y + l->plot.height - l->band.y);
  cairo_fill_preserve (cr);
  _ws_set_color_alpha (cr, &ctx->theme->h2d, 0.8);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
}

void
_ws_timeline_draw (WsChartContext *ctx, const WsTimelineData *data)
{
  WsTimelineFrame f;
  WsLegend legend;
  gboolean density = FALSE;

  if (data->frame.message)
    {
      WsRect content;

      _ws_chart_frame_draw (ctx, &data->frame, TRUE, &content);
      _ws_chart_message (ctx, &content, data->frame.message);
      return;
    }
  _ws_timeline_layout (ctx, data, TRUE, &f);
  for (guint i = 0; i < f.n_groups; i++)
    {
      const WsTimelineLayout *l = &f.group[i];

      _ws_timeline_draw_ruler (ctx, l);
      draw_rows (ctx, l);
      _ws_timeline_draw_band (ctx, l);
      density |= _ws_timeline_draw_lanes (ctx, l);
      _ws_timeline_draw_outlines (ctx, data, l);
      draw_selection (ctx, data, l);
    }
  legend_for (ctx, data, f.group[0].rows, density, &legend);
  _ws_legend_draw (ctx, (const WsLegendItem *) legend.items->data, legend.items->len,
                   f.group[0].content.x, f.group[0].legend_y, f.group[0].content.width, TRUE);
  _ws_legend_clear (&legend);
  _ws_timeline_frame_clear (&f);
}

/* ws-chart-breakdown.c: a stacked bar per run of where its copy-and-kernel sequences spent
 * their time (H2D, kernel, D2H, memset, idle), each bar as shares of its own span so that a
 * transfer-bound run reads at a glance whatever its size.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ws-chart-axes-private.h"
#include "ws-chart-breakdown-private.h"
#include "ws-chart-format-private.h"

static const char *const segment_names[WS_N_SEGMENTS] = { N_("H2D copy"), N_("kernel"),
                                                          N_("D2H copy"), N_("memset"),
                                                          N_("idle") };

/* ---- collect ---------------------------------------------------------------------------- */

static WsColor
segment_color (const WsTheme *t, WsSegment segment)
{
  switch (segment)
    {
    case WS_SEGMENT_H2D:
      return t->h2d;
    case WS_SEGMENT_KERNEL:
      return t->kernel;
    case WS_SEGMENT_D2H:
      return t->d2h;
    case WS_SEGMENT_OTHER:
      return t->memset;
    case WS_SEGMENT_IDLE:
    case WS_N_SEGMENTS:
    default:
      return t->idle;
    }
}

/* Shares of the run's sequence span, summing to 1. Copies and kernels that overlap are each
 * counted whole, so with overlap the segments are scaled to fit the bar. */
static gboolean
shares (const WsTotals *t, double share[WS_N_SEGMENTS])
{
  double busy, sum = 0;

  if (t->span_ns <= 0)
    return FALSE;
  busy = (double) t->span_ns - (double) t->idle_ns;
  share[WS_SEGMENT_H2D] = MAX (0, (double) t->h2d_ns);
  share[WS_SEGMENT_KERNEL] = MAX (0, (double) t->kernel_ns);
  share[WS_SEGMENT_D2H] = MAX (0, (double) t->d2h_ns);
  share[WS_SEGMENT_OTHER] = MAX (0, busy - ((double) t->copy_ns + (double) t->kernel_ns
                                            - (double) t->overlap_ns));
  share[WS_SEGMENT_IDLE] = MAX (0, (double) t->idle_ns);
  for (int s = 0; s < WS_N_SEGMENTS; s++)
    sum += share[s];
  if (!(sum > 0) || !isfinite (sum))
    return FALSE;
  for (int s = 0; s < WS_N_SEGMENTS; s++)
    share[s] /= sum;
  return TRUE;
}

static gboolean
same_size (const WsRunConfig *a, const WsRunConfig *b)
{
  return a->shape_rank == b->shape_rank && memcmp (a->shape, b->shape, sizeof a->shape) == 0;
}

static gboolean
same_block (const WsRunConfig *a, const WsRunConfig *b)
{
  return a->library == b->library && memcmp (a->block, b->block, sizeof a->block) == 0;
}

typedef struct
{
  gboolean size, block, transfer, kernel;
} Vary;

/* Row labels name only what differs between runs; what all share is said once, above. */
static Vary
what_varies (GPtrArray *runs)
{
  const WsRunConfig *first = ws_run_get_config (g_ptr_array_index (runs, 0));
  Vary v = { FALSE };

  for (guint i = 1; i < runs->len; i++)
    {
      const WsRunConfig *c = ws_run_get_config (g_ptr_array_index (runs, i));

      v.size |= !same_size (c, first);
      v.block |= !same_block (c, first);
      v.transfer |= g_strcmp0 (c->transfer, first->transfer) != 0;
      v.kernel |= g_strcmp0 (c->kernel, first->kernel) != 0;
    }
  return v;
}

static char *
common_text (WsRun *first, const Vary *v)
{
  g_autoptr (GString) common = g_string_new (NULL);
  g_autofree char *block = ws_run_dup_block_phrase (first);

  if (!v->size)
    {
      g_autofree char *size = _ws_chart_dup_size_label (first);

      g_string_append (common, size);
    }
  if (!v->block && *block)
    g_string_append_printf (common, "%s%s", common->len ? " · " : "", block);
  if (!v->transfer)
    g_string_append_printf (common, "%s%s", common->len ? " · " : "",
                            ws_transfer_label (ws_run_get_config (first)->transfer));
  if (common->len == 0)
    return NULL;
  return g_strdup_printf (_("every run: %s"), common->str);
}

static char *
row_label (WsRun *run, const Vary *v)
{
  const WsRunConfig *c = ws_run_get_config (run);
  GString *label = g_string_new (NULL);

  g_string_append_printf (label, _("run %d"), c->id);
  if (v->kernel)
    g_string_append_printf (label, " · %s", c->kernel);
  if (v->size)
    {
      g_autofree char *size = _ws_chart_dup_size_label (run);

      g_string_append_printf (label, " · %s", size);
    }
  if (v->block)
    {
      g_autofree char *block = ws_run_dup_block_phrase (run);

      if (*block)
        g_string_append_printf (label, " · %s", block);
    }
  if (v->transfer)
    g_string_append_printf (label, " · %s", ws_transfer_label (c->transfer));
  return g_string_free (label, FALSE);
}

static void
row_clear (WsBreakdownRow *row)
{
  g_free (row->label);
  g_free (row->right);
}

/* Streams overlap copies with kernels: the bar counts both in full, the text says how much of
 * the span had both at once. */
static void
fill_row (WsBreakdownRow *row, WsRun *run, const WsTotals *t, const Vary *v)
{
  g_autofree char *span = ws_units_duration ((double) t->span_ns);
  g_autofree char *copies = NULL;

  row->run = ws_run_get_id (run);
  row->label = row_label (run, v);
  shares (t, row->share);
  row->copies = row->share[WS_SEGMENT_H2D] + row->share[WS_SEGMENT_D2H];
  row->span_ns = t->span_ns;
  row->overlap = t->overlap_ns > t->span_ns / 200 ? (double) t->overlap_ns / t->span_ns : 0;
  copies = ws_units_percent (row->copies);
  if (row->overlap > 0)
    {
      g_autofree char *overlap = ws_units_percent (row->overlap);

      row->right = g_strdup_printf (_("%s · copies %s · overlap %s"), span, copies, overlap);
    }
  else
    row->right = g_strdup_printf (_("%s · copies %s"), span, copies);
}

static void
collect_rows (WsBreakdownData *data, GPtrArray *runs, GArray *totals)
{
  Vary v = what_varies (runs);
  gboolean overlap = FALSE;

  data->common = common_text (g_ptr_array_index (runs, 0), &v);
  for (guint i = 0; i < runs->len && i < WS_BREAKDOWN_MAX_ROWS; i++)
    {
      WsBreakdownRow row = { 0 };

      fill_row (&row, g_ptr_array_index (runs, i), &g_array_index (totals, WsTotals, i), &v);
      overlap |= row.overlap > 0;
      g_array_append_val (data->rows, row);
    }
  data->n_runs = runs->len;
  /* The widest the right-hand text can be, in the words it is written with. */
  data->widest = overlap ? g_strdup_printf (_("%s · copies %s · overlap %s"), "999 ms", "100%",
                                            "99%")
                         : g_strdup_printf (_("%s · copies %s"), "999 ms", "100%");
}

static void
add_legend (WsBreakdownData *data, const WsTheme *theme)
{
  for (int s = 0; s < WS_N_SEGMENTS; s++)
    {
      WsColor color = segment_color (theme, (WsSegment) s);

      _ws_legend_add (&data->legend, _(segment_names[s]), &color, WS_LEGEND_BOX, -1);
    }
}

WsBreakdownData *
_ws_breakdown_collect (WsSession *session, const WsChartBase *base)
{
  WsBreakdownData *data = g_new0 (WsBreakdownData, 1);
  g_autoptr (GPtrArray) all = _ws_chart_runs (session, base);
  g_autoptr (GPtrArray) runs = g_ptr_array_new ();
  g_autoptr (GArray) totals = g_array_new (FALSE, FALSE, sizeof (WsTotals));
  double share[WS_N_SEGMENTS];

  data->rows = g_array_new (FALSE, TRUE, sizeof (WsBreakdownRow));
  g_array_set_clear_func (data->rows, (GDestroyNotify) row_clear);
  _ws_legend_init (&data->legend);
  data->whole = _("sequence span");
  data->axis_title = _("Share of the sequence span (%)");
  /* A traced program has no runs: its program runs are the rows. */
  if (session != NULL && _ws_breakdown_collect_trace (data, session))
    {
      add_legend (data, base->theme);
      return data;
    }
  for (guint i = 0; i < all->len; i++)
    {
      WsTotals t;

      ws_run_get_totals (g_ptr_array_index (all, i), &t);
      if (shares (&t, share))
        {
          g_ptr_array_add (runs, g_ptr_array_index (all, i));
          g_array_append_val (totals, t);
        }
    }
  if (runs->len > 0)
    {
      g_autofree char *kernels = ws_runs_dup_kernels_label (runs);

      data->frame.title = g_strdup_printf ("%s · %s", ws_chart_kind_title (WS_CHART_BREAKDOWN),
                                           kernels);
    }
  else
    data->frame.title = g_strdup (ws_chart_kind_title (WS_CHART_BREAKDOWN));
  data->frame.subtitle = _ws_chart_subtitle (session, _("where each run's copy-and-kernel "
                                                        "sequences spend their time, as shares "
                                                        "of their span"));
  if (runs->len == 0)
    {
      data->frame.message = g_strdup (_("No run has traced copy-and-kernel sequences to break "
                                        "down yet."));
      return data;
    }
  add_legend (data, base->theme);
  collect_rows (data, runs, totals);
  if (base->annotate)
    _ws_chart_frame_add_notes (&data->frame, session, runs, base->audience);
  return data;
}

void
_ws_breakdown_data_free (WsBreakdownData *data)
{
  if (data == NULL)
    return;
  _ws_chart_frame_clear (&data->frame);
  _ws_legend_clear (&data->legend);
  g_clear_pointer (&data->rows, g_array_unref);
  g_free (data->common);
  g_free (data->widest);
  g_free (data);
}

/* ---- draw ------------------------------------------------------------------------------- */

typedef struct
{
  WsRect plot;
  WsAxis x;
  double left, right; /* where the rows' words may start and must end */
  double row_h;
  guint shown;   /* rows drawn */
  gboolean more; /* a line for the rows left out */
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
  label_w = MIN (label_w + 0.6 * ctx->line_height, content->width * 0.45);
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
      g_autofree char *right = _ws_text_dup_fitting (ctx, WS_FONT_SMALL, row->right,
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
  _ws_text_show (ctx, WS_FONT_SMALL, data->whole,
                 l.plot.x + l.plot.width + 0.5 * ctx->line_height, content.y, 0, 0,
                 &ctx->theme->muted);
  _ws_axis_draw_grid (ctx, &l.x, &l.plot);
  draw_rows (ctx, data, &l);
  _ws_axis_draw (ctx, &l.x, &l.plot);
  _ws_axis_clear (&l.x);
}

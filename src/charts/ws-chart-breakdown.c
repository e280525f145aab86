/* ws-chart-breakdown.c: a stacked bar per run of where its copy-and-kernel sequences spent
 * their time (H2D, kernel, D2H, memset, idle), each bar as shares of its own span so that a
 * transfer-bound run reads at a glance whatever its size.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "ws-chart-private.h"

enum
{
  SEG_H2D,
  SEG_KERNEL,
  SEG_D2H,
  SEG_OTHER,
  SEG_IDLE,
  N_SEGS
};

static const char *const seg_names[N_SEGS] = { N_("H2D copy"), N_("kernel"), N_("D2H copy"),
                                               N_("memset"), N_("idle") };

static char *
percent_tick (double value, double step, gpointer data)
{
  return g_strdup_printf ("%.0f%%", value * 100);
}

static WsColor
seg_color (const WsTheme *t, int seg)
{
  switch (seg)
    {
    case SEG_H2D:
      return t->h2d;
    case SEG_KERNEL:
      return t->kernel;
    case SEG_D2H:
      return t->d2h;
    case SEG_OTHER:
      return t->memset;
    case SEG_IDLE:
    default:
      return t->idle;
    }
}

/* Shares of the run's sequence span, summing to 1. Copies and kernels that overlap are each
 * counted whole, so with overlap the segments are scaled to fit the bar. */
static gboolean
shares (WsRun *run, double share[N_SEGS], WsTotals *totals)
{
  double busy, sum = 0;

  ws_run_get_totals (run, totals);
  if (totals->span_ns <= 0)
    return FALSE;
  busy = (double) (totals->span_ns - totals->idle_ns);
  share[SEG_H2D] = (double) totals->h2d_ns;
  share[SEG_KERNEL] = (double) totals->kernel_ns;
  share[SEG_D2H] = (double) totals->d2h_ns;
  share[SEG_OTHER] = MAX (0, busy - (double) (totals->copy_ns + totals->kernel_ns
                                              - totals->overlap_ns));
  share[SEG_IDLE] = (double) MAX (0, totals->idle_ns);
  for (int s = 0; s < N_SEGS; s++)
    sum += share[s];
  if (!(sum > 0))
    return FALSE;
  for (int s = 0; s < N_SEGS; s++)
    share[s] /= sum;
  return TRUE;
}

static gboolean
any_overlap (GPtrArray *runs)
{
  for (guint i = 0; i < runs->len; i++)
    {
      WsTotals t;

      ws_run_get_totals (g_ptr_array_index (runs, i), &t);
      if (t.overlap_ns > t.span_ns / 200)
        return TRUE;
    }
  return FALSE;
}

void
_ws_chart_breakdown (WsChartContext *ctx, GPtrArray *sessions)
{
  WsSession *session = sessions && sessions->len ? g_ptr_array_index (sessions, 0) : NULL;
  g_autoptr (GPtrArray) all = _ws_chart_runs (session, ctx->options);
  g_autoptr (GPtrArray) runs = g_ptr_array_new ();
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *title = NULL, *subtitle = NULL;
  WsRect content, plot, area;
  WsAxis x;
  WsLegendItem items[N_SEGS];
  double label_w = 0, right_w, row_h;
  guint shown;
  cairo_t *cr = ctx->cr;

  for (guint i = 0; i < all->len; i++)
    {
      WsRun *run = g_ptr_array_index (all, i);
      WsTotals t;

      ws_run_get_totals (run, &t);
      if (t.span_ns > 0)
        g_ptr_array_add (runs, run);
    }
  if (runs->len > 0)
    {
      g_autofree char *kernels = _ws_chart_kernels_label (runs);

      title = g_strdup_printf ("%s · %s", ws_chart_kind_title (WS_CHART_BREAKDOWN), kernels);
    }
  subtitle = _ws_chart_subtitle (session, _("where each run's copy-and-kernel sequences spend "
                                            "their time, as shares of their span"));
  _ws_chart_frame (ctx, title ? title : ws_chart_kind_title (WS_CHART_BREAKDOWN), subtitle,
                   &content);
  if (runs->len == 0)
    {
      _ws_chart_message (ctx, &content,
                         _("No run has traced copy-and-kernel sequences to break down yet."));
      return;
    }
  for (int s = 0; s < N_SEGS; s++)
    items[s] = (WsLegendItem) { _(seg_names[s]), seg_color (ctx->theme, s), WS_LEGEND_BOX, -1 };
  {
    double h = _ws_legend_draw (ctx, items, N_SEGS, content.x, content.y, content.width, TRUE);

    content.y += h + 0.4 * ctx->line_height;
    content.height -= h + 0.4 * ctx->line_height;
  }
  _ws_chart_annotate (ctx, session, runs, WS_CHART_PLOT_KEEP (ctx), &content);

  {
    /* Row labels name only what differs between runs; what all share is said once, above. */
    gboolean vary[4] = { FALSE, FALSE, FALSE, FALSE };
    WsRun *first = g_ptr_array_index (runs, 0);
    g_autofree char *size0 = _ws_chart_dup_size_label (first);
    g_autofree char *block0 = ws_run_dup_block_label (first);
    GString *common = g_string_new (NULL);

    for (guint i = 1; i < runs->len; i++)
      {
        WsRun *run = g_ptr_array_index (runs, i);
        g_autofree char *size = _ws_chart_dup_size_label (run);
        g_autofree char *block = ws_run_dup_block_label (run);

        vary[0] |= g_strcmp0 (size, size0) != 0;
        vary[1] |= g_strcmp0 (block, block0) != 0;
        vary[2] |= g_strcmp0 (ws_run_get_config (run)->transfer,
                              ws_run_get_config (first)->transfer) != 0;
        vary[3] |= g_strcmp0 (ws_run_get_config (run)->kernel,
                              ws_run_get_config (first)->kernel) != 0;
      }
    for (guint i = 0; i < runs->len; i++)
      {
        WsRun *run = g_ptr_array_index (runs, i);
        const WsRunConfig *c = ws_run_get_config (run);
        g_autofree char *size = _ws_chart_dup_size_label (run);
        g_autofree char *block = ws_run_dup_block_phrase (run);
        GString *label = g_string_new (NULL);

        g_string_append_printf (label, _("run %d"), c->id);
        if (vary[3])
          g_string_append_printf (label, " · %s", c->kernel);
        if (vary[0])
          g_string_append_printf (label, " · %s", size);
        if (vary[1] && *block)
          g_string_append_printf (label, " · %s", block);
        if (vary[2])
          g_string_append_printf (label, " · %s", c->transfer);
        label_w = MAX (label_w, _ws_text_width (ctx, WS_FONT_BOLD, label->str));
        g_ptr_array_add (labels, g_string_free (label, FALSE));
      }
    if (!vary[0])
      g_string_append (common, size0);
    if (!vary[1] && *block0)
      {
        g_autofree char *shape = ws_run_dup_block_phrase (first);

        g_string_append_printf (common, "%s%s", common->len ? " · " : "", shape);
      }
    if (!vary[2])
      g_string_append_printf (common, "%s%s", common->len ? " · " : "",
                              ws_run_get_config (first)->transfer);
    if (common->len)
      {
        g_autofree char *every = g_strdup_printf (_("every run: %s"), common->str);

        _ws_text_show (ctx, WS_FONT_SMALL, every, content.x, content.y, 0, 0,
                       &ctx->theme->muted);
      }
    g_string_free (common, TRUE);
  }
  label_w = MIN (label_w + 0.6 * ctx->line_height, content.width * 0.38);
  {
    /* The widest the right-hand text can be, in the words it is written with. */
    g_autofree char *widest = any_overlap (runs)
                                  ? g_strdup_printf (_("%s · copies %s · overlap %s"), "999 ms",
                                                     "100%", "99%")
                                  : g_strdup_printf (_("%s · copies %s"), "999 ms", "100%");

    right_w = _ws_text_width (ctx, WS_FONT_SMALL, widest) + ctx->line_height;
  }
  area = (WsRect) { content.x + label_w, content.y + ctx->small_height * 1.2,
                    MAX (content.width - label_w - right_w, 1),
                    MAX (content.height - ctx->small_height * 1.2, 1) };
  _ws_axis_init (&x, WS_AXIS_BOTTOM, WS_SCALE_LINEAR, 0, 1,
                 _("Share of the sequence span (%)"));
  x.fixed = g_array_new (FALSE, FALSE, sizeof (double));
  for (double v = 0; v <= 1.0001; v += 0.25)
    g_array_append_val (x.fixed, v);
  x.format = percent_tick;
  _ws_plot_layout (ctx, &area, &x, NULL, NULL, &plot);
  plot.x = area.x;
  plot.width = area.width;
  x.scale.p0 = plot.x;
  x.scale.p1 = plot.x + plot.width;

  /* Rows no smaller than the small font; those that do not fit are said, not squeezed. */
  row_h = MIN (3.2 * ctx->line_height, plot.height / runs->len);
  shown = runs->len;
  if (row_h < ctx->small_height * 1.15)
    {
      row_h = ctx->small_height * 1.15;
      shown = MIN (runs->len, (guint) MAX (1.0, floor (plot.height / row_h) - 1));
    }
  _ws_text_show (ctx, WS_FONT_SMALL, _("sequence span"),
                 plot.x + plot.width + 0.5 * ctx->line_height, content.y, 0, 0,
                 &ctx->theme->muted);
  /* The axis sits under the last row. */
  plot.height = MIN (plot.height, (shown + (shown < runs->len ? 1 : 0)) * row_h);
  _ws_axis_draw_grid (ctx, &x, &plot);
  for (guint i = 0; i < shown; i++)
    {
      WsRun *run = g_ptr_array_index (runs, i);
      double share[N_SEGS], cx = plot.x, y = plot.y + i * row_h, h = row_h * 0.72;
      double copies;
      WsTotals t;
      g_autofree char *span = NULL, *pct = NULL, *right = NULL;

      if (!shares (run, share, &t))
        continue;
      copies = share[SEG_H2D] + share[SEG_D2H];
      y += (row_h - h) / 2;
      for (int s = 0; s < N_SEGS; s++)
        {
          double w = share[s] * plot.width;
          WsColor color = seg_color (ctx->theme, s);

          if (w <= 0)
            continue;
          cairo_rectangle (cr, cx, y, w, h);
          _ws_fill_shape (ctx, &color);
          if (h >= ctx->small_height * 0.95)
            {
              g_autofree char *p = _ws_format_percent (share[s]);
              g_autofree char *named = g_strdup_printf ("%s %s", _(seg_names[s]), p);
              const char *const candidates[] = { named, p, NULL };
              const char *fit = _ws_text_fit (ctx, WS_FONT_SMALL, candidates, w - 6 * ctx->unit);
              WsColor text = _ws_color_text_on (&color);

              if (fit)
                _ws_text_show (ctx, WS_FONT_SMALL, fit, cx + w / 2, y + h / 2, 0.5, 0.5, &text);
            }
          cx += w;
        }
      /* Runs whose copies take at least half their time are what this chart is for: their
       * names are in bold. */
      _ws_text_show (ctx, copies >= 0.5 ? WS_FONT_BOLD : WS_FONT_SMALL,
                     g_ptr_array_index (labels, i), plot.x - 0.5 * ctx->line_height, y + h / 2, 1,
                     0.5, &ctx->theme->foreground);
      span = _ws_format_duration ((double) t.span_ns);
      pct = _ws_format_percent (copies);
      /* Streams overlap copies with kernels: the bar counts both in full, the text says how
       * much of the span had both at once. */
      if (t.overlap_ns > t.span_ns / 200)
        {
          g_autofree char *ov = _ws_format_percent ((double) t.overlap_ns / t.span_ns);

          right = g_strdup_printf (_("%s · copies %s · overlap %s"), span, pct, ov);
        }
      else
        right = g_strdup_printf (_("%s · copies %s"), span, pct);
      _ws_text_show (ctx, WS_FONT_SMALL, right, plot.x + plot.width + 0.5 * ctx->line_height,
                     y + h / 2, 0, 0.5, &ctx->theme->foreground);
    }
  if (shown < runs->len)
    {
      guint rest = runs->len - shown;
      g_autofree char *more = g_strdup_printf (
          g_dngettext (GETTEXT_PACKAGE, "… and %u more run (export CSV for all)",
                       "… and %u more runs (export CSV for all)", rest),
          rest);

      _ws_text_show (ctx, WS_FONT_SMALL, more, plot.x, plot.y + shown * row_h + row_h / 2, 0, 0.5,
                     &ctx->theme->muted);
    }
  _ws_axis_draw (ctx, &x, &plot);
  _ws_axis_clear (&x);
}

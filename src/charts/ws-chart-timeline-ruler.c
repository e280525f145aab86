/* ws-chart-timeline-ruler.c: the timeline's time ruler (units that follow the zoom, counted
 * from a base deep into a long session) and the band that names each run's phases.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "ws-chart-timeline-private.h"

/* ---- the ruler -------------------------------------------------------------------------- */

typedef struct
{
  double step_ns, unit_ns;
  const char *unit;
  double base; /* ns after the origin that labels count from (offset mode), else 0 */
} Ruler;

static char *
ruler_label (const Ruler *r, double rel)
{
  g_autofree char *v = _ws_format_tick ((rel - r->base) / r->unit_ns, r->step_ns / r->unit_ns);

  return g_strdup_printf (r->base != 0 ? "+%s %s" : "%s %s", v, r->unit);
}

void
_ws_timeline_draw_ruler (WsChartContext *ctx, const WsTimelineLayout *l)
{
  double span = (double) (l->end - l->start);
  double count = MAX (2, floor (l->plot.width / (7 * ctx->line_height)));
  g_autoptr (GArray) ticks = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  Ruler r = { 0 };
  double lo = (double) (l->start - l->origin), hi = (double) (l->end - l->origin);
  cairo_t *cr = ctx->cr;

  for (int attempt = 0; attempt < 20; attempt++)
    {
      double first, prev_end = -G_MAXDOUBLE;
      gboolean fits = TRUE;

      r.step_ns = MAX (1, _ws_nice_step (span / count));
      r.unit = _ws_time_unit (r.step_ns, &r.unit_ns);
      first = ceil (lo / r.step_ns) * r.step_ns;
      /* Deep in a long session "363,520,400 ns" is unreadable: count from a base instead. */
      r.base = MAX (fabs (lo), fabs (hi)) / r.unit_ns >= 1e5 ? first : 0;
      g_array_set_size (ticks, 0);
      g_ptr_array_set_size (labels, 0);
      for (double v = first; v <= hi && ticks->len < 500; v += r.step_ns)
        {
          double x = l->plot.x + (v - lo) * l->ppn;
          char *label = ruler_label (&r, v);
          double w = _ws_text_width (ctx, WS_FONT_SMALL, label);

          if (x - w / 2 < prev_end + ctx->line_height)
            fits = FALSE;
          prev_end = x + w / 2;
          g_array_append_val (ticks, v);
          g_ptr_array_add (labels, label);
        }
      if (fits || count <= 2)
        break;
      count = MAX (2, floor (count * 0.7));
    }

  cairo_save (cr);
  cairo_set_line_width (cr, 1);
  _ws_set_color (cr, &ctx->theme->grid);
  for (guint i = 0; i < ticks->len; i++)
    {
      double x = round (l->plot.x + (g_array_index (ticks, double, i) - lo) * l->ppn) + 0.5;

      cairo_move_to (cr, x, l->ruler_y + ctx->small_height + 2 * ctx->unit);
      cairo_line_to (cr, x, l->plot.y + l->plot.height);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
  for (guint i = 0; i < ticks->len; i++)
    {
      double x = l->plot.x + (g_array_index (ticks, double, i) - lo) * l->ppn;
      const char *label = g_ptr_array_index (labels, i);
      double w = _ws_text_width (ctx, WS_FONT_SMALL, label);

      x = CLAMP (x, l->plot.x + w / 2, ctx->area.x + ctx->area.width - w / 2);
      _ws_text_show (ctx, WS_FONT_SMALL, label, x, l->ruler_y, 0.5, 0, &ctx->theme->foreground);
    }
  {
    g_autofree char *what = NULL;

    if (r.base != 0)
      {
        double unit_ns;
        const char *unit = _ws_time_unit (r.base, &unit_ns);
        int decimals = CLAMP ((int) ceil (log10 (unit_ns / r.step_ns) - 1e-9), 0, 9);
        g_autofree char *v = _ws_format_tick (r.base / unit_ns, pow (10, -decimals));

        /* TRANSLATORS: the ruler counts from this time: "after 363.5204 ms" */
        what = g_strdup_printf (_("after %s %s"), v, unit);
      }
    else
      what = g_strdup (l->caption ? l->caption : _("since start"));
    _ws_text_show (ctx, WS_FONT_SMALL, what, l->content.x, l->ruler_y, 0, 0, &ctx->theme->muted);
  }
}

/* ---- the phase band --------------------------------------------------------------------- */

/* A label centred over [x0, x1] if one of `candidates` fits and it keeps clear of the last. */
static gboolean
band_label (WsChartContext *ctx, const WsTimelineLayout *l, const char *const *candidates,
            double x0, double x1, double *last_end)
{
  const char *fit;
  double w;

  if (x1 - x0 < ctx->small_height)
    return FALSE;
  fit = _ws_text_fit (ctx, WS_FONT_SMALL, candidates, x1 - x0 - 6 * ctx->unit);
  if (fit == NULL)
    return FALSE;
  w = _ws_text_width (ctx, WS_FONT_SMALL, fit);
  if ((x0 + x1) / 2 - w / 2 < *last_end + 4 * ctx->unit)
    return FALSE;
  _ws_text_show (ctx, WS_FONT_SMALL, fit, (x0 + x1) / 2, l->band.y + l->band.height / 2, 0.5,
                 0.5, &ctx->theme->foreground);
  *last_end = (x0 + x1) / 2 + w / 2;
  return TRUE;
}

void
_ws_timeline_draw_band (WsChartContext *ctx, const WsTimelineLayout *l)
{
  static const char *const phase_names[] = { N_("copies + kernel"), N_("back-to-back"),
                                              N_("CPU reference") };
  cairo_t *cr = ctx->cr;
  double last_end = -G_MAXDOUBLE;

  for (guint i = 0; i < l->runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (l->runs, i);
      WsRunLanes *lanes = g_ptr_array_index (l->lanes, i);
      const WsRunConfig *c = ws_run_get_config (run);
      WsColor fill = _ws_color_mix (&ctx->theme->background, &ctx->theme->foreground,
                                    i % 2 ? 0.13 : 0.07);
      g_autofree char *size = NULL, *block = NULL, *threads = NULL, *c3 = NULL, *c4 = NULL;
      gboolean labelled = FALSE;

      if (lanes->end < l->start || lanes->start > l->end)
        continue;
      size = _ws_chart_dup_size_label (run);
      block = ws_run_dup_block_label (run);
      threads = ws_run_dup_block_phrase (run);
      c3 = g_strdup_printf (_("run %d"), c->id);
      c4 = g_strdup_printf ("%d", c->id);
      for (guint p = 0; p < 3; p++)
        {
          double x0, x1;

          if (lanes->phase_start[p] > lanes->phase_end[p])
            continue;
          x0 = MAX (_ws_timeline_x (l, lanes->phase_start[p]), l->band.x);
          x1 = MIN (_ws_timeline_x (l, lanes->phase_end[p]), l->band.x + l->band.width);
          if (x1 <= x0)
            continue;
          _ws_set_color (cr, &fill);
          cairo_rectangle (cr, x0, l->band.y, MAX (x1 - x0, 1), l->band.height);
          cairo_fill (cr);
          {
            const char *phase = _(phase_names[p]);
            g_autofree char *c0 = g_strdup_printf (_("run %d · %s · %s · %s · %s"), c->id, size,
                                                   threads, c->transfer, phase);
            g_autofree char *c1 = g_strdup_printf (_("run %d · %s · %s · %s"), c->id, threads,
                                                   c->transfer, phase);
            g_autofree char *c2 = g_strdup_printf (_("run %d · %s · %s"), c->id, c->transfer,
                                                   phase);
            g_autofree char *c2b = g_strdup_printf (_("run %d · %s"), c->id, phase);
            const char *const candidates[] = { c0, c1, c2, c2b, NULL };

            labelled |= band_label (ctx, l, candidates, x0, x1, &last_end);
          }
        }
      /* Phases too narrow to name: the run as a whole gets its number. */
      if (!labelled)
        {
          g_autofree char *c3b = g_strdup_printf (_("run %d · %s"), c->id, c->transfer);
          const char *const candidates[] = { c3b, c3, c4, NULL };
          /* A run too narrow for its own number may lend some room from the empty band
           * around it: labels still never touch. */
          double x0 = MAX (_ws_timeline_x (l, lanes->start) - ctx->line_height, l->band.x);
          double x1 = MIN (_ws_timeline_x (l, lanes->end) + ctx->line_height,
                           l->band.x + l->band.width);

          band_label (ctx, l, candidates, x0, x1, &last_end);
        }
    }
}

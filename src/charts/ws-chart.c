/* ws-chart.c: the chart kinds, the one entry point that draws any of them, and what every
 * chart shares: its frame and title, the sentence of an empty chart, the runs it shows and
 * the findings written on it in presentation mode.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ws-analysis.h"
#include "ws-chart-private.h"

static const struct
{
  const char *name;
  const char *title;
} kinds[WS_N_CHARTS] = {
  [WS_CHART_TIMELINE] = { "timeline", N_("Timeline") },
  [WS_CHART_SPEEDUP] = { "speedup", N_("Speedup over the CPU") },
  [WS_CHART_BLOCKS] = { "blocks", N_("Block size") },
  [WS_CHART_OCCUPANCY] = { "occupancy", N_("Occupancy") },
  [WS_CHART_BREAKDOWN] = { "breakdown", N_("Time breakdown") },
  [WS_CHART_ROOFLINE] = { "roofline", N_("Roofline") },
};

const char *
ws_chart_kind_to_string (WsChartKind kind)
{
  g_return_val_if_fail ((guint) kind < WS_N_CHARTS, NULL);
  return kinds[kind].name;
}

gboolean
ws_chart_kind_from_string (const char *name, WsChartKind *kind)
{
  g_return_val_if_fail (name != NULL, FALSE);
  for (guint i = 0; i < WS_N_CHARTS; i++)
    if (g_ascii_strcasecmp (name, kinds[i].name) == 0)
      {
        if (kind)
          *kind = (WsChartKind) i;
        return TRUE;
      }
  return FALSE;
}

const char *
ws_chart_kind_title (WsChartKind kind)
{
  g_return_val_if_fail ((guint) kind < WS_N_CHARTS, NULL);
  return _(kinds[kind].title);
}

void
ws_chart_options_init (WsChartOptions *options, WsChartKind kind, const WsTheme *theme,
                       double width, double height)
{
  g_return_if_fail (options != NULL);
  memset (options, 0, sizeof *options);
  options->kind = kind;
  options->theme = theme ? theme : ws_theme_get (WS_THEME_LIGHT);
  options->width = width;
  options->height = height;
}

void
ws_chart_draw (cairo_t *cr, GPtrArray *sessions, const WsChartOptions *options)
{
  WsChartContext ctx;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (options != NULL);
  g_return_if_fail ((guint) options->kind < WS_N_CHARTS);

  if (!(options->width >= 1 && options->height >= 1) || !isfinite (options->width)
      || !isfinite (options->height))
    return;
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, options->width, options->height);
  cairo_clip (cr);
  _ws_chart_context_init (&ctx, cr, options);
  switch (options->kind)
    {
    case WS_CHART_TIMELINE:
      _ws_chart_timeline (&ctx, sessions);
      break;
    case WS_CHART_SPEEDUP:
      _ws_chart_speedup (&ctx, sessions);
      break;
    case WS_CHART_BLOCKS:
      _ws_chart_blocks (&ctx, sessions);
      break;
    case WS_CHART_OCCUPANCY:
      _ws_chart_occupancy (&ctx, sessions);
      break;
    case WS_CHART_BREAKDOWN:
      _ws_chart_breakdown (&ctx, sessions);
      break;
    case WS_CHART_ROOFLINE:
      _ws_chart_roofline (&ctx, sessions);
      break;
    default:
      g_assert_not_reached ();
    }
  _ws_chart_context_clear (&ctx);
  cairo_restore (cr);
}

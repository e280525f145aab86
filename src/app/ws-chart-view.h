/* ws-chart-view.h: a widget that paints one of the charts (src/charts) of its workspace's
 * session with the same drawing routine export uses: the selected runs, presentation mode.
 * The timeline, which is also zoomed, panned and picked, is WsTimelineView.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-chart.h"
#include "ws-view.h"

G_BEGIN_DECLS

/* Presentation mode scales the charts' text by this: their body text (11 pt at 96 dpi) is
 * then 24 px, as large as the callouts under the chart, read from the back of a classroom. */
#define WS_PRESENTATION_TEXT_SCALE 1.64
/* The chart height, in pixels, from which presentation text has that scale. */
#define WS_PRESENTATION_FULL_HEIGHT 420.0

/* WsChartKind as a GType, so that templates name a kind: <property name="kind">speedup</property>. */
#define WS_TYPE_CHART_KIND (ws_chart_kind_get_type ())
GType ws_chart_kind_get_type (void);

/* Properties: "kind" (WsChartKind), "workspace" (WsView's). */
#define WS_TYPE_CHART_VIEW (ws_chart_view_get_type ())
G_DECLARE_FINAL_TYPE (WsChartView, ws_chart_view, WS, CHART_VIEW, WsView)

GtkWidget *ws_chart_view_new (WsChartKind kind);
/* Occupancy chart input. */
void ws_chart_view_set_occupancy (WsChartView *self, const char *arch, int block_size,
                                  int registers, int smem_bytes);
/* The options the view draws with now, for exporting what is on screen. */
void ws_chart_view_get_options (WsChartView *self, WsChartOptions *options);

/* The options any chart widget draws `kind` with from `workspace`: the widget's size, the
 * style's theme (scaled up in presentation mode: `owned` then holds it), the workspace's runs,
 * visible window, selected range and highlighted spans (none of them for the occupancy
 * calculator's chart, which is of its own configuration). */
void ws_chart_view_fill_options (GtkWidget *widget, WsWorkspace *workspace, WsChartKind kind,
                                 WsChartOptions *options, WsTheme **owned);
/* What to draw a chart of `workspace` from: its sessions, or none. */
GPtrArray *ws_chart_view_sessions (WsWorkspace *workspace);
/* While a loaded session is analysed in a thread a chart says so instead of drawing (TRUE):
 * nothing is analysed, or sorted into lanes, while painting. */
gboolean ws_chart_view_paint_waiting (GtkWidget *widget, GtkSnapshot *snapshot,
                                      WsWorkspace *workspace);

G_END_DECLS

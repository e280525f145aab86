/* ws-chart-view.h: a widget that paints one of the charts (src/charts) with the same drawing
 * routine export uses; the timeline also zooms, pans, selects ranges and picks spans.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-chart.h"
#include "ws-session.h"

G_BEGIN_DECLS

#define WS_TYPE_CHART_VIEW (ws_chart_view_get_type ())
G_DECLARE_FINAL_TYPE (WsChartView, ws_chart_view, WS, CHART_VIEW, GtkWidget)

GtkWidget *ws_chart_view_new (WsChartKind kind);
WsChartKind ws_chart_view_get_kind (WsChartView *self);
void ws_chart_view_set_kind (WsChartView *self, WsChartKind kind);

/* The sessions drawn: the main one first, others overlaid (WsSession). */
void ws_chart_view_set_sessions (WsChartView *self, GPtrArray *sessions);
/* The run shown or marked (0: all), and a second one to compare with (0: none). */
void ws_chart_view_set_run (WsChartView *self, int run, int compare_run);
/* Spans to outline (WsActivityRef); NULL clears. */
void ws_chart_view_set_highlight (WsChartView *self, GArray *refs);
/* Presentation mode: larger text and lines, findings as annotations. */
void ws_chart_view_set_presentation (WsChartView *self, gboolean presentation);
/* Occupancy chart input. */
void ws_chart_view_set_occupancy (WsChartView *self, const char *arch, int block_size,
                                  int registers, int smem_bytes);

/* The options the view draws with now, for exporting what is on screen. */
void ws_chart_view_get_options (WsChartView *self, WsChartOptions *options);

/* Timeline: show [start, end) ns; start == end shows everything. */
void ws_chart_view_set_window (WsChartView *self, gint64 start, gint64 end);
void ws_chart_view_zoom (WsChartView *self, double factor, double anchor_fraction);
void ws_chart_view_pan (WsChartView *self, double fraction);
void ws_chart_view_zoom_to_selection (WsChartView *self);
gboolean ws_chart_view_get_selection (WsChartView *self, gint64 *start, gint64 *end);

G_END_DECLS

/* ws-chart-private.h: the chart kinds' entry points, which ws-chart.c dispatches to, and what
 * the exporters ask of them (ws-chart.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-chart-text-private.h"
#include "ws-occupancy.h"

G_BEGIN_DECLS

void _ws_chart_timeline (WsChartContext *ctx, GPtrArray *sessions);
void _ws_chart_speedup (WsChartContext *ctx, GPtrArray *sessions);
void _ws_chart_blocks (WsChartContext *ctx, GPtrArray *sessions);
void _ws_chart_heatmap (WsChartContext *ctx, WsSession *session, WsSeries *series,
                        const WsRect *content);
void _ws_chart_occupancy (WsChartContext *ctx, GPtrArray *sessions);
void _ws_chart_breakdown (WsChartContext *ctx, GPtrArray *sessions);
void _ws_chart_roofline (WsChartContext *ctx, GPtrArray *sessions);

/* The block series a blocks chart shows (WsSeries, owned), and whether it is 2D. */
GPtrArray *_ws_blocks_pick_series (WsSession *session, const WsChartOptions *options,
                                   gboolean *heatmap);
/* The configuration the occupancy chart shows: the options', else the run's launch, else a
 * common kernel's; returns the architecture's name ("sm_90"). `run` may be NULL. */
const char *_ws_occupancy_chart_input (WsSession *session, const WsChartOptions *options,
                                       WsRun **run, WsOccupancyInput *input);
/* The size series a speedup chart shows (WsSeries, owned). */
GPtrArray *_ws_speedup_pick_series (WsSession *session, const WsChartOptions *options);


G_END_DECLS

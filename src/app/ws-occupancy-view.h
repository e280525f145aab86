/* ws-occupancy-view.h: the occupancy calculator, interactive: sliders for block size,
 * registers and shared memory, the curves redrawn as they move, the limiter in words.
 * Works with no GPU, from per-architecture limits.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-view.h"

G_BEGIN_DECLS

#define WS_TYPE_OCCUPANCY_VIEW (ws_occupancy_view_get_type ())
G_DECLARE_FINAL_TYPE (WsOccupancyView, ws_occupancy_view, WS, OCCUPANCY_VIEW, WsView)

/* Property: "workspace" (WsView's): its session's GPU is the architecture shown, and "Use the
 * selected run" takes the workspace's selected run's numbers. */
GtkWidget *ws_occupancy_view_new (void);
void ws_occupancy_view_set_configuration (WsOccupancyView *self, int block, int registers,
                                          int smem_bytes);
/* The calculator's chart (a WsChartView), for exporting what is on screen. */
GtkWidget *ws_occupancy_view_get_chart (WsOccupancyView *self);

G_END_DECLS

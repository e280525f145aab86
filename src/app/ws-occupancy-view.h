/* ws-occupancy-view.h: the occupancy calculator, interactive: sliders for block size,
 * registers and shared memory, the curves redrawn as they move, the limiter in words.
 * Works with no GPU, from per-architecture limits.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-session.h"

G_BEGIN_DECLS

#define WS_TYPE_OCCUPANCY_VIEW (ws_occupancy_view_get_type ())
G_DECLARE_FINAL_TYPE (WsOccupancyView, ws_occupancy_view, WS, OCCUPANCY_VIEW, GtkWidget)

GtkWidget *ws_occupancy_view_new (void);
/* Picks the session's GPU architecture. */
void ws_occupancy_view_set_session (WsOccupancyView *self, WsSession *session);
/* The run that "Use the selected run" takes its numbers from (NULL: none). */
void ws_occupancy_view_set_run (WsOccupancyView *self, WsRun *run);
void ws_occupancy_view_set_configuration (WsOccupancyView *self, int block, int registers,
                                          int smem_bytes);
void ws_occupancy_view_set_presentation (WsOccupancyView *self, gboolean presentation);

G_END_DECLS

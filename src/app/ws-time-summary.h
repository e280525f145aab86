/* ws-time-summary.h: one line under the views saying what the workspace's selected range
 * holds (copy, kernel, overlap and idle time; each run's share when two are compared), or
 * what the span picked on the timeline is; hidden while neither is chosen.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-workspace.h"

G_BEGIN_DECLS

/* Property: "workspace". */
#define WS_TYPE_TIME_SUMMARY (ws_time_summary_get_type ())
G_DECLARE_FINAL_TYPE (WsTimeSummary, ws_time_summary, WS, TIME_SUMMARY, GtkWidget)

GtkWidget *ws_time_summary_new (void);
void ws_time_summary_set_workspace (WsTimeSummary *self, WsWorkspace *workspace);
/* The line shown, or NULL while hidden. */
const char *ws_time_summary_get_text (WsTimeSummary *self);

G_END_DECLS

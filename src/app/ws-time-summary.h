/* ws-time-summary.h: one line under the views saying what the workspace's selected range
 * holds (copy, kernel, overlap and idle time; each run's share when two are compared), or
 * what the span picked on the timeline is; hidden while neither is chosen.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-view.h"

G_BEGIN_DECLS

/* Property: "workspace" (WsView's). */
#define WS_TYPE_TIME_SUMMARY (ws_time_summary_get_type ())
G_DECLARE_FINAL_TYPE (WsTimeSummary, ws_time_summary, WS, TIME_SUMMARY, WsView)

GtkWidget *ws_time_summary_new (void);
/* The line shown, or NULL while hidden. */
const char *ws_time_summary_get_text (WsTimeSummary *self);

G_END_DECLS

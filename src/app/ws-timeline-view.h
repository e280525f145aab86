/* ws-timeline-view.h: the timeline of its workspace's session, and the hands on it:
 * Ctrl+scroll, pinch, Ctrl+= / Ctrl+- / Ctrl+0 and W/S zoom; drag, scroll and A/D pan;
 * Shift+drag selects a range, Z zooms to it; hovering shows every field of a span and a click
 * picks it. What it shows and what is selected are the workspace's visible window, selected
 * range and highlighted spans, so every other view sees the same.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-view.h"

G_BEGIN_DECLS

/* Property: "workspace" (WsView's). */
#define WS_TYPE_TIMELINE_VIEW (ws_timeline_view_get_type ())
G_DECLARE_FINAL_TYPE (WsTimelineView, ws_timeline_view, WS, TIMELINE_VIEW, WsView)

GtkWidget *ws_timeline_view_new (void);
/* The options the timeline draws with now, for exporting what is on screen. */
void ws_timeline_view_get_options (WsTimelineView *self, WsChartOptions *options);

/* Zooms by `factor` around a point `anchor_fraction` of the way across the window. */
void ws_timeline_view_zoom (WsTimelineView *self, double factor, double anchor_fraction);
/* Moves the window by `fraction` of its width (negative: back in time). */
void ws_timeline_view_pan (WsTimelineView *self, double fraction);
/* Shows the selected range, which is then cleared. */
void ws_timeline_view_zoom_to_selection (WsTimelineView *self);

G_END_DECLS

/* ws-callout-strip.h: the strip under the chart in presentation mode: the selected run's
 * findings as large callouts, the most severe first (what to change about it, then the next
 * ones), the spans the first is about outlined on the timeline. A click on a callout outlines
 * its spans and shows the timeline, as the findings panel does.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-view.h"

G_BEGIN_DECLS

/* Property: "workspace" (WsView's). */
#define WS_TYPE_CALLOUT_STRIP (ws_callout_strip_get_type ())
G_DECLARE_FINAL_TYPE (WsCalloutStrip, ws_callout_strip, WS, CALLOUT_STRIP, WsView)

GtkWidget *ws_callout_strip_new (void);
/* How many callouts it shows now. */
guint ws_callout_strip_get_n_callouts (WsCalloutStrip *self);

G_END_DECLS

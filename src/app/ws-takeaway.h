/* ws-takeaway.h: the line above the chart in presentation mode: which run of how many is
 * shown, and what it says, in large type (its most severe finding's title), with buttons to
 * step to the previous and next run (win.previous-run, win.next-run).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-view.h"

G_BEGIN_DECLS

/* Property: "workspace" (WsView's). */
#define WS_TYPE_TAKEAWAY (ws_takeaway_get_type ())
G_DECLARE_FINAL_TYPE (WsTakeaway, ws_takeaway, WS, TAKEAWAY, WsView)

GtkWidget *ws_takeaway_new (void);
/* What it shows now, for the tests: the run's place ("Run 5 of 12 · …") and the takeaway. */
const char *ws_takeaway_get_context (WsTakeaway *self);
const char *ws_takeaway_get_headline (WsTakeaway *self);

G_END_DECLS

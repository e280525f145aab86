/* ws-takeaway.h: the line above the chart: which run of how many is shown, and what it says
 * (its most severe finding's title), with buttons to step to the previous and next run
 * (win.previous-run, win.next-run); a traced program's most severe finding. In large type in
 * presentation mode; outside it, a line the window shows where the findings pane is folded
 * away, so that the answer stays in sight.
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
/* Whether it has something to say (property "has-answer"): a selected run, or a traced
 * program's most severe finding. Beside the chart, the window shows it where the findings
 * pane is folded away, with a button to that pane. */
gboolean ws_takeaway_has_answer (WsTakeaway *self);
/* What it shows now, for the tests: the run's place ("Run 5 of 12 · …") and the takeaway. */
const char *ws_takeaway_get_context (WsTakeaway *self);
const char *ws_takeaway_get_headline (WsTakeaway *self);

G_END_DECLS

/* ws-findings-panel.h: what the workspace's selected run's numbers say: each finding coloured
 * by severity with its numbers, cause and fix; clicking one outlines the spans it refers to on
 * the timeline. Two runs selected: side by side. No run: the session's problems.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-view.h"

G_BEGIN_DECLS

#define WS_TYPE_FINDINGS_PANEL (ws_findings_panel_get_type ())
G_DECLARE_FINAL_TYPE (WsFindingsPanel, ws_findings_panel, WS, FINDINGS_PANEL, WsView)

/* Property: "workspace" (WsView's). */
GtkWidget *ws_findings_panel_new (void);

G_END_DECLS

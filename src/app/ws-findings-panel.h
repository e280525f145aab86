/* ws-findings-panel.h: what the selected run's numbers say: each finding coloured by
 * severity with its numbers, cause and fix; clicking one outlines the spans it refers to.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-session.h"

G_BEGIN_DECLS

#define WS_TYPE_FINDINGS_PANEL (ws_findings_panel_get_type ())
G_DECLARE_FINAL_TYPE (WsFindingsPanel, ws_findings_panel, WS, FINDINGS_PANEL, GtkWidget)

GtkWidget *ws_findings_panel_new (void);
/* The findings of one run (WsFinding, borrowed while shown); run NULL shows the session's
 * overview: its problems and how to start. */
void ws_findings_panel_show (WsFindingsPanel *self, WsSession *session, WsRun *run,
                             GPtrArray *findings);
/* Two runs side by side: their numbers in two columns with the ratio, then each one's
 * findings. */
void ws_findings_panel_show_pair (WsFindingsPanel *self, WsSession *session, WsRun *first,
                                  GPtrArray *first_findings, WsRun *second,
                                  GPtrArray *second_findings);
void ws_findings_panel_set_presentation (WsFindingsPanel *self, gboolean presentation);

G_END_DECLS

/* ws-welcome-page.h: what the window shows before a session: what this computer can run (the
 * environment's heading and paragraph), the bundled recordings as one-click buttons, and the
 * occupancy calculator.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-environment.h"

G_BEGIN_DECLS

/* Properties: "environment", "samples" (GListModel of WsSample). */
#define WS_TYPE_WELCOME_PAGE (ws_welcome_page_get_type ())
G_DECLARE_FINAL_TYPE (WsWelcomePage, ws_welcome_page, WS, WELCOME_PAGE, GtkWidget)

void ws_welcome_page_set_environment (WsWelcomePage *self, WsEnvironment *environment);
void ws_welcome_page_set_samples (WsWelcomePage *self, GListModel *samples);

G_END_DECLS

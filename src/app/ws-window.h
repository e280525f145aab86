/* ws-window.h: the main window: configuration, runs, views, findings.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "ws-application.h"
#include "ws-session.h"

G_BEGIN_DECLS

#define WS_TYPE_WINDOW (ws_window_get_type ())
G_DECLARE_FINAL_TYPE (WsWindow, ws_window, WS, WINDOW, AdwApplicationWindow)

WsWindow *ws_window_new (WsApplication *application);
/* Opens a session or recording, reading it in a thread. */
void ws_window_open_file (WsWindow *self, GFile *file);
/* Starts `argv` (a runner, or warpscope-cli replay) as the live session. */
gboolean ws_window_start_live (WsWindow *self, const char *const *argv, GError **error);

/* For the tests: what a person sees. */
WsSession *ws_window_get_session (WsWindow *self);
const char *ws_window_get_status_text (WsWindow *self);
gboolean ws_window_is_running (WsWindow *self);
GtkWidget *ws_window_get_sidebar (WsWindow *self);
GtkWidget *ws_window_get_runs_view (WsWindow *self);
GtkWidget *ws_window_get_findings_panel (WsWindow *self);
GtkWidget *ws_window_get_timeline (WsWindow *self);
const char *ws_window_get_last_toast (WsWindow *self);
/* "welcome" or "views" */
const char *ws_window_get_page (WsWindow *self);

G_END_DECLS

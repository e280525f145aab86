/* ws-window.h: the main window: its template puts the views together around one workspace,
 * and it holds the actions and the file choosers.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "ws-application.h"
#include "ws-workspace.h"

G_BEGIN_DECLS

#define WS_TYPE_WINDOW (ws_window_get_type ())
G_DECLARE_FINAL_TYPE (WsWindow, ws_window, WS, WINDOW, AdwApplicationWindow)

WsWindow *ws_window_new (WsApplication *application);
/* Opens a session or recording, reading it in a thread; a .cu file is a kernel to edit. */
void ws_window_open_file (WsWindow *self, GFile *file);
/* Starts `argv` (a runner, or warpscope-cli replay) as the live session. */
gboolean ws_window_start_live (WsWindow *self, const char *const *argv, GError **error);

/* A sentence for people, shown for a few seconds. */
void ws_window_show_toast (WsWindow *self, const char *text);

/* For the tests: what a person sees (the views are the template's children, by their ids). */
WsWorkspace *ws_window_get_workspace (WsWindow *self);
const char *ws_window_get_status_text (WsWindow *self);
gboolean ws_window_is_running (WsWindow *self);
const char *ws_window_get_last_toast (WsWindow *self);
/* "welcome" or "views" */
const char *ws_window_get_page (WsWindow *self);

G_END_DECLS

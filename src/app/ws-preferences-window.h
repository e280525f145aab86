/* ws-preferences-window.h: preferences: where the runner can run (the saved targets), when
 * to give up on it, light or dark.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define WS_TYPE_PREFERENCES_WINDOW (ws_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (WsPreferencesWindow, ws_preferences_window, WS, PREFERENCES_WINDOW,
                      AdwPreferencesWindow)

GtkWidget *ws_preferences_window_new (GSettings *settings);

G_END_DECLS

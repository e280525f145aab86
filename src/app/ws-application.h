/* ws-application.h: the application: settings, app-wide actions, windows.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define WS_TYPE_APPLICATION (ws_application_get_type ())
G_DECLARE_FINAL_TYPE (WsApplication, ws_application, WS, APPLICATION, AdwApplication)

WsApplication *ws_application_new (void);
GSettings *ws_application_get_settings (WsApplication *self);

/* The folder with the recordings bundled with Warpscope (source tree or installed). */
char *ws_application_dup_samples_dir (void);

G_END_DECLS

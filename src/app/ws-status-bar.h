/* ws-status-bar.h: the foot of the window: while runs go, their progress and a Cancel button;
 * always, one line saying where the session comes from (the GPU, the recording, the replay),
 * how far a sweep is and what could not be read, or, with no session, what this computer can
 * run.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-environment.h"
#include "ws-run-controller.h"
#include "ws-view.h"

G_BEGIN_DECLS

/* Properties: "workspace" (WsView's), "environment", "controller". */
#define WS_TYPE_STATUS_BAR (ws_status_bar_get_type ())
G_DECLARE_FINAL_TYPE (WsStatusBar, ws_status_bar, WS, STATUS_BAR, WsView)

const char *ws_status_bar_get_text (WsStatusBar *self);

G_END_DECLS

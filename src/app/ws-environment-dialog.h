/* ws-environment-dialog.h: the environment ("doctor"): GPUs, compute capability, SMs, memory,
 * driver, runtime and CUPTI versions, measured bandwidths, and each problem the runner
 * diagnosed with its fix — the tutorial's §2 and §6.1, answered by the machine itself.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "ws-session.h"

G_BEGIN_DECLS

#define WS_TYPE_ENVIRONMENT_DIALOG (ws_environment_dialog_get_type ())
G_DECLARE_FINAL_TYPE (WsEnvironmentDialog, ws_environment_dialog, WS, ENVIRONMENT_DIALOG,
                      AdwPreferencesWindow)

/* `environment`: the runner's --device-info session (NULL when there is no runner);
 * `session`: the session shown, whose hello and devices are listed too. */
GtkWidget *ws_environment_dialog_new (WsSession *environment, WsSession *session,
                                      const char *runner_path);

G_END_DECLS

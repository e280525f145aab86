/* ws-runner-client.h: starts warpscope-runner (or a replay standing in for it) with an argv
 * vector, never a shell, optionally behind a launcher prefix (ssh gpu-box, srun …), and feeds
 * its stdout into a session line by line as it arrives. Shared by the app and the CLI.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ws-session.h"

G_BEGIN_DECLS

#define WS_TYPE_RUNNER_CLIENT (ws_runner_client_get_type ())
G_DECLARE_FINAL_TYPE (WsRunnerClient, ws_runner_client, WS, RUNNER_CLIENT, GObject)

WsRunnerClient *ws_runner_client_new (WsSession *session);

/* Stops a runner that prints nothing for this long (0: never); default 120 s. */
void ws_runner_client_set_timeout (WsRunnerClient *self, guint seconds);

/* Starts `argv` (launcher prefix first, when given). "finished" follows once it has ended. */
gboolean ws_runner_client_start (WsRunnerClient *self, const char *const *launcher,
                                 const char *const *argv, GError **error);

/* Stops it: SIGTERM, then SIGKILL after a moment. The runs that completed stay. */
void ws_runner_client_cancel (WsRunnerClient *self);

gboolean ws_runner_client_is_running (WsRunnerClient *self);
WsSession *ws_runner_client_get_session (WsRunnerClient *self);
/* What the runner wrote for people on stderr. */
const char *ws_runner_client_get_stderr (WsRunnerClient *self);
/* After "finished": NULL when the runner ended normally; else why it did not (crashed,
 * stopped answering, cancelled, could not start). */
const GError *ws_runner_client_get_error (WsRunnerClient *self);
int ws_runner_client_get_exit_status (WsRunnerClient *self);

/* The runner's path: $WARPSCOPE_RUNNER, else the build tree's when this program runs from the
 * build tree, else the installed one. NULL when none exists (Warpscope was built without
 * CUDA). */
char *ws_runner_find (void);
/* warpscope-cli's path, for replays, the same way ($WARPSCOPE_CLI). */
char *ws_cli_find (void);

G_END_DECLS

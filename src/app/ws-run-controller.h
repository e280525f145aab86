/* ws-run-controller.h: the live run: starts the runner (or a replay) behind the launcher
 * prefix into a new session of its workspace, stops it, stops it when it falls silent, keeps
 * the session in the cache while it grows, and says how it ended.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ws-workspace.h"

G_BEGIN_DECLS

/* Properties: "workspace" (where the live session goes), "launcher" (shell words put in front
 * of the runner), "timeout" (seconds of silence before a runner is stopped; 0: never),
 * "running" (read-only). Signal "message" (a sentence for people): how a run ended. */
#define WS_TYPE_RUN_CONTROLLER (ws_run_controller_get_type ())
G_DECLARE_FINAL_TYPE (WsRunController, ws_run_controller, WS, RUN_CONTROLLER, GObject)

/* Starts `argv` as the workspace's live session. */
gboolean ws_run_controller_start (WsRunController *self, const char *const *argv, GError **error);
/* Starts warpscope-runner --trace (ws_trace_command_build_argv): with no inactivity limit,
 * since a program may compute for minutes without a record; the end is said in the program's
 * terms (how it exited, or what went wrong). */
gboolean ws_run_controller_start_trace (WsRunController *self, const char *const *argv,
                                        GError **error);
/* Replays a recording with its original pacing (warpscope-cli replay) as the live session. */
gboolean ws_run_controller_replay (WsRunController *self, GFile *recording, GError **error);
/* Stops it; the runs that completed stay. */
void ws_run_controller_cancel (WsRunController *self);
gboolean ws_run_controller_is_running (WsRunController *self);

/* Where the last live session is kept until it is saved. */
char *ws_run_controller_dup_autosave_path (void);

G_END_DECLS

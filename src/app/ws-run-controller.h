/* ws-run-controller.h: the live run: starts the runner on the chosen target (one runner, or
 * one per GPU with the sweep split across them), or a replay, into a new session of its
 * workspace; stops it (all of them), stops it when it falls silent, keeps the session in the
 * cache while it grows, and says how it ended (which GPU failed, in a split).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ws-sweep-split.h"
#include "ws-target.h"
#include "ws-workspace.h"

G_BEGIN_DECLS

/* Properties: "workspace" (where the live session goes), "target" (where the runner runs;
 * NULL: this computer), "timeout" (seconds of silence before a runner is stopped; 0: never),
 * "running" (read-only). Signal "message" (a sentence for people): how a run ended. */
#define WS_TYPE_RUN_CONTROLLER (ws_run_controller_get_type ())
G_DECLARE_FINAL_TYPE (WsRunController, ws_run_controller, WS, RUN_CONTROLLER, GObject)

/* Starts `argv` (a program here, as given: a replay, a stand-in) as the workspace's live
 * session. */
gboolean ws_run_controller_start (WsRunController *self, const char *const *argv, GError **error);
/* Starts warpscope-runner --trace on the target with `args` (ws_trace_command_runner_args:
 * its options, without its path): with no inactivity limit, since a program may compute for
 * minutes without a record; the end is said in the program's terms (how it exited, or what
 * went wrong). */
gboolean ws_run_controller_start_trace (WsRunController *self, const char *const *args,
                                        GError **error);
/* Starts the runner on the target with `args` (its options, without its path) as the live
 * session: with no devices, one runner as the options say; with one, that GPU (--device);
 * with several, the sweep split across them, one runner each, merged in plan order. */
gboolean ws_run_controller_start_on_target (WsRunController *self, const char *const *args,
                                            const int *devices, guint n_devices, GError **error);
/* The split of the last sweep over several GPUs, or NULL. */
WsSweepSplit *ws_run_controller_get_split (WsRunController *self);
/* The chosen target, or NULL: this computer. */
WsTarget *ws_run_controller_get_target (WsRunController *self);
/* Replays a recording with its original pacing (warpscope-cli replay) as the live session. */
gboolean ws_run_controller_replay (WsRunController *self, GFile *recording, GError **error);
/* Stops it; the runs that completed stay. */
void ws_run_controller_cancel (WsRunController *self);
gboolean ws_run_controller_is_running (WsRunController *self);

/* Where the last live session is kept until it is saved. */
char *ws_run_controller_dup_autosave_path (void);

G_END_DECLS

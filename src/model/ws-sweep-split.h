/* ws-sweep-split.h: a sweep spread over several GPUs: one runner per GPU (on the target:
 * here, over ssh, or one Slurm job each), each given its share of the configurations
 * (--shard K/N, dealt round-robin in plan order), merged into one session in plan order
 * (ws-sweep-merge.h) as the runners go. Progress counts every runner; Stop stops them all;
 * a runner that fails leaves the others' runs, and the session says which GPU failed.
 * Used by `warpscope-cli run --devices` now and by the app.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ws-session.h"
#include "ws-target-job.h"
#include "ws-target.h"

G_BEGIN_DECLS

/* "all" (*all set, no indices), or GPU indices: "0,1,3", "0-3", "0-1,4". Fails with a
 * sentence for anything else (a repeated index, a reversed range). */
gboolean ws_devices_parse (const char *text, GArray **devices, gboolean *all, GError **error);

#define WS_TYPE_SWEEP_SPLIT (ws_sweep_split_get_type ())
G_DECLARE_FINAL_TYPE (WsSweepSplit, ws_sweep_split, WS, SWEEP_SPLIT, GObject)

/* Runners on `target` feeding `session` (a live session, empty). */
WsSweepSplit *ws_sweep_split_new (WsTarget *target, WsSession *session);
void ws_sweep_split_set_timeout (WsSweepSplit *self, guint seconds);
/* Starts one runner per element of `devices` (CUDA indices; on Slurm each job gets a GPU of
 * its own, which its runner sees as device 0, and the indices only count the jobs), each with
 * `args` (the sweep's options, without --device or --shard) and its share. Fails when no
 * runner could be started; "finished" follows once every runner that started has ended. */
gboolean ws_sweep_split_start (WsSweepSplit *self, const char *const *args, const int *devices,
                               guint n_devices, GError **error);
void ws_sweep_split_cancel (WsSweepSplit *self);
void ws_sweep_split_kill (WsSweepSplit *self);

/* Property "running". */
gboolean ws_sweep_split_is_running (WsSweepSplit *self);
WsSession *ws_sweep_split_get_session (WsSweepSplit *self);
guint ws_sweep_split_get_n_runners (WsSweepSplit *self);
/* The i-th runner, its GPU, and its name for people ("GPU 1"). */
WsTargetJob *ws_sweep_split_get_job (WsSweepSplit *self, guint i);
int ws_sweep_split_get_device (WsSweepSplit *self, guint i);
const char *ws_sweep_split_get_label (WsSweepSplit *self, guint i);
/* After "finished": why the i-th runner did not finish its share; NULL when it did, or when
 * it was stopped. */
const GError *ws_sweep_split_get_runner_error (WsSweepSplit *self, guint i);
/* After "finished": the runners that did not finish their share, and why the first did not
 * ("GPU 1: …"); NULL when all did. */
guint ws_sweep_split_get_n_failed (WsSweepSplit *self);
const GError *ws_sweep_split_get_error (WsSweepSplit *self);
/* The highest exit status among the runners (the runner's 0–5), as one runner's would be. */
int ws_sweep_split_get_exit_status (WsSweepSplit *self);
/* Lines of the runners' streams that were not records (each runner's session counts them). */
guint ws_sweep_split_get_n_bad_lines (WsSweepSplit *self);

G_END_DECLS

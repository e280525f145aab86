/* ws-sweep-split.h: a sweep spread over several GPUs: one runner per GPU (on the target:
 * here, over ssh, or one Slurm job each), each given its share of the configurations
 * (--shard K/N, dealt round-robin in plan order), merged into one session in plan order
 * (ws-sweep-merge.h) as the runners go. Progress counts every runner; Stop stops them all;
 * a runner that fails leaves the others' runs, and the session says which GPU failed.
 * A WsRunnerJob (ws-runner-job.h), driven by `warpscope-cli run --devices` and by the app.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ws-runner-job.h"
#include "ws-session.h"
#include "ws-target-job.h"
#include "ws-target.h"

G_BEGIN_DECLS

/* "all" (*all set, no indices), or GPU indices: "0,1,3", "0-3", "0-1,4". Fails with a
 * sentence for anything else (a repeated index, a reversed range). */
gboolean ws_devices_parse (const char *text, GArray **devices, gboolean *all, GError **error);

#define WS_TYPE_SWEEP_SPLIT (ws_sweep_split_get_type ())
G_DECLARE_FINAL_TYPE (WsSweepSplit, ws_sweep_split, WS, SWEEP_SPLIT, WsRunnerJob)

/* Runners on `target` feeding `session` (a live session, empty). As a WsRunnerJob: started
 * with `args` (the sweep's options, without --device or --shard), one runner per device
 * (ws_sweep_split_set_devices), each with its share; the start fails when no runner could be
 * started; "finished" follows once every runner that started has ended; Stop stops them all.
 * Its error says which runner failed first and why ("GPU 1: …"), and that the others' runs
 * are kept when some did not fail; its status is each runner's news as it comes. */
WsSweepSplit *ws_sweep_split_new (WsTarget *target, WsSession *session);
/* Before the start: one runner per element of `devices` (CUDA indices; on Slurm each job gets
 * a GPU of its own, which its runner sees as device 0, and the indices only count the jobs). */
void ws_sweep_split_set_devices (WsSweepSplit *self, const int *devices, guint n_devices);
/* ws_sweep_split_set_devices, then ws_runner_job_start. */
gboolean ws_sweep_split_start (WsSweepSplit *self, const char *const *args, const int *devices,
                               guint n_devices, GError **error);

guint ws_sweep_split_get_n_runners (WsSweepSplit *self);
/* The i-th runner, its GPU, and its name for people ("GPU 1"). */
WsTargetJob *ws_sweep_split_get_job (WsSweepSplit *self, guint i);
int ws_sweep_split_get_device (WsSweepSplit *self, guint i);
const char *ws_sweep_split_get_label (WsSweepSplit *self, guint i);
/* After "finished": why the i-th runner did not finish its share; NULL when it did, or when
 * it was stopped. */
const GError *ws_sweep_split_get_runner_error (WsSweepSplit *self, guint i);
/* After "finished": how many runners did not finish their share. */
guint ws_sweep_split_get_n_failed (WsSweepSplit *self);
/* Lines of the runners' streams that were not records (each runner's session counts them). */
guint ws_sweep_split_get_n_bad_lines (WsSweepSplit *self);

/* The same as ws_runner_job_…, for a caller that holds a WsSweepSplit. */
static inline void
ws_sweep_split_cancel (WsSweepSplit *self)
{
  ws_runner_job_cancel (WS_RUNNER_JOB (self));
}

static inline gboolean
ws_sweep_split_is_running (WsSweepSplit *self)
{
  return ws_runner_job_is_running (WS_RUNNER_JOB (self));
}

static inline const GError *
ws_sweep_split_get_error (WsSweepSplit *self)
{
  return ws_runner_job_get_error (WS_RUNNER_JOB (self));
}

static inline int
ws_sweep_split_get_exit_status (WsSweepSplit *self)
{
  return ws_runner_job_get_exit_status (WS_RUNNER_JOB (self));
}

G_END_DECLS

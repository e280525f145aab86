/* ws-target-job.h: one start of the runner on a target: the runner client behind the
 * target's launcher, with what the target knows about it on top: the far side's runner
 * checked against its hello, a Slurm job that waits for resources shown and given up after
 * the target's pending timeout (with the reason squeue gives), and a launcher that fails
 * explained in plain words. Shared by the app and the CLI; a split sweep starts one per GPU.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ws-runner-client.h"
#include "ws-session.h"
#include "ws-target.h"

G_BEGIN_DECLS

#define WS_TYPE_TARGET_JOB (ws_target_job_get_type ())
G_DECLARE_FINAL_TYPE (WsTargetJob, ws_target_job, WS, TARGET_JOB, GObject)

/* Feeds `session` with what the runner prints. */
WsTargetJob *ws_target_job_new (WsTarget *target, WsSession *session);
/* As ws_runner_client_set_timeout; not counted while a Slurm job waits for resources. */
void ws_target_job_set_timeout (WsTargetJob *self, guint seconds);
/* As ws_runner_client_set_stderr_func, for the runner this job starts. */
void ws_target_job_set_stderr_func (WsTargetJob *self, WsRunnerClientOutputFunc func,
                                    gpointer user_data);
/* Starts the runner with `args` after its path. Fails (nothing started) when the target
 * cannot work as it is or its launcher is not installed here. "finished" follows a start. */
gboolean ws_target_job_start (WsTargetJob *self, const char *const *args, GError **error);
/* Stops it, keeping the runs that completed. Through ssh the far side is asked first (its
 * runner still sends its last records), then the local end is stopped. */
void ws_target_job_cancel (WsTargetJob *self);
void ws_target_job_kill (WsTargetJob *self);

gboolean ws_target_job_is_running (WsTargetJob *self);
WsTarget *ws_target_job_get_target (WsTargetJob *self);
WsSession *ws_target_job_get_session (WsTargetJob *self);
WsRunnerClient *ws_target_job_get_client (WsTargetJob *self);
/* Property "status": what the launcher is doing when it is not the runner's work, for
 * people ("Slurm job 12 is waiting for resources…"), or NULL. */
const char *ws_target_job_get_status (WsTargetJob *self);
/* The Slurm job's id once Slurm has given one, else NULL. */
const char *ws_target_job_get_slurm_job (WsTargetJob *self);
/* After "finished": NULL when the runner did its work to its done record; else why not, in
 * the target's words (WS_TARGET_ERROR) or the client's (G_IO_ERROR: crashed, stopped
 * answering, cancelled). */
const GError *ws_target_job_get_error (WsTargetJob *self);
/* The runner's exit status (through ssh and srun, theirs). */
int ws_target_job_get_exit_status (WsTargetJob *self);

G_END_DECLS

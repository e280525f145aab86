/* ws-target-job.h: one start of the runner on a target: the runner client behind the
 * target's launcher, with what the target knows about it on top: the far side's runner
 * checked against its hello, a Slurm job that waits for resources shown and given up after
 * the target's pending timeout (with the reason squeue gives), and a launcher that fails
 * explained in plain words. A WsRunnerJob (ws-runner-job.h), driven by the app and the CLI;
 * a split sweep starts one per GPU.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ws-runner-client.h"
#include "ws-runner-job.h"
#include "ws-session.h"
#include "ws-target.h"

G_BEGIN_DECLS

#define WS_TYPE_TARGET_JOB (ws_target_job_get_type ())
G_DECLARE_FINAL_TYPE (WsTargetJob, ws_target_job, WS, TARGET_JOB, WsRunnerJob)

/* Feeds `session` with what the runner prints. As a WsRunnerJob: started with `args` after
 * the runner's path; the start fails (nothing started) when the target cannot work as it is
 * or its launcher is not installed here. Stop keeps the runs that completed; through ssh the
 * far side is asked first (its runner still sends its last records), then the local end is
 * stopped. The timeout is not counted while a Slurm job waits for resources. Its error, after
 * "finished", is in the target's words (WS_TARGET_ERROR) or the client's (G_IO_ERROR:
 * crashed, stopped answering, cancelled). */
WsTargetJob *ws_target_job_new (WsTarget *target, WsSession *session);
/* As ws_runner_client_set_stderr_func, for the runner this job starts. */
void ws_target_job_set_stderr_func (WsTargetJob *self, WsRunnerClientOutputFunc func,
                                    gpointer user_data);
/* Its one runner client, once started; else NULL. */
WsRunnerClient *ws_target_job_get_client (WsTargetJob *self);
/* The Slurm job's id once Slurm has given one, else NULL. */
const char *ws_target_job_get_slurm_job (WsTargetJob *self);

/* The same as ws_runner_job_…, for a caller that holds a WsTargetJob. */
static inline void
ws_target_job_set_timeout (WsTargetJob *self, guint seconds)
{
  ws_runner_job_set_timeout (WS_RUNNER_JOB (self), seconds);
}

static inline gboolean
ws_target_job_start (WsTargetJob *self, const char *const *args, GError **error)
{
  return ws_runner_job_start (WS_RUNNER_JOB (self), args, error);
}

static inline gboolean
ws_target_job_is_running (WsTargetJob *self)
{
  return ws_runner_job_is_running (WS_RUNNER_JOB (self));
}

static inline const char *
ws_target_job_get_status (WsTargetJob *self)
{
  return ws_runner_job_get_status (WS_RUNNER_JOB (self));
}

static inline const GError *
ws_target_job_get_error (WsTargetJob *self)
{
  return ws_runner_job_get_error (WS_RUNNER_JOB (self));
}

G_END_DECLS

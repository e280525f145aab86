/* ws-runner-job.h: what the app and the CLI drive, whichever way the runner is started on a
 * target: one runner (WsTargetJob), one per GPU merged into one session (WsSweepSplit), or a
 * program here started as given, a replay standing in for the runner (WsProgramJob).
 * Each is started once, after its timeout is set; Stop (cancel) keeps the runs that completed
 * and kill stops at once; both do nothing before a start or after the end. "finished" is
 * emitted exactly once after a start that succeeded, never after one that failed (that
 * failure is the start's GError); then the job's error says why it did not finish its work,
 * or is NULL. A stop is no failure: the error is then G_IO_ERROR_CANCELLED (a target job, a
 * program job) or NULL (a split). The runs, and the runner's progress records, are the
 * session's. tests/test-runner-job.c holds each kind to this.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ws-runner-client.h"
#include "ws-session.h"
#include "ws-target.h"

G_BEGIN_DECLS

#define WS_TYPE_RUNNER_JOB (ws_runner_job_get_type ())
G_DECLARE_DERIVABLE_TYPE (WsRunnerJob, ws_runner_job, WS, RUNNER_JOB, GObject)

struct _WsRunnerJobClass
{
  GObjectClass parent_class;

  /* Starts the runner(s) with `args` after the runner's path; FALSE (nothing started, nothing
   * to finish) with why. */
  gboolean (*start) (WsRunnerJob *self, const char *const *args, GError **error);
  /* Only while running. */
  void (*cancel) (WsRunnerJob *self);
  void (*kill) (WsRunnerJob *self);
  /* After the timeout changed (optional). */
  void (*timeout_changed) (WsRunnerJob *self);
  int (*get_exit_status) (WsRunnerJob *self);
  guint (*get_n_clients) (WsRunnerJob *self);
  WsRunnerClient *(*get_client) (WsRunnerJob *self, guint i);

  gpointer padding[8];
};

/* Stops a runner that prints nothing for this long (0: never); default 120 s. */
void ws_runner_job_set_timeout (WsRunnerJob *self, guint seconds);
guint ws_runner_job_get_timeout (WsRunnerJob *self);
gboolean ws_runner_job_start (WsRunnerJob *self, const char *const *args, GError **error);
void ws_runner_job_cancel (WsRunnerJob *self);
void ws_runner_job_kill (WsRunnerJob *self);

/* Property "running": from a start that succeeded until "finished". */
gboolean ws_runner_job_is_running (WsRunnerJob *self);
WsTarget *ws_runner_job_get_target (WsRunnerJob *self);
WsSession *ws_runner_job_get_session (WsRunnerJob *self);
/* Property "status": what a launcher is doing when it is not the runner's work, for people
 * ("Slurm job 12 is waiting for resources…"), or NULL. A split says each runner's news. */
const char *ws_runner_job_get_status (WsRunnerJob *self);
/* After "finished": NULL when the work was done to its done record; else why not. */
const GError *ws_runner_job_get_error (WsRunnerJob *self);
/* The runner's exit status (the runner's 0–5; through ssh and srun, theirs), -1 before it
 * ended; a split's is the highest among its runners, as one runner's would be. */
int ws_runner_job_get_exit_status (WsRunnerJob *self);
/* The runner clients behind the job (one per runner; NULL for one that did not start). */
guint ws_runner_job_get_n_clients (WsRunnerJob *self);
WsRunnerClient *ws_runner_job_get_client (WsRunnerJob *self, guint i);

G_END_DECLS

/* ws-runner-job-private.h: what a WsRunnerJob subclass does through its base: made with its
 * target and session, says its status, and ends once.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-runner-job.h"

G_BEGIN_DECLS

/* A new job of `type` (a subclass) on `target`, feeding `session`. */
gpointer _ws_runner_job_new (GType type, WsTarget *target, WsSession *session);
/* Sets the "status" property (copied; NULL: none) and notifies it, also when it is the same. */
void _ws_runner_job_set_status (WsRunnerJob *self, const char *status);
/* The end: takes `error` (NULL: the work was done), then "running" turns FALSE and "finished"
 * is emitted. Called once per start that succeeded. */
void _ws_runner_job_finish (WsRunnerJob *self, GError *error);

G_END_DECLS

/* ws-program-job.h: a program on this computer started as given, its output read as the
 * runner's: a recording replayed as if live (warpscope-cli replay), the runner's own --check,
 * a stand-in. A WsRunnerJob (ws-runner-job.h) with nothing of a target's on top: no hello
 * checked against the target, no launcher's failure explained; what it says is its runner
 * client's.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ws-runner-job.h"
#include "ws-session.h"
#include "ws-target.h"

G_BEGIN_DECLS

#define WS_TYPE_PROGRAM_JOB (ws_program_job_get_type ())
G_DECLARE_FINAL_TYPE (WsProgramJob, ws_program_job, WS, PROGRAM_JOB, WsRunnerJob)

/* Feeds `session` with what the program prints. `target` is this computer (a local target):
 * its runner's path, as it is at the start, is the program, started with `args` after it
 * (and the target's environment, as for any runner here). The start fails (nothing started)
 * when the program cannot be started (WS_TARGET_ERROR_NO_RUNNER, in the spawn's words). Stop
 * and the timeout stop it as the client does; its error, after "finished", is the client's
 * (G_IO_ERROR: crashed, stopped answering, cancelled) or NULL when it ended normally. */
WsProgramJob *ws_program_job_new (WsTarget *target, WsSession *session);

G_END_DECLS

/* ws-run-private.h: filling a run in as its records arrive, for the session reader.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-record.h"
#include "ws-run.h"

G_BEGIN_DECLS

/* The records' numbers were checked against their ranges (ws-session-ranges.c). */
WsRun *_ws_run_new_from_record (const WsRecord *record);
/* A launch, timing or verify record (`type`, interned or not). */
void _ws_run_set_record (WsRun *self, const char *type, const WsRecord *record);
void _ws_run_add_error (WsRun *self, WsRunnerError *error);
void _ws_run_append_activity (WsRun *self, const WsSpan *activity);
void _ws_run_finish_activities (WsRun *self);
/* Sorted, and kept in an array of their own size: the reader is past the run's records. */
void _ws_run_seal_activities (WsRun *self);
void _ws_run_mark_incomplete (WsRun *self);

/* An error record as the model keeps it. */
WsRunnerError *_ws_runner_error_new_from_record (const WsRecord *record);

G_END_DECLS

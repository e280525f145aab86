/* ws-trace-dialog.h: Trace a Program…: a command, its working folder, environment variables and
 * an optional sweep over one of its parameters ({NAME} in the command), the recent commands
 * (GSettings); Trace starts it under warpscope-runner --trace through the window's run
 * controller, as the live session of the workspace, and the dialog shows the time and the
 * kernels and copies seen; Stop ends the program and keeps the trace; the end says how the
 * program exited, or what went wrong, in plain words.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "ws-run-controller.h"
#include "ws-workspace.h"

G_BEGIN_DECLS

#define WS_TYPE_TRACE_DIALOG (ws_trace_dialog_get_type ())
G_DECLARE_FINAL_TYPE (WsTraceDialog, ws_trace_dialog, WS, TRACE_DIALOG, AdwWindow)

/* `runner`: the runner's path, NULL when this build has none (Trace then says so). */
WsTraceDialog *ws_trace_dialog_new (GtkWindow *parent, GSettings *settings,
                                    WsRunController *controller, WsWorkspace *workspace,
                                    const char *runner);

/* What a person types into the fields, and the Trace button: for tests. */
void ws_trace_dialog_set_fields (WsTraceDialog *self, const char *command, const char *cwd,
                                 const char *env, const char *sweep);
gboolean ws_trace_dialog_start (WsTraceDialog *self);
void ws_trace_dialog_stop (WsTraceDialog *self);
/* The live line ("2.1 s · 1 kernel, 3 copies") and the last message (the program's ending, or
 * what went wrong); "" when none. */
const char *ws_trace_dialog_get_status (WsTraceDialog *self);
const char *ws_trace_dialog_get_message (WsTraceDialog *self);

G_END_DECLS

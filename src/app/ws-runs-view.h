/* ws-runs-view.h: the table of runs: kernel, size, block, kernel and end-to-end time with
 * spread, speedups, occupancy, verification and finding badges; sortable, one or two selected.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-session.h"

G_BEGIN_DECLS

#define WS_TYPE_RUNS_VIEW (ws_runs_view_get_type ())
G_DECLARE_FINAL_TYPE (WsRunsView, ws_runs_view, WS, RUNS_VIEW, GtkWidget)

GtkWidget *ws_runs_view_new (void);
void ws_runs_view_set_session (WsRunsView *self, WsSession *session);
/* The selected runs' ids: the first, and a second to compare with (0 when none). */
void ws_runs_view_get_selection (WsRunsView *self, int *first, int *second);
void ws_runs_view_select_run (WsRunsView *self, int id);
/* Adds a run to the selection, as Ctrl+click does: two selected runs are compared. */
void ws_runs_view_add_to_selection (WsRunsView *self, int id);
/* Findings of a run, cached until the session changes (WsFinding; borrowed). */
GPtrArray *ws_runs_view_get_findings (WsRunsView *self, WsRun *run);

G_END_DECLS

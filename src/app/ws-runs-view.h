/* ws-runs-view.h: the table of runs of its workspace's session: kernel, size, block, kernel
 * and end-to-end time with spread, speedups, occupancy, verification and finding badges;
 * sortable. The rows selected are the workspace's run and the run compared with it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-view.h"

G_BEGIN_DECLS

#define WS_TYPE_RUNS_VIEW (ws_runs_view_get_type ())
G_DECLARE_FINAL_TYPE (WsRunsView, ws_runs_view, WS, RUNS_VIEW, WsView)

/* Property: "workspace" (WsView's). */
GtkWidget *ws_runs_view_new (void);
/* The selected rows' run ids in the table's order: the first, and a second (0 when none). */
void ws_runs_view_get_selection (WsRunsView *self, int *first, int *second);
/* Selects a run's row alone, as a click does. */
void ws_runs_view_select_run (WsRunsView *self, int id);
/* Adds a run to the selection, as Ctrl+click does: two selected runs are compared. */
void ws_runs_view_add_to_selection (WsRunsView *self, int id);
/* Whether the GPU column is shown: the session's runs ran on several GPUs. */
gboolean ws_runs_view_shows_devices (WsRunsView *self);
/* A cell's tooltip, as the cell gives it when GTK asks (NULL for none; for tests). */
char *ws_runs_view_dup_cell_tooltip (WsRunsView *self, GtkWidget *cell);
/* The rows' vertical scrolling (a benchmark scrolls the table with it, ws-probe.h). */
GtkAdjustment *ws_runs_view_get_vadjustment (WsRunsView *self);

G_END_DECLS

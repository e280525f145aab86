/* ws-chart-actions.h: the "chart" actions of a window, for the chart on screen: copy it as a
 * PNG (chart.copy), export it in one step (chart.export-as('svg')), or in the dialog
 * (chart.export); once written, a toast says where, with Open (chart.open-file) and Show in
 * Folder (chart.show-file). The chart menu (ws-chart-menu.h) and the header name them.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "ws-workspace.h"

G_BEGIN_DECLS

/* Properties: "workspace", "views" (the window's AdwViewStack: which chart is on screen),
 * "toasts" (AdwToastOverlay), "settings" (the export settings). Enabled while the workspace
 * has runs. */
#define WS_TYPE_CHART_ACTIONS (ws_chart_actions_get_type ())
G_DECLARE_FINAL_TYPE (WsChartActions, ws_chart_actions, WS, CHART_ACTIONS, GSimpleActionGroup)

WsChartActions *ws_chart_actions_new (void);
void ws_chart_actions_set_settings (WsChartActions *self, GSettings *settings);
/* The words of the last toast it showed, for the tests. */
const char *ws_chart_actions_get_last_toast (WsChartActions *self);

G_END_DECLS

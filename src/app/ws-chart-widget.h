/* ws-chart-widget.h: what every chart on screen does alike (WsChartView, WsTimelineView): its
 * CSS name and role, the space it takes, the context menu, and repainting when its workspace
 * or the style changes.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-chart.h"
#include "ws-workspace.h"

G_BEGIN_DECLS

/* In class_init: the CSS name "chart", the image role, and a size_allocate that places the
 * context menu. */
void ws_chart_widget_class_init (GtkWidgetClass *widget_class);
/* In init: as wide and tall as it is given (320 × 200 at least), the context menu, repainted
 * when the style turns dark or light. */
void ws_chart_widget_init (GtkWidget *chart);
/* From a view's workspace_changed (WsView): repaints now, and on whatever `workspace` (NULL:
 * none) changes. */
void ws_chart_widget_follow (GtkWidget *chart, WsWorkspace *workspace);
/* The chart of `sessions` as `options` (filled for the widget's size) say, painted with the
 * same ws_chart_draw as export. */
void ws_chart_widget_snapshot (GtkWidget *chart, GtkSnapshot *snapshot, GPtrArray *sessions,
                               const WsChartOptions *options);
/* What is on screen made the options of an export: exported charts choose their own theme,
 * and a highlight is the screen's alone. */
void ws_chart_widget_export_options (WsChartOptions *options);
/* In dispose: the style manager and the menu. */
void ws_chart_widget_dispose (GtkWidget *chart);

G_END_DECLS

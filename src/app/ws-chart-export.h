/* ws-chart-export.h: a chart written as a file or copied, from anywhere in the window: the
 * export dialog, the header's menu, a right click on a chart. Files are figures in physical
 * units (ws-figure.h), written atomically, never over an existing file without asking.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-figure.h"

G_BEGIN_DECLS

/* `options`' chart (its kind, runs and window; its size and theme are the figure's) in
 * `format` to `file`: PNG, SVG, PDF as the figure, CSV of its runs, the session as a trace. */
gboolean ws_chart_export_write (const WsFigure *figure, WsThemeKind theme, GPtrArray *sessions,
                                const WsChartOptions *options, WsExportFormat format,
                                GFile *file, GError **error);

/* The same with the export settings (figure, theme) under the chart's default name in the
 * export folder (ws_figure_default_name, ws_figure_default_folder), asking before replacing
 * a file. The file written, NULL and no error when the person cancelled. */
void ws_chart_export_async (GtkWindow *parent, GSettings *settings, GPtrArray *sessions,
                            const WsChartOptions *options, WsExportFormat format,
                            GCancellable *cancellable, GAsyncReadyCallback callback,
                            gpointer data);
GFile *ws_chart_export_finish (GAsyncResult *result, GError **error);

/* The chart as it is on screen (`options`' size), twice as sharp, on the clipboard. */
gboolean ws_chart_export_copy (GtkWidget *widget, GPtrArray *sessions,
                               const WsChartOptions *options, GError **error);

G_END_DECLS

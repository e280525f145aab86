/* ws-export-dialog.h: export a chart (PNG 1×/2×/3×, SVG, PDF) at any size and theme, the data
 * behind it as CSV, or the session as a Chrome trace; remembers the last folder and choices.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "ws-chart.h"

G_BEGIN_DECLS

#define WS_TYPE_EXPORT_DIALOG (ws_export_dialog_get_type ())
G_DECLARE_FINAL_TYPE (WsExportDialog, ws_export_dialog, WS, EXPORT_DIALOG, AdwWindow)

/* `options`: the chart as shown now (kind, window, run); `sessions`: WsSession. */
GtkWidget *ws_export_dialog_new (GtkWindow *parent, GSettings *settings, GPtrArray *sessions,
                                 const WsChartOptions *options);

/* Writes what the dialog is set to into `file` (used by the dialog and by the tests). */
gboolean ws_export_dialog_write (WsExportDialog *self, GFile *file, GError **error);

G_END_DECLS

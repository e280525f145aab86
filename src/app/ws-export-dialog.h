/* ws-export-dialog.h: export a chart as a figure (PNG, SVG, PDF) sized in centimetres with
 * its text in points, the data behind it as CSV, or the session as a Chrome trace, under a
 * name of the session and the chart; remembers the last folder and choices.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "ws-chart.h"
#include "ws-export.h"

G_BEGIN_DECLS

#define WS_TYPE_EXPORT_DIALOG (ws_export_dialog_get_type ())
G_DECLARE_FINAL_TYPE (WsExportDialog, ws_export_dialog, WS, EXPORT_DIALOG, AdwWindow)

/* `options`: the chart as shown now (kind, window, run); `sessions`: WsSession. Once a file
 * is written the dialog closes and activates chart.exported (its URI) on `parent`. */
GtkWidget *ws_export_dialog_new (GtkWindow *parent, GSettings *settings, GPtrArray *sessions,
                                 const WsChartOptions *options);

/* What it is set to, for the tests: the format, the file it would write. */
WsExportFormat ws_export_dialog_get_format (WsExportDialog *self);
void ws_export_dialog_set_format (WsExportDialog *self, WsExportFormat format);
GFile *ws_export_dialog_dup_file (WsExportDialog *self);
/* Writes what the dialog is set to into `file`, without asking (the tests). */
gboolean ws_export_dialog_write (WsExportDialog *self, GFile *file, GError **error);

G_END_DECLS

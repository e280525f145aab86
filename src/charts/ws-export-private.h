/* ws-export-private.h: what the exporters share: atomic writes and numbers for files.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-export.h"

G_BEGIN_DECLS

/* Writes what `func` produces to a temporary file in the target's folder and renames it over
 * the target once complete; on any failure the target is left as it was. */
typedef gboolean (*WsExportWriteFunc) (GOutputStream *stream, gpointer user_data,
                                       GError **error);
gboolean _ws_export_write_atomic (GFile *file, WsExportWriteFunc func, gpointer user_data,
                                  GError **error);

/* The shortest decimal text that reads back as the same double; "" for NaN and infinities
 * (an empty CSV field). Appends to `out`. */
void _ws_export_append_number (GString *out, double value);

G_END_DECLS

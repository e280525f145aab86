/* ws-file.h: files written whole or not at all (sessions, exports).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef gboolean (*WsWriteFunc) (GOutputStream *stream, gpointer user_data, GError **error);

/* Writes what `func` produces to a temporary file in the target's folder, flushed to disk,
 * and renames it over the target once complete; on any failure the target is left as it was
 * and the temporary file removed. Locations that are not local files go through GIO's
 * replace, which makes the same promise. */
gboolean ws_file_write_atomic (GFile *file, WsWriteFunc func, gpointer user_data,
                               GError **error);

G_END_DECLS

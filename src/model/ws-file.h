/* ws-file.h: files written whole or not at all (sessions, exports), and the checks made before
 * work that ends in writing one.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef gboolean (*WsWriteFunc) (GOutputStream *stream, gpointer user_data, GError **error);

/* Writes what `func` produces to a temporary file in the target's folder, flushed to disk,
 * and renames it over the target once complete; on any failure the target is left as it was
 * and the temporary file removed. A target that exists keeps its permissions; a symbolic
 * link stays a link and the file it points to is replaced. A SIGINT, SIGTERM or SIGHUP that
 * ends the program while it writes removes the temporary file first. Locations that are not
 * local files go through GIO's replace, which makes the same promise. */
gboolean ws_file_write_atomic (GFile *file, WsWriteFunc func, gpointer user_data,
                               GError **error);

/* `path` with the symbolic links of its last component followed: the file a write to `path`
 * must replace (which need not exist). NULL with an error for a loop of links. */
char *ws_file_resolve_links (const char *path, GError **error);

/* Before work whose result is written to `path` (a sweep, an export): fails, naming `path`
 * and saying what to change, when the name is empty, names a folder or something that is not
 * a regular file, or lies in a folder that does not exist or cannot be written. */
gboolean ws_file_check_writable (const char *path, GError **error);

/* TRUE when `a` and `b` name the same existing file (the same device and inode, after
 * following links: a link or a second hard link to a file is the file). */
gboolean ws_file_same (const char *a, const char *b);

G_END_DECLS

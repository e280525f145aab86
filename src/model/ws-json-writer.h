/* ws-json-writer.h: the one JSON writer of the GLib side: sessions written back, the Chrome
 * trace export and the CLI's JSON. Strings always come out as valid JSON (quotes, backslashes
 * and control characters escaped, bytes that are not UTF-8 replaced by U+FFFD, everything else
 * as UTF-8, characters beyond the BMP included); integers exactly; other numbers as the
 * fewest digits that read back as the same double; NaN and infinities as null.
 * (json-glib 1.6's generator writes some doubles as invalid JSON: "1e-08.0".)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _WsJsonWriter WsJsonWriter;

/* Appends to `out`, which the caller owns (and may empty while writing, to flush it).
 * Compact: no white space at all, as JSON Lines need; pretty: two-space indentation, one
 * member or element per line. Top-level values follow each other with nothing between: a
 * caller writing JSON Lines appends the newline after each record itself. */
WsJsonWriter *ws_json_writer_new (GString *out, gboolean pretty);
void ws_json_writer_free (WsJsonWriter *writer);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsJsonWriter, ws_json_writer_free)

/* `key` names the value inside an object; NULL inside an array and at the top. */
void ws_json_writer_begin_object (WsJsonWriter *writer, const char *key);
void ws_json_writer_end_object (WsJsonWriter *writer);
void ws_json_writer_begin_array (WsJsonWriter *writer, const char *key);
/* Pretty output: an array written on one line, for short lists of numbers: [256, 1, 1]. */
void ws_json_writer_begin_inline_array (WsJsonWriter *writer, const char *key);
void ws_json_writer_end_array (WsJsonWriter *writer);

/* NULL writes null. */
void ws_json_writer_string (WsJsonWriter *writer, const char *key, const char *value);
void ws_json_writer_int (WsJsonWriter *writer, const char *key, gint64 value);
void ws_json_writer_uint (WsJsonWriter *writer, const char *key, guint64 value);
/* NaN and infinities write null. */
void ws_json_writer_double (WsJsonWriter *writer, const char *key, double value);
/* `units` / 10^`decimals` written exactly, without trailing zeros: ns as µs with
 * (units 359762640, decimals 3) → 359762.64. `decimals` at most 9. */
void ws_json_writer_decimal (WsJsonWriter *writer, const char *key, gint64 units,
                             guint decimals);
void ws_json_writer_bool (WsJsonWriter *writer, const char *key, gboolean value);
void ws_json_writer_null (WsJsonWriter *writer, const char *key);

/* Compact output: the next value (or the end of the container) starts on a new line, so that
 * a long array reads one element per line. */
void ws_json_writer_newline (WsJsonWriter *writer);

/* The value alone, for text that is not a document: a JSON string literal with its quotes,
 * and a number as ws_json_writer_double writes it. */
void ws_json_append_string (GString *out, const char *value);
void ws_json_append_double (GString *out, double value);

G_END_DECLS

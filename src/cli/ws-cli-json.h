/* ws-cli-json.h: writing JSON by hand, so that every number is the shortest text that reads
 * back as the same double (json-glib 1.6 writes some doubles as invalid JSON).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _WsCliJson WsCliJson;

/* Writes into `out`; `pretty`: two-space indentation, one member per line. */
WsCliJson *ws_cli_json_new (GString *out, gboolean pretty);
void ws_cli_json_free (WsCliJson *json);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCliJson, ws_cli_json_free)

/* `member` names the value inside an object; NULL inside an array and at the top. */
void ws_cli_json_begin_object (WsCliJson *json, const char *member);
void ws_cli_json_end_object (WsCliJson *json);
void ws_cli_json_begin_array (WsCliJson *json, const char *member);
/* An array written on one line, for short lists of numbers: [256, 1, 1]. */
void ws_cli_json_begin_inline_array (WsCliJson *json, const char *member);
void ws_cli_json_end_array (WsCliJson *json);
/* NULL writes null. */
void ws_cli_json_string (WsCliJson *json, const char *member, const char *value);
/* NaN and infinities write null. */
void ws_cli_json_double (WsCliJson *json, const char *member, double value);
void ws_cli_json_int (WsCliJson *json, const char *member, gint64 value);
void ws_cli_json_bool (WsCliJson *json, const char *member, gboolean value);
void ws_cli_json_null (WsCliJson *json, const char *member);

/* A JSON string literal, quotes included. */
void ws_cli_json_append_string (GString *out, const char *value);

G_END_DECLS

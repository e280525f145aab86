/* ws-json-util.h: reading the runner's records leniently: a missing or null member, or one of
 * another type, reads as the fallback instead of failing (later protocols may add or drop).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

gint64 _ws_json_int (JsonObject *o, const char *member, gint64 fallback);
double _ws_json_double (JsonObject *o, const char *member, double fallback);
gboolean _ws_json_bool (JsonObject *o, const char *member, gboolean fallback);
const char *_ws_json_string (JsonObject *o, const char *member); /* NULL when absent */
JsonObject *_ws_json_object (JsonObject *o, const char *member);  /* NULL when absent */
/* Up to n integers of an array member into out; returns how many were read. */
guint _ws_json_ints (JsonObject *o, const char *member, gint64 *out, guint n);

/* Appends `node` as compact JSON. json-glib 1.6's own generator writes some doubles as
 * invalid JSON ("1e-08.0"); this writes the shortest text that reads back the same. */
void _ws_json_append_node (GString *out, JsonNode *node);
void _ws_json_append_string (GString *out, const char *value);
void _ws_json_append_double (GString *out, double value);

G_END_DECLS

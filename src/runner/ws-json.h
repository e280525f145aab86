/* ws-json.h: a small JSON Lines writer for the runner's records (no allocations per value,
 * no GLib), with string escaping that always yields valid UTF-8 JSON.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct
{
  char *data;
  size_t len;
  size_t cap;
  int need_comma; /* a value was written at the current nesting level */
  int failed;     /* out of memory: the record is dropped, never half-written */
} WsJson;

void ws_json_init (WsJson *json);
void ws_json_clear (WsJson *json);
void ws_json_reset (WsJson *json);

/* Starts a record: {"type":"<type>" */
void ws_json_begin_record (WsJson *json, const char *type);
/* Ends the record with "}\n" and writes it to `out` in one call; returns 0 on failure. */
int ws_json_end_record (WsJson *json, FILE *out);

/* Members of the current object (key != NULL) or elements of the current array (key NULL). */
void ws_json_string (WsJson *json, const char *key, const char *value); /* NULL → null */
void ws_json_int (WsJson *json, const char *key, int64_t value);
void ws_json_uint (WsJson *json, const char *key, uint64_t value);
void ws_json_double (WsJson *json, const char *key, double value);  /* NaN, ±inf → null */
void ws_json_bool (WsJson *json, const char *key, int value);
void ws_json_null (WsJson *json, const char *key);
void ws_json_begin_object (WsJson *json, const char *key);
void ws_json_end_object (WsJson *json);
void ws_json_begin_array (WsJson *json, const char *key);
void ws_json_end_array (WsJson *json);

/* Appends `value` as a quoted JSON string: quotes, backslashes and control characters are
 * escaped; invalid UTF-8 bytes become U+FFFD. Exposed for the tests. */
void ws_json_append_escaped (WsJson *json, const char *value);

/* ws-record.h: one JSON record parsed into a compact tree in a single allocation. The runner
 * writes hundreds of thousands of small records; json-glib builds a GObject-heavy tree for
 * each (about 20 µs and 4 KB apiece), this a flat array of nodes (a few µs, a few hundred
 * bytes). Full JSON: escapes, nesting, numbers in any form.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _WsRecord WsRecord;

typedef enum
{
  WS_RECORD_NULL,
  WS_RECORD_BOOL,
  WS_RECORD_INT,
  WS_RECORD_DOUBLE,
  WS_RECORD_STRING,
  WS_RECORD_ARRAY,
  WS_RECORD_OBJECT,
} WsRecordType;

/* A node of the tree; 0 is the root. */
typedef guint32 WsRecordNode;
#define WS_RECORD_ROOT 0u
#define WS_RECORD_NONE G_MAXUINT32

/* NULL with an error when `text` is not one JSON value; `column` (may be NULL) then gets the
 * 1-based byte column where reading stopped. */
WsRecord *ws_record_parse (const char *text, gsize length, guint *column, GError **error);
void ws_record_free (WsRecord *record);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsRecord, ws_record_free)

WsRecordType ws_record_type (const WsRecord *record, WsRecordNode node);
/* A member of an object node; WS_RECORD_NONE when absent. */
WsRecordNode ws_record_member (const WsRecord *record, WsRecordNode object, const char *name);
guint ws_record_length (const WsRecord *record, WsRecordNode array);
WsRecordNode ws_record_element (const WsRecord *record, WsRecordNode array, guint index);

/* Lenient readers, as for the runner's records: missing, null or of another type gives the
 * fallback (ints and doubles convert into each other). */
gint64 ws_record_int (const WsRecord *record, WsRecordNode object, const char *name,
                      gint64 fallback);
double ws_record_double (const WsRecord *record, WsRecordNode object, const char *name,
                         double fallback);
gboolean ws_record_bool (const WsRecord *record, WsRecordNode object, const char *name,
                         gboolean fallback);
/* Owned by the record; NULL when absent. */
const char *ws_record_string (const WsRecord *record, WsRecordNode object, const char *name);
WsRecordNode ws_record_object (const WsRecord *record, WsRecordNode object, const char *name);
guint ws_record_ints (const WsRecord *record, WsRecordNode object, const char *name,
                      gint64 *out, guint n);

G_END_DECLS

/* ws-record.h: one JSON record parsed into a compact tree in a single allocation. The runner
 * writes hundreds of thousands of small records; json-glib builds a GObject-heavy tree for
 * each (about 20 µs and 4 KB apiece), this a flat array of nodes (a few µs, a few hundred
 * bytes). The session reader's one parser, for every record its activity fast path leaves.
 * Full JSON: escapes, nesting up to WS_RECORD_MAX_DEPTH, integers up to 2^64 - 1 exactly,
 * other numbers as doubles (a number beyond a double's range is refused).
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

/* Arrays and objects nested deeper than this are refused ("values nested deeper than 64
 * levels"): the parser recurses once per level, and no record of the protocol nests more
 * than 3. */
#define WS_RECORD_MAX_DEPTH 64

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
/* A member of an object node (the last, when a name is given twice); WS_RECORD_NONE when
 * absent. */
WsRecordNode ws_record_member (const WsRecord *record, WsRecordNode object, const char *name);
guint ws_record_length (const WsRecord *record, WsRecordNode array);
WsRecordNode ws_record_element (const WsRecord *record, WsRecordNode array, guint index);

/* Walking a node's children (members of an object, elements of an array). */
WsRecordNode ws_record_first_child (const WsRecord *record, WsRecordNode node);
WsRecordNode ws_record_next_sibling (const WsRecord *record, WsRecordNode node);
/* The member name of a child of an object, NULL for others. */
const char *ws_record_key (const WsRecord *record, WsRecordNode node);
/* The byte offset of a node's value in the text it was parsed from. */
guint ws_record_offset (const WsRecord *record, WsRecordNode node);
/* A number node (or a bool, as 0/1) as gint64: doubles truncated toward zero; FALSE for
 * other nodes and for numbers gint64 does not hold (1e300, 2^63). */
gboolean ws_record_node_int (const WsRecord *record, WsRecordNode node, gint64 *out);
/* A number node as a double; FALSE for other nodes. */
gboolean ws_record_node_double (const WsRecord *record, WsRecordNode node, double *out);

/* Lenient readers, as for the runner's records: missing, null, of another type or out of
 * the C type's range gives the fallback (ints and doubles convert into each other). */
gint64 ws_record_int (const WsRecord *record, WsRecordNode object, const char *name,
                      gint64 fallback);
/* As ws_record_int, for values up to 2^64 - 1 (seeds). */
guint64 ws_record_uint (const WsRecord *record, WsRecordNode object, const char *name,
                        guint64 fallback);
double ws_record_double (const WsRecord *record, WsRecordNode object, const char *name,
                         double fallback);
gboolean ws_record_bool (const WsRecord *record, WsRecordNode object, const char *name,
                         gboolean fallback);
/* Owned by the record; NULL when absent. */
const char *ws_record_string (const WsRecord *record, WsRecordNode object, const char *name);
WsRecordNode ws_record_object (const WsRecord *record, WsRecordNode object, const char *name);
/* Up to n elements of an array member; an element that is not a number gint64 holds reads
 * as 0. Returns how many were read. */
guint ws_record_ints (const WsRecord *record, WsRecordNode object, const char *name,
                      gint64 *out, guint n);
/* The string elements of an array member (others are left out): a new NULL-terminated
 * vector, empty when the member is absent or not an array. */
char **ws_record_dup_strings (const WsRecord *record, WsRecordNode object, const char *name);

G_END_DECLS

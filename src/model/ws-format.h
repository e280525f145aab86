/* ws-format.h: text from files made safe to print, and text and numbers exact in a CSV field;
 * shared by the model, the charts, the app and the CLI (numbers for people are ws-units.h's).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What may stay as it is when text from a file is escaped. */
typedef enum
{
  WS_ESCAPE_KEEP_NONE = 0,
  WS_ESCAPE_KEEP_NEWLINE = 1 << 0,
  WS_ESCAPE_KEEP_TAB = 1 << 1,
} WsEscapeFlags;

/* Text read from a file (a kernel name, a runner's message), made safe to print on a
 * terminal: C0 controls (but newline and tab when `keep` says so), DEL, C1 controls
 * (U+0080–U+009F), the bidirectional embeddings, overrides and isolates, and bytes that are
 * not UTF-8 become visible escapes ("\x1b", "\u202e"), so that a file cannot set the
 * terminal's title, clear its screen, make links or reorder what a person reads. Printable
 * text, CJK included, is unchanged. For tables and messages; CSV and JSON stay exact. */
char *ws_format_escape_controls (const char *text, WsEscapeFlags keep);

/* Whether `c` acts on a terminal or a page without being seen: a C1 control (U+0080–U+009F;
 * U+009B starts a terminal's control sequence) or a bidirectional control (the marks
 * U+200E, U+200F, U+061C, the embeddings and overrides U+202A–U+202E, the isolates
 * U+2066–U+2069), which reorder what a person reads. Every output format escapes these. */
gboolean ws_format_is_hidden_control (gunichar c);

/* Whether `text` may hold something ws_format_escape_controls() would change: a quick test
 * of its bytes, for callers that escape only where needed. */
gboolean ws_format_may_need_escape (const char *text);

/* `text` as one CSV field (RFC 4180): in quotes, with its quotes doubled, where it holds a
 * comma, a quote or a line break; as it is otherwise. Controls other than newline and tab
 * (C0 and C1, DEL, the bidirectional ones) are escaped as ws_format_escape_controls() does,
 * so that the file shown on a terminal or opened in a spreadsheet shows them, not their
 * effect. NULL writes an empty field. */
void ws_format_append_csv_field (GString *out, const char *text);
/* `value` as one CSV field, for every CSV the model, the charts and the CLI write: the
 * protocol's shortest text that reads back as the same double (ws_protocol_double_text:
 * "0.84", "1000", "1e-08", "0.30000000000000004"), "0" for either zero, and an empty field
 * for NaN and infinities. */
void ws_format_append_csv_number (GString *out, double value);

G_END_DECLS

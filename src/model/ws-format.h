/* ws-format.h: text from files made safe to print, and exact in a CSV field; shared by the
 * model, the charts, the app and the CLI (numbers for people are ws-units.h's).
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

/* `text` as one CSV field (RFC 4180), every character kept: in quotes, with its quotes
 * doubled, where it holds a comma, a quote or a line break; as it is otherwise. NULL writes
 * an empty field. */
void ws_format_append_csv_field (GString *out, const char *text);

G_END_DECLS

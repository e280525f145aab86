/* ws-runner-client-private.h: the texts the runner client keeps and makes, in
 * ws-runner-client-text.c: its stderr, bounded; a line quoted for a message; a word quoted for
 * a remote shell.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What a process wrote, as it came: all of it up to 2 × WS_KEPT_TEXT_PART bytes; beyond, the
 * first and the last WS_KEPT_TEXT_PART with a line between them saying how many bytes were left
 * out. Memory and time stay bounded however much arrives. */
#define WS_KEPT_TEXT_PART (64 * 1024)

typedef struct
{
  GString *head, *tail, *composed;
  guint64 total;
  gboolean dirty;
} WsKeptText;

void _ws_kept_text_init (WsKeptText *kept);
void _ws_kept_text_clear (WsKeptText *kept);
void _ws_kept_text_add (WsKeptText *kept, const char *data, gsize n);
const char *_ws_kept_text_get (WsKeptText *kept);
/* Its last `max` bytes (whole characters, "…" before them when cut), for a message: a person
 * needs the last words, not 128 KiB. */
char *_ws_kept_text_end (WsKeptText *kept, gsize max);

/* A line as a person may read it in a message: control characters (an escape sequence that
 * would retitle the terminal) as \xNN, bytes that are not UTF-8 replaced, at most `max`
 * characters, then "…". */
char *_ws_quote_line (const char *line, gsize length, guint max);
/* Only spaces and tabs. */
gboolean _ws_line_is_blank (const char *line, gsize length);
/* One word for a POSIX shell: 'it'\''s'. */
char *_ws_quote_for_shell (const char *word);

G_END_DECLS

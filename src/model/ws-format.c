/* ws-format.c: text from files made safe to print, and exact in a CSV field; numbers exact in
 * one too.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-format.h"

#include <math.h>
#include <string.h>

#include "ws-protocol.h"

/* The bidirectional controls: embeddings and overrides (U+202A–U+202E) and isolates
 * (U+2066–U+2069) reorder what follows them, and the marks (U+200E, U+200F, U+061C) move the
 * neutral characters around them. A kernel name holding one can make a table or a chart
 * read differently from what it says. */
gboolean
ws_format_is_hidden_control (gunichar c)
{
  return (c >= 0x80 && c <= 0x9F) || (c >= 0x202A && c <= 0x202E)
         || (c >= 0x2066 && c <= 0x2069) || c == 0x200E || c == 0x200F || c == 0x061C;
}

gboolean
ws_format_may_need_escape (const char *text)
{
  /* C0 and DEL, and the lead bytes of every hidden control's UTF-8 (C2, D8, E2), or a byte
   * that cannot start a character. */
  for (const guchar *p = (const guchar *) text; p != NULL && *p != '\0'; p++)
    if (*p < 0x20 || *p == 0x7F || *p == 0xC2 || *p == 0xD8 || *p == 0xE2
        || (*p >= 0x80 && *p < 0xC2) || *p > 0xF4)
      return TRUE;
  return FALSE;
}

char *
ws_format_escape_controls (const char *text, WsEscapeFlags keep)
{
  GString *out;
  const char *p, *end;

  if (text == NULL)
    return g_strdup ("");
  out = g_string_sized_new (strlen (text));
  end = text + strlen (text);
  for (p = text; p < end;)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          /* Not UTF-8: a lone byte of 0x80–0x9F is a C1 control to an 8-bit terminal. */
          g_string_append_printf (out, "\\x%02x", (guchar) *p);
          p++;
          continue;
        }
      if ((c == '\n' && (keep & WS_ESCAPE_KEEP_NEWLINE))
          || (c == '\t' && (keep & WS_ESCAPE_KEEP_TAB)))
        g_string_append_c (out, (char) c);
      else if (c < 0x20 || c == 0x7F)
        g_string_append_printf (out, "\\x%02x", c);
      else if (ws_format_is_hidden_control (c))
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
      p = g_utf8_next_char (p);
    }
  return g_string_free (out, FALSE);
}

void
ws_format_append_csv_field (GString *out, const char *text)
{
  g_autofree char *escaped = NULL;

  g_return_if_fail (out != NULL);
  if (text == NULL)
    return;
  if (ws_format_may_need_escape (text))
    text = escaped = ws_format_escape_controls (text, WS_ESCAPE_KEEP_NEWLINE | WS_ESCAPE_KEEP_TAB);
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

void
ws_format_append_csv_number (GString *out, double value)
{
  char buf[WS_PROTOCOL_DOUBLE_LEN];

  g_return_if_fail (out != NULL);
  if (!isfinite (value))
    return;
  /* A spreadsheet reads "-0" and "-0.0" as 0, and a sign on a zero is no measurement. */
  if (value == 0)
    g_string_append_c (out, '0');
  else
    g_string_append (out, ws_protocol_double_text (buf, value));
}

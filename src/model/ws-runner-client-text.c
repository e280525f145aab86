/* ws-runner-client-text.c: the texts the runner client keeps and makes: its stderr kept
 * bounded, a line quoted for a message.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-runner-client-private.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#include "ws-i18n.h"

/* ---- stderr, bounded --------------------------------------------------------------------- */

void
_ws_kept_text_init (WsKeptText *kept)
{
  kept->head = g_string_new (NULL);
  kept->tail = g_string_new (NULL);
  kept->composed = g_string_new (NULL);
  kept->total = 0;
  kept->dirty = FALSE;
}

void
_ws_kept_text_clear (WsKeptText *kept)
{
  g_string_free (kept->head, TRUE);
  g_string_free (kept->tail, TRUE);
  g_string_free (kept->composed, TRUE);
  memset (kept, 0, sizeof *kept);
}

void
_ws_kept_text_add (WsKeptText *kept, const char *data, gsize n)
{
  kept->total += n;
  kept->dirty = TRUE;
  if (kept->head->len < WS_KEPT_TEXT_PART)
    {
      gsize take = MIN (n, WS_KEPT_TEXT_PART - kept->head->len);

      g_string_append_len (kept->head, data, (gssize) take);
      data += take;
      n -= take;
    }
  if (n == 0)
    return;
  g_string_append_len (kept->tail, data, (gssize) n);
  /* Trimmed now and then, not at every read: the cost stays linear. */
  if (kept->tail->len > 2 * WS_KEPT_TEXT_PART)
    g_string_erase (kept->tail, 0, (gssize) (kept->tail->len - WS_KEPT_TEXT_PART));
}

/* The length of `text` without an incomplete UTF-8 character at its end. */
static gsize
whole_characters (const char *text, gsize length)
{
  for (gsize back = 1; back <= MIN (length, 4); back++)
    {
      guchar c = (guchar) text[length - back];
      gsize need;

      if ((c & 0xC0) == 0x80)
        continue; /* a continuation byte: look further back for its lead */
      need = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : 4;
      return need > back ? length - back : length;
    }
  return length;
}

const char *
_ws_kept_text_get (WsKeptText *kept)
{
  GString *out = kept->composed;
  const char *tail;
  gsize head_len, tail_len;
  guint64 left_out;

  if (!kept->dirty)
    return out->str;
  kept->dirty = FALSE;
  g_string_truncate (out, 0);
  if (kept->tail->len > WS_KEPT_TEXT_PART)
    g_string_erase (kept->tail, 0, (gssize) (kept->tail->len - WS_KEPT_TEXT_PART));
  if (kept->total == kept->head->len + kept->tail->len)
    {
      g_string_append_len (out, kept->head->str, (gssize) kept->head->len);
      g_string_append_len (out, kept->tail->str, (gssize) kept->tail->len);
      return out->str;
    }
  head_len = whole_characters (kept->head->str, kept->head->len);
  tail = kept->tail->str;
  tail_len = kept->tail->len;
  for (int i = 0; i < 3 && tail_len > 0 && ((guchar) *tail & 0xC0) == 0x80; i++)
    tail++, tail_len--;
  left_out = kept->total - head_len - tail_len;
  g_string_append_len (out, kept->head->str, (gssize) head_len);
  g_string_append_c (out, '\n');
  /* Translators: how many bytes of the runner's stderr are not kept, between the first and
   * the last part of it. */
  g_string_append_printf (out, _("… %" PRIu64 " bytes left out …"), left_out);
  g_string_append_c (out, '\n');
  g_string_append_len (out, tail, (gssize) tail_len);
  return out->str;
}

char *
_ws_kept_text_end (WsKeptText *kept, gsize max)
{
  const char *text = _ws_kept_text_get (kept);
  gsize length = strlen (text);
  const char *start;

  if (length <= max)
    return g_strdup (text);
  start = text + length - max;
  while (((guchar) *start & 0xC0) == 0x80)
    start++;
  return g_strdup_printf ("…%s", start);
}

/* ---- quoting ----------------------------------------------------------------------------- */

char *
_ws_quote_line (const char *line, gsize length, guint max)
{
  g_autofree char *valid = g_utf8_make_valid (line, (gssize) length);
  GString *out = g_string_new (NULL);
  guint n = 0;

  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p), n++)
    {
      gunichar c = g_utf8_get_char (p);

      if (n == max)
        {
          g_string_append (out, "…");
          break;
        }
      if (c < 0x20 || c == 0x7f)
        g_string_append_printf (out, "\\x%02x", c);
      else
        g_string_append_unichar (out, c);
    }
  return g_string_free (out, FALSE);
}

gboolean
_ws_line_is_blank (const char *line, gsize length)
{
  for (gsize i = 0; i < length; i++)
    if (line[i] != ' ' && line[i] != '\t')
      return FALSE;
  return TRUE;
}

/* ws-json-writer.c: writing JSON: escaping, exact integers, shortest doubles, compact or
 * pretty.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-json-writer.h"

#include "ws-format.h"

#include <math.h>
#include <string.h>

#include "ws-protocol.h"

/* Deeper than anything written here (a report nests four levels). */
#define MAX_DEPTH 32

struct _WsJsonWriter
{
  GString *out;
  gboolean pretty;
  guint depth;             /* containers open */
  gboolean first[MAX_DEPTH]; /* per open container: nothing written in it yet */
  guint inline_depth;      /* containers open from there on are written on one line; 0: none */
  gboolean newline;        /* compact: a line break before the next value or end */
};

WsJsonWriter *
ws_json_writer_new (GString *out, gboolean pretty)
{
  WsJsonWriter *writer;

  g_return_val_if_fail (out != NULL, NULL);
  writer = g_new0 (WsJsonWriter, 1);
  writer->out = out;
  writer->pretty = pretty;
  return writer;
}

void
ws_json_writer_free (WsJsonWriter *writer)
{
  g_free (writer);
}

/* ---- values ------------------------------------------------------------------------------ */

static void
append_escaped (GString *out, const char *s)
{
  const char *run = s;

  for (const char *p = s; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;
      const char *escape;
      char unicode[8];

      if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f && c != 0xc2 && c != 0xd8
          && c != 0xe2)
        continue;
      if (c >= 0x80)
        {
          /* The lead byte of a C1 or bidirectional control, maybe (the text is UTF-8): \u
           * escaped, so that a terminal or a page shows the data without acting on it. */
          gunichar u = g_utf8_get_char (p);

          if (!ws_format_is_hidden_control (u))
            continue;
          g_snprintf (unicode, sizeof unicode, "\\u%04x", u);
          g_string_append_len (out, run, p - run);
          g_string_append (out, unicode);
          p = g_utf8_next_char (p) - 1;
          run = p + 1;
          continue;
        }
      switch (c)
        {
        case '"': escape = "\\\""; break;
        case '\\': escape = "\\\\"; break;
        case '\n': escape = "\\n"; break;
        case '\r': escape = "\\r"; break;
        case '\t': escape = "\\t"; break;
        case '\b': escape = "\\b"; break;
        case '\f': escape = "\\f"; break;
        default:
          /* The other C0 controls, and DEL, which terminals act on. */
          g_snprintf (unicode, sizeof unicode, "\\u%04x", c);
          escape = unicode;
        }
      g_string_append_len (out, run, p - run);
      g_string_append (out, escape);
      run = p + 1;
    }
  g_string_append (out, run);
}

void
ws_json_append_string (GString *out, const char *value)
{
  g_return_if_fail (out != NULL && value != NULL);

  g_string_append_c (out, '"');
  if (g_utf8_validate (value, -1, NULL))
    append_escaped (out, value);
  else
    {
      /* A file name or a runner's message in another encoding: U+FFFD for each bad byte,
       * never invalid JSON. */
      g_autofree char *valid = g_utf8_make_valid (value, -1);

      append_escaped (out, valid);
    }
  g_string_append_c (out, '"');
}

void
ws_json_append_double (GString *out, double value)
{
  char buf[WS_PROTOCOL_DOUBLE_LEN];

  g_return_if_fail (out != NULL);
  if (!isfinite (value))
    {
      g_string_append (out, "null");
      return;
    }
  g_string_append (out, ws_protocol_double_text (buf, value));
}

/* ---- structure --------------------------------------------------------------------------- */

static void
line_break (WsJsonWriter *w)
{
  if (w->inline_depth > 0)
    {
      g_string_append_c (w->out, ' ');
      return;
    }
  g_string_append_c (w->out, '\n');
  for (guint i = 0; i < w->depth; i++)
    g_string_append (w->out, "  ");
}

/* The comma, the line break and the member name before a value. */
static void
begin_value (WsJsonWriter *w, const char *key)
{
  if (w->depth > 0)
    {
      gboolean was_first = w->first[w->depth - 1];

      if (!was_first)
        g_string_append_c (w->out, ',');
      w->first[w->depth - 1] = FALSE;
      if (w->pretty && !(was_first && w->inline_depth > 0))
        line_break (w);
    }
  if (w->newline)
    {
      g_string_append_c (w->out, '\n');
      w->newline = FALSE;
    }
  if (key != NULL)
    {
      ws_json_append_string (w->out, key);
      g_string_append (w->out, w->pretty ? ": " : ":");
    }
}

static void
open_container (WsJsonWriter *w, const char *key, char bracket)
{
  g_return_if_fail (w->depth < MAX_DEPTH);
  begin_value (w, key);
  g_string_append_c (w->out, bracket);
  w->first[w->depth++] = TRUE;
}

static void
close_container (WsJsonWriter *w, char bracket)
{
  gboolean empty;

  g_return_if_fail (w->depth > 0);
  empty = w->first[--w->depth];
  if (w->pretty && !empty && w->inline_depth == 0)
    line_break (w);
  if (w->inline_depth > w->depth)
    w->inline_depth = 0;
  if (w->newline)
    {
      g_string_append_c (w->out, '\n');
      w->newline = FALSE;
    }
  g_string_append_c (w->out, bracket);
}

void
ws_json_writer_begin_object (WsJsonWriter *writer, const char *key)
{
  g_return_if_fail (writer != NULL);
  open_container (writer, key, '{');
}

void
ws_json_writer_end_object (WsJsonWriter *writer)
{
  g_return_if_fail (writer != NULL);
  close_container (writer, '}');
}

void
ws_json_writer_begin_array (WsJsonWriter *writer, const char *key)
{
  g_return_if_fail (writer != NULL);
  open_container (writer, key, '[');
}

void
ws_json_writer_begin_inline_array (WsJsonWriter *writer, const char *key)
{
  g_return_if_fail (writer != NULL);
  open_container (writer, key, '[');
  if (writer->inline_depth == 0)
    writer->inline_depth = writer->depth;
}

void
ws_json_writer_end_array (WsJsonWriter *writer)
{
  g_return_if_fail (writer != NULL);
  close_container (writer, ']');
}

void
ws_json_writer_newline (WsJsonWriter *writer)
{
  g_return_if_fail (writer != NULL);
  writer->newline = TRUE;
}

void
ws_json_writer_string (WsJsonWriter *writer, const char *key, const char *value)
{
  g_return_if_fail (writer != NULL);
  begin_value (writer, key);
  if (value == NULL)
    g_string_append (writer->out, "null");
  else
    ws_json_append_string (writer->out, value);
}

void
ws_json_writer_int (WsJsonWriter *writer, const char *key, gint64 value)
{
  g_return_if_fail (writer != NULL);
  begin_value (writer, key);
  g_string_append_printf (writer->out, "%" G_GINT64_FORMAT, value);
}

void
ws_json_writer_uint (WsJsonWriter *writer, const char *key, guint64 value)
{
  g_return_if_fail (writer != NULL);
  begin_value (writer, key);
  g_string_append_printf (writer->out, "%" G_GUINT64_FORMAT, value);
}

void
ws_json_writer_double (WsJsonWriter *writer, const char *key, double value)
{
  g_return_if_fail (writer != NULL);
  begin_value (writer, key);
  ws_json_append_double (writer->out, value);
}

void
ws_json_writer_decimal (WsJsonWriter *writer, const char *key, gint64 units, guint decimals)
{
  guint64 scale = 1, magnitude;
  guint64 fraction;

  g_return_if_fail (writer != NULL);
  g_return_if_fail (decimals <= 9);
  for (guint i = 0; i < decimals; i++)
    scale *= 10;
  /* Negated as unsigned, so that G_MININT64 has a magnitude too. */
  magnitude = units < 0 ? -(guint64) units : (guint64) units;
  fraction = magnitude % scale;
  begin_value (writer, key);
  if (units < 0)
    g_string_append_c (writer->out, '-');
  g_string_append_printf (writer->out, "%" G_GUINT64_FORMAT, magnitude / scale);
  if (fraction != 0)
    {
      char digits[16];
      int n = (int) decimals;

      g_snprintf (digits, sizeof digits, "%0*" G_GUINT64_FORMAT, n, fraction);
      /* Trailing zeros add nothing: 0.960 → 0.96. */
      while (n > 1 && digits[n - 1] == '0')
        digits[--n] = '\0';
      g_string_append_printf (writer->out, ".%s", digits);
    }
}

void
ws_json_writer_bool (WsJsonWriter *writer, const char *key, gboolean value)
{
  g_return_if_fail (writer != NULL);
  begin_value (writer, key);
  g_string_append (writer->out, value ? "true" : "false");
}

void
ws_json_writer_null (WsJsonWriter *writer, const char *key)
{
  g_return_if_fail (writer != NULL);
  begin_value (writer, key);
  g_string_append (writer->out, "null");
}

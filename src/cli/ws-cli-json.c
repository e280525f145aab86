/* ws-cli-json.c: a small JSON writer for the report and the replay marker.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli-json.h"

#include "ws-cli.h"

struct _WsCliJson
{
  GString *out;
  gboolean pretty;
  GArray *first;  /* gboolean per open container: nothing written in it yet */
  guint inline_depth; /* containers open from there on are written on one line; 0: none */
};

WsCliJson *
ws_cli_json_new (GString *out, gboolean pretty)
{
  WsCliJson *json = g_new0 (WsCliJson, 1);

  json->out = out;
  json->pretty = pretty;
  json->first = g_array_new (FALSE, FALSE, sizeof (gboolean));
  return json;
}

void
ws_cli_json_free (WsCliJson *json)
{
  if (json == NULL)
    return;
  g_array_unref (json->first);
  g_free (json);
}

void
ws_cli_json_append_string (GString *out, const char *value)
{
  g_string_append_c (out, '"');
  for (const unsigned char *p = (const unsigned char *) value; *p != '\0'; p++)
    {
      switch (*p)
        {
        case '"':
          g_string_append (out, "\\\"");
          break;
        case '\\':
          g_string_append (out, "\\\\");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        default:
          if (*p < 0x20)
            g_string_append_printf (out, "\\u%04x", *p);
          else
            g_string_append_c (out, (char) *p);
        }
    }
  g_string_append_c (out, '"');
}

static void
newline (WsCliJson *json)
{
  if (!json->pretty)
    return;
  if (json->inline_depth > 0)
    {
      g_string_append_c (json->out, ' ');
      return;
    }
  g_string_append_c (json->out, '\n');
  for (guint i = 0; i < json->first->len; i++)
    g_string_append (json->out, "  ");
}

/* The comma, the line break and the member name before a value. */
static void
begin_value (WsCliJson *json, const char *member)
{
  if (json->first->len > 0)
    {
      gboolean *first = &g_array_index (json->first, gboolean, json->first->len - 1);

      gboolean was_first = *first;

      if (!was_first)
        g_string_append_c (json->out, ',');
      *first = FALSE;
      if (!(was_first && json->inline_depth > 0))
        newline (json);
    }
  if (member != NULL)
    {
      ws_cli_json_append_string (json->out, member);
      g_string_append (json->out, json->pretty ? ": " : ":");
    }
}

static void
open_container (WsCliJson *json, const char *member, char bracket)
{
  gboolean first = TRUE;

  begin_value (json, member);
  g_string_append_c (json->out, bracket);
  g_array_append_val (json->first, first);
}

static void
close_container (WsCliJson *json, char bracket)
{
  gboolean empty;

  g_return_if_fail (json->first->len > 0);
  empty = g_array_index (json->first, gboolean, json->first->len - 1);
  g_array_set_size (json->first, json->first->len - 1);
  if (!empty && json->inline_depth == 0)
    newline (json);
  if (json->inline_depth > json->first->len)
    json->inline_depth = 0;
  g_string_append_c (json->out, bracket);
}

void
ws_cli_json_begin_object (WsCliJson *json, const char *member)
{
  open_container (json, member, '{');
}

void
ws_cli_json_end_object (WsCliJson *json)
{
  close_container (json, '}');
}

void
ws_cli_json_begin_array (WsCliJson *json, const char *member)
{
  open_container (json, member, '[');
}

void
ws_cli_json_begin_inline_array (WsCliJson *json, const char *member)
{
  open_container (json, member, '[');
  if (json->inline_depth == 0)
    json->inline_depth = json->first->len;
}

void
ws_cli_json_end_array (WsCliJson *json)
{
  close_container (json, ']');
}

void
ws_cli_json_string (WsCliJson *json, const char *member, const char *value)
{
  begin_value (json, member);
  if (value == NULL)
    g_string_append (json->out, "null");
  else
    ws_cli_json_append_string (json->out, value);
}

void
ws_cli_json_double (WsCliJson *json, const char *member, double value)
{
  g_autofree char *text = ws_cli_format_double (value);

  begin_value (json, member);
  g_string_append (json->out, text);
}

void
ws_cli_json_int (WsCliJson *json, const char *member, gint64 value)
{
  begin_value (json, member);
  g_string_append_printf (json->out, "%" G_GINT64_FORMAT, value);
}

void
ws_cli_json_bool (WsCliJson *json, const char *member, gboolean value)
{
  begin_value (json, member);
  g_string_append (json->out, value ? "true" : "false");
}

void
ws_cli_json_null (WsCliJson *json, const char *member)
{
  begin_value (json, member);
  g_string_append (json->out, "null");
}

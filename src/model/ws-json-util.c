/* ws-json-util.c: lenient accessors for the runner's records.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-json-util.h"

#include <math.h>
#include <stdlib.h>

static JsonNode *
value_node (JsonObject *o, const char *member)
{
  JsonNode *node;

  if (o == NULL || (node = json_object_get_member (o, member)) == NULL)
    return NULL;
  return JSON_NODE_HOLDS_VALUE (node) ? node : NULL;
}

/* Truncates a double when gint64 holds the result: converting 1e300 or NaN is undefined
 * behaviour in C. */
static gint64
double_to_int (double d, gint64 fallback)
{
  return d >= -9223372036854775808.0 && d < 9223372036854775808.0 ? (gint64) d : fallback;
}

gint64
_ws_json_int (JsonObject *o, const char *member, gint64 fallback)
{
  JsonNode *node = value_node (o, member);

  if (node == NULL)
    return fallback;
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64: return json_node_get_int (node);
    case G_TYPE_DOUBLE: return double_to_int (json_node_get_double (node), fallback);
    case G_TYPE_BOOLEAN: return json_node_get_boolean (node);
    default: return fallback;
    }
}

double
_ws_json_double (JsonObject *o, const char *member, double fallback)
{
  JsonNode *node = value_node (o, member);

  if (node == NULL)
    return fallback;
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64: return (double) json_node_get_int (node);
    case G_TYPE_DOUBLE: return json_node_get_double (node);
    default: return fallback;
    }
}

gboolean
_ws_json_bool (JsonObject *o, const char *member, gboolean fallback)
{
  JsonNode *node = value_node (o, member);

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return fallback;
  return json_node_get_boolean (node);
}

const char *
_ws_json_string (JsonObject *o, const char *member)
{
  JsonNode *node = value_node (o, member);

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

JsonObject *
_ws_json_object (JsonObject *o, const char *member)
{
  JsonNode *node;

  if (o == NULL || (node = json_object_get_member (o, member)) == NULL
      || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  return json_node_get_object (node);
}

guint
_ws_json_ints (JsonObject *o, const char *member, gint64 *out, guint n)
{
  JsonNode *node;
  JsonArray *array;
  guint count;

  if (o == NULL || (node = json_object_get_member (o, member)) == NULL
      || !JSON_NODE_HOLDS_ARRAY (node))
    return 0;
  array = json_node_get_array (node);
  count = MIN (n, json_array_get_length (array));
  for (guint i = 0; i < count; i++)
    {
      JsonNode *e = json_array_get_element (array, i);

      out[i] = JSON_NODE_HOLDS_VALUE (e) && json_node_get_value_type (e) == G_TYPE_INT64
                 ? json_node_get_int (e)
                 : JSON_NODE_HOLDS_VALUE (e) && json_node_get_value_type (e) == G_TYPE_DOUBLE
                     ? double_to_int (json_node_get_double (e), 0)
                     : 0;
    }
  return count;
}

void
_ws_json_append_string (GString *out, const char *value)
{
  g_string_append_c (out, '"');
  for (const char *p = value; *p != '\0'; p++)
    {
      unsigned char c = (unsigned char) *p;

      switch (c)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        default:
          if (c < 0x20 || c == 0x7f)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (char) c);
        }
    }
  g_string_append_c (out, '"');
}

void
_ws_json_append_double (GString *out, double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (value) || isinf (value))
    {
      g_string_append (out, "null");
      return;
    }
  for (int digits = 15; digits <= 17; digits++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", digits);
      g_ascii_formatd (buf, sizeof buf, format, value);
      if (g_ascii_strtod (buf, NULL) == value)
        break;
    }
  g_string_append (out, buf);
}

void
_ws_json_append_node (GString *out, JsonNode *node)
{
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *o = json_node_get_object (node);
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;
        gboolean first = TRUE;

        g_string_append_c (out, '{');
        json_object_iter_init_ordered (&iter, o);
        while (json_object_iter_next_ordered (&iter, &name, &member))
          {
            if (!first)
              g_string_append_c (out, ',');
            first = FALSE;
            _ws_json_append_string (out, name);
            g_string_append_c (out, ':');
            _ws_json_append_node (out, member);
          }
        g_string_append_c (out, '}');
        break;
      }
    case JSON_NODE_ARRAY:
      {
        JsonArray *a = json_node_get_array (node);

        g_string_append_c (out, '[');
        for (guint i = 0; i < json_array_get_length (a); i++)
          {
            if (i > 0)
              g_string_append_c (out, ',');
            _ws_json_append_node (out, json_array_get_element (a, i));
          }
        g_string_append_c (out, ']');
        break;
      }
    case JSON_NODE_NULL:
      g_string_append (out, "null");
      break;
    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_INT64:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
          break;
        case G_TYPE_DOUBLE:
          _ws_json_append_double (out, json_node_get_double (node));
          break;
        case G_TYPE_BOOLEAN:
          g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
          break;
        case G_TYPE_STRING:
          _ws_json_append_string (out, json_node_get_string (node));
          break;
        default:
          g_string_append (out, "null");
        }
      break;
    default:
      g_string_append (out, "null");
    }
}

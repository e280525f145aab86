/* ws-json.c: the JSON Lines writer.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-json.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ws-protocol.h"

void
ws_json_init (WsJson *json)
{
  memset (json, 0, sizeof *json);
}

void
ws_json_clear (WsJson *json)
{
  free (json->data);
  ws_json_init (json);
}

void
ws_json_reset (WsJson *json)
{
  json->len = 0;
  json->need_comma = 0;
  json->failed = 0;
  if (json->data != NULL)
    json->data[0] = '\0';
}

static int
reserve (WsJson *json, size_t extra)
{
  size_t want = json->len + extra + 1;
  char *data;

  if (json->failed)
    return 0;
  if (want <= json->cap)
    return 1;
  if (want < 2 * json->cap)
    want = 2 * json->cap;
  if (want < 256)
    want = 256;
  data = realloc (json->data, want);
  if (data == NULL)
    {
      json->failed = 1;
      return 0;
    }
  json->data = data;
  json->cap = want;
  return 1;
}

static void
append (WsJson *json, const char *s, size_t n)
{
  if (!reserve (json, n))
    return;
  memcpy (json->data + json->len, s, n);
  json->len += n;
  json->data[json->len] = '\0';
}

static void
append_str (WsJson *json, const char *s)
{
  append (json, s, strlen (s));
}

/* Length of the valid UTF-8 sequence at s (1–4), or 0 when the bytes are not one. */
static size_t
utf8_sequence (const unsigned char *s)
{
  unsigned char c = s[0];
  size_t n;
  uint32_t cp;

  if (c < 0x80)
    return 1;
  else if (c >= 0xC2 && c <= 0xDF)
    n = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF)
    n = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4)
    n = 4, cp = c & 0x07;
  else
    return 0;
  for (size_t i = 1; i < n; i++)
    {
      if ((s[i] & 0xC0) != 0x80)
        return 0;
      cp = (cp << 6) | (s[i] & 0x3F);
    }
  /* Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8. */
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF))
      || (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return n;
}

void
ws_json_append_escaped (WsJson *json, const char *value)
{
  const unsigned char *s = (const unsigned char *) value;

  append (json, "\"", 1);
  while (*s != '\0')
    {
      size_t n;
      char esc[8];

      switch (*s)
        {
        case '"': append (json, "\\\"", 2); s++; continue;
        case '\\': append (json, "\\\\", 2); s++; continue;
        case '\n': append (json, "\\n", 2); s++; continue;
        case '\r': append (json, "\\r", 2); s++; continue;
        case '\t': append (json, "\\t", 2); s++; continue;
        case '\b': append (json, "\\b", 2); s++; continue;
        case '\f': append (json, "\\f", 2); s++; continue;
        default: break;
        }
      if (*s < 0x20 || *s == 0x7F)
        {
          snprintf (esc, sizeof esc, "\\u%04x", *s);
          append (json, esc, 6);
          s++;
          continue;
        }
      n = utf8_sequence (s);
      if (n == 0)
        {
          append_str (json, "\\ufffd");
          s++;
          continue;
        }
      append (json, (const char *) s, n);
      s += n;
    }
  append (json, "\"", 1);
}

static void
member (WsJson *json, const char *key)
{
  if (json->need_comma)
    append (json, ",", 1);
  json->need_comma = 1;
  if (key != NULL)
    {
      ws_json_append_escaped (json, key);
      append (json, ":", 1);
    }
}

void
ws_json_begin_record (WsJson *json, const char *type)
{
  ws_json_reset (json);
  append (json, "{", 1);
  ws_json_string (json, WS_KEY_TYPE, type);
}

int
ws_json_end_record (WsJson *json, FILE *out)
{
  append (json, "}\n", 2);
  if (json->failed)
    return 0;
  return fwrite (json->data, 1, json->len, out) == json->len;
}

void
ws_json_string (WsJson *json, const char *key, const char *value)
{
  member (json, key);
  if (value == NULL)
    append_str (json, "null");
  else
    ws_json_append_escaped (json, value);
}

void
ws_json_int (WsJson *json, const char *key, int64_t value)
{
  char buf[32];

  member (json, key);
  snprintf (buf, sizeof buf, "%" PRId64, value);
  append_str (json, buf);
}

void
ws_json_uint (WsJson *json, const char *key, uint64_t value)
{
  char buf[32];

  member (json, key);
  snprintf (buf, sizeof buf, "%" PRIu64, value);
  append_str (json, buf);
}

void
ws_json_double (WsJson *json, const char *key, double value)
{
  char buf[WS_PROTOCOL_DOUBLE_LEN];

  member (json, key);
  if (isnan (value) || isinf (value))
    {
      append_str (json, "null");
      return;
    }
  append_str (json, ws_protocol_double_text (buf, value));
}

void
ws_json_bool (WsJson *json, const char *key, int value)
{
  member (json, key);
  append_str (json, value ? "true" : "false");
}

void
ws_json_null (WsJson *json, const char *key)
{
  member (json, key);
  append_str (json, "null");
}

void
ws_json_begin_object (WsJson *json, const char *key)
{
  member (json, key);
  append (json, "{", 1);
  json->need_comma = 0;
}

void
ws_json_end_object (WsJson *json)
{
  append (json, "}", 1);
  json->need_comma = 1;
}

void
ws_json_begin_array (WsJson *json, const char *key)
{
  member (json, key);
  append (json, "[", 1);
  json->need_comma = 0;
}

void
ws_json_end_array (WsJson *json)
{
  append (json, "]", 1);
  json->need_comma = 1;
}

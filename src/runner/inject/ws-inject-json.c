/* ws-inject-json.c: the members of the records a traced program writes most (activity
 * records, tens of thousands in a launch-bound program), made without snprintf, strtod or
 * escaping byte by byte: the same text as ws_json_int, ws_json_uint, ws_json_string and
 * ws_json_double would write (src/runner/ws-json.c), several times faster. Keys are the
 * protocol's constants (WS_KEY_*), plain ASCII that needs no escaping; a string value that is
 * not plain printable ASCII goes through ws_json_string, which escapes it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-inject-private.h"

#include <stdlib.h>
#include <string.h>

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
  if ((data = realloc (json->data, want)) == NULL)
    {
      json->failed = 1;
      return 0;
    }
  json->data = data;
  json->cap = want;
  return 1;
}

/* The separator and "key": with room for `room` bytes of value after them; where the value
 * goes, or NULL when out of memory (the record is then dropped whole). */
static char *
member (WsJson *json, const char *key, size_t room)
{
  size_t klen = key != NULL ? strlen (key) : 0;
  char *p;

  if (!reserve (json, 4 + klen + room))
    return NULL;
  p = json->data + json->len;
  if (json->need_comma)
    *p++ = ',';
  json->need_comma = 1;
  if (key != NULL)
    {
      *p++ = '"';
      memcpy (p, key, klen);
      p += klen;
      *p++ = '"';
      *p++ = ':';
    }
  return p;
}

static void
finish (WsJson *json, char *end)
{
  json->len = (size_t) (end - json->data);
  json->data[json->len] = '\0';
}

static char *
digits (char *p, uint64_t v)
{
  char tmp[20];
  int n = 0;

  do
    tmp[n++] = (char) ('0' + v % 10);
  while ((v /= 10) > 0);
  while (n > 0)
    *p++ = tmp[--n];
  return p;
}

void
_ws_juint (WsJson *json, const char *key, uint64_t value)
{
  char *p = member (json, key, 20);

  if (p != NULL)
    finish (json, digits (p, value));
}

void
_ws_jint (WsJson *json, const char *key, int64_t value)
{
  char *p = member (json, key, 21);

  if (p == NULL)
    return;
  if (value < 0)
    {
      *p++ = '-';
      p = digits (p, 0 - (uint64_t) value);
    }
  else
    p = digits (p, (uint64_t) value);
  finish (json, p);
}

/* Printable ASCII but for the two characters JSON escapes: copied as it is. */
static int
plain (const char *s, size_t *len)
{
  const unsigned char *p = (const unsigned char *) s;

  for (; *p; p++)
    if (*p < 0x20 || *p > 0x7E || *p == '"' || *p == '\\')
      return 0;
  *len = (size_t) (p - (const unsigned char *) s);
  return 1;
}

void
_ws_jstring (WsJson *json, const char *key, const char *value)
{
  size_t n = 0;
  char *p;

  if (value == NULL || !plain (value, &n))
    {
      ws_json_string (json, key, value);
      return;
    }
  if ((p = member (json, key, n + 2)) == NULL)
    return;
  *p++ = '"';
  memcpy (p, value, n);
  p += n;
  *p++ = '"';
  finish (json, p);
}

/* What ws_json_double writes for round(us) / 1e3 below 10¹² ms: the shortest decimal that
 * reads back as that double, which is the milliseconds with the zeros after the last
 * non-zero decimal dropped ("1234.5", "7", "0.005"). */
void
_ws_jmillis (WsJson *json, const char *key, uint64_t us)
{
  char *p = member (json, key, 26);
  unsigned frac = (unsigned) (us % 1000);

  if (p == NULL)
    return;
  p = digits (p, us / 1000);
  if (frac != 0)
    {
      *p++ = '.';
      *p++ = (char) ('0' + frac / 100);
      *p++ = (char) ('0' + frac / 10 % 10);
      *p++ = (char) ('0' + frac % 10);
      while (p[-1] == '0')
        p--;
    }
  finish (json, p);
}

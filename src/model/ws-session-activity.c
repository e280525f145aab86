/* ws-session-activity.c: the fast path for activity records, nearly all of a large session:
 * it reads the flat object the runner writes directly, and leaves anything it does not
 * expect (escapes, non-ASCII text, objects, numbers out of range) to the general path, which
 * reads it, or refuses it with a message.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-session-private.h"

#include <string.h>

#include "ws-protocol.h"
#include "ws-record.h"

typedef struct
{
  const char *p, *end;
} Scanner;

static void
skip_ws (Scanner *s)
{
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\r'))
    s->p++;
}

static gboolean
expect (Scanner *s, char c)
{
  skip_ws (s);
  if (s->p >= s->end || *s->p != c)
    return FALSE;
  s->p++;
  return TRUE;
}

/* A string of printable ASCII without escapes; points into the line. Anything else (escapes,
 * control characters, UTF-8 that must be checked) is left to the general path. */
static gboolean
scan_string (Scanner *s, const char **start, gsize *len)
{
  const char *q;

  if (!expect (s, '"'))
    return FALSE;
  q = s->p;
  while (q < s->end && *q != '"')
    {
      if (*q == '\\' || (guchar) *q < 0x20 || (guchar) *q >= 0x80)
        return FALSE;
      q++;
    }
  if (q >= s->end)
    return FALSE;
  *start = s->p;
  *len = (gsize) (q - s->p);
  s->p = q + 1;
  return TRUE;
}

/* An integer without fraction or exponent that gint64 holds; never reads past the line. */
static gboolean
scan_int (Scanner *s, gint64 *out)
{
  const char *q;
  gboolean negative;
  guint64 v = 0;

  skip_ws (s);
  q = s->p;
  negative = q < s->end && *q == '-';
  if (negative)
    q++;
  if (q >= s->end || !g_ascii_isdigit (*q) || (*q == '0' && q + 1 < s->end && g_ascii_isdigit (q[1])))
    return FALSE;
  for (; q < s->end && g_ascii_isdigit (*q); q++)
    {
      if (v > (guint64) G_MAXINT64 / 10)
        return FALSE;
      v = v * 10 + (guint64) (*q - '0');
    }
  if (v > (guint64) G_MAXINT64)
    return FALSE;
  /* A fraction or exponent is not an integer: let the general path decide. */
  if (q < s->end && (*q == '.' || *q == 'e' || *q == 'E'))
    return FALSE;
  *out = negative ? -(gint64) v : (gint64) v;
  s->p = q;
  return TRUE;
}

/* true, false, null or a plain number (at most a two-digit exponent): what else the general
 * path reads, or refuses. */
static gboolean
scan_scalar (Scanner *s)
{
  const char *q = s->p;
  gsize left = (gsize) (s->end - q);

  if (left >= 4 && (memcmp (q, "true", 4) == 0 || memcmp (q, "null", 4) == 0))
    q += 4;
  else if (left >= 5 && memcmp (q, "false", 5) == 0)
    q += 5;
  else
    {
      if (q < s->end && *q == '-')
        q++;
      if (q >= s->end || !g_ascii_isdigit (*q) || (*q == '0' && q + 1 < s->end && g_ascii_isdigit (q[1])))
        return FALSE;
      while (q < s->end && g_ascii_isdigit (*q))
        q++;
      if (q < s->end && *q == '.')
        {
          if (++q >= s->end || !g_ascii_isdigit (*q))
            return FALSE;
          while (q < s->end && g_ascii_isdigit (*q))
            q++;
        }
      if (q < s->end && (*q == 'e' || *q == 'E'))
        {
          int digits = 0;

          if (++q < s->end && (*q == '+' || *q == '-'))
            q++;
          for (; q < s->end && g_ascii_isdigit (*q); q++)
            digits++;
          if (digits == 0 || digits > 2)
            return FALSE;
        }
    }
  if (q < s->end && *q != ',' && *q != '}' && *q != ']' && *q != ' ' && *q != '\t'
      && *q != '\r')
    return FALSE;
  s->p = q;
  return TRUE;
}

/* Skips a string, scalar or array of them, with a counter instead of recursion: a line of a
 * million '[' costs a loop, not the stack. Objects, and arrays nested as deep as the general
 * path refuses, are left to it. */
static gboolean
skip_value (Scanner *s)
{
  int depth = 0;

  for (;;)
    {
      const char *str;
      gsize len;

      skip_ws (s);
      if (s->p >= s->end)
        return FALSE;
      if (*s->p == '[')
        {
          if (++depth >= WS_RECORD_MAX_DEPTH)
            return FALSE;
          s->p++;
          skip_ws (s);
          if (s->p >= s->end || *s->p != ']')
            continue; /* the first element */
          s->p++;
          depth--;
        }
      else if (*s->p == '"')
        {
          if (!scan_string (s, &str, &len))
            return FALSE;
        }
      else if (!scan_scalar (s))
        return FALSE;
      /* After a value: the next element, or the ends of arrays. */
      for (;;)
        {
          if (depth == 0)
            return TRUE;
          skip_ws (s);
          if (s->p < s->end && *s->p == ',')
            {
              s->p++;
              break;
            }
          if (s->p >= s->end || *s->p != ']')
            return FALSE;
          s->p++;
          depth--;
        }
    }
}

static gboolean
scan_triple (Scanner *s, guint32 out[3])
{
  if (!expect (s, '['))
    return FALSE;
  for (int i = 0; i < 3; i++)
    {
      gint64 v;

      if (!scan_int (s, &v) || v < 0 || v > G_MAXUINT32)
        return FALSE;
      out[i] = (guint32) v;
      if (i < 2 && !expect (s, ','))
        return FALSE;
    }
  return expect (s, ']');
}

static const char *
intern (const char *start, gsize len)
{
  char buf[256];

  if (len >= sizeof buf || !g_utf8_validate (start, (gssize) len, NULL))
    return NULL;
  memcpy (buf, start, len);
  buf[len] = '\0';
  return g_intern_string (buf);
}

#define KEY_IS(k) (klen == sizeof (k) - 1 && memcmp (key, k, klen) == 0)

gboolean
_ws_session_parse_activity (const char *line, gsize length, WsSpan *a, guint32 *run)
{
  Scanner s = { line, line + length };
  gboolean have_kind = FALSE;

  memset (a, 0, sizeof *a);
  a->phase = WS_PHASE_OTHER; /* as the general path reads a missing phase */
  *run = 0;
  if (!expect (&s, '{'))
    return FALSE;
  for (;;)
    {
      const char *key, *str;
      gsize klen, slen;
      gint64 v;

      if (!scan_string (&s, &key, &klen) || !expect (&s, ':'))
        return FALSE;
      skip_ws (&s);
      if (KEY_IS (WS_KEY_TYPE))
        {
          if (!scan_string (&s, &str, &slen) || slen != sizeof WS_RECORD_TYPE_ACTIVITY - 1
              || memcmp (str, WS_RECORD_TYPE_ACTIVITY, slen) != 0)
            return FALSE;
        }
      else if (KEY_IS (WS_KEY_KIND) || KEY_IS (WS_KEY_PHASE) || KEY_IS (WS_KEY_DIRECTION)
               || KEY_IS (WS_KEY_HOST_MEMORY) || KEY_IS (WS_KEY_NAME) || KEY_IS (WS_KEY_SYNC)
               || KEY_IS (WS_KEY_OVERHEAD))
        {
          const char *value;

          if (s.p < s.end && *s.p == 'n')
            {
              if (!skip_value (&s))
                return FALSE;
              goto next;
            }
          if (!scan_string (&s, &str, &slen) || (value = intern (str, slen)) == NULL)
            return FALSE;
          if (KEY_IS (WS_KEY_KIND))
            a->kind = ws_activity_kind_from_string (value), have_kind = TRUE;
          else if (KEY_IS (WS_KEY_PHASE))
            a->phase = ws_activity_phase_from_string (value);
          else if (KEY_IS (WS_KEY_DIRECTION))
            a->direction = ws_copy_direction_from_string (value);
          else if (KEY_IS (WS_KEY_HOST_MEMORY))
            a->host_memory = ws_host_memory_from_string (value);
          else if (KEY_IS (WS_KEY_NAME))
            a->name = value;
          else
            a->detail = value;
        }
      else if (KEY_IS (WS_KEY_GRID) || KEY_IS (WS_KEY_BLOCK))
        {
          if (!scan_triple (&s, KEY_IS (WS_KEY_GRID) ? a->grid : a->block))
            return FALSE;
        }
      else if (KEY_IS (WS_KEY_RUN) || KEY_IS (WS_KEY_REP) || KEY_IS (WS_KEY_START)
               || KEY_IS (WS_KEY_END) || KEY_IS (WS_KEY_BYTES) || KEY_IS (WS_KEY_STREAM)
               || KEY_IS (WS_KEY_CORRELATION) || KEY_IS (WS_KEY_REGISTERS)
               || KEY_IS (WS_KEY_STATIC_SMEM) || KEY_IS (WS_KEY_DYNAMIC_SMEM)
               || KEY_IS (WS_KEY_THREADS))
        {
          /* The ranges of ws-session-ranges.c: a number outside them is left to the general
           * path, which names it in a problem. */
          if (!scan_int (&s, &v))
            return FALSE;
          if (KEY_IS (WS_KEY_START) || KEY_IS (WS_KEY_END))
            {
              if (v < -WS_MAX_EXACT || v > WS_MAX_EXACT)
                return FALSE;
              *(KEY_IS (WS_KEY_START) ? &a->start : &a->end) = v;
            }
          else if (v < 0)
            return FALSE;
          else if (KEY_IS (WS_KEY_BYTES))
            {
              if (v > WS_MAX_EXACT)
                return FALSE;
              a->bytes = (guint64) v;
            }
          else if (KEY_IS (WS_KEY_RUN))
            {
              if (v > G_MAXINT32)
                return FALSE;
              *run = (guint32) v;
            }
          else if (KEY_IS (WS_KEY_STATIC_SMEM) || KEY_IS (WS_KEY_DYNAMIC_SMEM))
            {
              if (v > 1 << 29)
                return FALSE;
              *(KEY_IS (WS_KEY_STATIC_SMEM) ? &a->static_smem : &a->dynamic_smem) = (guint32) v;
            }
          else if (KEY_IS (WS_KEY_REGISTERS) || KEY_IS (WS_KEY_THREADS))
            {
              if (v > G_MAXUINT16)
                return FALSE;
              *(KEY_IS (WS_KEY_REGISTERS) ? &a->registers : &a->threads) = (guint16) v;
            }
          else
            {
              if (v > G_MAXUINT32)
                return FALSE;
              *(KEY_IS (WS_KEY_REP)      ? &a->rep
                : KEY_IS (WS_KEY_STREAM) ? &a->stream
                                         : &a->correlation)
                = (guint32) v;
            }
        }
      /* Members the span has that the runner does not write (a traced program's): the
       * general path reads them (_ws_span_from_record), so that one record is one span
       * whichever path it takes. */
      else if (KEY_IS (WS_KEY_ASYNC) || KEY_IS (WS_KEY_API) || KEY_IS (WS_KEY_RESULT)
               || KEY_IS (WS_KEY_THREAD) || KEY_IS (WS_KEY_NVTX) || KEY_IS (WS_KEY_DOMAIN)
               || KEY_IS (WS_KEY_OPEN) || KEY_IS (WS_KEY_JIT) || KEY_IS (WS_KEY_OPERATION)
               || KEY_IS (WS_KEY_DEVICE))
        return FALSE;
      else if (!skip_value (&s)) /* "t" and fields of later protocols */
        return FALSE;
    next:
      skip_ws (&s);
      if (s.p < s.end && *s.p == ',')
        {
          s.p++;
          continue;
        }
      if (!expect (&s, '}'))
        return FALSE;
      skip_ws (&s);
      return s.p == s.end && have_kind && a->end >= a->start;
    }
}

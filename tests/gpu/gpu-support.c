/* gpu-support.c: a small JSON reader, the runner, TAP.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "gpu-support.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* ---- JSON --------------------------------------------------------------------------------- */

typedef struct
{
  const char *p;
  int error;
} Parser;

static JValue *parse_value (Parser *ps);

static void
skip_ws (Parser *ps)
{
  while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
    ps->p++;
}

static JValue *
new_value (JType type)
{
  JValue *v = calloc (1, sizeof *v);

  v->type = type;
  return v;
}

static void
push_item (JValue *v, char *key, JValue *item)
{
  v->items = realloc (v->items, (v->len + 1) * sizeof *v->items);
  v->items[v->len] = item;
  if (v->type == J_OBJECT)
    {
      v->keys = realloc (v->keys, (v->len + 1) * sizeof *v->keys);
      v->keys[v->len] = key;
    }
  v->len++;
}

static char *
parse_string (Parser *ps)
{
  size_t cap = 32, len = 0;
  char *s = malloc (cap);

  if (*ps->p != '"')
    {
      ps->error = 1;
      free (s);
      return NULL;
    }
  ps->p++;
  while (*ps->p != '"')
    {
      char c = *ps->p++;

      if (c == '\0')
        {
          ps->error = 1;
          free (s);
          return NULL;
        }
      if (c == '\\')
        {
          char e = *ps->p++;

          switch (e)
            {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u':
              {
                unsigned cp = 0;

                if (sscanf (ps->p, "%4x", &cp) != 1)
                  {
                    ps->error = 1;
                    free (s);
                    return NULL;
                  }
                ps->p += 4;
                /* Only what the runner writes: control characters and U+FFFD. */
                if (cp < 0x80)
                  c = (char) cp;
                else
                  {
                    if (len + 4 > cap)
                      s = realloc (s, cap *= 2);
                    s[len++] = (char) (0xE0 | (cp >> 12));
                    s[len++] = (char) (0x80 | ((cp >> 6) & 0x3F));
                    c = (char) (0x80 | (cp & 0x3F));
                  }
                break;
              }
            default: c = e; break;
            }
        }
      if (len + 2 > cap)
        s = realloc (s, cap *= 2);
      s[len++] = c;
    }
  ps->p++;
  s[len] = '\0';
  return s;
}

static JValue *
parse_value (Parser *ps)
{
  JValue *v;

  skip_ws (ps);
  switch (*ps->p)
    {
    case '{':
      v = new_value (J_OBJECT);
      ps->p++;
      skip_ws (ps);
      if (*ps->p == '}')
        {
          ps->p++;
          return v;
        }
      for (;;)
        {
          char *key;
          JValue *item;

          skip_ws (ps);
          key = parse_string (ps);
          skip_ws (ps);
          if (ps->error || *ps->p != ':')
            {
              free (key);
              ps->error = 1;
              return v;
            }
          ps->p++;
          item = parse_value (ps);
          push_item (v, key, item);
          skip_ws (ps);
          if (ps->error)
            return v;
          if (*ps->p == ',')
            {
              ps->p++;
              continue;
            }
          if (*ps->p == '}')
            {
              ps->p++;
              return v;
            }
          ps->error = 1;
          return v;
        }
    case '[':
      v = new_value (J_ARRAY);
      ps->p++;
      skip_ws (ps);
      if (*ps->p == ']')
        {
          ps->p++;
          return v;
        }
      for (;;)
        {
          push_item (v, NULL, parse_value (ps));
          skip_ws (ps);
          if (ps->error)
            return v;
          if (*ps->p == ',')
            {
              ps->p++;
              continue;
            }
          if (*ps->p == ']')
            {
              ps->p++;
              return v;
            }
          ps->error = 1;
          return v;
        }
    case '"':
      v = new_value (J_STRING);
      v->string = parse_string (ps);
      return v;
    case 't':
    case 'f':
    case 'n':
      {
        int t = strncmp (ps->p, "true", 4) == 0, f = strncmp (ps->p, "false", 5) == 0,
            n = strncmp (ps->p, "null", 4) == 0;

        if (!t && !f && !n)
          {
            ps->error = 1;
            return new_value (J_NULL);
          }
        v = new_value (n ? J_NULL : J_BOOL);
        v->number = t;
        ps->p += f ? 5 : 4;
        return v;
      }
    default:
      {
        char *end;

        v = new_value (J_NUMBER);
        v->number = strtod (ps->p, &end);
        if (end == ps->p)
          ps->error = 1;
        ps->p = end;
        return v;
      }
    }
}

JValue *
j_parse (const char *text)
{
  Parser ps = { text, 0 };
  JValue *v = parse_value (&ps);

  skip_ws (&ps);
  if (ps.error || *ps.p != '\0')
    {
      j_free (v);
      return NULL;
    }
  return v;
}

void
j_free (JValue *v)
{
  if (v == NULL)
    return;
  for (size_t i = 0; i < v->len; i++)
    {
      j_free (v->items[i]);
      if (v->keys)
        free (v->keys[i]);
    }
  free (v->items);
  free (v->keys);
  free (v->string);
  free (v);
}

const JValue *
j_get (const JValue *o, const char *key)
{
  if (o == NULL || o->type != J_OBJECT)
    return NULL;
  for (size_t i = 0; i < o->len; i++)
    if (strcmp (o->keys[i], key) == 0)
      return o->items[i];
  return NULL;
}

double
j_num (const JValue *o, const char *key)
{
  const JValue *v = j_get (o, key);

  return v && (v->type == J_NUMBER || v->type == J_BOOL) ? v->number : NAN;
}

const char *
j_str (const JValue *o, const char *key)
{
  const JValue *v = j_get (o, key);

  return v && v->type == J_STRING ? v->string : NULL;
}

/* ---- the runner ----------------------------------------------------------------------------- */

void
run_runner (Output *out, const char *runner, const char *const *args)
{
  char cmd[4096];
  size_t len;
  FILE *pipe;
  char *line = NULL;
  size_t cap = 0;
  int status;

  memset (out, 0, sizeof *out);
  len = (size_t) snprintf (cmd, sizeof cmd, "'%s'", runner);
  for (size_t i = 0; args[i] != NULL; i++)
    len += (size_t) snprintf (cmd + len, sizeof cmd - len, " '%s'", args[i]);
  fprintf (stderr, "# %s\n", cmd);
  pipe = popen (cmd, "r");
  if (pipe == NULL)
    {
      out->exit_code = -1;
      return;
    }
  while (getline (&line, &cap, pipe) > 0)
    {
      JValue *v = j_parse (line);

      if (v == NULL)
        {
          fprintf (stderr, "# not JSON: %s", line);
          continue;
        }
      out->records = realloc (out->records, (out->len + 1) * sizeof *out->records);
      out->records[out->len++] = v;
    }
  free (line);
  status = pclose (pipe);
  out->exit_code = WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

void
output_free (Output *out)
{
  for (size_t i = 0; i < out->len; i++)
    j_free (out->records[i]);
  free (out->records);
  memset (out, 0, sizeof *out);
}

const JValue *
find_record (const Output *out, const char *type, size_t n)
{
  for (size_t i = 0; i < out->len; i++)
    {
      const char *t = j_str (out->records[i], "type");

      if (t && strcmp (t, type) == 0 && n-- == 0)
        return out->records[i];
    }
  return NULL;
}

size_t
count_records (const Output *out, const char *type)
{
  size_t n = 0;

  while (find_record (out, type, n) != NULL)
    n++;
  return n;
}

void
skip_without_gpu (const char *runner)
{
  const char *args[] = { "--list", NULL };
  char cmd[1024];
  FILE *pipe;
  char buf[4096];
  int usable = 0;

  (void) args;
  snprintf (cmd, sizeof cmd, "'%s' --device-info 2>/dev/null", runner);
  pipe = popen (cmd, "r");
  while (pipe && fgets (buf, sizeof buf, pipe))
    if (strstr (buf, "\"type\":\"device\"") != NULL)
      usable = 1;
  if (pipe)
    pclose (pipe);
  if (!usable)
    {
      printf ("1..0 # SKIP no usable GPU here\n");
      exit (77);
    }
}

/* ---- TAP ------------------------------------------------------------------------------------ */

static int tap_count, tap_failed;

int
tap_done (void)
{
  printf ("1..%d\n", tap_count);
  return tap_failed ? 1 : 0;
}

void
tap_ok (int ok, const char *fmt, ...)
{
  va_list ap;

  printf ("%s %d - ", ok ? "ok" : "not ok", ++tap_count);
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  printf ("\n");
  fflush (stdout);
  if (!ok)
    tap_failed++;
}

void
tap_skip (const char *fmt, ...)
{
  va_list ap;

  printf ("ok %d # SKIP ", ++tap_count);
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  printf ("\n");
  fflush (stdout);
}

int
tap_failures (void)
{
  return tap_failed;
}

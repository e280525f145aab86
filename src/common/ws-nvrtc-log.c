/* ws-nvrtc-log.c: reading NVRTC's log. Its front end writes
 *
 *   my.cu(4): error: identifier "xx" is undefined
 *       c[i] = xx;
 *              ^
 *
 * the source line after two spaces and a caret under the column (tabs copied, so the column
 * counts bytes); ptxas and the option parser write lines without a place:
 *   ptxas error   : Entry function '_Z1kPf' uses too much shared data (0x61a80 bytes, …)
 *   nvrtc: error: unrecognized option -bogus found
 * A name the runner asked to look up (the header's kernel) that is not there is reported
 * against "__nv_name_map".
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-nvrtc-log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The next line of the log: [*p, end) and *p moved past its newline. */
static size_t
next_line (const char **p, const char **start)
{
  const char *s = *p, *nl = strchr (s, '\n');
  size_t n = nl ? (size_t) (nl - s) : strlen (s);

  *start = s;
  *p = nl ? nl + 1 : s + n;
  return n;
}

static void
copy_message (WsCompileDiag *d, const char *s, size_t n)
{
  while (n > 0 && (*s == ' ' || *s == '\t'))
    s++, n--;
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\r'))
    n--;
  if (n >= sizeof d->message)
    n = sizeof d->message - 1;
  memcpy (d->message, s, n);
  d->message[n] = '\0';
}

/* "error: …", "warning #177-D: …", "catastrophic error: …": the severity and where the
 * message starts, or NULL. */
static const char *
severity_of (const char *s, const char *end, WsCompileDiag *d)
{
  static const struct
  {
    const char *word;
    const char *severity;
  } words[] = {
    { "catastrophic error", "error" }, { "error", "error" }, { "warning", "warning" },
  };

  while (s < end && *s == ' ')
    s++;
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    {
      size_t n = strlen (words[i].word);

      if ((size_t) (end - s) > n && strncmp (s, words[i].word, n) == 0)
        {
          const char *colon = memchr (s + n, ':', (size_t) (end - s - n));

          /* Only a diagnostic number may lie between the word and the colon. */
          if (colon == NULL)
            return NULL;
          for (const char *q = s + n; q < colon; q++)
            if (!(*q == ' ' || *q == '#' || *q == '-' || (*q >= '0' && *q <= '9')
                  || (*q >= 'A' && *q <= 'Z')))
              return NULL;
          snprintf (d->severity, sizeof d->severity, "%s", words[i].severity);
          return colon + 1;
        }
    }
  return NULL;
}

int
ws_nvrtc_parse_log (const char *log, const char *program, WsCompileDiag *diags, int max)
{
  const char *p = log;
  size_t plen = strlen (program);
  int count = 0;

  while (p != NULL && *p != '\0')
    {
      const char *s, *end, *msg = NULL;
      size_t n = next_line (&p, &s);
      WsCompileDiag d;

      end = s + n;
      memset (&d, 0, sizeof d);
      int name_map = n > 15 && strncmp (s, "__nv_name_map(", 14) == 0;

      if (name_map || (n > plen + 3 && strncmp (s, program, plen) == 0 && s[plen] == '('))
        {
          const char *q = s + (name_map ? 14 : plen + 1);
          long line = strtol (q, (char **) &q, 10);

          if (q < end && *q == ')' && q + 1 < end && q[1] == ':'
              && (msg = severity_of (q + 2, end, &d)) != NULL)
            {
              d.line = name_map ? 0 : (int) (line > 0 && line < 1000000000 ? line : 0);
              d.name_lookup = name_map;
              /* The echoed line, then the caret under the column. */
              {
                const char *peek = p, *echo, *caret;
                size_t nc;
                const char *hat;
                int only_blank;

                next_line (&peek, &echo);
                nc = next_line (&peek, &caret);
                hat = memchr (caret, '^', nc);
                only_blank = hat != NULL;
                for (const char *c = caret; only_blank && c < caret + nc; c++)
                  only_blank = *c == ' ' || *c == '\t' || *c == '^' || *c == '\r';
                if (only_blank)
                  {
                    if (d.line > 0)
                      d.column = (int) (hat - caret) - 2 + 1 > 0 ? (int) (hat - caret) - 2 + 1 : 1;
                    p = peek;
                  }
              }
            }
        }
      else if ((msg = severity_of (s, end, &d)) != NULL)
        ; /* "error: …" without a place */
      else if (n > 6 && (strncmp (s, "ptxas ", 6) == 0 || strncmp (s, "nvrtc: ", 7) == 0))
        {
          const char *q = s + (s[0] == 'p' ? 6 : 7);

          msg = severity_of (q, end, &d);
          if (msg == NULL && s[0] == 'p')
            {
              /* "ptxas error   : …", "ptxas fatal   : …", "ptxas warning : …" */
              const char *colon = memchr (q, ':', (size_t) (end - q));

              if (colon != NULL && (strncmp (q, "error", 5) == 0 || strncmp (q, "fatal", 5) == 0
                                    || strncmp (q, "warning", 7) == 0))
                {
                  snprintf (d.severity, sizeof d.severity, "%s", q[0] == 'w' ? "warning" : "error");
                  msg = colon + 1;
                }
            }
          if (msg != NULL && s[0] == 'p')
            {
              char text[480];

              while (msg < end && *msg == ' ')
                msg++;
              snprintf (text, sizeof text, "ptxas: %.*s", (int) (end - msg), msg);
              copy_message (&d, text, strlen (text));
              msg = NULL;
              if (count < max)
                diags[count] = d;
              count++;
              continue;
            }
        }
      if (msg == NULL)
        continue;
      copy_message (&d, msg, (size_t) (end - msg));
      if (count < max)
        diags[count] = d;
      count++;
    }
  return count;
}

/* ws-sanitizer-report.c: reading compute-sanitizer's report. Each report starts on a line of
 * its own after the prefix, and its details follow indented:
 *
 *   ========= Invalid __global__ write of size 4 bytes
 *   =========     at vector_add_oob+0x90 in /work/examples/kernels/vector_add_oob.cu:24
 *   =========     by thread (159,0,0) in block (3906,0,0)
 *   =========     Address 0x7f1c2a26ca00 is out of bounds
 *   =========     and is 1 bytes after the nearest allocation at 0x… of size 4000000 bytes
 *
 * compute-sanitizer 2025.3 words the address line "Access to 0x7fd0513d0904 is out of bounds";
 * both wordings are read.
 * Older releases wrote the place as "at 0x90 in FILE:LINE:KERNEL"; both are read. Races:
 *   ========= Error: Race reported between Write access at k+0x40 in race.cu:10
 *   =========     and Read access at k+0x60 in race.cu:12 [512 hazards]
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-sanitizer-report.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREFIX "========="

static void
copy (char *dst, size_t cap, const char *s, size_t n)
{
  while (n > 0 && isspace ((unsigned char) *s))
    s++, n--;
  while (n > 0 && isspace ((unsigned char) s[n - 1]))
    n--;
  if (n >= cap)
    n = cap - 1;
  memcpy (dst, s, n);
  dst[n] = '\0';
}

static void
append (char *dst, size_t cap, const char *s)
{
  size_t n = strlen (dst);

  if (n > 0 && n + 2 < cap)
    {
      dst[n++] = ';';
      dst[n++] = ' ';
      dst[n] = '\0';
    }
  copy (dst + n, cap - n, s, strlen (s));
}

/* "KERNEL+0x90 in FILE:LINE", "0x90 in FILE:LINE:KERNEL", "KERNEL+0x90". */
static void
parse_place (const char *s, WsSanitizerFinding *f)
{
  const char *in = strstr (s, " in ");
  const char *plus = strstr (s, "+0x");

  if (plus != NULL && (in == NULL || plus < in))
    copy (f->kernel, sizeof f->kernel, s, (size_t) (plus - s));
  if (in == NULL)
    return;
  in += 4;
  /* The file runs to the first ":DIGITS" followed by ':' or the end (or " ["). */
  for (const char *c = in; *c; c++)
    if (*c == ':' && isdigit ((unsigned char) c[1]))
      {
        const char *d = c + 1;
        long line = strtol (d, (char **) &d, 10);

        if (*d == '\0' || *d == ':' || *d == ' ' || *d == '\n' || *d == '\r')
          {
            copy (f->file, sizeof f->file, in, (size_t) (c - in));
            f->line = line > 0 && line < 100000000 ? (int) line : 0;
            if (*d == ':' && f->kernel[0] == '\0')
              {
                const char *end = d + 1 + strcspn (d + 1, "\r\n[");

                copy (f->kernel, sizeof f->kernel, d + 1, (size_t) (end - d - 1));
              }
            return;
          }
      }
  copy (f->file, sizeof f->file, in, strcspn (in, " \r\n["));
}

static void
parse_headline (const char *s, WsSanitizerFinding *f)
{
  const char *p;

  copy (f->message, sizeof f->message, s, strlen (s));
  if ((p = strstr (s, "Race reported between ")) != NULL)
    {
      const char *at = strstr (p, " access at ");

      snprintf (f->kind, sizeof f->kind, "race");
      snprintf (f->space, sizeof f->space, "shared");
      if (at != NULL)
        {
          const char *word = p + 22;

          copy (f->access, sizeof f->access, word, (size_t) (at - word));
          for (char *c = f->access; *c; c++)
            *c = (char) tolower ((unsigned char) *c);
          parse_place (at + 11, f);
          /* The headline is the report, less its second place. */
          copy (f->message, sizeof f->message, s, (size_t) (p - s) + 13);
          snprintf (f->message + strlen (f->message), sizeof f->message - strlen (f->message),
                    "%s", " between two accesses to shared memory");
        }
      return;
    }
  if (strncmp (s, "Invalid ", 8) == 0)
    snprintf (f->kind, sizeof f->kind, "invalid_access");
  else if (strncmp (s, "Uninitialized ", 14) == 0)
    snprintf (f->kind, sizeof f->kind, "uninitialized");
  else if (strstr (s, "Barrier") != NULL || strstr (s, "barrier") != NULL
           || strstr (s, "Divergent") != NULL)
    snprintf (f->kind, sizeof f->kind, "sync");
  else if (strncmp (s, "Program hit ", 12) == 0)
    snprintf (f->kind, sizeof f->kind, "api_error");
  else if (strncmp (s, "Leaked ", 7) == 0)
    snprintf (f->kind, sizeof f->kind, "leak");
  else
    snprintf (f->kind, sizeof f->kind, "other");
  if (strstr (s, "__global__"))
    snprintf (f->space, sizeof f->space, "global");
  else if (strstr (s, "__shared__"))
    snprintf (f->space, sizeof f->space, "shared");
  else if (strstr (s, "__local__"))
    snprintf (f->space, sizeof f->space, "local");
  if (strstr (s, " write ") || strstr (s, " write of"))
    snprintf (f->access, sizeof f->access, "write");
  else if (strstr (s, " read ") || strstr (s, " read of"))
    snprintf (f->access, sizeof f->access, "read");
  else if (strstr (s, " atomic "))
    snprintf (f->access, sizeof f->access, "atomic");
  if ((p = strstr (s, " of size ")) != NULL)
    f->size = atoi (p + 9);
}

static void
parse_detail (const char *s, WsSanitizerFinding *f)
{
  unsigned t[3], b[3];

  if (strncmp (s, "at ", 3) == 0)
    {
      if (f->file[0] == '\0' && f->kernel[0] == '\0')
        parse_place (s + 3, f);
    }
  else if (sscanf (s, "by thread (%u,%u,%u) in block (%u,%u,%u)", &t[0], &t[1], &t[2], &b[0],
                   &b[1], &b[2]) == 6)
    {
      f->has_thread = 1;
      memcpy (f->thread, t, sizeof t);
      memcpy (f->block, b, sizeof b);
    }
  else if (strncmp (s, "Address ", 8) == 0 || strncmp (s, "Access to ", 10) == 0)
    {
      const char *a = s + (s[1] == 'd' ? 8 : 10);

      copy (f->address, sizeof f->address, a, strcspn (a, " "));
      if (strstr (s, "is misaligned"))
        snprintf (f->kind, sizeof f->kind, "misaligned");
      else if (strstr (s, "is out of bounds") && strcmp (f->kind, "invalid_access") == 0)
        snprintf (f->kind, sizeof f->kind, "out_of_bounds");
      append (f->detail, sizeof f->detail, s);
    }
  else if (strncmp (s, "and is ", 7) == 0 || strncmp (s, "and ", 4) == 0)
    append (f->detail, sizeof f->detail, s);
}

static int
same_place (const WsSanitizerFinding *a, const WsSanitizerFinding *b)
{
  return strcmp (a->kind, b->kind) == 0 && strcmp (a->file, b->file) == 0 && a->line == b->line
         && strcmp (a->kernel, b->kernel) == 0 && strcmp (a->access, b->access) == 0
         && a->size == b->size && (a->line > 0 || strcmp (a->message, b->message) == 0);
}

/* Adds f, or counts it with an earlier report of the same kind and place. */
static int
keep (WsSanitizerFinding *findings, int n, int max, const WsSanitizerFinding *f)
{
  for (int i = 0; i < n && i < max; i++)
    if (same_place (&findings[i], f))
      {
        findings[i].count++;
        return n;
      }
  if (n < max)
    {
      findings[n] = *f;
      findings[n].count = 1;
    }
  return n + 1;
}

int
ws_sanitizer_parse (const char *text, WsSanitizerFinding *findings, int max,
                    WsSanitizerSummary *summary)
{
  WsSanitizerFinding cur;
  int open = 0, n = 0;
  const char *p = text;

  summary->errors = -1;
  summary->reports = 0;
  while (*p)
    {
      const char *nl = strchr (p, '\n');
      size_t len = nl ? (size_t) (nl - p) : strlen (p), indent = 0;
      char line[1024];
      const char *s;

      if (len >= sizeof line)
        len = sizeof line - 1;
      memcpy (line, p, len);
      line[len] = '\0';
      if (len > 0 && line[len - 1] == '\r')
        line[--len] = '\0';
      p = nl ? nl + 1 : p + strlen (p);
      if (strncmp (line, PREFIX, strlen (PREFIX)) != 0)
        continue;
      s = line + strlen (PREFIX);
      while (s[indent] == ' ')
        indent++;
      s += indent;
      if (indent >= 2 && open)
        {
          parse_detail (s, &cur);
          continue;
        }
      if (open)
        {
          n = keep (findings, n, max, &cur);
          open = 0;
        }
      if (*s == '\0' || strcmp (s, "COMPUTE-SANITIZER") == 0 || strncmp (s, "LEAK SUMMARY", 12) == 0
          || strncmp (s, "RACECHECK SUMMARY", 17) == 0 || strncmp (s, "Target application", 18) == 0)
        continue;
      if (strncmp (s, "ERROR SUMMARY: ", 15) == 0)
        {
          summary->errors = atoi (s + 15);
          continue;
        }
      memset (&cur, 0, sizeof cur);
      parse_headline (s, &cur);
      /* The other access of a race follows as "and Read access at …". */
      open = 1;
      summary->reports++;
    }
  if (open)
    n = keep (findings, n, max, &cur);
  return n;
}

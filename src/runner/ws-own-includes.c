/* ws-own-includes.c: what an own kernel may #include, checked before NVRTC reads anything:
 * files in the kernel's folder and below, and the CUDA toolkit's headers. NVRTC copies what
 * it includes into its log (and so into the compile record and the saved session, which
 * travel to whoever the recording is shared with): a file outside the folder never gets
 * there without the user moving it in.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-own-kernel-private.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ws-config.h"

/* A chain of headers this deep, or this many of them, is no kernel's. */
#define MAX_DEPTH 8
#define MAX_FILES 64

typedef struct
{
  char root[PATH_MAX];      /* the kernel's folder, resolved */
  char seen[MAX_FILES][PATH_MAX];
  int n_seen;
  WsIncludeProblem *problem;
} Check;

/* Past spaces, tabs and comments on one logical line; `p` stops at its end. */
static const char *
skip_blank (const char *p, const char *end)
{
  for (;;)
    {
      while (p < end && (*p == ' ' || *p == '\t' || *p == '\f' || *p == '\v'))
        p++;
      if (p + 1 < end && p[0] == '\\' && p[1] == '\n')
        p += 2;
      else if (p + 1 < end && p[0] == '/' && p[1] == '*')
        {
          const char *close = p + 2;

          while (close + 1 < end && !(close[0] == '*' && close[1] == '/'))
            close++;
          p = close + 1 < end ? close + 2 : end;
        }
      else
        return p;
    }
}

static int
line_of (const char *text, const char *at)
{
  int line = 1;

  for (const char *p = text; p < at; p++)
    line += *p == '\n';
  return line;
}

static void problem (Check *c, const char *file, const char *text, const char *at,
                     const char *fmt, ...) __attribute__ ((format (printf, 5, 6)));

static void
problem (Check *c, const char *file, const char *text, const char *at, const char *fmt, ...)
{
  WsIncludeProblem *p = c->problem;
  const char *start = at;
  va_list ap;

  while (start > text && start[-1] != '\n')
    start--;
  snprintf (p->file, sizeof p->file, "%s", file);
  p->line = line_of (text, at);
  p->column = (int) (at - start) + 1;
  va_start (ap, fmt);
  vsnprintf (p->message, sizeof p->message, fmt, ap);
  va_end (ap);
}

/* Whether `resolved` is the root folder or under it. */
static int
under_root (const Check *c, const char *resolved)
{
  size_t n = strlen (c->root);

  return strncmp (resolved, c->root, n) == 0 && (resolved[n] == '/' || resolved[n] == '\0'
                                                  || (n == 1 && c->root[0] == '/'));
}

static int check_file (Check *c, const char *path, const char *text, size_t len, int depth);

/* One #include's name, relative to the folder of the file that names it. 1 when allowed. */
static int
check_name (Check *c, const char *file, const char *text, const char *at, const char *name,
            int quoted, int depth)
{
  char dir[PATH_MAX], candidate[PATH_MAX * 2], resolved[PATH_MAX];
  const char *slash = strrchr (file, '/');
  struct stat st;

  if (name[0] == '/')
    {
      problem (c, file, text, at, "#include \"%s\" names a file by its absolute path: a kernel "
               "may include the CUDA toolkit's headers and files in its own folder and below; "
               "copy what it needs into the kernel's folder", name);
      return 0;
    }
  for (const char *p = name; *p != '\0';)
    {
      size_t n = strcspn (p, "/");

      if (n == 2 && p[0] == '.' && p[1] == '.')
        {
          problem (c, file, text, at, "#include \"%s\" reaches out of the kernel's folder "
                   "(..): a kernel may include the CUDA toolkit's headers and files in its own "
                   "folder and below; copy what it needs into the kernel's folder", name);
          return 0;
        }
      p += n + (p[n] == '/');
    }
  snprintf (dir, sizeof dir, "%.*s", slash ? (int) (slash - file) : 1, slash ? file : ".");
  snprintf (candidate, sizeof candidate, "%s/%s", dir, name);
  if (quoted && realpath (candidate, resolved) != NULL && stat (resolved, &st) == 0
      && S_ISREG (st.st_mode))
    {
      FILE *f;
      char *body;
      size_t n;
      int ok;

      if (!under_root (c, resolved))
        {
          problem (c, file, text, at, "#include \"%s\" is a link to a file outside the kernel's "
                   "folder: a kernel may include the CUDA toolkit's headers and files in its own "
                   "folder and below; copy what it needs into the kernel's folder", name);
          return 0;
        }
      for (int i = 0; i < c->n_seen; i++)
        if (strcmp (c->seen[i], resolved) == 0)
          return 1;
      if (depth >= MAX_DEPTH || c->n_seen >= MAX_FILES)
        {
          problem (c, file, text, at, "#include \"%s\": more than 8 levels or 64 files of "
                   "headers in the kernel's folder; include fewer", name);
          return 0;
        }
      snprintf (c->seen[c->n_seen++], PATH_MAX, "%s", resolved);
      if ((f = fopen (candidate, "rb")) == NULL)
        return 1; /* NVRTC will say it cannot read it */
      body = malloc (WS_KF_MAX_SOURCE + 1);
      n = body != NULL ? fread (body, 1, WS_KF_MAX_SOURCE, f) : 0;
      fclose (f);
      if (body == NULL)
        return 1;
      ok = check_file (c, candidate, body, n, depth + 1);
      free (body);
      return ok;
    }
  snprintf (candidate, sizeof candidate, "%s/include/%s", WS_CUDA_ROOT, name);
  if (stat (candidate, &st) == 0 && S_ISREG (st.st_mode))
    return 1;
  problem (c, file, text, at, "#include \"%s\" is neither in the kernel's folder nor one of the "
           "CUDA toolkit's headers: a kernel may include those only; put the file beside the "
           "kernel", name);
  return 0;
}

/* The directive at `hash` ("#" or "%:"), on a line that ends at `end`. 1 when allowed. */
static int
check_directive (Check *c, const char *file, const char *text, const char *hash,
                 const char *end, int depth)
{
  const char *word = skip_blank (hash + (*hash == '#' ? 1 : 2), end), *q = word;
  char name[PATH_MAX];
  char close;
  size_t n = 0;

  while (q < end && (q[0] == '_' || (q[0] >= 'a' && q[0] <= 'z')))
    q++;
  if (!((q - word == 7 && memcmp (word, "include", 7) == 0)
        || (q - word == 12 && memcmp (word, "include_next", 12) == 0)
        || (q - word == 6 && memcmp (word, "import", 6) == 0)))
    return 1;
  q = skip_blank (q, end);
  if (q >= end || (*q != '"' && *q != '<'))
    {
      problem (c, file, text, hash, "#include takes a file's name in quotes or <>, not a "
               "macro: a name made by the preprocessor cannot be checked against the kernel's "
               "folder; write the name");
      return 0;
    }
  close = *q == '"' ? '"' : '>';
  for (q++; q < end && *q != close && *q != '\n'; q++)
    if (q[0] == '\\' && q + 1 < end && q[1] == '\n')
      q++;
    else if (n + 1 < sizeof name)
      name[n++] = *q;
  name[n] = '\0';
  return check_name (c, file, text, hash, name, close == '"', depth);
}

/* Past a string or character literal starting at `p` (a raw string too). */
static const char *
skip_literal (const char *p, const char *end)
{
  if (p[0] == 'R' && p + 1 < end && p[1] == '"')
    {
      const char *open = memchr (p + 2, '(', (size_t) (end - p - 2));
      char closing[20];
      size_t n;

      if (open == NULL || open - (p + 2) > 16)
        return p + 2;
      n = (size_t) snprintf (closing, sizeof closing, ")%.*s\"", (int) (open - (p + 2)), p + 2);
      for (const char *q = open + 1; q + n <= end; q++)
        if (memcmp (q, closing, n) == 0)
          return q + n;
      return end;
    }
  {
    char quote = *p;

    for (p++; p < end && *p != quote && *p != '\n'; p++)
      if (*p == '\\' && p + 1 < end)
        p++;
    return p < end ? p + 1 : end;
  }
}

static int
check_file (Check *c, const char *path, const char *text, size_t len, int depth)
{
  const char *p = text, *end = text + len;
  int line_start = 1;

  while (p < end)
    {
      if (*p == '\n')
        line_start = 1, p++;
      else if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v'
               || (p + 1 < end && p[0] == '\\' && p[1] == '\n'))
        p += *p == '\\' ? 2 : 1;
      else if (p + 1 < end && p[0] == '/' && p[1] == '/')
        {
          /* A line comment goes on past a backslash at the line's end. */
          while (p < end && *p != '\n')
            p += (p[0] == '\\' && p + 1 < end) ? 2 : 1;
        }
      else if (p + 1 < end && p[0] == '/' && p[1] == '*')
        {
          p += 2;
          while (p + 1 < end && !(p[0] == '*' && p[1] == '/'))
            p++;
          p = p + 1 < end ? p + 2 : end;
        }
      else if (line_start && (*p == '#' || (p + 1 < end && p[0] == '%' && p[1] == ':')))
        {
          const char *eol = p;

          while (eol < end && !(*eol == '\n' && !(eol > p && eol[-1] == '\\')))
            eol++;
          if (!check_directive (c, path, text, p, eol, depth))
            return 0;
          p = eol;
        }
      else if (*p == '"' || *p == '\'' || (p[0] == 'R' && p + 1 < end && p[1] == '"'))
        line_start = 0, p = skip_literal (p, end);
      else
        line_start = 0, p++;
    }
  return 1;
}

int
_ws_own_check_includes (const char *path, const char *text, size_t len, WsIncludeProblem *out)
{
  static Check c;
  char dir[PATH_MAX];
  const char *slash = strrchr (path, '/');

  memset (&c, 0, sizeof c);
  memset (out, 0, sizeof *out);
  c.problem = out;
  snprintf (dir, sizeof dir, "%.*s", slash ? (int) (slash - path) : 1, slash ? path : ".");
  if (dir[0] == '\0')
    snprintf (dir, sizeof dir, "/");
  if (realpath (dir, c.root) == NULL)
    snprintf (c.root, sizeof c.root, "%s", dir);
  return check_file (&c, path, text, len, 0);
}

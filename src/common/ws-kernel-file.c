/* ws-kernel-file.c: finding the header comment of a kernel file and reading its
 * declarations, one `key: value` a line; the checks that need the whole header, and the
 * evaluation of its expressions, are in ws-kernel-file-check.c.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-kernel-file-private.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
_ws_kf_error (WsKernelFile *kf, int line, int column, const char *fmt, ...)
{
  va_list ap;
  WsKfError *e;

  if (kf->n_errors >= WS_KF_MAX_ERRORS)
    {
      kf->more_errors++;
      return;
    }
  e = &kf->errors[kf->n_errors++];
  e->line = line;
  e->column = column;
  va_start (ap, fmt);
  vsnprintf (e->message, sizeof e->message, fmt, ap);
  va_end (ap);
}

/* ---- finding the header ---------------------------------------------------------------- */

static int
is_ident (int c)
{
  return isalnum (c) || c == '_';
}

/* The first block comment whose text starts with the word "warpscope", skipping string and
 * character literals and // comments on the way. Sets *body to just after the word and *end
 * to the closing star-slash (or len when the comment is never closed). */
static int
find_header (const char *t, size_t len, size_t *body, size_t *end, int *line)
{
  int l = 1;

  for (size_t i = 0; i < len; i++)
    {
      if (t[i] == '\n')
        l++;
      else if (t[i] == '/' && i + 1 < len && t[i + 1] == '/')
        {
          while (i + 1 < len && t[i + 1] != '\n')
            i++;
        }
      else if (t[i] == '"' || t[i] == '\'')
        {
          char q = t[i];

          for (i++; i < len && t[i] != q && t[i] != '\n'; i++)
            if (t[i] == '\\' && i + 1 < len && t[i + 1] != '\n')
              i++;
          if (i < len && t[i] == '\n')
            l++;
        }
      else if (t[i] == '/' && i + 1 < len && t[i + 1] == '*')
        {
          size_t j = i + 2, close;
          int start_line = l;

          for (close = j; close + 1 < len && !(t[close] == '*' && t[close + 1] == '/'); close++)
            ;
          if (close + 1 >= len)
            close = len;
          /* Spaces, line ends and the stars of a boxed comment before the first word. */
          while (j < close && (isspace ((unsigned char) t[j]) || t[j] == '*'))
            j++;
          if (close - j >= 9 && strncmp (t + j, "warpscope", 9) == 0
              && (j + 9 == close || !is_ident ((unsigned char) t[j + 9])))
            {
              for (size_t k = i; k < j; k++)
                start_line += t[k] == '\n';
              *body = j + 9;
              *end = close;
              *line = start_line;
              return 1;
            }
          for (size_t k = i + 2; k < close; k++)
            l += t[k] == '\n';
          i = close + 1;
        }
    }
  return 0;
}

/* ---- small readers over one value ------------------------------------------------------- */

const char *
_ws_kf_skip (const char *p)
{
  while (*p == ' ' || *p == '\t')
    p++;
  return p;
}

/* Copies [p, p + n) into dst (of `cap`), trimmed; 0 when it does not fit. */
int
_ws_kf_copy (char *dst, size_t cap, const char *p, size_t n)
{
  while (n > 0 && (*p == ' ' || *p == '\t'))
    p++, n--;
  while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
    n--;
  if (n >= cap)
    return 0;
  memcpy (dst, p, n);
  dst[n] = '\0';
  return 1;
}

/* The end of the item that starts at p: the next comma outside parentheses and brackets. */
const char *
_ws_kf_item_end (const char *p)
{
  int depth = 0;

  for (; *p; p++)
    {
      if (*p == '(' || *p == '[')
        depth++;
      else if ((*p == ')' || *p == ']') && depth > 0)
        depth--;
      else if (*p == ',' && depth == 0)
        break;
    }
  return p;
}

/* Fills e from [p, p + n), at `line` and the column of p. */
int
_ws_kf_take_expr (Line *ln, WsKfExpr *e, const char *p, size_t n, const char *what)
{
  const char *q = p;

  while (n > 0 && (*q == ' ' || *q == '\t'))
    q++, n--;
  e->line = ln->line;
  e->column = _ws_kf_col (ln, q);
  if (n == 0)
    {
      _ws_kf_error (ln->kf, ln->line, e->column, "%s: expected an expression", what);
      return 0;
    }
  if (!_ws_kf_copy (e->text, sizeof e->text, q, n))
    {
      _ws_kf_error (ln->kf, ln->line, e->column, "%s: the expression is longer than %d "
                    "characters", what, WS_KF_MAX_EXPR - 1);
      return 0;
    }
  return 1;
}

/* A name at p; its length, 0 when there is none. */
size_t
_ws_kf_name_at (const char *p)
{
  size_t n = 0;

  if (!isalpha ((unsigned char) *p) && *p != '_')
    return 0;
  while (is_ident ((unsigned char) p[n]))
    n++;
  return n;
}

int
_ws_kf_number (const char *p, size_t n, double *out)
{
  char buf[32], *end;

  if (n == 0 || n >= sizeof buf)
    return 0;
  memcpy (buf, p, n);
  buf[n] = '\0';
  errno = 0;
  *out = strtod (buf, &end);
  return errno == 0 && *end == '\0' && isfinite (*out) && !isspace ((unsigned char) buf[0])
         && strpbrk (buf, "xXpPnN") == NULL;
}

/* ---- one line of the header -------------------------------------------------------------- */

static const char key_list[]
  = "kernel, title, description, size, arg NAME, block, grid, param NAME, restrict, verify, "
    "tolerance, flops, bytes, options";

/* Whether a and b (of lengths na, nb) are one edit apart: one character added, left out,
 * changed, or two neighbours swapped ("blocks", "blok", "verfiy" for block and verify). */
static int
one_edit (const char *a, size_t na, const char *b, size_t nb)
{
  size_t i = 0;

  if (na > nb)
    return one_edit (b, nb, a, na);
  if (nb - na > 1)
    return 0;
  while (i < na && a[i] == b[i])
    i++;
  if (i == na)
    return nb == na + 1;
  if (na == nb)
    return strncmp (a + i + 1, b + i + 1, na - i - 1) == 0
           || (i + 1 < na && a[i] == b[i + 1] && a[i + 1] == b[i]
               && strncmp (a + i + 2, b + i + 2, na - i - 2) == 0);
  return strncmp (a + i, b + i + 1, na - i) == 0;
}

/* The key that `p` (n bytes) is one edit from, or NULL. */
static const char *
near_key (const char *p, size_t n)
{
  static const char *const keys[] = { "kernel", "title", "description", "size", "arg",
                                      "block", "grid", "param", "restrict", "verify",
                                      "tolerance", "flops", "bytes", "options" };

  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
    if (one_edit (p, n, keys[i], strlen (keys[i])))
      return keys[i];
  return NULL;
}

static void
unknown_key (Line *ln, const char *p, size_t n)
{
  const char *near = near_key (p, n);

  if (near != NULL)
    _ws_kf_error (ln->kf, ln->line, ln->key_col, "unknown key '%.*s'; did you mean '%s'? The "
                  "keys are %s", (int) (n < 40 ? n : 40), p, near, key_list);
  else
    _ws_kf_error (ln->kf, ln->line, ln->key_col, "unknown key '%.*s'; the keys are %s",
                  (int) (n < 40 ? n : 40), p, key_list);
}

static void
parse_line (Line *ln, const char *text)
{
  WsKernelFile *kf = ln->kf;
  const char *p = text, *colon, *v;
  size_t n = _ws_kf_name_at (p), n2 = 0;
  const char *name2 = NULL, *near;
  char key[16];

  if (n == 0)
    {
      _ws_kf_error (kf, ln->line, _ws_kf_col (ln, p), "expected KEY: VALUE, such as size: n = "
                    "1000000 (# starts a comment line)");
      return;
    }
  snprintf (key, sizeof key, "%.*s", (int) (n < 15 ? n : 15), p);
  ln->key_col = _ws_kf_col (ln, p);
  colon = _ws_kf_skip (p + n);
  if ((strcmp (key, "arg") == 0 || strcmp (key, "param") == 0) && n <= 5)
    {
      name2 = colon;
      n2 = _ws_kf_name_at (name2);
      if (n2 == 0 || n2 >= WS_KF_MAX_NAME)
        {
          _ws_kf_error (kf, ln->line, _ws_kf_col (ln, name2), "%s: expected its name, as in %s",
                        key, key[0] == 'a' ? "arg a: float[n] in" : "param TILE: 8, 16, 32");
          return;
        }
      colon = _ws_kf_skip (name2 + n2);
    }
  near = *colon != ':' && name2 == NULL ? near_key (p, n) : NULL;
  if (near != NULL && (strcmp (near, "arg") == 0 || strcmp (near, "param") == 0))
    {
      /* "args a: float[n] in": the misspelt key, not the colon, is what to change. */
      unknown_key (ln, p, n);
      return;
    }
  if (*colon != ':')
    {
      _ws_kf_error (kf, ln->line, _ws_kf_col (ln, colon), "expected ':' after '%.*s' (KEY: VALUE)",
                    (int) ((name2 ? name2 + n2 : p + n) - p), p);
      return;
    }
  v = _ws_kf_skip (colon + 1);
  ln->value_col = _ws_kf_col (ln, v);
  if (*v == '\0')
    {
      _ws_kf_error (kf, ln->line, ln->value_col, "%s: the value is missing", key);
      return;
    }
  if (!_ws_kf_once (ln, key))
    return;
  if (strcmp (key, "kernel") == 0)
    {
      kf->kernel_line = ln->line;
      _ws_kf_kernel_name (ln, kf->kernel, sizeof kf->kernel, v, "kernel");
    }
  else if (strcmp (key, "title") == 0 || strcmp (key, "description") == 0)
    {
      char *dst = key[0] == 't' ? kf->title : kf->description;
      size_t cap = key[0] == 't' ? sizeof kf->title : sizeof kf->description;

      if (!_ws_kf_copy (dst, cap, v, strlen (v)))
        _ws_kf_error (kf, ln->line, ln->value_col, "%s: at most %zu characters", key, cap - 1);
    }
  else if (strcmp (key, "size") == 0)
    _ws_kf_size (ln, v);
  else if (strcmp (key, "arg") == 0)
    _ws_kf_arg (ln, name2, n2, v);
  else if (strcmp (key, "param") == 0)
    _ws_kf_param (ln, name2, n2, v);
  else if (strcmp (key, "block") == 0)
    _ws_kf_block_dims (ln, v, &kf->block_rank, kf->block, "block");
  else if (strcmp (key, "grid") == 0)
    _ws_kf_grid (ln, v);
  else if (strcmp (key, "restrict") == 0)
    {
      if (kf->n_restricts == WS_KF_MAX_RESTRICTS)
        _ws_kf_error (kf, ln->line, ln->key_col, "at most %d restrict lines",
                      WS_KF_MAX_RESTRICTS);
      else if (_ws_kf_take_expr (ln, &kf->restricts[kf->n_restricts], v, strlen (v), "restrict"))
        kf->n_restricts++;
    }
  else if (strcmp (key, "verify") == 0)
    _ws_kf_verify (ln, v);
  else if (strcmp (key, "tolerance") == 0)
    _ws_kf_tolerance (ln, v);
  else if (strcmp (key, "flops") == 0)
    _ws_kf_take_expr (ln, &kf->flops, v, strlen (v), "flops");
  else if (strcmp (key, "bytes") == 0)
    _ws_kf_take_expr (ln, &kf->bytes, v, strlen (v), "bytes");
  else if (strcmp (key, "options") == 0)
    _ws_kf_options (ln, v);
  else
    unknown_key (ln, p, n);
}

int
ws_kernel_file_parse (const char *text, size_t len, WsKernelFile *kf)
{
  size_t body, end, i;
  int line;
  char buf[1024], prev_key[16] = "";
  int prev_col = 0;
  Seen seen;

  memset (kf, 0, sizeof *kf);
  memset (&seen, 0, sizeof seen);
  kf->rtol = 1e-5;
  kf->atol = 1e-8;
  kf->block_rank = 1;
  kf->block[0] = 256;
  kf->block[1] = kf->block[2] = 1;
  kf->verify = WS_KF_VERIFY_NONE;
  if (len > WS_KF_MAX_SOURCE)
    {
      _ws_kf_error (kf, 1, 1, "the file is %zu bytes; a kernel file is at most %d KiB", len,
                    WS_KF_MAX_SOURCE / 1024);
      return 0;
    }
  if (memchr (text, '\0', len) != NULL)
    {
      _ws_kf_error (kf, 1, 1, "the file holds a NUL byte: it is not CUDA C source");
      return 0;
    }
  if (!find_header (text, len, &body, &end, &line))
    {
      _ws_kf_error (kf, 1, 1, "no header: a kernel file starts with a comment /* warpscope … */ "
                    "that names the kernel, its arguments and its size (docs/own-kernels.md)");
      return 0;
    }
  kf->found = 1;
  kf->first_line = line;
  if (end >= len)
    _ws_kf_error (kf, line, 1, "the header comment /* warpscope is never closed with */");
  /* The rest of the first line must be empty: declarations go one to a line below it. */
  for (i = body; i < end && text[i] != '\n'; i++)
    if (!isspace ((unsigned char) text[i]))
      {
        _ws_kf_error (kf, line, (int) (i - body) + 1, "put the declarations on the lines after "
                      "'warpscope', one KEY: VALUE to a line");
        break;
      }
  while (i < end)
    {
      size_t start = ++i, stop, n;
      Line ln;
      const char *p;

      line++;
      for (stop = start; stop < end && text[stop] != '\n'; stop++)
        ;
      i = stop;
      n = stop - start;
      if (n > 0 && text[start + n - 1] == '\r')
        n--;
      ln.kf = kf;
      ln.line = line;
      ln.seen = &seen;
      if (n >= sizeof buf)
        {
          _ws_kf_error (kf, line, 1, "the line is longer than %zu characters", sizeof buf - 1);
          continue;
        }
      memcpy (buf, text + start, n);
      buf[n] = '\0';
      ln.start = buf;
      p = _ws_kf_skip (buf);
      /* The stars of a boxed comment. */
      if (*p == '*')
        p = _ws_kf_skip (p + 1);
      {
        size_t m = strlen (p);

        while (m > 0 && isspace ((unsigned char) p[m - 1]))
          buf[(size_t) (p - buf) + --m] = '\0';
      }
      if (*p == '\0' || *p == '#')
        continue;
      /* A line indented past the previous key continues a description or a title. */
      if (prev_key[0] != '\0' && _ws_kf_col (&ln, p) > prev_col + 1)
        {
          char *dst = prev_key[0] == 't' ? kf->title : kf->description;
          size_t cap = prev_key[0] == 't' ? sizeof kf->title : sizeof kf->description;

          if (strlen (dst) + 1 + strlen (p) >= cap)
            _ws_kf_error (kf, line, _ws_kf_col (&ln, p), "%s: at most %zu characters", prev_key,
                          cap - 1);
          else if (dst[0] != '\0')
            strcat (strcat (dst, " "), p);
          continue;
        }
      parse_line (&ln, p);
      prev_key[0] = '\0';
      if (strncmp (p, "description", 11) == 0 || strncmp (p, "title", 5) == 0)
        {
          snprintf (prev_key, sizeof prev_key, "%s", p[0] == 't' ? "title" : "description");
          prev_col = ln.key_col;
        }
    }
  kf->last_line = line;
  _ws_kf_check (kf, text, len);
  return kf->n_errors == 0;
}

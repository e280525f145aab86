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
static const char *
item_end (const char *p)
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
static int
take_expr (Line *ln, WsKfExpr *e, const char *p, size_t n, const char *what)
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
static size_t
name_at (const char *p)
{
  size_t n = 0;

  if (!isalpha ((unsigned char) *p) && *p != '_')
    return 0;
  while (is_ident ((unsigned char) p[n]))
    n++;
  return n;
}

static int
parse_number_text (const char *p, size_t n, double *out)
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

/* ---- the keys ---------------------------------------------------------------------------- */

static int
parse_kernel_name (Line *ln, char *dst, size_t cap, const char *v, const char *key)
{
  size_t n = strlen (v);

  if (n == 0 || name_at (v) == 0)
    {
      _ws_kf_error (ln->kf, ln->line, ln->value_col, "%s: expected the name of a __global__ "
                    "function, such as %s", key, strcmp (key, "kernel") == 0 ? "vector_add"
                                                                              : "vector_add_ref");
      return 0;
    }
  for (size_t i = 0, depth = 0; i < n; i++)
    {
      depth += v[i] == '<' ? 1 : v[i] == '>' && depth > 0 ? (size_t) -1 : 0;
      if (is_ident ((unsigned char) v[i]) || v[i] == ':' || v[i] == '<' || v[i] == '>'
          || (depth > 0 && (v[i] == ',' || v[i] == ' ')))
        continue;
      {
        _ws_kf_error (ln->kf, ln->line, ln->value_col + (int) i,
                      "%s: '%c' cannot be part of a kernel's name (a name, or a template "
                      "instance such as matmul<16>)", key, isprint ((unsigned char) v[i]) ? v[i] : '?');
        return 0;
      }
    }
  {
    int depth = 0;

    for (size_t i = 0; i < n; i++)
      depth += v[i] == '<' ? 1 : v[i] == '>' ? -1 : 0;
    if (depth != 0)
      {
        _ws_kf_error (ln->kf, ln->line, ln->value_col, "%s: the '%c' is never closed: name a "
                      "template instance as matmul<16>", key, depth > 0 ? '<' : '>');
        return 0;
      }
  }
  if (!_ws_kf_copy (dst, cap, v, n))
    {
      _ws_kf_error (ln->kf, ln->line, ln->value_col, "%s: the name is longer than %zu "
                    "characters", key, cap - 1);
      return 0;
    }
  return 1;
}

static void
parse_size (Line *ln, const char *v)
{
  WsKernelFile *kf = ln->kf;
  const char *p = v;

  kf->n_sizes = 0;
  for (;;)
    {
      const char *end = item_end (p), *eq;
      size_t n;
      double d;

      p = _ws_kf_skip (p);
      n = name_at (p);
      if (n == 0)
        {
          _ws_kf_error (kf, ln->line, _ws_kf_col (ln, p), "size: expected NAME = DEFAULT, "
                        "such as n = 1000000 (or rows = 4096, cols = 4096)");
          return;
        }
      if (kf->n_sizes == WS_KF_MAX_SIZES)
        {
          _ws_kf_error (kf, ln->line, _ws_kf_col (ln, p), "size: at most three names (m, n, k)");
          return;
        }
      eq = _ws_kf_skip (p + n);
      if (*eq != '=')
        {
          _ws_kf_error (kf, ln->line, _ws_kf_col (ln, eq), "size: expected '=' and a default "
                        "after %.*s, such as %.*s = 1000000", (int) n, p, (int) n, p);
          return;
        }
      if (n >= WS_KF_MAX_NAME)
        {
          _ws_kf_error (kf, ln->line, _ws_kf_col (ln, p), "size: the name is too long");
          return;
        }
      memcpy (kf->size_names[kf->n_sizes], p, n);
      kf->size_names[kf->n_sizes][n] = '\0';
      eq = _ws_kf_skip (eq + 1);
      {
        size_t m = (size_t) (end - eq);

        while (m > 0 && (eq[m - 1] == ' ' || eq[m - 1] == '\t'))
          m--;
        if (!parse_number_text (eq, m, &d) || d < 1 || d != floor (d) || d > 9.007199254740992e15)
          {
            _ws_kf_error (kf, ln->line, _ws_kf_col (ln, eq), "size: the default of %s must be "
                          "a whole number of at least 1, such as 1000000 or 1e6",
                          kf->size_names[kf->n_sizes]);
            /* The name is kept, so that the expressions that use it are not wrong too. */
            d = 1;
          }
      }
      kf->size_defaults[kf->n_sizes++] = (uint64_t) d;
      if (*end != ',')
        return;
      p = end + 1;
    }
}

static int
parse_type (const char *p, size_t n, WsKfType *type)
{
  static const struct
  {
    const char *name;
    WsKfType type;
  } types[] = {
    { "float", WS_KF_FLOAT }, { "double", WS_KF_DOUBLE }, { "int", WS_KF_INT32 },
    { "int32", WS_KF_INT32 }, { "uint", WS_KF_UINT32 }, { "uint32", WS_KF_UINT32 },
    { "unsigned", WS_KF_UINT32 }, { "int64", WS_KF_INT64 }, { "uint64", WS_KF_UINT64 },
    { "size_t", WS_KF_UINT64 },
  };

  for (size_t i = 0; i < sizeof types / sizeof *types; i++)
    if (strlen (types[i].name) == n && strncmp (types[i].name, p, n) == 0)
      {
        *type = types[i].type;
        return 1;
      }
  return 0;
}

static const char type_list[] = "float, double, int, uint, int64, uint64";

/* random, random(lo, hi), zeros, ones, iota, constant(v). */
static void
parse_init (Line *ln, WsKfArg *a, const char *p)
{
  static const struct
  {
    const char *name;
    WsKfInit init;
    int args; /* 0 none, 2 optional pair, 1 one required */
  } inits[] = {
    { "random", WS_KF_INIT_RANDOM, 2 }, { "zeros", WS_KF_INIT_ZEROS, 0 },
    { "ones", WS_KF_INIT_ONES, 0 },     { "iota", WS_KF_INIT_IOTA, 0 },
    { "constant", WS_KF_INIT_CONSTANT, 1 },
  };
  size_t n = name_at (p);
  const char *q;

  for (size_t i = 0; n > 0 && i < sizeof inits / sizeof *inits; i++)
    if (strlen (inits[i].name) == n && strncmp (inits[i].name, p, n) == 0)
      {
        a->init = inits[i].init;
        q = _ws_kf_skip (p + n);
        if (*q == '(' && inits[i].args > 0)
          {
            const char *close = q + 1, *comma;
            int depth = 1;

            for (; *close && depth > 0; close++)
              depth += *close == '(' ? 1 : *close == ')' ? -1 : 0;
            if (depth != 0)
              {
                _ws_kf_error (ln->kf, ln->line, _ws_kf_col (ln, q), "arg %s: the '(' is never "
                              "closed", a->name);
                return;
              }
            comma = item_end (q + 1);
            if (inits[i].args == 2)
              {
                if (*comma != ',' || comma > close)
                  {
                    _ws_kf_error (ln->kf, ln->line, _ws_kf_col (ln, q), "arg %s: random takes "
                                  "a range, random(LOW, HIGH), such as random(0, 100)", a->name);
                    return;
                  }
                if (!take_expr (ln, &a->init_a, q + 1, (size_t) (comma - q - 1), "random")
                    || !take_expr (ln, &a->init_b, comma + 1, (size_t) (close - 1 - comma - 1),
                                   "random"))
                  return;
              }
            else if (!take_expr (ln, &a->init_a, q + 1, (size_t) (close - 1 - q - 1), "constant"))
              return;
            q = _ws_kf_skip (close);
          }
        else if (inits[i].args == 1)
          {
            _ws_kf_error (ln->kf, ln->line, _ws_kf_col (ln, q), "arg %s: constant needs its "
                          "value, constant(1.5)", a->name);
            return;
          }
        if (*q != '\0')
          _ws_kf_error (ln->kf, ln->line, _ws_kf_col (ln, q), "arg %s: unexpected '%s' after "
                        "the initial contents", a->name, q);
        return;
      }
  _ws_kf_error (ln->kf, ln->line, _ws_kf_col (ln, p), "arg %s: expected the initial contents: "
                "random, random(LOW, HIGH), zeros, ones, iota or constant(VALUE)", a->name);
}

/* TYPE[LENGTH] ROLE [INIT] for a buffer, TYPE = VALUE for a scalar. */
static void
parse_arg (Line *ln, const char *name, size_t name_len, const char *v)
{
  WsKernelFile *kf = ln->kf;
  WsKfArg *a;
  const char *p = v;
  size_t n;

  if (kf->n_args == WS_KF_MAX_ARGS)
    {
      _ws_kf_error (kf, ln->line, ln->key_col, "at most %d arguments", WS_KF_MAX_ARGS);
      return;
    }
  a = &kf->args[kf->n_args++];
  memset (a, 0, sizeof *a);
  memcpy (a->name, name, name_len);
  a->line = ln->line;
  n = name_at (p);
  if (n == 0 || !parse_type (p, n, &a->type))
    {
      _ws_kf_error (kf, ln->line, _ws_kf_col (ln, p), "arg %s: expected a type (%s), then "
                    "[LENGTH] for a buffer or = VALUE for a scalar: float[n] in, int = n",
                    a->name, type_list);
      return;
    }
  p = _ws_kf_skip (p + n);
  if (*p == '=')
    {
      take_expr (ln, &a->value, p + 1, strlen (p + 1), a->name);
      return;
    }
  if (*p != '[')
    {
      _ws_kf_error (kf, ln->line, _ws_kf_col (ln, p), "arg %s: after the type comes [LENGTH] "
                    "for a buffer (float[n] in) or = VALUE for a scalar (int = n)", a->name);
      return;
    }
  a->is_buffer = 1;
  {
    const char *close = p + 1;
    int depth = 1;

    for (; *close; close++)
      {
        depth += *close == '[' ? 1 : *close == ']' ? -1 : 0;
        if (depth == 0)
          break;
      }
    if (*close != ']')
      {
        _ws_kf_error (kf, ln->line, _ws_kf_col (ln, p), "arg %s: the '[' is never closed with "
                      "']'", a->name);
        return;
      }
    if (!take_expr (ln, &a->length, p + 1, (size_t) (close - p - 1), a->name))
      return;
    p = _ws_kf_skip (close + 1);
  }
  n = name_at (p);
  if (n == 2 && strncmp (p, "in", 2) == 0)
    a->role = WS_KF_IN;
  else if (n == 3 && strncmp (p, "out", 3) == 0)
    a->role = WS_KF_OUT;
  else if (n == 5 && strncmp (p, "inout", 5) == 0)
    a->role = WS_KF_INOUT;
  else
    {
      _ws_kf_error (kf, ln->line, _ws_kf_col (ln, p), "arg %s: expected its role after the "
                    "length: in (read), out (written) or inout (both)", a->name);
      return;
    }
  p = _ws_kf_skip (p + n);
  a->init = a->role == WS_KF_OUT ? WS_KF_INIT_NONE : WS_KF_INIT_RANDOM;
  if (*p == '\0')
    return;
  if (a->role == WS_KF_OUT)
    {
      _ws_kf_error (kf, ln->line, _ws_kf_col (ln, p), "arg %s: an out buffer starts poisoned "
                    "(NaN), so that what the kernel never writes shows; write inout to give it "
                    "initial contents", a->name);
      return;
    }
  parse_init (ln, a, p);
}

/* 256, 16x16, 8x8x4. */
static int
parse_block_dims (Line *ln, const char *p, int *rank, unsigned dims[3], const char *key)
{
  *rank = 0;
  dims[0] = dims[1] = dims[2] = 1;
  for (;;)
    {
      unsigned long v = 0;
      const char *start;

      p = _ws_kf_skip (p);
      start = p;
      while (isdigit ((unsigned char) *p) && v <= 1024)
        v = v * 10 + (unsigned long) (*p++ - '0');
      if (p == start || v == 0 || v > 1024 || *rank == 3)
        {
          _ws_kf_error (ln->kf, ln->line, _ws_kf_col (ln, start), "%s: expected the block as "
                        "1 to 3 whole numbers from 1 to 1024 joined by x: 256, 16x16, 8x8x4",
                        key);
          return 0;
        }
      dims[(*rank)++] = (unsigned) v;
      p = _ws_kf_skip (p);
      if (*p == 'x' || *p == 'X')
        {
          p++;
          continue;
        }
      if (*p != '\0')
        {
          _ws_kf_error (ln->kf, ln->line, _ws_kf_col (ln, p), "%s: unexpected '%s' after the "
                        "block", key, p);
          return 0;
        }
      break;
    }
  if ((unsigned long) dims[0] * dims[1] * dims[2] > 1024 || dims[2] > 64)
    {
      _ws_kf_error (ln->kf, ln->line, ln->value_col, "%s: a block has at most 1024 threads "
                    "and a z of at most 64, not %u×%u×%u", key, dims[0], dims[1], dims[2]);
      return 0;
    }
  return 1;
}

static void
parse_grid (Line *ln, const char *v)
{
  WsKernelFile *kf = ln->kf;
  const char *p = v;

  kf->n_grid = 0;
  for (;;)
    {
      const char *end = item_end (p);

      if (kf->n_grid == 3)
        {
          _ws_kf_error (kf, ln->line, _ws_kf_col (ln, _ws_kf_skip (p)),
                        "grid: at most three formulas (x, y, z)");
          return;
        }
      if (!take_expr (ln, &kf->grid[kf->n_grid], p, (size_t) (end - p), "grid"))
        return;
      kf->n_grid++;
      if (*end != ',')
        return;
      p = end + 1;
    }
}

static void
parse_param (Line *ln, const char *name, size_t name_len, const char *v)
{
  WsKernelFile *kf = ln->kf;
  WsKfParam *pm;
  const char *p = v;

  if (kf->n_params == WS_KF_MAX_PARAMS)
    {
      _ws_kf_error (kf, ln->line, ln->key_col, "at most %d tunable parameters", WS_KF_MAX_PARAMS);
      return;
    }
  pm = &kf->params[kf->n_params++];
  memset (pm, 0, sizeof *pm);
  memcpy (pm->name, name, name_len);
  pm->line = ln->line;
  for (;;)
    {
      const char *end = item_end (p), *q = _ws_kf_skip (p);
      size_t n = (size_t) (end - q);

      while (n > 0 && (q[n - 1] == ' ' || q[n - 1] == '\t'))
        n--;
      if (pm->n_values == WS_KF_MAX_VALUES)
        {
          _ws_kf_error (kf, ln->line, _ws_kf_col (ln, q), "param %s: at most %d values",
                        pm->name, WS_KF_MAX_VALUES);
          return;
        }
      if (n >= sizeof pm->texts[0] || !parse_number_text (q, n, &pm->values[pm->n_values]))
        {
          _ws_kf_error (kf, ln->line, _ws_kf_col (ln, q), "param %s: expected numbers separated "
                        "by commas, such as 8, 16, 32 (the first is the default)", pm->name);
          return;
        }
      memcpy (pm->texts[pm->n_values], q, n);
      pm->texts[pm->n_values][n] = '\0';
      for (int i = 0; i < pm->n_values; i++)
        if (pm->values[i] == pm->values[pm->n_values])
          {
            _ws_kf_error (kf, ln->line, _ws_kf_col (ln, q), "param %s: %s is listed twice",
                          pm->name, pm->texts[pm->n_values]);
            return;
          }
      pm->n_values++;
      if (*end != ',')
        return;
      p = end + 1;
    }
}

/* reference NAME [block B], builtin NAME, none. */
static void
parse_verify (Line *ln, const char *v)
{
  WsKernelFile *kf = ln->kf;
  size_t n = name_at (v);
  const char *p = _ws_kf_skip (v + n);

  kf->verify_line = ln->line;
  if (n == 4 && strncmp (v, "none", 4) == 0 && *p == '\0')
    {
      kf->verify = WS_KF_VERIFY_NONE;
      return;
    }
  if ((n == 9 && strncmp (v, "reference", 9) == 0) || (n == 7 && strncmp (v, "builtin", 7) == 0))
    {
      const char *name = p, *after;
      size_t m;
      char buf[128];

      kf->verify = v[0] == 'r' ? WS_KF_VERIFY_REFERENCE : WS_KF_VERIFY_BUILTIN;
      /* The name runs to " block " or the end. */
      after = strstr (name, " block ");
      m = after ? (size_t) (after - name) : strlen (name);
      if (!_ws_kf_copy (buf, sizeof buf, name, m))
        buf[0] = '\0';
      {
        Line sub = *ln;

        sub.value_col = _ws_kf_col (ln, name);
        if (!parse_kernel_name (&sub, kf->verify_kernel, sizeof kf->verify_kernel, buf,
                                kf->verify == WS_KF_VERIFY_REFERENCE ? "verify: reference"
                                                                    : "verify: builtin"))
          return;
      }
      if (after != NULL)
        {
          if (kf->verify == WS_KF_VERIFY_BUILTIN)
            {
              _ws_kf_error (kf, ln->line, _ws_kf_col (ln, after + 1), "verify: a built-in "
                            "kernel runs at its own default block; leave 'block' out");
              return;
            }
          parse_block_dims (ln, after + 7, &kf->verify_block_rank, kf->verify_block,
                            "verify: reference … block");
        }
      return;
    }
  _ws_kf_error (kf, ln->line, ln->value_col, "verify: expected reference NAME (a kernel of "
                "this file, run at a fixed configuration), builtin NAME (a kernel of "
                "warpscope-runner --list) or none (runs are marked unverified)");
}

/* rtol 1e-5, atol 1e-8 (or rtol=1e-5 atol=1e-8), or exact; each a number or a formula of
 * the size names, such as atol 1e-4 * max(1, k / 512). */
static void
parse_tolerance (Line *ln, const char *v)
{
  WsKernelFile *kf = ln->kf;
  const char *p = v;
  int got = 0;

  kf->tolerance_given = 1;
  if (strcmp (v, "exact") == 0)
    {
      kf->rtol = kf->atol = 0;
      return;
    }
  for (;;)
    {
      const char *end = item_end (p), *num;
      size_t n;
      WsKfExpr *e;
      double d;

      p = _ws_kf_skip (p);
      n = name_at (p);
      if (!((n == 4 && strncmp (p, "rtol", 4) == 0) || (n == 4 && strncmp (p, "atol", 4) == 0)))
        {
          _ws_kf_error (kf, ln->line, _ws_kf_col (ln, p), "tolerance: expected rtol VALUE, atol "
                        "VALUE (pass when |out - ref| <= atol + rtol·|ref|), or exact");
          return;
        }
      num = _ws_kf_skip (p + 4);
      if (*num == '=')
        num = _ws_kf_skip (num + 1);
      e = p[0] == 'r' ? &kf->rtol_expr : &kf->atol_expr;
      if (!take_expr (ln, e, num, (size_t) (end - num), p[0] == 'r' ? "tolerance rtol"
                                                                  : "tolerance atol"))
        return;
      /* A plain number is kept as one; a formula is evaluated at each run's size. */
      if (parse_number_text (e->text, strlen (e->text), &d))
        {
          if (d < 0)
            {
              _ws_kf_error (kf, ln->line, e->column, "tolerance: %.4s must be 0 or more", p);
              return;
            }
          *(p[0] == 'r' ? &kf->rtol : &kf->atol) = d;
          e->text[0] = '\0';
        }
      got++;
      if (*end != ',')
        break;
      p = end + 1;
    }
  if (got == 0)
    _ws_kf_error (kf, ln->line, ln->value_col, "tolerance: expected rtol VALUE and atol VALUE, "
                  "or exact");
}

static void
parse_options (Line *ln, const char *v)
{
  WsKernelFile *kf = ln->kf;
  const char *p = v;

  while (*(p = _ws_kf_skip (p)) != '\0')
    {
      size_t n = strcspn (p, " \t");

      if (p[0] != '-' || n >= sizeof kf->options[0])
        {
          _ws_kf_error (kf, ln->line, _ws_kf_col (ln, p), "options: NVRTC options start with "
                        "'-', such as --use_fast_math or -maxrregcount=64");
          return;
        }
      if ((n >= 5 && strncmp (p, "-arch", 5) == 0) || strncmp (p, "--gpu-architecture", 18) == 0
          || strncmp (p, "-Dblock_size_", 13) == 0)
        {
          _ws_kf_error (kf, ln->line, _ws_kf_col (ln, p), "options: %.*s is set by the runner "
                        "(the GPU's architecture; block_size_x/y/z from the block)", (int) n, p);
          return;
        }
      if (kf->n_options == WS_KF_MAX_OPTIONS)
        {
          _ws_kf_error (kf, ln->line, _ws_kf_col (ln, p), "options: at most %d", WS_KF_MAX_OPTIONS);
          return;
        }
      memcpy (kf->options[kf->n_options], p, n);
      kf->options[kf->n_options++][n] = '\0';
      p += n;
    }
}

/* ---- one line of the header -------------------------------------------------------------- */

static const char key_list[]
  = "kernel, title, description, size, arg NAME, block, grid, param NAME, restrict, verify, "
    "tolerance, flops, bytes, options";

static void
parse_line (Line *ln, const char *text)
{
  WsKernelFile *kf = ln->kf;
  const char *p = text, *colon, *v;
  size_t n = name_at (p), n2 = 0;
  const char *name2 = NULL;
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
      n2 = name_at (name2);
      if (n2 == 0 || n2 >= WS_KF_MAX_NAME)
        {
          _ws_kf_error (kf, ln->line, _ws_kf_col (ln, name2), "%s: expected its name, as in %s",
                        key, key[0] == 'a' ? "arg a: float[n] in" : "param TILE: 8, 16, 32");
          return;
        }
      colon = _ws_kf_skip (name2 + n2);
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
      parse_kernel_name (ln, kf->kernel, sizeof kf->kernel, v, "kernel");
    }
  else if (strcmp (key, "title") == 0 || strcmp (key, "description") == 0)
    {
      char *dst = key[0] == 't' ? kf->title : kf->description;
      size_t cap = key[0] == 't' ? sizeof kf->title : sizeof kf->description;

      if (!_ws_kf_copy (dst, cap, v, strlen (v)))
        _ws_kf_error (kf, ln->line, ln->value_col, "%s: at most %zu characters", key, cap - 1);
    }
  else if (strcmp (key, "size") == 0)
    parse_size (ln, v);
  else if (strcmp (key, "arg") == 0)
    parse_arg (ln, name2, n2, v);
  else if (strcmp (key, "param") == 0)
    parse_param (ln, name2, n2, v);
  else if (strcmp (key, "block") == 0)
    parse_block_dims (ln, v, &kf->block_rank, kf->block, "block");
  else if (strcmp (key, "grid") == 0)
    parse_grid (ln, v);
  else if (strcmp (key, "restrict") == 0)
    {
      if (kf->n_restricts == WS_KF_MAX_RESTRICTS)
        _ws_kf_error (kf, ln->line, ln->key_col, "at most %d restrict lines",
                      WS_KF_MAX_RESTRICTS);
      else if (take_expr (ln, &kf->restricts[kf->n_restricts], v, strlen (v), "restrict"))
        kf->n_restricts++;
    }
  else if (strcmp (key, "verify") == 0)
    parse_verify (ln, v);
  else if (strcmp (key, "tolerance") == 0)
    parse_tolerance (ln, v);
  else if (strcmp (key, "flops") == 0)
    take_expr (ln, &kf->flops, v, strlen (v), "flops");
  else if (strcmp (key, "bytes") == 0)
    take_expr (ln, &kf->bytes, v, strlen (v), "bytes");
  else if (strcmp (key, "options") == 0)
    parse_options (ln, v);
  else
    _ws_kf_error (kf, ln->line, ln->key_col, "unknown key '%.*s'; the keys are %s",
                  (int) (n < 40 ? n : 40), p, key_list);
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

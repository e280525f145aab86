/* ws-kernel-file-keys.c: reading the value of each key of a kernel file's header: the size,
 * an argument, the block and the grid, a tunable parameter, the verification, the tolerance
 * and NVRTC's options.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-kernel-file-private.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int
is_ident (int c)
{
  return isalnum (c) || c == '_';
}

/* ---- the keys ---------------------------------------------------------------------------- */

int
_ws_kf_kernel_name (Line *ln, char *dst, size_t cap, const char *v, const char *key)
{
  size_t n = strlen (v);

  if (n == 0 || _ws_kf_name_at (v) == 0)
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

void
_ws_kf_size (Line *ln, const char *v)
{
  WsKernelFile *kf = ln->kf;
  const char *p = v;

  kf->n_sizes = 0;
  for (;;)
    {
      const char *end = _ws_kf_item_end (p), *eq;
      size_t n;
      double d;

      p = _ws_kf_skip (p);
      n = _ws_kf_name_at (p);
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
        if (!_ws_kf_number (eq, m, &d) || d < 1 || d != floor (d) || d > 9.007199254740992e15)
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
  size_t n = _ws_kf_name_at (p);
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
            comma = _ws_kf_item_end (q + 1);
            if (inits[i].args == 2)
              {
                if (*comma != ',' || comma > close)
                  {
                    _ws_kf_error (ln->kf, ln->line, _ws_kf_col (ln, q), "arg %s: random takes "
                                  "a range, random(LOW, HIGH), such as random(0, 100)", a->name);
                    return;
                  }
                if (!_ws_kf_take_expr (ln, &a->init_a, q + 1, (size_t) (comma - q - 1), "random")
                    || !_ws_kf_take_expr (ln, &a->init_b, comma + 1, (size_t) (close - 1 - comma - 1),
                                   "random"))
                  return;
              }
            else if (!_ws_kf_take_expr (ln, &a->init_a, q + 1, (size_t) (close - 1 - q - 1), "constant"))
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
void
_ws_kf_arg (Line *ln, const char *name, size_t name_len, const char *v)
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
  n = _ws_kf_name_at (p);
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
      _ws_kf_take_expr (ln, &a->value, p + 1, strlen (p + 1), a->name);
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
    if (!_ws_kf_take_expr (ln, &a->length, p + 1, (size_t) (close - p - 1), a->name))
      return;
    p = _ws_kf_skip (close + 1);
  }
  n = _ws_kf_name_at (p);
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
int
_ws_kf_block_dims (Line *ln, const char *p, int *rank, unsigned dims[3], const char *key)
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

void
_ws_kf_grid (Line *ln, const char *v)
{
  WsKernelFile *kf = ln->kf;
  const char *p = v;

  kf->n_grid = 0;
  for (;;)
    {
      const char *end = _ws_kf_item_end (p);

      if (kf->n_grid == 3)
        {
          _ws_kf_error (kf, ln->line, _ws_kf_col (ln, _ws_kf_skip (p)),
                        "grid: at most three formulas (x, y, z)");
          return;
        }
      if (!_ws_kf_take_expr (ln, &kf->grid[kf->n_grid], p, (size_t) (end - p), "grid"))
        return;
      kf->n_grid++;
      if (*end != ',')
        return;
      p = end + 1;
    }
}

void
_ws_kf_param (Line *ln, const char *name, size_t name_len, const char *v)
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
      const char *end = _ws_kf_item_end (p), *q = _ws_kf_skip (p);
      size_t n = (size_t) (end - q);

      while (n > 0 && (q[n - 1] == ' ' || q[n - 1] == '\t'))
        n--;
      if (pm->n_values == WS_KF_MAX_VALUES)
        {
          _ws_kf_error (kf, ln->line, _ws_kf_col (ln, q), "param %s: at most %d values",
                        pm->name, WS_KF_MAX_VALUES);
          return;
        }
      if (n >= sizeof pm->texts[0] || !_ws_kf_number (q, n, &pm->values[pm->n_values]))
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
void
_ws_kf_verify (Line *ln, const char *v)
{
  WsKernelFile *kf = ln->kf;
  size_t n = _ws_kf_name_at (v);
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
        if (!_ws_kf_kernel_name (&sub, kf->verify_kernel, sizeof kf->verify_kernel, buf,
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
          _ws_kf_block_dims (ln, after + 7, &kf->verify_block_rank, kf->verify_block,
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
void
_ws_kf_tolerance (Line *ln, const char *v)
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
      const char *end = _ws_kf_item_end (p), *num;
      size_t n;
      WsKfExpr *e;
      double d;

      p = _ws_kf_skip (p);
      n = _ws_kf_name_at (p);
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
      if (!_ws_kf_take_expr (ln, e, num, (size_t) (end - num), p[0] == 'r' ? "tolerance rtol"
                                                                  : "tolerance atol"))
        return;
      /* A plain number is kept as one; a formula is evaluated at each run's size. */
      if (_ws_kf_number (e->text, strlen (e->text), &d))
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

void
_ws_kf_options (Line *ln, const char *v)
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


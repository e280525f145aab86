/* ws-kernel-file-check.c: the checks of a header that need all of it (what is required,
 * names that clash, expressions that use names they cannot), and evaluating its expressions
 * at one configuration.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-kernel-file-private.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What an expression may use. */
enum
{
  USE_SIZES = 1 << 0,
  USE_BLOCK = 1 << 1,
  USE_PARAMS = 1 << 2,
  USE_ALL = USE_SIZES | USE_BLOCK | USE_PARAMS,
};

int
_ws_kf_once (Line *ln, const char *key)
{
  static const struct
  {
    const char *key;
    size_t offset;
  } keys[] = {
    { "kernel", offsetof (Seen, kernel) },         { "title", offsetof (Seen, title) },
    { "description", offsetof (Seen, description) }, { "size", offsetof (Seen, size) },
    { "block", offsetof (Seen, block) },           { "grid", offsetof (Seen, grid) },
    { "verify", offsetof (Seen, verify) },         { "tolerance", offsetof (Seen, tolerance) },
    { "flops", offsetof (Seen, flops) },           { "bytes", offsetof (Seen, bytes) },
    { "options", offsetof (Seen, options) },
  };

  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
    if (strcmp (keys[i].key, key) == 0)
      {
        int *seen = (int *) ((char *) ln->seen + keys[i].offset);

        if (*seen != 0)
          {
            _ws_kf_error (ln->kf, ln->line, ln->key_col, "%s is given twice (first on line %d)",
                          key, *seen);
            return 0;
          }
        *seen = ln->line;
        return 1;
      }
  return 1;
}

/* ---- evaluation ------------------------------------------------------------------------ */

typedef struct
{
  const WsKernelFile *kf;
  const WsKfConfig *cfg;
  unsigned use;
  unsigned refused; /* a known name that this expression may not use */
} Env;

static int
lookup (const char *name, size_t len, WsExprValue *v, void *data)
{
  Env *env = data;
  const WsKernelFile *kf = env->kf;

  memset (v, 0, sizeof *v);
  for (int i = 0; i < kf->n_sizes; i++)
    if (strlen (kf->size_names[i]) == len && strncmp (kf->size_names[i], name, len) == 0)
      {
        if (!(env->use & USE_SIZES))
          return env->refused |= USE_SIZES, 0;
        v->i = (int64_t) env->cfg->size[i];
        v->d = (double) v->i;
        return 1;
      }
  if (len == 7 && strncmp (name, "block.", 6) == 0)
    {
      if (!(env->use & USE_BLOCK))
        return env->refused |= USE_BLOCK, 0;
      v->i = env->cfg->block[name[6] - 'x'];
      v->d = (double) v->i;
      return 1;
    }
  {
    int p = ws_kernel_file_find_param (kf, name, len);

    if (p >= 0)
      {
        double d = env->cfg->params[p];

        if (!(env->use & USE_PARAMS))
          return env->refused |= USE_PARAMS, 0;
        if (d == floor (d) && fabs (d) < 9e18)
          v->i = (int64_t) d, v->d = d;
        else
          v->real = 1, v->d = d;
        return 1;
      }
  }
  return 0;
}

/* "n, block.x, block.y, block.z, TILE": the names `use` allows. */
static void
names_of (const WsKernelFile *kf, unsigned use, char *buf, size_t len)
{
  size_t o = 0;

  buf[0] = '\0';
  for (int i = 0; i < kf->n_sizes && (use & USE_SIZES); i++)
    o += (size_t) snprintf (buf + o, o < len ? len - o : 0, "%s%s", o ? ", " : "",
                            kf->size_names[i]);
  if (use & USE_BLOCK)
    o += (size_t) snprintf (buf + o, o < len ? len - o : 0, "%sblock.x, block.y, block.z",
                            o ? ", " : "");
  for (int i = 0; i < kf->n_params && (use & USE_PARAMS); i++)
    o += (size_t) snprintf (buf + o, o < len ? len - o : 0, "%s%s", o ? ", " : "",
                            kf->params[i].name);
}

static void
describe_config (const WsKernelFile *kf, const WsKfConfig *cfg, char *buf, size_t len)
{
  size_t o = 0;

  buf[0] = '\0';
  for (int i = 0; i < kf->n_sizes; i++)
    o += (size_t) snprintf (buf + o, o < len ? len - o : 0, "%s%s = %llu", o ? ", " : "",
                            kf->size_names[i], (unsigned long long) cfg->size[i]);
  o += (size_t) snprintf (buf + o, o < len ? len - o : 0, "%sblock %u×%u×%u", o ? ", " : "",
                          cfg->block[0],
                          cfg->block[1], cfg->block[2]);
  for (int i = 0; i < kf->n_params; i++)
    o += (size_t) snprintf (buf + o, o < len ? len - o : 0, ", %s = %g", kf->params[i].name,
                            cfg->params[i]);
}

/* Evaluates with the names `use` allows; the message says which names there are. */
static int
eval_use (const WsKernelFile *kf, const WsKfExpr *e, unsigned use, const WsKfConfig *cfg,
          int check_only, WsExprValue *out, WsExprError *err)
{
  Env env = { kf, cfg, use, 0 };
  char names[512];

  if (ws_expr_eval (e->text, lookup, &env, check_only, out, err))
    return 1;
  if (err->unknown_name)
    {
      const char *name = e->text + err->pos;
      size_t n = strspn (name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.");

      names_of (kf, use, names, sizeof names);
      if (n > 64)
        n = 64;
      if (env.refused)
        snprintf (err->message, sizeof err->message, "'%.*s' cannot be used here; here the "
                  "names are %s", (int) n, name, names);
      else
        snprintf (err->message, sizeof err->message, "unknown name '%.*s'; here the names are "
                  "%s", (int) n, name, names[0] ? names : "none");
    }
  return 0;
}

void
ws_kernel_file_default_config (const WsKernelFile *kf, WsKfConfig *cfg)
{
  memset (cfg, 0, sizeof *cfg);
  for (int i = 0; i < WS_KF_MAX_SIZES; i++)
    cfg->size[i] = i < kf->n_sizes ? kf->size_defaults[i] : 1;
  memcpy (cfg->block, kf->block, sizeof cfg->block);
  for (int i = 0; i < kf->n_params; i++)
    cfg->params[i] = kf->params[i].values[0];
}

static int
eval_at (const WsKernelFile *kf, const WsKfExpr *e, unsigned use, const char *what,
         const WsKfConfig *cfg, WsExprValue *out, char *msg, size_t len)
{
  WsExprError err;
  char where[256];

  if (eval_use (kf, e, use, cfg, 0, out, &err))
    return 1;
  describe_config (kf, cfg, where, sizeof where);
  snprintf (msg, len, "line %d, column %d (%s): %s, at %s", e->line,
            e->column + (int) err.pos, what, err.message, where);
  return 0;
}

int
ws_kernel_file_eval (const WsKernelFile *kf, const WsKfExpr *e, const char *what,
                     const WsKfConfig *cfg, WsExprValue *out, char *err, size_t len)
{
  return eval_at (kf, e, USE_ALL, what, cfg, out, err, len);
}

int
ws_kernel_file_grid (const WsKernelFile *kf, const WsKfConfig *cfg, uint64_t grid[3],
                     char *err, size_t len)
{
  grid[0] = grid[1] = grid[2] = 1;
  if (kf->n_grid == 0)
    {
      /* One thread per element: n along x; for two or three names, the first two as rows
       * (y) and columns (x), as for a matrix or the m×n output of a product. */
      int xi = kf->n_sizes >= 2 ? 1 : 0;

      grid[0] = (cfg->size[xi] + cfg->block[0] - 1) / cfg->block[0];
      if (kf->n_sizes >= 2)
        grid[1] = (cfg->size[0] + cfg->block[1] - 1) / cfg->block[1];
      return 1;
    }
  for (int i = 0; i < kf->n_grid; i++)
    {
      WsExprValue v;
      int64_t g;

      if (!eval_at (kf, &kf->grid[i], USE_ALL, "grid", cfg, &v, err, len))
        return 0;
      if (!ws_expr_whole (v, &g) || g < 1 || g > 0xffffffffll)
        {
          char where[256];

          describe_config (kf, cfg, where, sizeof where);
          snprintf (err, len, "line %d (grid): grid.%c is %g at %s; a grid needs a whole "
                    "number of blocks from 1 up", kf->grid[i].line, "xyz"[i], ws_expr_double (v),
                    where);
          return 0;
        }
      grid[i] = (uint64_t) g;
    }
  return 1;
}

int
ws_kernel_file_length (const WsKernelFile *kf, int arg, const WsKfConfig *cfg,
                       uint64_t *elements, char *err, size_t len)
{
  const WsKfArg *a = &kf->args[arg];
  WsExprValue v;
  int64_t n;

  if (!eval_at (kf, &a->length, USE_SIZES, a->name, cfg, &v, err, len))
    return 0;
  if (!ws_expr_whole (v, &n) || n < 0 || (uint64_t) n > (UINT64_C (1) << 50))
    {
      char where[256];

      describe_config (kf, cfg, where, sizeof where);
      snprintf (err, len, "line %d (arg %s): the buffer's length is %g at %s; it must be a "
                "whole number from 0 to 2^50", a->line, a->name, ws_expr_double (v), where);
      return 0;
    }
  *elements = (uint64_t) n;
  return 1;
}

int
ws_kernel_file_allowed (const WsKernelFile *kf, const WsKfConfig *cfg, int *which, char *err,
                        size_t len)
{
  for (int i = 0; i < kf->n_restricts; i++)
    {
      WsExprValue v;

      if (!eval_at (kf, &kf->restricts[i], USE_ALL, "restrict", cfg, &v, err, len))
        {
          *which = i;
          return -1;
        }
      if (ws_expr_double (v) == 0)
        {
          *which = i;
          return 0;
        }
    }
  return 1;
}

double
ws_kernel_file_flops (const WsKernelFile *kf, const WsKfConfig *cfg)
{
  WsExprValue v;
  char err[8];

  if (kf->flops.text[0] == '\0' || !eval_at (kf, &kf->flops, USE_SIZES, "flops", cfg, &v, err,
                                             sizeof err))
    return 0;
  return ws_expr_double (v) > 0 ? ws_expr_double (v) : 0;
}

double
ws_kernel_file_bytes (const WsKernelFile *kf, const WsKfConfig *cfg)
{
  WsExprValue v;
  char err[8];
  double bytes = 0;

  if (kf->bytes.text[0] != '\0')
    return eval_at (kf, &kf->bytes, USE_SIZES, "bytes", cfg, &v, err, sizeof err)
               && ws_expr_double (v) > 0
             ? ws_expr_double (v)
             : 0;
  for (int i = 0; i < kf->n_args; i++)
    {
      uint64_t n;

      if (kf->args[i].is_buffer && ws_kernel_file_length (kf, i, cfg, &n, err, sizeof err))
        bytes += (double) n * (double) ws_kernel_file_type_size (kf->args[i].type)
                 * (kf->args[i].role == WS_KF_INOUT ? 2 : 1);
    }
  return bytes;
}

void
ws_kernel_file_tolerance (const WsKernelFile *kf, const WsKfConfig *cfg, double *rtol,
                          double *atol)
{
  WsExprValue v;
  char err[8];

  *rtol = kf->rtol;
  *atol = kf->atol;
  if (kf->rtol_expr.text[0]
      && eval_at (kf, &kf->rtol_expr, USE_SIZES, "tolerance", cfg, &v, err, sizeof err))
    *rtol = ws_expr_double (v) > 0 ? ws_expr_double (v) : 0;
  if (kf->atol_expr.text[0]
      && eval_at (kf, &kf->atol_expr, USE_SIZES, "tolerance", cfg, &v, err, sizeof err))
    *atol = ws_expr_double (v) > 0 ? ws_expr_double (v) : 0;
}

int
ws_kernel_file_find_param (const WsKernelFile *kf, const char *name, size_t len)
{
  for (int i = 0; i < kf->n_params; i++)
    if (strlen (kf->params[i].name) == len && strncmp (kf->params[i].name, name, len) == 0)
      return i;
  return -1;
}

int
ws_kernel_file_uses_block_macro (const char *text, size_t len, int dim)
{
  static const char *const names[] = { "block_size_x", "block_size_y", "block_size_z" };
  const size_t n = 12;

  for (size_t i = 0; i + n <= len; i++)
    if (memcmp (text + i, names[dim], n) == 0
        && (i == 0 || !(text[i - 1] == '_' || (text[i - 1] >= '0' && text[i - 1] <= '9')
                        || ((text[i - 1] | 32) >= 'a' && (text[i - 1] | 32) <= 'z')))
        && (i + n == len || !(text[i + n] == '_' || (text[i + n] >= '0' && text[i + n] <= '9')
                              || ((text[i + n] | 32) >= 'a' && (text[i + n] | 32) <= 'z'))))
      return 1;
  return 0;
}

int
ws_kernel_file_scalar_fits (WsKfType type, WsExprValue v, int64_t *whole, char *why, size_t len)
{
  int64_t w = 0;
  int ok;

  *whole = 0;
  if (type == WS_KF_FLOAT || type == WS_KF_DOUBLE)
    return 1;
  if (!ws_expr_whole (v, &w))
    {
      snprintf (why, len, "%g is not a whole number, as a %s must be", ws_expr_double (v),
                ws_kernel_file_type_name (type));
      return 0;
    }
  switch (type)
    {
    case WS_KF_INT32: ok = w >= INT32_MIN && w <= INT32_MAX; break;
    case WS_KF_UINT32: ok = w >= 0 && w <= (int64_t) UINT32_MAX; break;
    case WS_KF_UINT64: ok = w >= 0; break;
    default: ok = 1; break;
    }
  if (!ok)
    {
      snprintf (why, len, "%lld does not fit in a%s %s; declare it int64 (and the kernel's "
                "parameter long long)", (long long) w, type == WS_KF_INT32 ? "n" : "",
                ws_kernel_file_type_name (type));
      return 0;
    }
  *whole = w;
  return 1;
}

size_t
ws_kernel_file_type_size (WsKfType type)
{
  return type == WS_KF_INT64 || type == WS_KF_UINT64 || type == WS_KF_DOUBLE ? 8 : 4;
}

const char *
ws_kernel_file_type_name (WsKfType type)
{
  static const char *const names[] = { "int32", "uint32", "int64", "uint64", "float", "double" };

  return (unsigned) type < 6 ? names[type] : "unknown";
}

const char *
ws_kernel_file_role_name (WsKfRole role)
{
  return role == WS_KF_IN ? "in" : role == WS_KF_OUT ? "out" : "inout";
}

const char *
ws_kernel_file_init_name (WsKfInit init)
{
  static const char *const names[] = { "none", "random", "zeros", "ones", "iota", "constant" };

  return (unsigned) init < 6 ? names[init] : "unknown";
}

const char *
ws_kernel_file_verify_name (WsKfVerify v)
{
  return v == WS_KF_VERIFY_REFERENCE ? "reference" : v == WS_KF_VERIFY_BUILTIN ? "builtin"
                                                                               : "none";
}

/* ---- checks of the whole header ------------------------------------------------------- */

static void
check_expr (WsKernelFile *kf, const WsKfExpr *e, unsigned use, int whole, const char *what)
{
  WsKfConfig cfg;
  WsExprValue v;
  WsExprError err;

  if (e->text[0] == '\0')
    return;
  ws_kernel_file_default_config (kf, &cfg);
  if (!eval_use (kf, e, use, &cfg, 1, &v, &err))
    _ws_kf_error (kf, e->line, e->column + (int) err.pos, "%s: %s", what, err.message);
  else if (whole && v.real)
    _ws_kf_error (kf, e->line, e->column, "%s: expected a whole number; this expression "
                  "gives a real one (write 1000, not 1000.0 or 1e3, in whole-number formulas)",
                  what);
}

/* A scalar's value at the header's defaults: what the first run would pass, refused here
 * with its line and column rather than when the run starts on the GPU. Other sizes are
 * checked by the runner before anything runs. */
static void
check_scalar (WsKernelFile *kf, const WsKfArg *a, const char *what)
{
  WsKfConfig cfg;
  WsExprValue v;
  WsExprError err;
  char where[256], why[192];
  int64_t whole;

  if (a->value.text[0] == '\0')
    return;
  ws_kernel_file_default_config (kf, &cfg);
  if (!eval_use (kf, &a->value, USE_ALL, &cfg, 1, &v, &err))
    return; /* check_expr has said why */
  describe_config (kf, &cfg, where, sizeof where);
  if (!eval_use (kf, &a->value, USE_ALL, &cfg, 0, &v, &err))
    _ws_kf_error (kf, a->value.line, a->value.column + (int) err.pos, "%s: %s, at the "
                  "header's defaults (%s)", what, err.message, where);
  else if (!ws_kernel_file_scalar_fits (a->type, v, &whole, why, sizeof why))
    _ws_kf_error (kf, a->value.line, a->value.column, "%s: %s, at the header's defaults (%s)",
                  what, why, where);
}

static int
reserved (const char *name)
{
  static const char *const words[] = { "block", "grid", "ceil_div", "min", "max",
                                       "block_size_x", "block_size_y", "block_size_z" };

  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (strcmp (words[i], name) == 0)
      return 1;
  return 0;
}

static void
check_names (WsKernelFile *kf)
{
  for (int i = 0; i < kf->n_sizes; i++)
    {
      if (reserved (kf->size_names[i]))
        _ws_kf_error (kf, kf->first_line, 1, "size: '%s' is a word of the header's "
                      "expressions; choose another name", kf->size_names[i]);
      for (int j = 0; j < i; j++)
        if (strcmp (kf->size_names[i], kf->size_names[j]) == 0)
          _ws_kf_error (kf, kf->first_line, 1, "size: '%s' is named twice", kf->size_names[i]);
    }
  for (int i = 0; i < kf->n_params; i++)
    {
      const WsKfParam *p = &kf->params[i];

      if (reserved (p->name))
        _ws_kf_error (kf, p->line, 1, "param %s: the runner defines %s itself; choose another "
                      "name", p->name, p->name);
      for (int j = 0; j < kf->n_sizes; j++)
        if (strcmp (p->name, kf->size_names[j]) == 0)
          _ws_kf_error (kf, p->line, 1, "param %s: a size has that name too", p->name);
      for (int j = 0; j < i; j++)
        if (strcmp (p->name, kf->params[j].name) == 0)
          _ws_kf_error (kf, p->line, 1, "param %s is declared twice (first on line %d)",
                        p->name, kf->params[j].line);
    }
  for (int i = 0; i < kf->n_args; i++)
    for (int j = 0; j < i; j++)
      if (strcmp (kf->args[i].name, kf->args[j].name) == 0)
        _ws_kf_error (kf, kf->args[i].line, 1, "arg %s is declared twice (first on line %d)",
                      kf->args[i].name, kf->args[j].line);
}

static int
compare_errors (const void *a, const void *b)
{
  const WsKfError *x = a, *y = b;

  return x->line != y->line ? (x->line > y->line) - (x->line < y->line)
                            : (x->column > y->column) - (x->column < y->column);
}

void
_ws_kf_check (WsKernelFile *kf, const char *text, size_t len)
{
  int outputs = 0;

  (void) text;
  (void) len;
  if (kf->kernel_line == 0)
    _ws_kf_error (kf, kf->first_line, 1, "the header does not say which kernel to run: add "
                  "kernel: NAME (its __global__ function)");
  if (kf->n_sizes == 0)
    _ws_kf_error (kf, kf->first_line, 1, "the header has no size: add size: n = 1000000 (the "
                  "problem size's name and default; --sizes changes it)");
  if (kf->n_args == 0)
    _ws_kf_error (kf, kf->first_line, 1, "the header lists no arguments: add one arg line for "
                  "each of the kernel's parameters, in order (arg a: float[n] in)");
  if (kf->verify_line == 0)
    _ws_kf_error (kf, kf->first_line, 1, "the header does not say how the result is checked: "
                  "add verify: reference NAME (a kernel of this file), verify: builtin NAME, "
                  "or verify: none");
  check_names (kf);
  for (int i = 0; i < kf->n_args; i++)
    {
      const WsKfArg *a = &kf->args[i];
      char what[WS_KF_MAX_NAME + 8];

      snprintf (what, sizeof what, "arg %s", a->name);
      if (a->is_buffer)
        {
          check_expr (kf, &a->length, USE_SIZES, 1, what);
          check_expr (kf, &a->init_a, USE_SIZES, 0, what);
          check_expr (kf, &a->init_b, USE_SIZES, 0, what);
          outputs += a->role != WS_KF_IN;
        }
      else
        {
          check_expr (kf, &a->value, USE_ALL, 0, what);
          check_scalar (kf, a, what);
        }
    }
  for (int i = 0; i < kf->n_grid; i++)
    check_expr (kf, &kf->grid[i], USE_ALL, 0, "grid");
  for (int i = 0; i < kf->n_restricts; i++)
    check_expr (kf, &kf->restricts[i], USE_ALL, 0, "restrict");
  check_expr (kf, &kf->rtol_expr, USE_SIZES, 0, "tolerance");
  check_expr (kf, &kf->atol_expr, USE_SIZES, 0, "tolerance");
  check_expr (kf, &kf->flops, USE_SIZES, 0, "flops");
  check_expr (kf, &kf->bytes, USE_SIZES, 0, "bytes");
  if (kf->verify_line != 0 && kf->verify != WS_KF_VERIFY_NONE && outputs == 0)
    _ws_kf_error (kf, kf->verify_line, 1, "verify: there is nothing to compare: no buffer is "
                  "out or inout");
  if (kf->verify == WS_KF_VERIFY_REFERENCE && kf->kernel[0] != '\0'
      && strcmp (kf->verify_kernel, kf->kernel) == 0)
    _ws_kf_error (kf, kf->verify_line, 1, "verify: the reference must be another kernel than "
                  "%s itself", kf->kernel);
  if (kf->n_errors > 1)
    qsort (kf->errors, (size_t) kf->n_errors, sizeof *kf->errors, compare_errors);
}

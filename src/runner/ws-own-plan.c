/* ws-own-plan.c: an own kernel from its file to its runs: reading and checking the header
 * and the --param values, the kernel and source records, the configurations (sizes × blocks
 * × the tunable parameters, less those the restrictions rule out), and each variant compiled
 * with NVRTC and loaded (ws-own-compile.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-own-kernel-private.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws-output.h"
#include "ws-sha256.h"

static int chosen[WS_KF_MAX_PARAMS][WS_KF_MAX_VALUES];
static int n_chosen[WS_KF_MAX_PARAMS];

/* ---- reading ----------------------------------------------------------------------------- */

static int
read_source (OwnKernel *k, const char *path)
{
  FILE *f = fopen (path, "rb");
  char message[1400];
  long size;

  snprintf (k->path, sizeof k->path, "%s", path);
  if (f == NULL)
    {
      snprintf (message, sizeof message, "cannot read the kernel file %s: %s", path,
                strerror (errno));
      ws_output_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_BAD_SOURCE, message, NULL);
      return 0;
    }
  if (fseek (f, 0, SEEK_END) != 0 || (size = ftell (f)) < 0 || fseek (f, 0, SEEK_SET) != 0)
    size = -1;
  if (size > WS_KF_MAX_SOURCE)
    {
      snprintf (message, sizeof message, "%s is %ld bytes; a kernel file is at most %d KiB "
                "(its text travels in the session)", path, size, WS_KF_MAX_SOURCE / 1024);
      ws_output_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_BAD_SOURCE, message, NULL);
      fclose (f);
      return 0;
    }
  /* A pipe or a special file says nothing of its size: read up to the limit and one more. */
  k->text = malloc (WS_KF_MAX_SOURCE + 2);
  if (k->text == NULL)
    {
      fclose (f);
      return 0;
    }
  k->len = fread (k->text, 1, WS_KF_MAX_SOURCE + 1, f);
  if (ferror (f) || k->len > WS_KF_MAX_SOURCE)
    {
      snprintf (message, sizeof message, ferror (f) ? "cannot read the kernel file %s"
                                                    : "%s is larger than %d KiB", path,
                WS_KF_MAX_SOURCE / 1024);
      ws_output_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_BAD_SOURCE, message, NULL);
      fclose (f);
      return 0;
    }
  fclose (f);
  k->text[k->len] = '\0';
  ws_sha256_of (k->text, k->len, k->hash);
  return 1;
}

static void
header_error (const OwnKernel *k, int line, int column, const char *message)
{
  ws_output_error_at (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_HEADER_ERROR, message, NULL, k->path,
                      line, column);
}

/* A built-in kernel to verify against must take the same inputs and give the same output. */
static int
check_builtin (OwnKernel *k)
{
  const WsKernelFile *kf = &k->kf;
  const WsKernelDesc *b = ws_catalog_find (kf->verify_kernel);
  char message[512];
  int floats = 1, inouts = 0;

  for (int i = 0; i < kf->n_args; i++)
    if (kf->args[i].is_buffer)
      {
        floats &= kf->args[i].type == WS_KF_FLOAT;
        inouts += kf->args[i].role == WS_KF_INOUT;
      }
  if (b == NULL || strcmp (kf->verify_kernel, "debug_fault") == 0)
    snprintf (message, sizeof message, "verify: there is no built-in kernel '%s' (warpscope-runner "
              "--list names them)", kf->verify_kernel);
  else if (b->library != NULL)
    snprintf (message, sizeof message, "verify: %s runs a library's kernels; name one of "
              "Warpscope's own kernels", b->name);
  else if (b->n_inputs != k->n_inputs || k->n_outputs != 1 || inouts > 0 || !floats
           || b->shape_rank != kf->n_sizes)
    snprintf (message, sizeof message, "verify: builtin %s takes %d float input%s and gives one "
              "float output over %d size name%s; this kernel has %d input%s, %d output%s%s and "
              "%d size name%s, so they cannot be compared", b->name, b->n_inputs,
              b->n_inputs == 1 ? "" : "s", b->shape_rank, b->shape_rank == 1 ? "" : "s",
              k->n_inputs, k->n_inputs == 1 ? "" : "s", k->n_outputs,
              k->n_outputs == 1 ? "" : "s", floats ? "" : " (not all float)", kf->n_sizes,
              kf->n_sizes == 1 ? "" : "s");
  else
    {
      k->builtin = b;
      return 1;
    }
  header_error (k, kf->verify_line, 1, message);
  return 0;
}

/* --param NAME=V[,V…]: each value one the header lists. */
static int
choose_params (OwnKernel *k, const WsOptions *o)
{
  const WsKernelFile *kf = &k->kf;
  char message[768];

  for (int p = 0; p < kf->n_params; p++)
    {
      chosen[p][0] = 0;
      n_chosen[p] = 1;
    }
  for (int i = 0; i < o->n_params; i++)
    {
      const char *arg = o->params[i], *eq = strchr (arg, '='), *v = eq + 1;
      int p = ws_kernel_file_find_param (kf, arg, (size_t) (eq - arg));
      const WsKfParam *pm = p >= 0 ? &kf->params[p] : NULL;

      if (pm == NULL)
        {
          size_t o2 = 0;
          char names[256] = "";

          for (int j = 0; j < kf->n_params; j++)
            o2 += (size_t) snprintf (names + o2, o2 < sizeof names ? sizeof names - o2 : 0,
                                     "%s%s", j ? ", " : "", kf->params[j].name);
          snprintf (message, sizeof message, "--param %.*s: the header declares no such "
                    "parameter; %s%s", (int) (eq - arg), arg,
                    kf->n_params ? "it declares " : "it declares none (add param NAME: 8, 16 "
                                                    "lines to the header)", names);
          ws_output_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_BAD_ARGUMENT, message, NULL);
          return 0;
        }
      n_chosen[p] = 0;
      for (;;)
        {
          const char *comma = strchr (v, ',');
          size_t n = comma ? (size_t) (comma - v) : strlen (v);
          char buf[32], *end;
          double d;
          int found = -1;

          snprintf (buf, sizeof buf, "%.*s", (int) (n < 31 ? n : 31), v);
          d = strtod (buf, &end);
          for (int j = 0; *end == '\0' && n > 0 && j < pm->n_values; j++)
            if (pm->values[j] == d)
              found = j;
          if (found < 0)
            {
              char list[400] = "";
              size_t o2 = 0;

              for (int j = 0; j < pm->n_values; j++)
                o2 += (size_t) snprintf (list + o2, o2 < sizeof list ? sizeof list - o2 : 0,
                                         "%s%s", j ? ", " : "", pm->texts[j]);
              snprintf (message, sizeof message, "--param %s=%.*s: '%s' is not one of the "
                        "values the header lists for %s on line %d (%s); add it there to try "
                        "it", pm->name, (int) (strlen (v) < 60 ? strlen (v) : 60), eq + 1, buf,
                        pm->name, pm->line, list);
              ws_output_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_BAD_ARGUMENT, message, NULL);
              return 0;
            }
          for (int j = 0; j < n_chosen[p]; j++)
            if (chosen[p][j] == found)
              found = -1;
          if (found >= 0)
            chosen[p][n_chosen[p]++] = found;
          if (comma == NULL)
            break;
          v = comma + 1;
        }
    }
  return 1;
}

/* Reads and parses the file; 0 after writing its errors. */
static int
load_file (const char *path)
{
  OwnKernel *k;

  ws_own_free ();
  k = _ws_own = calloc (1, sizeof *k);
  if (k == NULL)
    {
      ws_output_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_INTERNAL,
                       "Out of memory while reading the kernel file.", NULL);
      return 0;
    }
  if (!read_source (k, path))
    return 0;
  if (!ws_kernel_file_parse (k->text, k->len, &k->kf))
    {
      for (int i = 0; i < k->kf.n_errors; i++)
        header_error (k, k->kf.errors[i].line, k->kf.errors[i].column, k->kf.errors[i].message);
      if (k->kf.more_errors > 0)
        {
          char message[128];

          snprintf (message, sizeof message, "and %d more errors in the header", k->kf.more_errors);
          header_error (k, k->kf.errors[k->kf.n_errors - 1].line, 1, message);
        }
      return 0;
    }
  {
    /* Before NVRTC reads a byte of anything the kernel includes. */
    WsIncludeProblem problem;

    if (!_ws_own_check_includes (k->path, k->text, k->len, &problem))
      {
        ws_output_error_at (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_BAD_SOURCE, problem.message,
                            NULL, problem.file, problem.line, problem.column);
        return 0;
      }
  }
  _ws_own_fill_desc (k);
  return k->kf.verify != WS_KF_VERIFY_BUILTIN || check_builtin (k);
}

int
ws_own_load (WsOptions *opts)
{
  WsArgError err;

  if (!load_file (opts->source) || !choose_params (_ws_own, opts))
    return 2;
  opts->kernels[0] = &_ws_own->desc;
  opts->n_kernels = 1;
  if (!ws_args_check_runs (opts, &err))
    {
      ws_output_error (0, WS_ERROR_SEVERITY_ERROR, err.code, err.message, NULL);
      return 2;
    }
  return 0;
}

void
ws_own_free (void)
{
  OwnKernel *k = _ws_own;

  if (k == NULL)
    return;
  for (int i = 0; i < k->n_variants; i++)
    free (k->variants[i]);
  free (k->ref);
  free (k->text);
  free (k->ref_host);
  free (k);
  _ws_own = NULL;
}

/* ---- planning ---------------------------------------------------------------------------- */

/* The variant for these parameter values and block (only the block_size macros the source
 * uses count); made when new. */
static OwnVariant *
variant_for (OwnKernel *k, const int combo[], const unsigned block[3])
{
  OwnVariant v;

  memset (&v, 0, sizeof v);
  for (int p = 0; p < k->kf.n_params; p++)
    {
      v.params[p] = k->kf.params[p].values[combo[p]];
      v.param_texts[p] = k->kf.params[p].texts[combo[p]];
    }
  for (int d = 0; d < 3; d++)
    v.macros[d] = ws_kernel_file_uses_block_macro (k->text, k->len, d) ? block[d] : 0;
  for (int i = 0; i < k->n_variants; i++)
    if (memcmp (k->variants[i]->params, v.params, sizeof v.params) == 0
        && memcmp (k->variants[i]->macros, v.macros, sizeof v.macros) == 0)
      return k->variants[i];
  if (k->n_variants == WS_OWN_MAX_VARIANTS)
    return NULL;
  v.index = k->n_variants;
  k->variants[k->n_variants] = malloc (sizeof v);
  if (k->variants[k->n_variants] == NULL)
    return NULL;
  *k->variants[k->n_variants] = v;
  return k->variants[k->n_variants++];
}

/* Fills one run; 0 after an error record when its expressions cannot be evaluated. */
static int
plan_one (OwnKernel *k, const WsOptions *o, int t, int si, int b, const int combo[],
          WsRunSpec *s, int *allowed)
{
  WsKfConfig cfg;
  uint64_t grid[3];
  char err[640];
  int which = -1, ok;

  if (o->n_sizes)
    {
      ws_size_shape (&o->sizes[si], &k->desc, s->shape);
      snprintf (s->size_text, sizeof s->size_text, "%s", o->sizes[si].text);
    }
  else
    {
      memcpy (s->shape, k->desc.default_shape, sizeof s->shape);
      ws_shape_text (&k->desc, s->shape, s->size_text, sizeof s->size_text);
    }
  memcpy (s->block, o->n_blocks ? o->blocks[b].dims : k->desc.default_block, sizeof s->block);
  s->kernel = &k->desc;
  s->transfer = o->transfers[t].kind;
  s->streams = o->transfers[t].streams;
  s->reps = o->reps;
  s->warmup = o->warmup;
  s->cache_cold = o->cache_cold;
  s->source_hash = k->hash;
  s->hooks = &_ws_own_hooks;
  s->n_params = k->kf.n_params;
  for (int p = 0; p < k->kf.n_params; p++)
    {
      s->param_names[p] = k->kf.params[p].name;
      s->param_values[p] = k->kf.params[p].texts[combo[p]];
    }
  ws_kernel_file_default_config (&k->kf, &cfg);
  for (int i = 0; i < k->kf.n_sizes; i++)
    cfg.size[i] = s->shape[i];
  memcpy (cfg.block, s->block, sizeof cfg.block);
  for (int p = 0; p < k->kf.n_params; p++)
    cfg.params[p] = k->kf.params[p].values[combo[p]];
  ok = ws_kernel_file_allowed (&k->kf, &cfg, &which, err, sizeof err);
  if (ok < 0)
    {
      header_error (k, k->kf.restricts[which].line, k->kf.restricts[which].column, err);
      return 0;
    }
  *allowed = ok ? -1 : which;
  if (!ok)
    return 1;
  if (!ws_kernel_file_grid (&k->kf, &cfg, grid, err, sizeof err))
    {
      header_error (k, k->kf.n_grid ? k->kf.grid[0].line : k->kf.first_line, 1, err);
      return 0;
    }
  for (int i = 0; i < 3; i++)
    s->grid[i] = grid[i] > 0xffffffffull ? 0xffffffffu : (unsigned) grid[i];
  if (_ws_own_layout (k, s->shape, err, sizeof err) == NULL)
    {
      header_error (k, k->kf.first_line, 1, err);
      return 0;
    }
  s->variant = variant_for (k, combo, s->block);
  if (s->variant == NULL)
    {
      ws_output_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_BAD_ARGUMENT,
                       "This sweep needs more than 512 compiled variants of the kernel: sweep "
                       "fewer parameter values or blocks.", NULL);
      return 0;
    }
  if (!_ws_own_scalars (k, (OwnVariant *) s->variant, s->shape, s->block, err, sizeof err))
    {
      header_error (k, k->kf.first_line, 1, err);
      return 0;
    }
  return 1;
}

/* Steps `combo` to the next combination of the chosen values; 0 after the last. */
static int
next_combo (const OwnKernel *k, int idx[])
{
  for (int p = k->kf.n_params - 1; p >= 0; p--)
    {
      if (++idx[p] < n_chosen[p])
        return 1;
      idx[p] = 0;
    }
  return 0;
}

static void
report_restricted (const OwnKernel *k, int skipped, int total, int which)
{
  char message[768];

  snprintf (message, sizeof message, "%d of the %d configurations asked for are left out: the "
            "header's restrictions rule them out (line %d: %s)", skipped, total,
            k->kf.restricts[which].line, k->kf.restricts[which].text);
  ws_output_error (0, skipped == total ? WS_ERROR_SEVERITY_ERROR : WS_ERROR_SEVERITY_WARNING,
                   skipped == total ? WS_ERROR_INVALID_BLOCK : WS_ERROR_RESTRICTED, message,
                   NULL);
}

WsRunSpec *
ws_own_plan (const WsOptions *o, const WsRunnerDevice *device, uint64_t seed, int *n_out,
             int *exit_code)
{
  OwnKernel *k = _ws_own;
  int n_sizes = o->n_sizes ? o->n_sizes : 1, n_blocks = o->n_blocks ? o->n_blocks : 1;
  long long combos = 1, total;
  int n = 0, skipped = 0, first_which = -1;
  WsRunSpec *specs;

  *exit_code = 2;
  *n_out = 0;
  _ws_own_output_kernel (k);
  _ws_own_output_source (k);
  for (int p = 0; p < k->kf.n_params; p++)
    combos *= n_chosen[p];
  total = combos * o->n_transfers * n_sizes * n_blocks;
  if (total > WS_MAX_CONFIGS)
    {
      char message[256];

      snprintf (message, sizeof message, "this sweep has %lld configurations, more than %d: use "
                "fewer sizes, blocks or parameter values", total, WS_MAX_CONFIGS);
      ws_output_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_BAD_ARGUMENT, message, NULL);
      return NULL;
    }
  specs = calloc ((size_t) total, sizeof *specs);
  if (specs == NULL)
    {
      *exit_code = 5;
      return NULL;
    }
  for (int t = 0; t < o->n_transfers; t++)
    for (int si = 0; si < n_sizes; si++)
      for (int b = 0; b < n_blocks; b++)
        {
          int idx[WS_KF_MAX_PARAMS] = { 0 }, combo[WS_KF_MAX_PARAMS];

          do
            {
              int allowed;

              for (int p = 0; p < k->kf.n_params; p++)
                combo[p] = chosen[p][idx[p]];
              if (!plan_one (k, o, t, si, b, combo, &specs[n], &allowed))
                {
                  free (specs);
                  return NULL;
                }
              if (allowed >= 0)
                {
                  skipped++;
                  if (first_which < 0)
                    first_which = allowed;
                  memset (&specs[n], 0, sizeof specs[n]);
                  continue;
                }
              specs[n].id = n + 1;
              specs[n].seed = seed + (uint64_t) (n + 1);
              n++;
            }
          while (next_combo (k, idx));
        }
  if (skipped > 0)
    report_restricted (k, skipped, (int) total, first_which);
  if (n == 0)
    {
      free (specs);
      return NULL;
    }
  if (!_ws_own_compile_all (k, o, device, exit_code))
    {
      free (specs);
      return NULL;
    }
  *n_out = n;
  return specs;
}

const char *
_ws_own_first_value (int param)
{
  return _ws_own->kf.params[param].texts[chosen[param][0]];
}

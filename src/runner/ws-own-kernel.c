/* ws-own-kernel.c: the kernel descriptor of an own kernel: where its buffers lie in the
 * runner's buffers, their declared initial contents, the launch through cudaLaunchKernel with
 * one pointer per argument, and the verification against a reference kernel of the same file
 * or a built-in kernel, both run on the GPU on the same inputs.
 *
 * Kernels are loaded with the runtime's library calls (cudaLibraryLoadData,
 * cudaLibraryGetKernel: the driver's cuLibrary* underneath; a cudaKernel_t is a CUkernel). A
 * cudaKernel_t cast to a function pointer is accepted by cudaLaunchKernel,
 * cudaFuncGetAttributes and cudaOccupancyMaxActiveBlocksPerMultiprocessor, so registers,
 * shared memory and occupancy (ws-launch-facts.c) come out as for a built-in kernel.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-own-kernel-private.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

OwnKernel *_ws_own;

#define ALIGN_FLOATS 64 /* 256 bytes */

void
_ws_own_config (const OwnKernel *k, const OwnVariant *v, const uint64_t shape[3],
                const unsigned block[3], WsKfConfig *cfg)
{
  ws_kernel_file_default_config (&k->kf, cfg);
  for (int i = 0; i < k->kf.n_sizes; i++)
    cfg->size[i] = shape[i];
  if (block != NULL)
    memcpy (cfg->block, block, sizeof cfg->block);
  for (int i = 0; v != NULL && i < k->kf.n_params; i++)
    cfg->params[i] = v->params[i];
}

/* ---- layout -------------------------------------------------------------------------- */

const OwnLayout *
_ws_own_layout (OwnKernel *k, const uint64_t shape[3], char *err, size_t len)
{
  OwnLayout *l = &k->layout;
  WsKfConfig cfg;
  uint64_t in_cursor = 0, out_cursor = 0;
  int in_index = 0;

  if (l->valid && memcmp (l->shape, shape, sizeof l->shape) == 0)
    return l;
  memset (l, 0, sizeof *l);
  _ws_own_config (k, NULL, shape, NULL, &cfg);
  for (int i = 0; i < k->kf.n_args; i++)
    {
      const WsKfArg *a = &k->kf.args[i];
      OwnPlace *p = &l->places[i];

      p->in_buffer = -1;
      if (!a->is_buffer)
        continue;
      if (!ws_kernel_file_length (&k->kf, i, &cfg, &p->elements, err, len))
        return NULL;
      p->floats = p->elements * ws_kernel_file_type_size (a->type) / 4;
      if (a->role != WS_KF_OUT)
        {
          if (k->packed_in)
            {
              p->in_buffer = 0;
              p->in_offset = in_cursor;
              in_cursor += (p->floats + ALIGN_FLOATS - 1) / ALIGN_FLOATS * ALIGN_FLOATS;
              l->buffer_floats[0] = in_cursor;
            }
          else
            {
              p->in_buffer = in_index;
              l->buffer_floats[in_index] = p->floats;
            }
          in_index++;
        }
      if (a->role != WS_KF_IN)
        {
          p->out = 1;
          p->out_offset = out_cursor;
          out_cursor += k->packed_out
                          ? (p->floats + ALIGN_FLOATS - 1) / ALIGN_FLOATS * ALIGN_FLOATS
                          : p->floats;
        }
    }
  l->buffer_floats[k->desc.n_inputs] = out_cursor;
  memcpy (l->shape, shape, sizeof l->shape);
  l->valid = 1;
  return l;
}

/* ---- scalar arguments -------------------------------------------------------------------- */

static int
store_scalar (const WsKfArg *a, WsExprValue v, OwnArgValue *out, char *err, size_t len)
{
  char why[192];
  int64_t w;

  if (!ws_kernel_file_scalar_fits (a->type, v, &w, why, sizeof why))
    {
      snprintf (err, len, "line %d (arg %s): %s", a->line, a->name, why);
      return 0;
    }
  switch (a->type)
    {
    case WS_KF_FLOAT: out->f32 = (float) ws_expr_double (v); break;
    case WS_KF_DOUBLE: out->f64 = ws_expr_double (v); break;
    case WS_KF_INT32: out->i32 = (int32_t) w; break;
    case WS_KF_UINT32: out->u32 = (uint32_t) w; break;
    case WS_KF_INT64: out->i64 = w; break;
    case WS_KF_UINT64: out->u64 = (uint64_t) w; break;
    default: break;
    }
  return 1;
}

int
_ws_own_scalars (OwnKernel *k, OwnVariant *v, const uint64_t shape[3], const unsigned block[3],
                 char *err, size_t len)
{
  WsKfConfig cfg;

  if (v->have_scalars && memcmp (v->scalar_shape, shape, sizeof v->scalar_shape) == 0
      && memcmp (v->scalar_block, block, sizeof v->scalar_block) == 0)
    return 1;
  v->have_scalars = 0;
  _ws_own_config (k, v, shape, block, &cfg);
  for (int i = 0; i < k->kf.n_args; i++)
    {
      const WsKfArg *a = &k->kf.args[i];
      WsExprValue val;
      char what[WS_KF_MAX_NAME + 8];

      if (a->is_buffer)
        continue;
      snprintf (what, sizeof what, "arg %s", a->name);
      if (!ws_kernel_file_eval (&k->kf, &a->value, what, &cfg, &val, err, len)
          || !store_scalar (a, val, &v->values[i], err, len))
        return 0;
    }
  memcpy (v->scalar_shape, shape, sizeof v->scalar_shape);
  memcpy (v->scalar_block, block, sizeof v->scalar_block);
  v->have_scalars = 1;
  return 1;
}

/* ---- the descriptor's functions ---------------------------------------------------------- */

static int
own_check_block (const unsigned block[3], char *why, size_t why_len)
{
  const WsKernelFile *kf = &_ws_own->kf;

  if (kf->block_rank == 1 && (block[1] != 1 || block[2] != 1))
    {
      snprintf (why, why_len, "%s is a 1D kernel (its header's block is one number, %u): give "
                "one number of threads per block, such as 256, not %ux%u; write block: 16x16 in "
                "the header for a 2D kernel", kf->kernel, kf->block[0], block[0], block[1]);
      return 0;
    }
  if (kf->block_rank == 2 && block[2] != 1)
    {
      snprintf (why, why_len, "%s is a 2D kernel (its header's block is %ux%u): give the block "
                "as WxH, not %ux%ux%u", kf->kernel, kf->block[0], kf->block[1], block[0],
                block[1], block[2]);
      return 0;
    }
  return 1;
}

static void
own_grid (const uint64_t shape[3], const unsigned block[3], unsigned grid[3])
{
  WsKfConfig cfg;
  uint64_t g[3];
  char err[8];

  _ws_own_config (_ws_own, NULL, shape, block, &cfg);
  if (!ws_kernel_file_grid (&_ws_own->kf, &cfg, g, err, sizeof err))
    g[0] = g[1] = g[2] = 0;
  for (int i = 0; i < 3; i++)
    grid[i] = g[i] > 0xffffffffull ? 0xffffffffu : (unsigned) g[i];
}

static uint64_t
own_buffer_elements (const uint64_t shape[3], int buffer)
{
  char err[8];
  const OwnLayout *l = _ws_own_layout (_ws_own, shape, err, sizeof err);

  return l != NULL && buffer >= 0 && buffer <= WS_MAX_INPUTS ? l->buffer_floats[buffer] : 0;
}

static double
own_flops (const uint64_t shape[3])
{
  WsKfConfig cfg;

  _ws_own_config (_ws_own, NULL, shape, NULL, &cfg);
  return ws_kernel_file_flops (&_ws_own->kf, &cfg);
}

static double
own_bytes (const uint64_t shape[3])
{
  WsKfConfig cfg;

  _ws_own_config (_ws_own, NULL, shape, NULL, &cfg);
  return ws_kernel_file_bytes (&_ws_own->kf, &cfg);
}

static uint64_t
own_work_units (const uint64_t shape[3])
{
  return shape[0];
}

static const void *
own_function (const WsLaunchConfig *cfg)
{
  const OwnVariant *v = cfg->variant;

  return v != NULL ? (const void *) v->kernel : NULL;
}

/* Pointers to the arguments of one launch; outputs at `out` (the runner's output, or the
 * reference's), inputs in the runner's device buffers. */
static int
arg_pointers (OwnKernel *k, OwnVariant *v, const OwnLayout *l, float *const *dev, char *out,
              OwnArgValue ptrs[], void *argv[])
{
  for (int i = 0; i < k->kf.n_args; i++)
    {
      const WsKfArg *a = &k->kf.args[i];
      const OwnPlace *p = &l->places[i];

      if (!a->is_buffer)
        {
          argv[i] = &v->values[i];
          continue;
        }
      if (p->out)
        ptrs[i].ptr = out + p->out_offset * sizeof (float);
      else
        ptrs[i].ptr = (char *) dev[p->in_buffer] + p->in_offset * sizeof (float);
      argv[i] = &ptrs[i].ptr;
    }
  return 1;
}

static cudaError_t
launch_variant (OwnKernel *k, OwnVariant *v, const uint64_t shape[3], const unsigned block[3],
                const unsigned grid[3], float *const *dev, char *out, cudaStream_t stream)
{
  OwnArgValue ptrs[WS_KF_MAX_ARGS];
  void *argv[WS_KF_MAX_ARGS];
  char err[512];
  const OwnLayout *l = _ws_own_layout (k, shape, err, sizeof err);
  dim3 g, b;

  if (l == NULL || !_ws_own_scalars (k, v, shape, block, err, sizeof err))
    {
      /* Checked when the runs were planned: this is not expected. */
      fprintf (stderr, "warpscope-runner: %s\n", err);
      return cudaErrorInvalidValue;
    }
  arg_pointers (k, v, l, dev, out, ptrs, argv);
  g.x = grid[0], g.y = grid[1], g.z = grid[2];
  b.x = block[0], b.y = block[1], b.z = block[2];
  return cudaLaunchKernel ((const void *) v->kernel, g, b, argv, 0, stream);
}

static cudaError_t
own_launch (const WsLaunchConfig *cfg, float *const *dev, cudaStream_t stream)
{
  OwnKernel *k = _ws_own;
  OwnVariant *v = (OwnVariant *) cfg->variant;

  if (v == NULL)
    return cudaErrorInvalidDeviceFunction;
  k->dev = dev;
  k->ran = 1;
  return launch_variant (k, v, cfg->shape, cfg->block, cfg->grid, dev,
                         (char *) dev[k->desc.n_inputs], stream);
}

static cudaError_t
own_before_launch (const WsLaunchConfig *cfg, float *const *dev, cudaStream_t stream)
{
  OwnKernel *k = _ws_own;
  char err[8];
  const OwnLayout *l = _ws_own_layout (k, cfg->shape, err, sizeof err);
  cudaError_t e = cudaSuccess;

  if (l == NULL)
    return cudaErrorInvalidValue;
  for (int i = 0; i < k->kf.n_args && e == cudaSuccess; i++)
    if (k->kf.args[i].is_buffer && k->kf.args[i].role == WS_KF_INOUT && l->places[i].floats > 0)
      e = cudaMemcpyAsync (dev[k->desc.n_inputs] + l->places[i].out_offset,
                           dev[l->places[i].in_buffer] + l->places[i].in_offset,
                           l->places[i].floats * sizeof (float), cudaMemcpyDeviceToDevice,
                           stream);
  return e;
}

/* ---- initial contents ------------------------------------------------------------------- */

static uint64_t
mix64 (uint64_t z)
{
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static void
store (void *base, WsKfType type, uint64_t i, double v)
{
  switch (type)
    {
    case WS_KF_FLOAT: ((float *) base)[i] = (float) v; break;
    case WS_KF_DOUBLE: ((double *) base)[i] = v; break;
    case WS_KF_INT32: ((int32_t *) base)[i] = (int32_t) v; break;
    case WS_KF_UINT32: ((uint32_t *) base)[i] = (uint32_t) v; break;
    case WS_KF_INT64: ((int64_t *) base)[i] = (int64_t) v; break;
    case WS_KF_UINT64: ((uint64_t *) base)[i] = (uint64_t) v; break;
    }
}

static double
eval_sizes (const OwnKernel *k, const WsKfExpr *e, const WsKfConfig *cfg, double fallback)
{
  WsExprValue v;
  char err[8];

  if (e->text[0] == '\0' || !ws_kernel_file_eval (&k->kf, e, "init", cfg, &v, err, sizeof err))
    return fallback;
  return ws_expr_double (v);
}

/* A pure function of (seed, input, index), as the built-ins' inputs are (ws-run.c): the same
 * seed gives a float input the same numbers as the built-in kernel's input of that place. */
static void
fill_one (const OwnKernel *k, const WsKfArg *a, void *base, uint64_t n, uint64_t seed,
          int ordinal, const WsKfConfig *cfg)
{
  int real = a->type == WS_KF_FLOAT || a->type == WS_KF_DOUBLE;
  uint64_t key = mix64 (seed + 0x9E3779B97F4A7C15ull * (uint64_t) (ordinal + 1));
  double lo = eval_sizes (k, &a->init_a, cfg, real ? -1.0 : 0.0);
  double hi = eval_sizes (k, &a->init_b, cfg, real ? 1.0 : 1000.0);
  double c = eval_sizes (k, &a->init_a, cfg, 0.0);
  int classic = a->type == WS_KF_FLOAT && a->init_a.text[0] == '\0';

#pragma omp parallel for schedule(static)
  for (uint64_t i = 0; i < n; i++)
    {
      double v = 0;

      switch (a->init)
        {
        case WS_KF_INIT_RANDOM:
          {
            uint64_t r = mix64 (key ^ (i * 0xD1B54A32D192ED03ull));

            if (classic)
              v = (double) (r >> 40) / (double) (1ull << 23) - 1.0;
            else if (real)
              v = lo + (double) (r >> 11) * 0x1p-53 * (hi - lo);
            else
              v = floor (lo + (double) (r >> 11) * 0x1p-53 * (hi - lo));
            break;
          }
        case WS_KF_INIT_ONES: v = 1; break;
        case WS_KF_INIT_IOTA: v = (double) i; break;
        case WS_KF_INIT_CONSTANT: v = c; break;
        default: v = 0; break;
        }
      store (base, a->type, i, v);
    }
}

static void
own_fill_inputs (const WsLaunchConfig *cfg, float *const *host, uint64_t seed)
{
  OwnKernel *k = _ws_own;
  char err[8];
  const OwnLayout *l = _ws_own_layout (k, cfg->shape, err, sizeof err);
  WsKfConfig kc;
  int ordinal = 0;

  if (l == NULL)
    return;
  _ws_own_config (k, NULL, cfg->shape, NULL, &kc);
  for (int i = 0; i < k->kf.n_args; i++)
    {
      const WsKfArg *a = &k->kf.args[i];
      const OwnPlace *p = &l->places[i];

      if (!a->is_buffer || p->in_buffer < 0)
        continue;
      fill_one (k, a, host[p->in_buffer] + p->in_offset, p->elements, seed, ordinal++, &kc);
    }
}

/* ---- verification ------------------------------------------------------------------------ */

static double
load (const void *base, WsKfType type, uint64_t i)
{
  switch (type)
    {
    case WS_KF_FLOAT: return ((const float *) base)[i];
    case WS_KF_DOUBLE: return ((const double *) base)[i];
    case WS_KF_INT32: return ((const int32_t *) base)[i];
    case WS_KF_UINT32: return ((const uint32_t *) base)[i];
    case WS_KF_INT64: return (double) ((const int64_t *) base)[i];
    case WS_KF_UINT64: return (double) ((const uint64_t *) base)[i];
    }
  return 0;
}

static int
is_poison (const void *base, size_t size, uint64_t i)
{
  const unsigned char *p = (const unsigned char *) base + i * size;

  for (size_t b = 0; b < size; b++)
    if (p[b] != 0xFF)
      return 0;
  return 1;
}

/* got against ref over one buffer, merged into result. */
static void
compare_buffer (const WsKfArg *a, const void *got, const void *ref, uint64_t n,
                WsVerifyResult *result)
{
  size_t size = ws_kernel_file_type_size (a->type);
  WsVerifyResult all;

  ws_verify_init (&all, result->method, result->rtol, result->atol, n);
#pragma omp parallel
  {
    WsVerifyResult part;

    ws_verify_init (&part, result->method, result->rtol, result->atol, n);
#pragma omp for schedule(static) nowait
    for (uint64_t i = 0; i < n; i++)
      {
        if (a->type == WS_KF_FLOAT)
          {
            ws_verify_element (&part, i, ((const float *) got)[i], ((const float *) ref)[i]);
            continue;
          }
        {
          double x = load (got, a->type, i), r = load (ref, a->type, i), e = fabs (x - r);
          int ok = !isnan (x) && !isinf (x) && e <= part.atol + part.rtol * fabs (r);

          part.checked++;
          if (!isnan (x) && !isinf (x))
            {
              if (e > part.max_abs_err)
                part.max_abs_err = e;
              if (r != 0 && e / fabs (r) > part.max_rel_err)
                part.max_rel_err = e / fabs (r);
            }
          if (!ok)
            {
              part.mismatches++;
              part.unwritten += is_poison (got, size, i);
              if (part.first_bad < 0)
                {
                  part.first_bad = (int64_t) i;
                  part.first_bad_value = x;
                  part.first_bad_expected = r;
                }
            }
        }
      }
#pragma omp critical
    ws_verify_merge (&all, &part);
  }
  /* The first bad element is the first buffer's that has one, not the smallest index over
   * all buffers: an index means nothing without its buffer. */
  {
    WsVerifyResult kept = *result;

    ws_verify_merge (result, &all);
    if (kept.first_bad >= 0)
      {
        result->first_bad = kept.first_bad;
        result->first_bad_value = kept.first_bad_value;
        result->first_bad_expected = kept.first_bad_expected;
      }
    else if (all.first_bad >= 0)
      result->first_bad_buffer = a->name;
  }
}

static char verify_note[400];

/* Runs the reference (or the built-in) into k->ref_dev and copies it to k->ref_host. */
static int
run_reference (OwnKernel *k, const WsLaunchConfig *cfg, const OwnLayout *l)
{
  size_t bytes = l->buffer_floats[k->desc.n_inputs] * sizeof (float);
  cudaError_t e;

  if (bytes > k->ref_bytes)
    {
      cudaFree (k->ref_dev);
      free (k->ref_host);
      k->ref_dev = k->ref_host = NULL;
      k->ref_bytes = 0;
      if (cudaMalloc (&k->ref_dev, bytes) != cudaSuccess || (k->ref_host = malloc (bytes)) == NULL)
        {
          cudaGetLastError ();
          snprintf (verify_note, sizeof verify_note, "there was no memory for the reference's "
                    "output (%zu bytes)", bytes);
          return 0;
        }
      k->ref_bytes = bytes;
    }
  if ((e = cudaMemset (k->ref_dev, 0xFF, bytes)) != cudaSuccess)
    goto fail;
  for (int i = 0; i < k->kf.n_args; i++)
    if (k->kf.args[i].is_buffer && k->kf.args[i].role == WS_KF_INOUT && l->places[i].floats > 0
        && (e = cudaMemcpy ((char *) k->ref_dev + l->places[i].out_offset * sizeof (float),
                            k->dev[l->places[i].in_buffer] + l->places[i].in_offset,
                            l->places[i].floats * sizeof (float), cudaMemcpyDeviceToDevice))
             != cudaSuccess)
      goto fail;
  if (k->builtin != NULL)
    {
      WsLaunchConfig b = { { 0 }, { 0 }, { 0 }, NULL };
      float *devs[WS_MAX_INPUTS + 1];

      memcpy (b.shape, cfg->shape, sizeof b.shape);
      memcpy (b.block, k->builtin->default_block, sizeof b.block);
      k->builtin->grid_for (b.shape, b.block, b.grid);
      for (int j = 0; j <= k->builtin->n_inputs; j++)
        {
          uint64_t want = k->builtin->buffer_elements (b.shape, j), have;

          have = j < k->builtin->n_inputs ? l->buffer_floats[j] : l->buffer_floats[k->desc.n_inputs];
          if (want != have)
            {
              snprintf (verify_note, sizeof verify_note, "the built-in %s's buffer %d has %llu "
                        "elements at this size, the kernel's %llu: they do not compute the same "
                        "thing", k->builtin->name, j, (unsigned long long) want,
                        (unsigned long long) have);
              return 0;
            }
          devs[j] = j < k->builtin->n_inputs ? k->dev[j] : (float *) k->ref_dev;
        }
      e = k->builtin->launch (&b, devs, 0);
    }
  else
    {
      unsigned grid[3];
      uint64_t g[3];
      WsKfConfig rc;
      char err[300];

      _ws_own_config (k, k->ref, cfg->shape, k->ref_block, &rc);
      if (!ws_kernel_file_grid (&k->kf, &rc, g, err, sizeof err))
        {
          snprintf (verify_note, sizeof verify_note, "the reference's grid: %s", err);
          return 0;
        }
      for (int i = 0; i < 3; i++)
        grid[i] = (unsigned) g[i];
      e = launch_variant (k, k->ref, cfg->shape, rc.block, grid, k->dev, k->ref_dev, 0);
    }
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize ();
  if (e == cudaSuccess)
    e = cudaMemcpy (k->ref_host, k->ref_dev, bytes, cudaMemcpyDeviceToHost);
  if (e == cudaSuccess)
    return 1;
fail:
  cudaGetLastError ();
  snprintf (verify_note, sizeof verify_note, "the reference %s could not run: %s",
            k->builtin ? k->builtin->name : k->kf.verify_kernel, cudaGetErrorString (e));
  return 0;
}

static void
own_verify (const WsLaunchConfig *cfg, const float *const *in, const float *out, uint64_t seed,
            WsVerifyResult *result)
{
  OwnKernel *k = _ws_own;
  char err[400];
  const OwnLayout *l = _ws_own_layout (k, cfg->shape, err, sizeof err);
  uint64_t total = 0;

  (void) in;
  (void) seed;
  for (int i = 0; l != NULL && i < k->kf.n_args; i++)
    if (k->kf.args[i].is_buffer && l->places[i].out)
      total += l->places[i].elements;
  if (k->kf.verify == WS_KF_VERIFY_NONE || l == NULL || !k->ran)
    {
      ws_verify_init (result, "none", k->kf.rtol, k->kf.atol, total);
      /* Nothing to compare with, but what the kernel never wrote still shows. */
      for (int i = 0; l != NULL && i < k->kf.n_args; i++)
        if (k->kf.args[i].is_buffer && k->kf.args[i].role == WS_KF_OUT)
          for (uint64_t j = 0; j < l->places[i].elements; j++)
            result->unwritten += is_poison ((const char *) out + l->places[i].out_offset * 4,
                                            ws_kernel_file_type_size (k->kf.args[i].type), j);
      result->pass = 1;
      return;
    }
  {
    WsKfConfig kc;
    double rtol, atol;

    _ws_own_config (k, NULL, cfg->shape, NULL, &kc);
    ws_kernel_file_tolerance (&k->kf, &kc, &rtol, &atol);
    ws_verify_init (result, k->builtin ? "builtin" : "reference", rtol, atol, total);
  }
  if (!run_reference (k, cfg, l))
    {
      result->note = verify_note;
      result->pass = 0;
      return;
    }
  for (int i = 0; i < k->kf.n_args; i++)
    if (k->kf.args[i].is_buffer && l->places[i].out)
      compare_buffer (&k->kf.args[i], (const char *) out + l->places[i].out_offset * 4,
                      (const char *) k->ref_host + l->places[i].out_offset * 4,
                      l->places[i].elements, result);
  if (k->n_outputs == 1)
    result->first_bad_buffer = NULL;
  ws_verify_finish (result);
  if (total == 0)
    result->pass = 1;
}

/* ---- the descriptor ---------------------------------------------------------------------- */

void
_ws_own_fill_desc (OwnKernel *k)
{
  WsKernelDesc *d = &k->desc;
  const WsKernelFile *kf = &k->kf;

  memset (d, 0, sizeof *d);
  k->n_inputs = k->n_outputs = 0;
  for (int i = 0; i < kf->n_args; i++)
    if (kf->args[i].is_buffer)
      {
        k->n_inputs += kf->args[i].role != WS_KF_OUT;
        k->n_outputs += kf->args[i].role != WS_KF_IN;
      }
  k->packed_in = k->n_inputs > WS_MAX_INPUTS;
  k->packed_out = k->n_outputs > 1;
  snprintf (k->title, sizeof k->title, "%s", kf->title[0] ? kf->title : kf->kernel);
  if (kf->verify == WS_KF_VERIFY_NONE)
    snprintf (k->tolerance, sizeof k->tolerance, "none: the header declares no reference, so "
              "runs are unverified");
  else
    {
      char rtol[WS_KF_MAX_EXPR + 8], atol[WS_KF_MAX_EXPR + 8];

      if (kf->rtol_expr.text[0])
        snprintf (rtol, sizeof rtol, "(%s)", kf->rtol_expr.text);
      else
        snprintf (rtol, sizeof rtol, "%g", kf->rtol);
      if (kf->atol_expr.text[0])
        snprintf (atol, sizeof atol, "(%s)", kf->atol_expr.text);
      else
        snprintf (atol, sizeof atol, "%g", kf->atol);
      snprintf (k->tolerance, sizeof k->tolerance, "every element: |gpu − ref| ≤ %s + %s·|ref|, "
                "ref the output of %s %s on the same inputs", atol, rtol,
                kf->verify == WS_KF_VERIFY_BUILTIN ? "the built-in kernel"
                                                   : "the reference kernel",
                kf->verify_kernel);
    }
  memcpy (k->ref_block, kf->verify_block_rank ? kf->verify_block : kf->block,
          sizeof k->ref_block);
  d->name = kf->kernel;
  d->family = "own";
  d->title = k->title;
  d->description = kf->description[0] ? kf->description : "An own kernel, compiled with NVRTC.";
  d->source = k->path;
  d->block_rank = kf->block_rank;
  d->shape_rank = kf->n_sizes;
  for (int i = 0; i < 3; i++)
    {
      d->default_shape[i] = i < kf->n_sizes ? kf->size_defaults[i] : 1;
      d->default_block[i] = kf->block[i];
    }
  d->flops_formula = kf->flops.text[0] ? kf->flops.text : "0";
  d->bytes_formula = kf->bytes.text[0] ? kf->bytes.text : "every buffer once";
  d->tolerance = k->tolerance;
  d->n_inputs = k->packed_in ? 1 : k->n_inputs;
  d->check_block = own_check_block;
  d->grid_for = own_grid;
  d->buffer_elements = own_buffer_elements;
  d->flops = own_flops;
  d->bytes = own_bytes;
  d->work_units = own_work_units;
  d->function = own_function;
  d->launch = own_launch;
  d->verify = own_verify;
}

const WsRunHooks _ws_own_hooks = { own_fill_inputs, own_before_launch };

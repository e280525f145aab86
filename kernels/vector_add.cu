/* vector_add.cu: the tutorial's first kernel (§4), c = a + b with one thread per element.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-kernel.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>

/* The tutorial's kernel: idx = cuda.grid(1), guarded by `if idx < c.size` because the last
 * block usually runs past the end of the arrays. */
extern "C" __global__ void
vector_add (const float *a, const float *b, float *c, uint64_t n)
{
  uint64_t idx = (uint64_t) blockIdx.x * blockDim.x + threadIdx.x;

  if (idx < n)
    c[idx] = a[idx] + b[idx];
}

static int
vector_add_check_block (const unsigned block[3], char *why, size_t why_len)
{
  if (block[1] != 1 || block[2] != 1)
    {
      snprintf (why, why_len,
                "vector_add is a 1D kernel: give one number of threads per block, such as 256, "
                "not %ux%u",
                block[0], block[1]);
      return 0;
    }
  return 1;
}

static void
vector_add_grid (const uint64_t shape[3], const unsigned block[3], unsigned grid[3])
{
  /* The tutorial's (n + threads_per_block - 1) // threads_per_block. */
  grid[0] = ws_div_up (shape[0], block[0]);
  grid[1] = 1;
  grid[2] = 1;
}

static uint64_t
vector_add_buffer_elements (const uint64_t shape[3], int buffer)
{
  (void) buffer;
  return shape[0];
}

static double
vector_add_flops (const uint64_t shape[3])
{
  return (double) shape[0];
}

static double
vector_add_bytes (const uint64_t shape[3])
{
  return 12.0 * (double) shape[0]; /* read a and b, write c: 3 × 4 bytes per element */
}

static uint64_t
vector_add_work_units (const uint64_t shape[3])
{
  return shape[0];
}

static const void *
vector_add_function (const unsigned block[3])
{
  (void) block;
  return (const void *) vector_add;
}

static cudaError_t
vector_add_launch (const WsLaunchConfig *cfg, float *const *dev, cudaStream_t stream)
{
  dim3 grid (cfg->grid[0]), block (cfg->block[0]);

  vector_add<<<grid, block, 0, stream>>> (dev[0], dev[1], dev[2], cfg->shape[0]);
  return cudaGetLastError ();
}

WS_CPU_CLONES static void
add_range (const float *a, const float *b, float *c, uint64_t lo, uint64_t hi)
{
  for (uint64_t i = lo; i < hi; i++)
    c[i] = a[i] + b[i];
}

static void
vector_add_reference (const WsLaunchConfig *cfg, const float *const *in, float *out,
                      int threads, uint64_t part)
{
  uint64_t n = part ? part : cfg->shape[0];

  if (threads <= 1)
    {
      add_range (in[0], in[1], out, 0, n);
      return;
    }
#pragma omp parallel num_threads (threads)
  {
    /* One contiguous slice per thread, as OpenMP's static schedule would give, with the
     * vectorized loop in a function of its own so that it keeps its target clones. */
    uint64_t t = (uint64_t) omp_get_thread_num (), nt = (uint64_t) omp_get_num_threads ();
    add_range (in[0], in[1], out, n * t / nt, n * (t + 1) / nt);
  }
}

static void
vector_add_verify (const WsLaunchConfig *cfg, const float *const *in, const float *out,
                   uint64_t seed, WsVerifyResult *result)
{
  const uint64_t n = cfg->shape[0];

  (void) seed;
  /* numpy.allclose(rtol=1e-5) as in the tutorial, with its default atol of 1e-8; every
   * element is checked against the sum in double precision. */
  ws_verify_init (result, "all", 1e-5, 1e-8, n);
#pragma omp parallel
  {
    WsVerifyResult part;

    ws_verify_init (&part, "all", result->rtol, result->atol, n);
#pragma omp for schedule(static) nowait
    for (uint64_t i = 0; i < n; i++)
      ws_verify_element (&part, i, out[i], (double) in[0][i] + (double) in[1][i]);
#pragma omp critical
    ws_verify_merge (result, &part);
  }
  ws_verify_finish (result);
}

extern "C" const WsKernelDesc ws_vector_add_desc = {
  .name = "vector_add",
  .family = "vector_add",
  .title = "Vector add",
  .description = "The tutorial's first kernel: c[i] = a[i] + b[i], one thread per element.",
  .source = "kernels/vector_add.cu",
  .block_rank = 1,
  .shape_rank = 1,
  .default_shape = { 10000000, 1, 1 },
  .default_block = { 256, 1, 1 },
  .flops_formula = "n",
  .bytes_formula = "12·n",
  .tolerance = "every element: |gpu − ref| ≤ 1e-8 + 1e-5·|ref| (numpy.allclose, rtol 1e-5), "
               "ref in double precision",
  .hidden = 0,
  .n_inputs = 2,
  .check_block = vector_add_check_block,
  .grid_for = vector_add_grid,
  .buffer_elements = vector_add_buffer_elements,
  .flops = vector_add_flops,
  .bytes = vector_add_bytes,
  .work_units = vector_add_work_units,
  .function = vector_add_function,
  .dynamic_smem = NULL,
  .launch = vector_add_launch,
  .reference = vector_add_reference,
  .verify = vector_add_verify,
};

/* vector_add.cu: c = a + b: the tutorial's first kernel (§4), one thread per element, and
 * the next rung, 16-byte accesses in a grid-stride loop.
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

/* Float4s each thread moves per trip of the grid-stride loop: four independent 16-byte loads
 * of a and of b are in flight before the first add, 128 bytes per thread, which is what it
 * takes for HBM3e's latency times bandwidth; one float4 per thread leaves the queues short. */
#define VEC4_UNROLL 4

/* Each thread adds float4s i, i + stride, i + 2·stride, … so that at every step a warp
 * reads 512 contiguous bytes of each input. The grid is sized for one trip of VEC4_UNROLL
 * strides; the loop keeps the kernel right for any grid. The last n % 4 elements, which
 * make no whole float4, are added by the first threads of the grid, in a grid-stride loop
 * of their own. */
extern "C" __global__ void
vector_add_vec4 (const float *__restrict__ a, const float *__restrict__ b,
                 float *__restrict__ c, uint64_t n)
{
  const float4 *a4 = (const float4 *) a, *b4 = (const float4 *) b;
  float4 *c4 = (float4 *) c;
  const uint64_t n4 = n / 4, stride = (uint64_t) gridDim.x * blockDim.x;
  uint64_t i = (uint64_t) blockIdx.x * blockDim.x + threadIdx.x;
  const uint64_t first = i;

  for (; i + (VEC4_UNROLL - 1) * stride < n4; i += VEC4_UNROLL * stride)
    {
      float4 x[VEC4_UNROLL], y[VEC4_UNROLL];

#pragma unroll
      for (int u = 0; u < VEC4_UNROLL; u++)
        {
          x[u] = a4[i + u * stride];
          y[u] = b4[i + u * stride];
        }
#pragma unroll
      for (int u = 0; u < VEC4_UNROLL; u++)
        c4[i + u * stride]
          = make_float4 (x[u].x + y[u].x, x[u].y + y[u].y, x[u].z + y[u].z, x[u].w + y[u].w);
    }
  for (; i < n4; i += stride)
    {
      float4 x = a4[i], y = b4[i];

      c4[i] = make_float4 (x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
  /* A loop rather than one element per thread: a grid of fewer than three threads (block 1,
   * n = 31: two) must still write all of them. */
  for (uint64_t j = n4 * 4 + first; j < n; j += stride)
    c[j] = a[j] + b[j];
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

static void
vector_add_vec4_grid (const uint64_t shape[3], const unsigned block[3], unsigned grid[3])
{
  uint64_t per_block = (uint64_t) block[0] * VEC4_UNROLL * 4;
  uint64_t blocks = (shape[0] + per_block - 1) / per_block;

  /* Past 2^31 − 1 blocks the grid-stride loop takes the rest. */
  grid[0] = (unsigned) (blocks < 0x7fffffffull ? (blocks ? blocks : 1) : 0x7fffffffull);
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
vector_add_function (const WsLaunchConfig *cfg)
{
  (void) cfg;
  return (const void *) vector_add;
}

static const void *
vector_add_vec4_function (const WsLaunchConfig *cfg)
{
  (void) cfg;
  return (const void *) vector_add_vec4;
}

static cudaError_t
vector_add_launch (const WsLaunchConfig *cfg, float *const *dev, cudaStream_t stream)
{
  dim3 grid (cfg->grid[0]), block (cfg->block[0]);

  vector_add<<<grid, block, 0, stream>>> (dev[0], dev[1], dev[2], cfg->shape[0]);
  return cudaGetLastError ();
}

static cudaError_t
vector_add_vec4_launch (const WsLaunchConfig *cfg, float *const *dev, cudaStream_t stream)
{
  dim3 grid (cfg->grid[0]), block (cfg->block[0]);

  vector_add_vec4<<<grid, block, 0, stream>>> (dev[0], dev[1], dev[2], cfg->shape[0]);
  return cudaGetLastError ();
}

/* ---- streams:K: contiguous slices of all three arrays ----------------------------------- */

/* Slices start at multiples of 256 elements, so every slice's float4s stay 16-byte aligned. */
#define PIECE_ALIGN 256

static void
vector_add_piece (const WsLaunchConfig *cfg, int pieces, int p, WsRegion region[])
{
  uint64_t lo, hi;

  ws_piece_range (cfg->shape[0], pieces, p, PIECE_ALIGN, &lo, &hi);
  for (int b = 0; b < 3; b++)
    region[b] = ws_region_range (lo, hi);
}

/* The slice as a problem of its own: offset pointers, its own n and grid. */
static cudaError_t
launch_slice (const WsKernelDesc *desc, const WsLaunchConfig *cfg, int pieces, int p,
              float *const *dev, cudaStream_t stream)
{
  WsLaunchConfig sub = *cfg;
  float *slice[3];
  uint64_t lo, hi;

  ws_piece_range (cfg->shape[0], pieces, p, PIECE_ALIGN, &lo, &hi);
  if (hi == lo)
    return cudaSuccess;
  sub.shape[0] = hi - lo;
  desc->grid_for (sub.shape, sub.block, sub.grid);
  for (int b = 0; b < 3; b++)
    slice[b] = dev[b] + lo;
  return desc->launch (&sub, slice, stream);
}

extern "C" const WsKernelDesc ws_vector_add_desc, ws_vector_add_vec4_desc;

static cudaError_t
vector_add_launch_piece (const WsLaunchConfig *cfg, int pieces, int p, float *const *dev,
                         cudaStream_t stream)
{
  return launch_slice (&ws_vector_add_desc, cfg, pieces, p, dev, stream);
}

static cudaError_t
vector_add_vec4_launch_piece (const WsLaunchConfig *cfg, int pieces, int p, float *const *dev,
                              cudaStream_t stream)
{
  return launch_slice (&ws_vector_add_vec4_desc, cfg, pieces, p, dev, stream);
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
  .title = WS_N_ ("Vector add"),
  .description = WS_N_ ("The tutorial's first kernel: c[i] = a[i] + b[i], one thread per element."),
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
  .block_fixed = 0,
  .library = NULL,
  .available = NULL,
  .whole_inputs = 0,
  .piece = vector_add_piece,
  .launch_piece = vector_add_launch_piece,
  .any_grid = 0,
  .cpu_sgemm = 0,
};

extern "C" const WsKernelDesc ws_vector_add_vec4_desc = {
  .name = "vector_add_vec4",
  .family = "vector_add",
  .title = WS_N_ ("Vector add, 16-byte accesses"),
  .description
  = WS_N_ ("c = a + b with float4 loads and stores: each thread moves four float4s per "
           "trip of a grid-stride loop, so more bytes are in flight per thread."),
  .source = "kernels/vector_add.cu",
  .block_rank = 1,
  .shape_rank = 1,
  .default_shape = { 100000000, 1, 1 },
  .default_block = { 256, 1, 1 },
  .flops_formula = "n",
  .bytes_formula = "12·n",
  .tolerance = "every element: |gpu − ref| ≤ 1e-8 + 1e-5·|ref| (numpy.allclose, rtol 1e-5), "
               "ref in double precision",
  .hidden = 0,
  .n_inputs = 2,
  .check_block = vector_add_check_block,
  .grid_for = vector_add_vec4_grid,
  .buffer_elements = vector_add_buffer_elements,
  .flops = vector_add_flops,
  .bytes = vector_add_bytes,
  .work_units = vector_add_work_units,
  .function = vector_add_vec4_function,
  .dynamic_smem = NULL,
  .launch = vector_add_vec4_launch,
  .reference = vector_add_reference,
  .verify = vector_add_verify,
  .block_fixed = 0,
  .library = NULL,
  .available = NULL,
  .whole_inputs = 0,
  .piece = vector_add_piece,
  .launch_piece = vector_add_vec4_launch_piece,
  .any_grid = 1,
  .cpu_sgemm = 0,
};

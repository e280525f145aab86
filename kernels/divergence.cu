/* divergence.cu: the cost of a branch that splits warps. The same arithmetic per element in
 * two kernels: one branches on threadIdx.x % 2, so every warp runs both sides one after the
 * other; the other branches on the warp index, so no warp ever splits.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-kernel.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>

/* Multiply-adds per element on either side of the branch: enough that the kernel is bound by
 * arithmetic (64 FLOP per byte moved, four times the H200's FP32 ridge), so that the time
 * doubles when each warp has to run both sides. */
#define ITERATIONS 256

/* Two sides that do the same work with different constants. Each stays a loop of its own:
 * the compiler cannot fold them into one, so a split warp really runs both. */
__device__ __forceinline__ float
side_a (float v)
{
#pragma unroll 4
  for (int j = 0; j < ITERATIONS; j++)
    v = fmaf (v, 0.999f, 0.001f);
  return v;
}

__device__ __forceinline__ float
side_b (float v)
{
#pragma unroll 4
  for (int j = 0; j < ITERATIONS; j++)
    v = fmaf (v, 0.998f, 0.002f);
  return v;
}

/* Even and odd lanes take different sides: every warp diverges. */
extern "C" __global__ void
divergence_lane (const float *x, float *y, uint64_t n)
{
  uint64_t i = (uint64_t) blockIdx.x * blockDim.x + threadIdx.x;

  if (i >= n)
    return;
  y[i] = threadIdx.x % 2 == 0 ? side_a (x[i]) : side_b (x[i]);
}

/* Even and odd warps take different sides: no warp diverges, the same work is done. */
extern "C" __global__ void
divergence_warp (const float *x, float *y, uint64_t n)
{
  uint64_t i = (uint64_t) blockIdx.x * blockDim.x + threadIdx.x;

  if (i >= n)
    return;
  y[i] = (threadIdx.x / 32) % 2 == 0 ? side_a (x[i]) : side_b (x[i]);
}

static int
divergence_check_block (const unsigned block[3], char *why, size_t why_len)
{
  if (block[1] != 1 || block[2] != 1)
    {
      snprintf (why, why_len,
                "the divergence kernels are 1D: give one number of threads per block, such as "
                "256, not %ux%u",
                block[0], block[1]);
      return 0;
    }
  return 1;
}

static void
divergence_grid (const uint64_t shape[3], const unsigned block[3], unsigned grid[3])
{
  grid[0] = ws_div_up (shape[0], block[0]);
  grid[1] = grid[2] = 1;
}

static uint64_t
divergence_buffer_elements (const uint64_t shape[3], int buffer)
{
  (void) buffer;
  return shape[0];
}

static double
divergence_flops (const uint64_t shape[3])
{
  return 2.0 * ITERATIONS * (double) shape[0];
}

static double
divergence_bytes (const uint64_t shape[3])
{
  return 8.0 * (double) shape[0];
}

static uint64_t
divergence_work_units (const uint64_t shape[3])
{
  return shape[0];
}

static const void *
divergence_lane_function (const WsLaunchConfig *cfg)
{
  (void) cfg;
  return (const void *) divergence_lane;
}

static const void *
divergence_warp_function (const WsLaunchConfig *cfg)
{
  (void) cfg;
  return (const void *) divergence_warp;
}

static cudaError_t
divergence_lane_launch (const WsLaunchConfig *cfg, float *const *dev, cudaStream_t stream)
{
  divergence_lane<<<dim3 (cfg->grid[0]), dim3 (cfg->block[0]), 0, stream>>> (dev[0], dev[1],
                                                                             cfg->shape[0]);
  return cudaGetLastError ();
}

static cudaError_t
divergence_warp_launch (const WsLaunchConfig *cfg, float *const *dev, cudaStream_t stream)
{
  divergence_warp<<<dim3 (cfg->grid[0]), dim3 (cfg->block[0]), 0, stream>>> (dev[0], dev[1],
                                                                             cfg->shape[0]);
  return cudaGetLastError ();
}

/* ---- CPU reference --------------------------------------------------------------------- */

/* Which side element i takes: the thread that computes it is i % block of its block. */
static inline int
lane_side_a (uint64_t i, unsigned block)
{
  return (i % block) % 2 == 0;
}

static inline int
warp_side_a (uint64_t i, unsigned block)
{
  return ((i % block) / 32) % 2 == 0;
}

/* Eight elements at a time, each chain with its own constants, so the CPU can overlap
 * eight independent chains (and vectorize them where it has FMA units). fmaf rounds once,
 * as the GPU's FFMA does, so both compute the same bits. */
WS_CPU_CLONES static void
sides_range (const float *x, float *y, uint64_t lo, uint64_t hi, unsigned block, int by_warp)
{
  for (uint64_t i0 = lo; i0 < hi; i0 += 8)
    {
      float v[8], a[8], b[8];
      int m = hi - i0 < 8 ? (int) (hi - i0) : 8;

      for (int e = 0; e < 8; e++)
        {
          int side_a = e < m
                       && (by_warp ? warp_side_a (i0 + e, block) : lane_side_a (i0 + e, block));

          v[e] = e < m ? x[i0 + e] : 0.0f;
          a[e] = side_a ? 0.999f : 0.998f;
          b[e] = side_a ? 0.001f : 0.002f;
        }
      for (int j = 0; j < ITERATIONS; j++)
        for (int e = 0; e < 8; e++)
          v[e] = fmaf (v[e], a[e], b[e]);
      for (int e = 0; e < m; e++)
        y[i0 + e] = v[e];
    }
}

static void
reference (const WsLaunchConfig *cfg, const float *const *in, float *out, int threads,
           uint64_t part, int by_warp)
{
  const uint64_t n = part ? part : cfg->shape[0];

#pragma omp parallel num_threads (threads > 1 ? threads : 1)
  {
    uint64_t t = (uint64_t) omp_get_thread_num (), nt = (uint64_t) omp_get_num_threads ();

    sides_range (in[0], out, n * t / nt, n * (t + 1) / nt, cfg->block[0], by_warp);
  }
}

static void
divergence_lane_reference (const WsLaunchConfig *cfg, const float *const *in, float *out,
                           int threads, uint64_t part)
{
  reference (cfg, in, out, threads, part, 0);
}

static void
divergence_warp_reference (const WsLaunchConfig *cfg, const float *const *in, float *out,
                           int threads, uint64_t part)
{
  reference (cfg, in, out, threads, part, 1);
}

static void
verify (const WsLaunchConfig *cfg, const float *const *in, const float *out,
        WsVerifyResult *result, int by_warp)
{
  const uint64_t n = cfg->shape[0];
  const unsigned block = cfg->block[0];

  /* The CPU repeats the GPU's float32 operations exactly; the tolerance only allows for a
   * compiler that rounds differently. */
  ws_verify_init (result, "all", 1e-6, 1e-7, n);
#pragma omp parallel
  {
    WsVerifyResult part;

    ws_verify_init (&part, "all", result->rtol, result->atol, n);
#pragma omp for schedule(static) nowait
    for (uint64_t i = 0; i < n; i++)
      {
        int side_a = by_warp ? warp_side_a (i, block) : lane_side_a (i, block);
        float v = in[0][i];

        for (int j = 0; j < ITERATIONS; j++)
          v = side_a ? fmaf (v, 0.999f, 0.001f) : fmaf (v, 0.998f, 0.002f);
        ws_verify_element (&part, i, out[i], v);
      }
#pragma omp critical
    ws_verify_merge (result, &part);
  }
  ws_verify_finish (result);
}

static void
divergence_lane_verify (const WsLaunchConfig *cfg, const float *const *in, const float *out,
                        uint64_t seed, WsVerifyResult *result)
{
  (void) seed;
  verify (cfg, in, out, result, 0);
}

static void
divergence_warp_verify (const WsLaunchConfig *cfg, const float *const *in, const float *out,
                        uint64_t seed, WsVerifyResult *result)
{
  (void) seed;
  verify (cfg, in, out, result, 1);
}

#define DIVERGENCE_ENTRY(NAME, TITLE, DESCRIPTION, FUNCTION, LAUNCH, REFERENCE, VERIFY)      \
  {                                                                                          \
    .name = NAME, .family = "divergence", .title = TITLE, .description = DESCRIPTION,         \
    .source = "kernels/divergence.cu", .block_rank = 1, .shape_rank = 1,                      \
    .default_shape = { 10000000, 1, 1 }, .default_block = { 256, 1, 1 },                     \
    .flops_formula = "512·n", .bytes_formula = "8·n",                                         \
    .tolerance = "every element: |gpu − ref| ≤ 1e-7 + 1e-6·|ref|, ref the same float32 "     \
                 "fused multiply-adds on the CPU",                                            \
    .hidden = 0, .n_inputs = 1, .check_block = divergence_check_block,                        \
    .grid_for = divergence_grid, .buffer_elements = divergence_buffer_elements,               \
    .flops = divergence_flops, .bytes = divergence_bytes,                                     \
    .work_units = divergence_work_units, .function = FUNCTION, .dynamic_smem = NULL,          \
    .launch = LAUNCH, .reference = REFERENCE, .verify = VERIFY,                               \
    .block_fixed = 0, .library = NULL, .available = NULL, .whole_inputs = 0,                  \
    .piece = NULL, .launch_piece = NULL, .any_grid = 0, .cpu_sgemm = 0,                       \
  }

extern "C" const WsKernelDesc ws_divergence_lane_desc = DIVERGENCE_ENTRY (
    "divergence_lane", WS_N_ ("Branch on the lane: every warp diverges"),
    WS_N_ ("if (threadIdx.x % 2 == 0) one chain of 256 multiply-adds, else another: "
           "each warp runs both chains, half its lanes idle in each."),
    divergence_lane_function, divergence_lane_launch, divergence_lane_reference,
    divergence_lane_verify);

extern "C" const WsKernelDesc ws_divergence_warp_desc = DIVERGENCE_ENTRY (
    "divergence_warp", WS_N_ ("Branch on the warp: no warp diverges"),
    WS_N_ ("if ((threadIdx.x / 32) % 2 == 0) one chain of 256 multiply-adds, else "
           "another: the same work, but each warp runs only one chain."),
    divergence_warp_function, divergence_warp_launch, divergence_warp_reference,
    divergence_warp_verify);

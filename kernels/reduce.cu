/* reduce.cu: the sum of n floats, four ways: the tutorial's advice on atomics, measured. One
 * atomic per element; a shared-memory tree and one atomic per block; warp shuffles; warp
 * shuffles after each thread has summed many elements on its own.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-kernel.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

/* ---- GPU ------------------------------------------------------------------------------- */

/* Every element is added to one address in global memory: the additions to one address are
 * done one after another by the L2 cache, however many threads issue them. */
extern "C" __global__ void
reduce_atomic (const float *x, float *sum, uint64_t n)
{
  uint64_t i = (uint64_t) blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n)
    atomicAdd (sum, x[i]);
}

/* The classic tree: each step, the lower half of the threads adds the upper half's values
 * (neighbouring threads stay busy together, so whole warps drop out rather than half of
 * each); one atomic per block. Blocks are a power of two (any, from 1 thread). */
extern "C" __global__ void
reduce_shared (const float *x, float *sum, uint64_t n)
{
  extern __shared__ float part[];
  const unsigned t = threadIdx.x;
  uint64_t i = (uint64_t) blockIdx.x * blockDim.x + t;

  part[t] = i < n ? x[i] : 0.0f;
  __syncthreads ();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1)
    {
      if (t < s)
        part[t] += part[t + s];
      __syncthreads ();
    }
  if (t == 0)
    atomicAdd (sum, part[0]);
}

/* Within a warp, registers are exchanged directly (five shuffles for 32 values) with no
 * shared memory and no barrier. */
__device__ __forceinline__ float
warp_sum (float v)
{
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync (0xffffffffu, v, offset);
  return v;
}

/* Each warp's sum goes through shared memory once; the first warp adds them. The result is
 * right in thread 0. Blocks are whole warps (any multiple of 32). */
__device__ __forceinline__ float
block_sum (float v)
{
  __shared__ float warps[32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  v = warp_sum (v);
  if (lane == 0)
    warps[warp] = v;
  __syncthreads ();
  if (warp == 0)
    v = warp_sum (lane < blockDim.x / 32 ? warps[lane] : 0.0f);
  return v;
}

extern "C" __global__ void
reduce_warp (const float *x, float *sum, uint64_t n)
{
  uint64_t i = (uint64_t) blockIdx.x * blockDim.x + threadIdx.x;
  float v = block_sum (i < n ? x[i] : 0.0f);

  if (threadIdx.x == 0)
    atomicAdd (sum, v);
}

/* Float4s per thread per trip of the grid-stride loop, and trips the grid is sized for:
 * each thread sums 32 elements on its own, with four 16-byte loads in flight, before the
 * block adds up; the block's atomic and shuffles are then spread over 32 times the work. */
#define MULTI_UNROLL 4
#define MULTI_TRIPS 2
#define MULTI_PER_THREAD (MULTI_UNROLL * MULTI_TRIPS * 4)

extern "C" __global__ void
reduce_warp_multi (const float *__restrict__ x, float *sum, uint64_t n)
{
  const float4 *x4 = (const float4 *) x;
  const uint64_t n4 = n / 4, stride = (uint64_t) gridDim.x * blockDim.x;
  uint64_t i = (uint64_t) blockIdx.x * blockDim.x + threadIdx.x;
  const uint64_t first = i;
  float s[MULTI_UNROLL] = {};
  float v;

  for (; i + (MULTI_UNROLL - 1) * stride < n4; i += MULTI_UNROLL * stride)
    {
      float4 q[MULTI_UNROLL];

#pragma unroll
      for (int u = 0; u < MULTI_UNROLL; u++)
        q[u] = x4[i + u * stride];
#pragma unroll
      for (int u = 0; u < MULTI_UNROLL; u++)
        s[u] += (q[u].x + q[u].y) + (q[u].z + q[u].w);
    }
  for (; i < n4; i += stride)
    {
      float4 q = x4[i];

      s[0] += (q.x + q.y) + (q.z + q.w);
    }
  /* The last n % 4 elements, which make no whole float4, by the first threads of the grid;
   * a loop, so that a grid of fewer than three threads still adds all of them. */
  for (uint64_t j = n4 * 4 + first; j < n; j += stride)
    s[0] += x[j];
  v = block_sum ((s[0] + s[1]) + (s[2] + s[3]));
  if (threadIdx.x == 0)
    atomicAdd (sum, v);
}

/* ---- descriptors' GPU side ------------------------------------------------------------- */

/* Each reduction's blocks, with the reason in what that kernel does. */
static int
reduce_1d (const char *name, const unsigned block[3], char *why, size_t why_len)
{
  if (block[1] != 1 || block[2] != 1)
    {
      snprintf (why, why_len,
                "%s is a 1D kernel: give one number of threads per block, such as 256, not "
                "%ux%u",
                name, block[0], block[1]);
      return 0;
    }
  return 1;
}

/* One thread per element, each adding its own element with one atomicAdd: any block. */
static int
reduce_atomic_check_block (const unsigned block[3], char *why, size_t why_len)
{
  if (block[1] != 1 || block[2] != 1)
    {
      snprintf (why, why_len,
                "reduce_atomic is a 1D kernel: each thread adds its own element to the total "
                "with one atomicAdd, so any number of threads per block works; give one "
                "number, such as 256, not %ux%u",
                block[0], block[1]);
      return 0;
    }
  return 1;
}

/* The tree halves the block at each step: a power of two, however small. */
static int
reduce_shared_check_block (const unsigned block[3], char *why, size_t why_len)
{
  unsigned b = block[0];

  if (!reduce_1d ("reduce_shared", block, why, why_len))
    return 0;
  if ((b & (b - 1)) != 0)
    {
      snprintf (why, why_len,
                "reduce_shared adds pairs in shared memory, halving the threads at work at "
                "each step of its tree: give a power of two up to 1024, such as 256, not %u",
                b);
      return 0;
    }
  return 1;
}

/* Shuffles over all 32 lanes of a warp: whole warps. */
static int
reduce_warps_check_block (const char *name, const unsigned block[3], char *why,
                          size_t why_len)
{
  if (!reduce_1d (name, block, why, why_len))
    return 0;
  if (block[0] % 32 != 0)
    {
      snprintf (why, why_len,
                "%s adds each warp's 32 values with register shuffles, which need every lane "
                "of the warp: give a multiple of 32 up to 1024, such as 256, not %u",
                name, block[0]);
      return 0;
    }
  return 1;
}

static int
reduce_warp_check_block (const unsigned block[3], char *why, size_t why_len)
{
  return reduce_warps_check_block ("reduce_warp", block, why, why_len);
}

static int
reduce_multi_check_block (const unsigned block[3], char *why, size_t why_len)
{
  return reduce_warps_check_block ("reduce_warp_multi", block, why, why_len);
}

static void
reduce_grid (const uint64_t shape[3], const unsigned block[3], unsigned grid[3])
{
  uint64_t blocks = (shape[0] + block[0] - 1) / block[0];

  grid[0] = (unsigned) (blocks < 0x7fffffffull ? blocks : 0x7fffffffull);
  grid[1] = grid[2] = 1;
}

static void
reduce_multi_grid (const uint64_t shape[3], const unsigned block[3], unsigned grid[3])
{
  uint64_t per_block = (uint64_t) block[0] * MULTI_PER_THREAD;
  uint64_t blocks = (shape[0] + per_block - 1) / per_block;

  grid[0] = (unsigned) (blocks < 0x7fffffffull ? (blocks ? blocks : 1) : 0x7fffffffull);
  grid[1] = grid[2] = 1;
}

static uint64_t
reduce_buffer_elements (const uint64_t shape[3], int buffer)
{
  return buffer == 0 ? shape[0] : 1;
}

static double
reduce_flops (const uint64_t shape[3])
{
  return (double) shape[0];
}

static double
reduce_bytes (const uint64_t shape[3])
{
  return 4.0 * (double) shape[0] + 4.0;
}

static uint64_t
reduce_work_units (const uint64_t shape[3])
{
  return shape[0];
}

static size_t
reduce_shared_smem (const unsigned block[3])
{
  return (size_t) block[0] * sizeof (float);
}

typedef void (*ReduceKernel) (const float *, float *, uint64_t);

/* The sum accumulates into the output, so it is zeroed first, in the same stream (a memset
 * record beside each kernel in the trace). */
static cudaError_t
launch_with (ReduceKernel kernel, size_t smem, const WsLaunchConfig *cfg, float *const *dev,
             cudaStream_t stream)
{
  cudaError_t err = cudaMemsetAsync (dev[1], 0, sizeof (float), stream);

  if (err != cudaSuccess)
    return err;
  kernel<<<dim3 (cfg->grid[0]), dim3 (cfg->block[0]), smem, stream>>> (dev[0], dev[1],
                                                                       cfg->shape[0]);
  return cudaGetLastError ();
}

static const void *
reduce_atomic_function (const WsLaunchConfig *cfg)
{
  (void) cfg;
  return (const void *) reduce_atomic;
}

static const void *
reduce_shared_function (const WsLaunchConfig *cfg)
{
  (void) cfg;
  return (const void *) reduce_shared;
}

static const void *
reduce_warp_function (const WsLaunchConfig *cfg)
{
  (void) cfg;
  return (const void *) reduce_warp;
}

static const void *
reduce_multi_function (const WsLaunchConfig *cfg)
{
  (void) cfg;
  return (const void *) reduce_warp_multi;
}

static cudaError_t
reduce_atomic_launch (const WsLaunchConfig *cfg, float *const *dev, cudaStream_t stream)
{
  return launch_with (reduce_atomic, 0, cfg, dev, stream);
}

static cudaError_t
reduce_shared_launch (const WsLaunchConfig *cfg, float *const *dev, cudaStream_t stream)
{
  return launch_with (reduce_shared, reduce_shared_smem (cfg->block), cfg, dev, stream);
}

static cudaError_t
reduce_warp_launch (const WsLaunchConfig *cfg, float *const *dev, cudaStream_t stream)
{
  return launch_with (reduce_warp, 0, cfg, dev, stream);
}

static cudaError_t
reduce_multi_launch (const WsLaunchConfig *cfg, float *const *dev, cudaStream_t stream)
{
  return launch_with (reduce_warp_multi, 0, cfg, dev, stream);
}

/* ---- CPU reference --------------------------------------------------------------------- */

typedef float v8f __attribute__ ((vector_size (8 * sizeof (float))));

/* Four 8-float accumulators, so the additions of one thread do not wait for each other. */
WS_CPU_CLONES static float
sum_range (const float *x, uint64_t lo, uint64_t hi)
{
  v8f a0 = {}, a1 = {}, a2 = {}, a3 = {};
  uint64_t i = lo;
  float s = 0.0f;

  for (; i + 32 <= hi; i += 32)
    {
      v8f x0, x1, x2, x3;

      memcpy (&x0, x + i, sizeof x0);
      memcpy (&x1, x + i + 8, sizeof x1);
      memcpy (&x2, x + i + 16, sizeof x2);
      memcpy (&x3, x + i + 24, sizeof x3);
      a0 += x0, a1 += x1, a2 += x2, a3 += x3;
    }
  a0 += a1 + a2 + a3;
  for (int j = 0; j < 8; j++)
    s += a0[j];
  for (; i < hi; i++)
    s += x[i];
  return s;
}

static void
reduce_reference (const WsLaunchConfig *cfg, const float *const *in, float *out, int threads,
                  uint64_t part)
{
  const uint64_t n = part ? part : cfg->shape[0];
  float total = 0.0f;

  if (threads <= 1)
    {
      out[0] = sum_range (in[0], 0, n);
      return;
    }
#pragma omp parallel num_threads (threads) reduction(+ : total)
  {
    uint64_t t = (uint64_t) omp_get_thread_num (), nt = (uint64_t) omp_get_num_threads ();

    total += sum_range (in[0], n * t / nt, n * (t + 1) / nt);
  }
  out[0] = total;
}

/* ---- verification ---------------------------------------------------------------------- */

/* Float32 sums are not exact, and the order of the additions is the kernel's (for atomics,
 * whatever order they reach L2). The worst-case bound, n·2⁻²⁴·Σ|x|, grows as n² and would
 * pass almost anything at large n; the error one actually meets is a random walk: a running
 * sum of zero-mean data stays near √k·rms(x) after k terms, each addition rounds it by up to
 * 2⁻²⁴ of that, and n such errors add up to about 0.4·2⁻²⁴·n·rms(x) = 0.4·2⁻²⁴·√n·‖x‖₂ for
 * the worst kernel here, the single accumulator of reduce_atomic. So the tolerance grows in
 * proportion to n: atol = 4·2⁻²⁴·√n·max(‖x‖₂, |Σx|), ten times that estimate (|Σx| takes
 * over for inputs whose mean is not zero, where the running sum grows like the sum). For
 * the runner's inputs, uniform in [−1, 1), that is about 14 at n = 10⁸ on a sum near
 * ±5,800, and 0.14 at n = 10⁶, where one dropped block of 256 elements would be off by
 * about 9. */
static void
reduce_verify (const WsLaunchConfig *cfg, const float *const *in, const float *out,
               uint64_t seed, WsVerifyResult *result)
{
  const uint64_t n = cfg->shape[0];
  double sum = 0.0, squares = 0.0;

  (void) seed;
#pragma omp parallel for reduction(+ : sum, squares) schedule(static)
  for (uint64_t i = 0; i < n; i++)
    {
      double v = in[0][i];

      sum += v;
      squares += v * v;
    }
  ws_verify_init (result, "all", 0.0,
                  4.0 * ldexp (1.0, -24) * sqrt ((double) n) * fmax (sqrt (squares), fabs (sum)),
                  1);
  ws_verify_element (result, 0, out[0], sum);
  ws_verify_finish (result);
}

/* ---- catalog entries ------------------------------------------------------------------- */

#define REDUCE_TOLERANCE                                                                     \
  "|gpu − ref| ≤ 4·2⁻²⁴·√n·max(‖x‖₂, |Σx|), ref the sum in double precision: float32 "    \
  "rounding errors add up like a random walk, about 0.4·2⁻²⁴·n·rms(x) for one "            \
  "accumulator, so the tolerance grows in proportion to n, with a margin of ten"

#define REDUCE_ENTRY(NAME, TITLE, DESCRIPTION, CHECK, GRID, ANY_GRID, FUNCTION, SMEM, LAUNCH)  \
  {                                                                                          \
    .name = NAME, .family = "reduce", .title = TITLE, .description = DESCRIPTION,             \
    .source = "kernels/reduce.cu", .block_rank = 1, .shape_rank = 1,                          \
    .default_shape = { 100000000, 1, 1 }, .default_block = { 256, 1, 1 },                    \
    .flops_formula = "n", .bytes_formula = "4·n + 4", .tolerance = REDUCE_TOLERANCE,          \
    .hidden = 0, .n_inputs = 1, .check_block = CHECK, .grid_for = GRID,                       \
    .buffer_elements = reduce_buffer_elements, .flops = reduce_flops, .bytes = reduce_bytes,   \
    .work_units = reduce_work_units, .function = FUNCTION, .dynamic_smem = SMEM,             \
    .launch = LAUNCH, .reference = reduce_reference, .verify = reduce_verify,                 \
    .block_fixed = 0, .library = NULL, .available = NULL, .whole_inputs = 0,                  \
    .piece = NULL, .launch_piece = NULL, .any_grid = ANY_GRID, .cpu_sgemm = 0,                \
  }

extern "C" const WsKernelDesc ws_reduce_atomic_desc
    = REDUCE_ENTRY ("reduce_atomic", WS_N_ ("Sum, one atomic per element"),
                    WS_N_ ("Every thread adds its element to the one total with atomicAdd: all the "
                           "additions queue up at one address."),
                    reduce_atomic_check_block, reduce_grid, 0, reduce_atomic_function, NULL,
                    reduce_atomic_launch);

extern "C" const WsKernelDesc ws_reduce_shared_desc = REDUCE_ENTRY (
    "reduce_shared", WS_N_ ("Sum, shared-memory tree"),
    WS_N_ ("Each block adds its elements pairwise in shared memory, halving the active "
           "threads at each step, then makes one atomicAdd."),
    reduce_shared_check_block, reduce_grid, 0, reduce_shared_function, reduce_shared_smem,
    reduce_shared_launch);

extern "C" const WsKernelDesc ws_reduce_warp_desc = REDUCE_ENTRY (
    "reduce_warp", WS_N_ ("Sum, warp shuffles"),
    WS_N_ ("Each warp adds its 32 values with register shuffles, the warps' sums meet "
           "once in shared memory, and the block makes one atomicAdd."),
    reduce_warp_check_block, reduce_grid, 0, reduce_warp_function, NULL, reduce_warp_launch);

extern "C" const WsKernelDesc ws_reduce_warp_multi_desc
    = REDUCE_ENTRY ("reduce_warp_multi", WS_N_ ("Sum, warp shuffles, 32 elements per thread"),
                    WS_N_ ("Each thread first sums 32 elements on its own, read as float4 in a "
                           "grid-stride loop; then warp shuffles and one atomicAdd per block."),
                    reduce_multi_check_block, reduce_multi_grid, 1, reduce_multi_function, NULL,
                    reduce_multi_launch);

/* matmul.cu: C = A·B in float32, row-major, A m×k, B k×n: the naive kernel and the
 * tutorial's shared-memory tiled kernel (§5), with an honest blocked CPU reference and the
 * verification the whole family shares (matmul_regtile.cu and matmul_cublas.cu use them).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "matmul.h"
#include "ws-gemm-cpu.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- GPU ------------------------------------------------------------------------------- */

/* One thread per element of C, reading a row of A and a column of B from global memory. */
extern "C" __global__ void
matmul_naive (const float *A, const float *B, float *C, int m, int n, int k)
{
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;

  if (row < m && col < n)
    {
      float tmp = 0.0f;

      for (int i = 0; i < k; i++)
        tmp += A[(size_t) row * k + i] * B[(size_t) i * n + col];
      C[(size_t) row * n + col] = tmp;
    }
}

/* The tutorial's matmul_shared_mem: a TPB×TPB block computes a TPB×TPB tile of C, staging
 * tiles of A and B in shared memory, zero-filled where they run past the matrix edges. */
template <int TPB>
__device__ __forceinline__ void
matmul_tiled_body (const float *A, const float *B, float *C, int m, int n, int k)
{
  __shared__ float sA[TPB][TPB];
  __shared__ float sB[TPB][TPB];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TPB + ty;
  int col = blockIdx.x * TPB + tx;
  float tmp = 0.0f;

  for (int kk = 0; kk < k; kk += TPB)
    {
      sA[ty][tx] = (row < m && kk + tx < k) ? A[(size_t) row * k + kk + tx] : 0.0f;
      sB[ty][tx] = (kk + ty < k && col < n) ? B[(size_t) (kk + ty) * n + col] : 0.0f;
      __syncthreads (); /* every thread's loads are in shared memory */
      for (int i = 0; i < TPB; i++)
        tmp += sA[ty][i] * sB[i][tx];
      __syncthreads (); /* nobody still reads the tile the next iteration overwrites */
    }
  if (row < m && col < n)
    C[(size_t) row * n + col] = tmp;
}

/* One named kernel per tile so that traces and profilers show a readable name. */
extern "C" __global__ void
matmul_tiled_8 (const float *A, const float *B, float *C, int m, int n, int k)
{
  matmul_tiled_body<8> (A, B, C, m, n, k);
}

extern "C" __global__ void
matmul_tiled_16 (const float *A, const float *B, float *C, int m, int n, int k)
{
  matmul_tiled_body<16> (A, B, C, m, n, k);
}

extern "C" __global__ void
matmul_tiled_32 (const float *A, const float *B, float *C, int m, int n, int k)
{
  matmul_tiled_body<32> (A, B, C, m, n, k);
}

typedef void (*MatmulKernel) (const float *, const float *, float *, int, int, int);

static MatmulKernel
tiled_kernel_for (unsigned edge)
{
  switch (edge)
    {
    case 8: return matmul_tiled_8;
    case 16: return matmul_tiled_16;
    case 32: return matmul_tiled_32;
    default: return NULL;
    }
}

static int
matmul_naive_check_block (const unsigned block[3], char *why, size_t why_len)
{
  if (block[2] != 1)
    {
      snprintf (why, why_len, "matmul_naive takes a 2D block such as 16x16, not a 3D one");
      return 0;
    }
  /* Any W×H the device allows, 1024x1 and 1x1024 included: the runner refuses a single
   * number for a 2D kernel before it gets here. */
  return 1;
}

static int
matmul_tiled_check_block (const unsigned block[3], char *why, size_t why_len)
{
  if (block[0] != block[1] || block[2] != 1 || tiled_kernel_for (block[0]) == NULL)
    {
      snprintf (why, why_len,
                "matmul_tiled uses square tiles as large as the block: give 8x8, 16x16 or "
                "32x32, not %ux%u%s",
                block[0], block[1], block[2] != 1 ? "x…" : "");
      return 0;
    }
  return 1;
}

void
ws_matmul_grid (const uint64_t shape[3], const unsigned block[3], unsigned grid[3])
{
  grid[0] = ws_div_up (shape[1], block[0]); /* columns of C */
  grid[1] = ws_div_up (shape[0], block[1]); /* rows of C */
  grid[2] = 1;
}

uint64_t
ws_matmul_buffer_elements (const uint64_t shape[3], int buffer)
{
  const uint64_t m = shape[0], n = shape[1], k = shape[2];

  switch (buffer)
    {
    case 0: return m * k;
    case 1: return k * n;
    default: return m * n;
    }
}

double
ws_matmul_flops (const uint64_t shape[3])
{
  return 2.0 * (double) shape[0] * (double) shape[1] * (double) shape[2];
}

double
ws_matmul_bytes (const uint64_t shape[3])
{
  const double m = (double) shape[0], n = (double) shape[1], k = (double) shape[2];

  return 4.0 * (m * k + k * n + m * n);
}

uint64_t
ws_matmul_work_units (const uint64_t shape[3])
{
  return shape[0];
}

static const void *
matmul_naive_function (const WsLaunchConfig *cfg)
{
  (void) cfg;
  return (const void *) matmul_naive;
}

static const void *
matmul_tiled_function (const WsLaunchConfig *cfg)
{
  return (const void *) tiled_kernel_for (cfg->block[0]);
}

static cudaError_t
launch_with (MatmulKernel kernel, const WsLaunchConfig *cfg, float *const *dev,
             cudaStream_t stream)
{
  dim3 grid (cfg->grid[0], cfg->grid[1]), block (cfg->block[0], cfg->block[1]);

  kernel<<<grid, block, 0, stream>>> (dev[0], dev[1], dev[2], (int) cfg->shape[0],
                                       (int) cfg->shape[1], (int) cfg->shape[2]);
  return cudaGetLastError ();
}

static cudaError_t
matmul_naive_launch (const WsLaunchConfig *cfg, float *const *dev, cudaStream_t stream)
{
  return launch_with (matmul_naive, cfg, dev, stream);
}

static cudaError_t
matmul_tiled_launch (const WsLaunchConfig *cfg, float *const *dev, cudaStream_t stream)
{
  return launch_with (tiled_kernel_for (cfg->block[0]), cfg, dev, stream);
}

/* ---- streams:K: blocks of rows of A and C, all of B ------------------------------------ */

void
ws_matmul_piece (const WsLaunchConfig *cfg, int pieces, int p, WsRegion region[])
{
  const uint64_t m = cfg->shape[0], n = cfg->shape[1], k = cfg->shape[2];
  uint64_t lo, hi;

  ws_piece_range (m, pieces, p, m >= 128ull * (uint64_t) pieces ? 128 : 1, &lo, &hi);
  region[0] = ws_region_range (lo * k, hi * k);
  region[1] = ws_region_range (0, k * n);
  region[2] = ws_region_range (lo * n, hi * n);
}

int
ws_matmul_slice (const WsKernelDesc *desc, const WsLaunchConfig *cfg, int pieces, int p,
                 float *const *dev, WsLaunchConfig *sub, float *slice[3])
{
  const uint64_t m = cfg->shape[0], n = cfg->shape[1], k = cfg->shape[2];
  uint64_t lo, hi;

  ws_piece_range (m, pieces, p, m >= 128ull * (uint64_t) pieces ? 128 : 1, &lo, &hi);
  if (hi == lo)
    return 0;
  *sub = *cfg;
  sub->shape[0] = hi - lo;
  desc->grid_for (sub->shape, sub->block, sub->grid);
  slice[0] = dev[0] + lo * k;
  slice[1] = dev[1];
  slice[2] = dev[2] + lo * n;
  return 1;
}

extern "C" const WsKernelDesc ws_matmul_naive_desc, ws_matmul_tiled_desc;

static cudaError_t
matmul_naive_launch_piece (const WsLaunchConfig *cfg, int pieces, int p, float *const *dev,
                           cudaStream_t stream)
{
  WsLaunchConfig sub;
  float *slice[3];

  if (!ws_matmul_slice (&ws_matmul_naive_desc, cfg, pieces, p, dev, &sub, slice))
    return cudaSuccess;
  return matmul_naive_launch (&sub, slice, stream);
}

static cudaError_t
matmul_tiled_launch_piece (const WsLaunchConfig *cfg, int pieces, int p, float *const *dev,
                           cudaStream_t stream)
{
  WsLaunchConfig sub;
  float *slice[3];

  if (!ws_matmul_slice (&ws_matmul_tiled_desc, cfg, pieces, p, dev, &sub, slice))
    return cudaSuccess;
  return matmul_tiled_launch (&sub, slice, stream);
}

/* ---- CPU reference --------------------------------------------------------------------- */

void
ws_matmul_reference (const WsLaunchConfig *cfg, const float *const *in, float *out, int threads,
                     uint64_t part)
{
  ws_gemm_cpu (in[0], in[1], out, part ? part : cfg->shape[0], cfg->shape[1], cfg->shape[2],
               threads);
}

/* ---- verification ---------------------------------------------------------------------- */

static uint64_t
splitmix64 (uint64_t *state)
{
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);

  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static double
dot_double (const float *A, const float *B, uint64_t row, uint64_t col, uint64_t n, uint64_t k)
{
  double sum = 0.0;

  for (uint64_t i = 0; i < k; i++)
    sum += (double) A[row * k + i] * (double) B[i * n + col];
  return sum;
}

/* Outputs up to this many multiply-adds are checked element by element; larger ones on a
 * random sample of SAMPLE elements, plus a scan of every element for the NaN poison. */
#define FULL_CHECK_FMAS (1ull << 31)
#define SAMPLE 65536

void
ws_matmul_verify (const WsLaunchConfig *cfg, const float *const *in, const float *out,
               uint64_t seed, WsVerifyResult *result)
{
  const uint64_t m = cfg->shape[0], n = cfg->shape[1], k = cfg->shape[2];
  const int full = m * n * k <= FULL_CHECK_FMAS || m * n <= SAMPLE;
  /* The tutorial's allclose(rtol=1e-4, atol=1e-4) at k = 512. Rounding error in a float32
   * dot product grows with its length, so atol grows in proportion to k beyond 512. */
  const double atol = 1e-4 * (k > 512 ? (double) k / 512.0 : 1.0);

  ws_verify_init (result, full ? "all" : "sample", 1e-4, atol, m * n);
  if (full)
    {
#pragma omp parallel
      {
        WsVerifyResult part;

        ws_verify_init (&part, "all", result->rtol, result->atol, m * n);
#pragma omp for schedule(dynamic, 4) nowait
        for (uint64_t row = 0; row < m; row++)
          for (uint64_t col = 0; col < n; col++)
            ws_verify_element (&part, row * n + col, out[row * n + col],
                               dot_double (in[0], in[1], row, col, n, k));
#pragma omp critical
        ws_verify_merge (result, &part);
      }
    }
  else
    {
      uint64_t poison = ws_count_poison (out, m * n);

#pragma omp parallel
      {
        WsVerifyResult part;

        ws_verify_init (&part, "sample", result->rtol, result->atol, m * n);
#pragma omp for schedule(static) nowait
        for (uint64_t s = 0; s < SAMPLE; s++)
          {
            uint64_t state = seed ^ (s * 0xD1B54A32D192ED03ull);
            uint64_t idx = splitmix64 (&state) % (m * n);

            ws_verify_element (&part, idx, out[idx],
                               dot_double (in[0], in[1], idx / n, idx % n, n, k));
          }
#pragma omp critical
        ws_verify_merge (result, &part);
      }
      /* Unwritten elements outside the sample fail the run too. */
      if (poison > result->unwritten)
        {
          result->mismatches += poison - result->unwritten;
          result->unwritten = poison;
          if (result->first_bad < 0)
            for (uint64_t i = 0; i < m * n; i++)
              if (isnan (out[i]))
                {
                  result->first_bad = (int64_t) i;
                  result->first_bad_value = out[i];
                  result->first_bad_expected
                    = dot_double (in[0], in[1], i / n, i % n, n, k);
                  break;
                }
        }
    }
  ws_verify_finish (result);
}

/* ---- catalog entries ------------------------------------------------------------------- */

extern "C" const WsKernelDesc ws_matmul_naive_desc = {
  .name = "matmul_naive",
  .family = "matmul",
  .title = WS_N_ ("Matrix multiply, naive"),
  .description = WS_N_ ("One thread per element of C reads a whole row of A and column of B from "
                        "global memory."),
  .source = "kernels/matmul.cu",
  .block_rank = 2,
  .shape_rank = 3,
  .default_shape = { 512, 512, 512 },
  .default_block = { 16, 16, 1 },
  .flops_formula = "2·m·n·k",
  .bytes_formula = "4·(m·k + k·n + m·n)",
  .tolerance = WS_MATMUL_TOLERANCE,
  .hidden = 0,
  .n_inputs = 2,
  .check_block = matmul_naive_check_block,
  .grid_for = ws_matmul_grid,
  .buffer_elements = ws_matmul_buffer_elements,
  .flops = ws_matmul_flops,
  .bytes = ws_matmul_bytes,
  .work_units = ws_matmul_work_units,
  .function = matmul_naive_function,
  .dynamic_smem = NULL,
  .launch = matmul_naive_launch,
  .reference = ws_matmul_reference,
  .verify = ws_matmul_verify,
  .block_fixed = 0,
  .library = NULL,
  .available = NULL,
  .whole_inputs = WS_MATMUL_WHOLE_INPUTS,
  .piece = ws_matmul_piece,
  .launch_piece = matmul_naive_launch_piece,
  .any_grid = 0,
  .cpu_sgemm = 1,
};

extern "C" const WsKernelDesc ws_matmul_tiled_desc = {
  .name = "matmul_tiled",
  .family = "matmul",
  .title = WS_N_ ("Matrix multiply, shared-memory tiles"),
  .description
  = WS_N_ ("The tutorial's kernel: each block stages square tiles of A and B in shared "
           "memory, so every value read from global memory is used by a whole tile row."),
  .source = "kernels/matmul.cu",
  .block_rank = 2,
  .shape_rank = 3,
  .default_shape = { 512, 512, 512 },
  .default_block = { 16, 16, 1 },
  .flops_formula = "2·m·n·k",
  .bytes_formula = "4·(m·k + k·n + m·n)",
  .tolerance = WS_MATMUL_TOLERANCE,
  .hidden = 0,
  .n_inputs = 2,
  .check_block = matmul_tiled_check_block,
  .grid_for = ws_matmul_grid,
  .buffer_elements = ws_matmul_buffer_elements,
  .flops = ws_matmul_flops,
  .bytes = ws_matmul_bytes,
  .work_units = ws_matmul_work_units,
  .function = matmul_tiled_function,
  .dynamic_smem = NULL,
  .launch = matmul_tiled_launch,
  .reference = ws_matmul_reference,
  .verify = ws_matmul_verify,
  .block_fixed = 0,
  .library = NULL,
  .available = NULL,
  .whole_inputs = WS_MATMUL_WHOLE_INPUTS,
  .piece = ws_matmul_piece,
  .launch_piece = matmul_tiled_launch_piece,
  .any_grid = 0,
  .cpu_sgemm = 1,
};

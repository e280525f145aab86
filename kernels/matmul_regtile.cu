/* matmul_regtile.cu: the matmul ladder's last hand-written rung: 128×128 tiles of C per block,
 * an 8×8 register tile per thread, 16-byte shared-memory loads, double-buffered tiles.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "matmul.h"

#include <stdint.h>
#include <stdio.h>

/* The tiled kernel does one multiply-add per two shared-memory loads; FP32 units can do
 * far more than shared memory can feed that way. Here each thread keeps an 8×8 block of C
 * in registers: per step of k it loads 8 values of A and 8 of B (four 16-byte loads) and
 * does 64 multiply-adds with them, sixteen times the reuse. */
#define BM 128 /* rows of C per block */
#define BN 128 /* columns of C per block */
#define BK 8   /* depth of one tile of A and B */
#define TM 8   /* rows of C per thread */
#define TN 8   /* columns of C per thread */
#define THREADS 256
/* A's tile is stored transposed (k-major) so that a thread's 8 values of A are two float4
 * loads. Writing it transposed puts the two threads that share a row of A in one bank;
 * four floats of padding per row move the odd threads 16 banks over. */
#define PAD 4

/* Thread (tx, ty) of the 16×16 block owns rows ty·4 … ty·4+3 and 64+ty·4 … of the block's
 * tile and columns tx·4 … and 64+tx·4 …: two 4-wide halves 64 apart rather than 8 adjacent,
 * so that a warp's loads of B cover 256 contiguous bytes without bank conflicts and its
 * loads of A are two broadcasts. VEC: rows of A and B start on 16-byte boundaries (k and n
 * multiples of 4) and tiles are loaded and C stored as float4; otherwise one float at a
 * time. Either way, parts of tiles past the matrix edges are zero-filled. */
template <bool VEC>
__device__ __forceinline__ void
regtile_body (const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
              int m, int n, int k)
{
  __shared__ __align__ (16) float As[2][BK][BM + PAD];
  __shared__ __align__ (16) float Bs[2][BK][BN];
  const int tid = threadIdx.y * 16 + threadIdx.x;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  /* Which part of each tile this thread copies from global memory: a float4 of a row of A
   * (two threads per row), a float4 of a row of B (32 threads per row). */
  const int a_row = tid / 2, a_col = (tid % 2) * 4;
  const int b_row = tid / 32, b_col = (tid % 32) * 4;
  const bool a_row_in = row0 + a_row < m;
  const float *a_src = A + (size_t) (a_row_in ? row0 + a_row : 0) * k + a_col;
  const int ktiles = (k + BK - 1) / BK;
  float acc[TM][TN];
  float4 a_next, b_next;

#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++)
      acc[i][j] = 0.0f;

  /* Reads tile t of A and B into registers. */
  auto load = [&] (int t) {
    const int ka = t * BK + a_col, kb = t * BK + b_row, cb = col0 + b_col;
    const float *b_src = B + (size_t) kb * n + cb;

    if (VEC)
      {
        a_next = a_row_in && ka < k ? *(const float4 *) (a_src + t * BK)
                                    : make_float4 (0.0f, 0.0f, 0.0f, 0.0f);
        b_next = kb < k && cb < n ? *(const float4 *) b_src
                                  : make_float4 (0.0f, 0.0f, 0.0f, 0.0f);
      }
    else
      {
        const float *a = a_src + t * BK;

        a_next.x = a_row_in && ka < k ? a[0] : 0.0f;
        a_next.y = a_row_in && ka + 1 < k ? a[1] : 0.0f;
        a_next.z = a_row_in && ka + 2 < k ? a[2] : 0.0f;
        a_next.w = a_row_in && ka + 3 < k ? a[3] : 0.0f;
        b_next.x = kb < k && cb < n ? b_src[0] : 0.0f;
        b_next.y = kb < k && cb + 1 < n ? b_src[1] : 0.0f;
        b_next.z = kb < k && cb + 2 < n ? b_src[2] : 0.0f;
        b_next.w = kb < k && cb + 3 < n ? b_src[3] : 0.0f;
      }
  };
  /* Writes the registers into shared-memory buffer s, A transposed. */
  auto store = [&] (int s) {
    As[s][a_col + 0][a_row] = a_next.x;
    As[s][a_col + 1][a_row] = a_next.y;
    As[s][a_col + 2][a_row] = a_next.z;
    As[s][a_col + 3][a_row] = a_next.w;
    *(float4 *) &Bs[s][b_row][b_col] = b_next;
  };

  load (0);
  store (0);
  __syncthreads ();
  for (int t = 0; t < ktiles; t++)
    {
      const int cur = t & 1;

      /* The next tile's global loads are issued first, so their latency passes while
       * this tile is multiplied. */
      if (t + 1 < ktiles)
        load (t + 1);
#pragma unroll
      for (int kk = 0; kk < BK; kk++)
        {
          const float4 a0 = *(const float4 *) &As[cur][kk][ty * 4];
          const float4 a1 = *(const float4 *) &As[cur][kk][64 + ty * 4];
          const float4 b0 = *(const float4 *) &Bs[cur][kk][tx * 4];
          const float4 b1 = *(const float4 *) &Bs[cur][kk][64 + tx * 4];
          const float a[TM] = { a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w };
          const float b[TN] = { b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w };

#pragma unroll
          for (int i = 0; i < TM; i++)
#pragma unroll
            for (int j = 0; j < TN; j++)
              acc[i][j] = fmaf (a[i], b[j], acc[i][j]);
        }
      /* The other buffer was last read in the previous trip, before its barrier, so it can
       * be overwritten now; one barrier per tile then publishes it. */
      if (t + 1 < ktiles)
        store (cur ^ 1);
      __syncthreads ();
    }

#pragma unroll
  for (int i = 0; i < TM; i++)
    {
      const int row = row0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + i - 4);

      if (row >= m)
        continue;
#pragma unroll
      for (int h = 0; h < 2; h++)
        {
          const int col = col0 + h * 64 + tx * 4;
          float *dst = C + (size_t) row * n + col;

          if (VEC)
            {
              if (col < n)
                *(float4 *) dst = make_float4 (acc[i][h * 4], acc[i][h * 4 + 1],
                                               acc[i][h * 4 + 2], acc[i][h * 4 + 3]);
            }
          else
#pragma unroll
            for (int j = 0; j < 4; j++)
              if (col + j < n)
                dst[j] = acc[i][h * 4 + j];
        }
    }
}

/* Two registers' worth of blocks fit on an SM (at most 128 registers a thread). */
extern "C" __global__ void __launch_bounds__ (THREADS, 2)
matmul_regtile (const float *A, const float *B, float *C, int m, int n, int k)
{
  regtile_body<true> (A, B, C, m, n, k);
}

/* The same for k or n not a multiple of 4: rows of A or B then start anywhere, so tiles
 * are read one float at a time. */
extern "C" __global__ void __launch_bounds__ (THREADS, 2)
matmul_regtile_unaligned (const float *A, const float *B, float *C, int m, int n, int k)
{
  regtile_body<false> (A, B, C, m, n, k);
}

/* Rows of A (k floats) and of B and C (n floats) start on 16-byte boundaries. */
static int
rows_aligned (const uint64_t shape[3])
{
  return shape[1] % 4 == 0 && shape[2] % 4 == 0;
}

static int
aligned_for_vectors (const WsLaunchConfig *cfg, float *const *dev)
{
  return rows_aligned (cfg->shape)
         && (((uintptr_t) dev[0] | (uintptr_t) dev[1] | (uintptr_t) dev[2]) & 15) == 0;
}

static int
regtile_check_block (const unsigned block[3], char *why, size_t why_len)
{
  if (block[0] != 16 || block[1] != 16 || block[2] != 1)
    {
      snprintf (why, why_len,
                "matmul_regtile is built around 16x16 blocks (each thread computes 8×8 "
                "elements of a 128×128 tile), not %ux%u",
                block[0], block[1]);
      return 0;
    }
  return 1;
}

static void
regtile_grid (const uint64_t shape[3], const unsigned block[3], unsigned grid[3])
{
  (void) block;
  grid[0] = ws_div_up (shape[1], BN);
  grid[1] = ws_div_up (shape[0], BM);
  grid[2] = 1;
}

/* The function a whole launch runs: cudaMalloc'd buffers are aligned, so the shape alone
 * decides, as in regtile_launch; the launch record then gives that function's registers. */
static const void *
regtile_function (const WsLaunchConfig *cfg)
{
  return rows_aligned (cfg->shape) ? (const void *) matmul_regtile
                                   : (const void *) matmul_regtile_unaligned;
}

static cudaError_t
regtile_launch (const WsLaunchConfig *cfg, float *const *dev, cudaStream_t stream)
{
  dim3 grid (cfg->grid[0], cfg->grid[1]), block (16, 16);
  int m = (int) cfg->shape[0], n = (int) cfg->shape[1], k = (int) cfg->shape[2];

  if (aligned_for_vectors (cfg, dev))
    matmul_regtile<<<grid, block, 0, stream>>> (dev[0], dev[1], dev[2], m, n, k);
  else
    matmul_regtile_unaligned<<<grid, block, 0, stream>>> (dev[0], dev[1], dev[2], m, n, k);
  return cudaGetLastError ();
}

extern "C" const WsKernelDesc ws_matmul_regtile_desc;

static cudaError_t
regtile_launch_piece (const WsLaunchConfig *cfg, int pieces, int p, float *const *dev,
                      cudaStream_t stream)
{
  WsLaunchConfig sub;
  float *slice[3];

  if (!ws_matmul_slice (&ws_matmul_regtile_desc, cfg, pieces, p, dev, &sub, slice))
    return cudaSuccess;
  return regtile_launch (&sub, slice, stream);
}

extern "C" const WsKernelDesc ws_matmul_regtile_desc = {
  .name = "matmul_regtile",
  .family = "matmul",
  .title = WS_N_ ("Matrix multiply, register tiles"),
  .description
  = WS_N_ ("Each block computes a 128×128 tile of C and each thread an 8×8 block of it "
           "in registers, from tiles of A and B double-buffered in shared memory and "
           "read as float4. The block is fixed at 16×16."),
  .source = "kernels/matmul_regtile.cu",
  .block_rank = 2,
  .shape_rank = 3,
  .default_shape = { 4096, 4096, 4096 },
  .default_block = { 16, 16, 1 },
  .flops_formula = "2·m·n·k",
  .bytes_formula = "4·(m·k + k·n + m·n)",
  .tolerance = WS_MATMUL_TOLERANCE,
  .hidden = 0,
  .n_inputs = 2,
  .check_block = regtile_check_block,
  .grid_for = regtile_grid,
  .buffer_elements = ws_matmul_buffer_elements,
  .flops = ws_matmul_flops,
  .bytes = ws_matmul_bytes,
  .work_units = ws_matmul_work_units,
  .function = regtile_function,
  .dynamic_smem = NULL,
  .launch = regtile_launch,
  .reference = ws_matmul_reference,
  .verify = ws_matmul_verify,
  .block_fixed = 1,
  .library = NULL,
  .available = NULL,
  .whole_inputs = WS_MATMUL_WHOLE_INPUTS,
  .piece = ws_matmul_piece,
  .launch_piece = regtile_launch_piece,
  .any_grid = 0,
  .cpu_sgemm = 1,
};

/* transpose.cu: out = inᵀ for a rows×cols float32 matrix, three ways: coalescing and shared-
 * memory bank conflicts, measured. A transpose moves every byte once, so its ceiling is
 * the device-to-device copy.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-kernel.h"

#include <omp.h>
#include <stdio.h>
#include <string.h>

/* ---- GPU ------------------------------------------------------------------------------- */

/* `in` is rows×cols; `out` holds its columns as rows, ld_out floats apart (rows for the
 * whole matrix; streams:K transposes blocks of rows into blocks of columns of it). */

/* One thread per element: a warp reads 32 neighbours of one row (one 128-byte line) and
 * writes them to 32 different rows of out, 32 lines for 128 useful bytes. */
extern "C" __global__ void
transpose_naive (const float *in, float *out, int rows, int cols, int ld_out)
{
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;

  if (r < rows && c < cols)
    out[(size_t) c * ld_out + r] = in[(size_t) r * cols + c];
}

#define TILE 32
/* Rows of the tile each thread reads before it stores any: four independent loads in flight
 * per thread rather than one. The rows a thread handles (32 / blockDim.y of them) are only
 * known at run time, so a plain loop would wait for each load before it issues the next. */
#define BATCH 4

/* A 32×32 tile is read a row at a time, as the naive kernel does, and written a row of out
 * at a time from the tile's columns: both sides coalesced. A block of 32×H threads does
 * 32/H rows each. Without padding, a column of the tile lies in one shared-memory bank (32
 * floats a row, 32 banks), so reading it takes 32 turns; one float of padding per row puts
 * each element of a column in a different bank. */
template <int PAD>
__device__ __forceinline__ void
transpose_tile (const float *in, float *out, int rows, int cols, int ld_out)
{
  __shared__ float tile[TILE][TILE + PAD];
  const int c = blockIdx.x * TILE + threadIdx.x;
  const int r0 = blockIdx.y * TILE;
  const int out_c = r0 + threadIdx.x;       /* a row of in is a column of out */
  const int out_r0 = blockIdx.x * TILE;
  const int step = blockDim.y;

  for (int j0 = threadIdx.y; j0 < TILE; j0 += BATCH * step)
    {
      float v[BATCH];

#pragma unroll
      for (int b = 0; b < BATCH; b++)
        {
          const int j = j0 + b * step;

          v[b] = j < TILE && r0 + j < rows && c < cols ? in[(size_t) (r0 + j) * cols + c] : 0.0f;
        }
#pragma unroll
      for (int b = 0; b < BATCH; b++)
        if (j0 + b * step < TILE)
          tile[j0 + b * step][threadIdx.x] = v[b];
    }
  __syncthreads ();
  for (int j = threadIdx.y; j < TILE; j += step)
    if (out_r0 + j < cols && out_c < rows)
      out[(size_t) (out_r0 + j) * ld_out + out_c] = tile[threadIdx.x][j];
}

extern "C" __global__ void
transpose_shared (const float *in, float *out, int rows, int cols, int ld_out)
{
  transpose_tile<0> (in, out, rows, cols, ld_out);
}

extern "C" __global__ void
transpose_padded (const float *in, float *out, int rows, int cols, int ld_out)
{
  transpose_tile<1> (in, out, rows, cols, ld_out);
}

typedef void (*TransposeKernel) (const float *, float *, int, int, int);

static int
transpose_naive_check_block (const unsigned block[3], char *why, size_t why_len)
{
  if (block[2] != 1)
    {
      snprintf (why, why_len,
                "transpose_naive takes a 2D block such as 32x8, not a 3D one");
      return 0;
    }
  return 1;
}

static int
transpose_tile_check_block (const unsigned block[3], char *why, size_t why_len)
{
  unsigned h = block[1];

  if (block[0] != TILE || block[2] != 1 || h == 0 || h > TILE || (h & (h - 1)) != 0)
    {
      snprintf (why, why_len,
                "the tiled transposes move 32×32 tiles with blocks 32 threads wide: give 32xH "
                "with H a power of two up to 32, such as 32x8, not %ux%u",
                block[0], block[1]);
      return 0;
    }
  return 1;
}

static void
transpose_naive_grid (const uint64_t shape[3], const unsigned block[3], unsigned grid[3])
{
  grid[0] = ws_div_up (shape[1], block[0]);
  grid[1] = ws_div_up (shape[0], block[1]);
  grid[2] = 1;
}

static void
transpose_tile_grid (const uint64_t shape[3], const unsigned block[3], unsigned grid[3])
{
  (void) block;
  grid[0] = ws_div_up (shape[1], TILE);
  grid[1] = ws_div_up (shape[0], TILE);
  grid[2] = 1;
}

static uint64_t
transpose_buffer_elements (const uint64_t shape[3], int buffer)
{
  (void) buffer;
  return shape[0] * shape[1];
}

static double
transpose_flops (const uint64_t shape[3])
{
  (void) shape;
  return 0.0;
}

static double
transpose_bytes (const uint64_t shape[3])
{
  return 8.0 * (double) shape[0] * (double) shape[1];
}

static uint64_t
transpose_work_units (const uint64_t shape[3])
{
  return shape[0];
}

static const void *
transpose_naive_function (const WsLaunchConfig *cfg)
{
  (void) cfg;
  return (const void *) transpose_naive;
}

static const void *
transpose_shared_function (const WsLaunchConfig *cfg)
{
  (void) cfg;
  return (const void *) transpose_shared;
}

static const void *
transpose_padded_function (const WsLaunchConfig *cfg)
{
  (void) cfg;
  return (const void *) transpose_padded;
}

static cudaError_t
launch_with (TransposeKernel kernel, const WsLaunchConfig *cfg, const float *in, float *out,
             int ld_out, cudaStream_t stream)
{
  dim3 grid (cfg->grid[0], cfg->grid[1]), block (cfg->block[0], cfg->block[1]);

  kernel<<<grid, block, 0, stream>>> (in, out, (int) cfg->shape[0], (int) cfg->shape[1], ld_out);
  return cudaGetLastError ();
}

static cudaError_t
transpose_naive_launch (const WsLaunchConfig *cfg, float *const *dev, cudaStream_t stream)
{
  return launch_with (transpose_naive, cfg, dev[0], dev[1], (int) cfg->shape[0], stream);
}

static cudaError_t
transpose_shared_launch (const WsLaunchConfig *cfg, float *const *dev, cudaStream_t stream)
{
  return launch_with (transpose_shared, cfg, dev[0], dev[1], (int) cfg->shape[0], stream);
}

static cudaError_t
transpose_padded_launch (const WsLaunchConfig *cfg, float *const *dev, cudaStream_t stream)
{
  return launch_with (transpose_padded, cfg, dev[0], dev[1], (int) cfg->shape[0], stream);
}

/* ---- streams:K: blocks of rows of in, which are blocks of columns of out ---------------- */

static void
row_block (const WsLaunchConfig *cfg, int pieces, int p, uint64_t *lo, uint64_t *hi)
{
  const uint64_t rows = cfg->shape[0];

  ws_piece_range (rows, pieces, p, rows >= (uint64_t) TILE * pieces ? TILE : 1, lo, hi);
}

static void
transpose_piece (const WsLaunchConfig *cfg, int pieces, int p, WsRegion region[])
{
  const uint64_t rows = cfg->shape[0], cols = cfg->shape[1];
  uint64_t lo, hi;

  row_block (cfg, pieces, p, &lo, &hi);
  region[0] = ws_region_range (lo * cols, hi * cols);
  /* Columns lo … hi of every row of out: a strided (2D) copy back. */
  region[1].offset = lo;
  region[1].width = hi - lo;
  region[1].height = cols;
  region[1].pitch = rows;
}

static cudaError_t
launch_piece_with (TransposeKernel kernel, const WsKernelDesc *desc, const WsLaunchConfig *cfg,
                   int pieces, int p, float *const *dev, cudaStream_t stream)
{
  WsLaunchConfig sub = *cfg;
  uint64_t lo, hi;

  row_block (cfg, pieces, p, &lo, &hi);
  if (hi == lo)
    return cudaSuccess;
  sub.shape[0] = hi - lo;
  desc->grid_for (sub.shape, sub.block, sub.grid);
  return launch_with (kernel, &sub, dev[0] + lo * cfg->shape[1], dev[1] + lo,
                      (int) cfg->shape[0], stream);
}

extern "C" const WsKernelDesc ws_transpose_naive_desc, ws_transpose_shared_desc,
  ws_transpose_padded_desc;

static cudaError_t
transpose_naive_launch_piece (const WsLaunchConfig *cfg, int pieces, int p, float *const *dev,
                              cudaStream_t stream)
{
  return launch_piece_with (transpose_naive, &ws_transpose_naive_desc, cfg, pieces, p, dev,
                            stream);
}

static cudaError_t
transpose_shared_launch_piece (const WsLaunchConfig *cfg, int pieces, int p, float *const *dev,
                               cudaStream_t stream)
{
  return launch_piece_with (transpose_shared, &ws_transpose_shared_desc, cfg, pieces, p, dev,
                            stream);
}

static cudaError_t
transpose_padded_launch_piece (const WsLaunchConfig *cfg, int pieces, int p, float *const *dev,
                               cudaStream_t stream)
{
  return launch_piece_with (transpose_padded, &ws_transpose_padded_desc, cfg, pieces, p, dev,
                            stream);
}

/* ---- CPU reference --------------------------------------------------------------------- */

/* 32×32 blocks, so that the rows being written stay in the cache while a block is done. */
#define CPU_BLOCK 32

static void
transpose_rows (const float *in, float *out, uint64_t rows, uint64_t cols, uint64_t r0,
                uint64_t r1)
{
  for (uint64_t rb = r0; rb < r1; rb += CPU_BLOCK)
    for (uint64_t cb = 0; cb < cols; cb += CPU_BLOCK)
      {
        uint64_t re = rb + CPU_BLOCK < r1 ? rb + CPU_BLOCK : r1;
        uint64_t ce = cb + CPU_BLOCK < cols ? cb + CPU_BLOCK : cols;

        for (uint64_t c = cb; c < ce; c++)
          for (uint64_t r = rb; r < re; r++)
            out[c * rows + r] = in[r * cols + c];
      }
}

static void
transpose_reference (const WsLaunchConfig *cfg, const float *const *in, float *out, int threads,
                     uint64_t part)
{
  const uint64_t rows = cfg->shape[0], cols = cfg->shape[1], done = part ? part : rows;

#pragma omp parallel num_threads (threads > 1 ? threads : 1)
  {
    /* Whole blocks of rows per thread. */
    uint64_t t = (uint64_t) omp_get_thread_num (), nt = (uint64_t) omp_get_num_threads ();
    uint64_t blocks = (done + CPU_BLOCK - 1) / CPU_BLOCK;
    uint64_t r0 = blocks * t / nt * CPU_BLOCK, r1 = blocks * (t + 1) / nt * CPU_BLOCK;

    if (r1 > done)
      r1 = done;
    if (r0 < r1)
      transpose_rows (in[0], out, rows, cols, r0, r1);
  }
}

/* A transpose moves bits: every element must come out exactly as it went in. */
static void
transpose_verify (const WsLaunchConfig *cfg, const float *const *in, const float *out,
                  uint64_t seed, WsVerifyResult *result)
{
  const uint64_t rows = cfg->shape[0], cols = cfg->shape[1];

  (void) seed;
  ws_verify_init (result, "all", 0.0, 0.0, rows * cols);
#pragma omp parallel
  {
    WsVerifyResult part;

    ws_verify_init (&part, "all", 0.0, 0.0, rows * cols);
#pragma omp for schedule(static) nowait
    for (uint64_t c = 0; c < cols; c++)
      for (uint64_t r = 0; r < rows; r++)
        ws_verify_element (&part, c * rows + r, out[c * rows + r], in[0][r * cols + c]);
#pragma omp critical
    ws_verify_merge (result, &part);
  }
  ws_verify_finish (result);
}

/* ---- catalog entries ------------------------------------------------------------------- */

#define TRANSPOSE_ENTRY(NAME, TITLE, DESCRIPTION, CHECK, GRID, FUNCTION, LAUNCH, PIECE)      \
  {                                                                                          \
    .name = NAME, .family = "transpose", .title = TITLE, .description = DESCRIPTION,          \
    .source = "kernels/transpose.cu", .block_rank = 2, .shape_rank = 2,                       \
    .default_shape = { 8192, 8192, 1 }, .default_block = { 32, 8, 1 },                       \
    .flops_formula = "0", .bytes_formula = "8·rows·cols",                                     \
    .tolerance = "every element exactly: a transpose moves bits", .hidden = 0,               \
    .n_inputs = 1, .check_block = CHECK, .grid_for = GRID,                                     \
    .buffer_elements = transpose_buffer_elements, .flops = transpose_flops,                   \
    .bytes = transpose_bytes, .work_units = transpose_work_units, .function = FUNCTION,       \
    .dynamic_smem = NULL, .launch = LAUNCH, .reference = transpose_reference,                 \
    .verify = transpose_verify, .block_fixed = 0, .library = NULL, .available = NULL,         \
    .whole_inputs = 0, .piece = transpose_piece, .launch_piece = PIECE, .any_grid = 0,        \
    .cpu_sgemm = 0,                                                                           \
  }

extern "C" const WsKernelDesc ws_transpose_naive_desc = TRANSPOSE_ENTRY (
    "transpose_naive", WS_N_ ("Transpose, naive"),
    WS_N_ ("One thread per element: reads along rows are coalesced, writes go down "
           "columns, one memory line for every four bytes."),
    transpose_naive_check_block, transpose_naive_grid, transpose_naive_function,
    transpose_naive_launch, transpose_naive_launch_piece);

extern "C" const WsKernelDesc ws_transpose_shared_desc = TRANSPOSE_ENTRY (
    "transpose_shared", WS_N_ ("Transpose, shared-memory tile"),
    WS_N_ ("32×32 tiles go through shared memory so that reads and writes are both "
           "coalesced; reading a tile's column hits one bank 32 times."),
    transpose_tile_check_block, transpose_tile_grid, transpose_shared_function,
    transpose_shared_launch, transpose_shared_launch_piece);

extern "C" const WsKernelDesc ws_transpose_padded_desc
    = TRANSPOSE_ENTRY ("transpose_padded", WS_N_ ("Transpose, padded tile"),
                       WS_N_ ("The shared-memory tile with one float of padding per row, so that a "
                              "column spreads over all 32 banks: no bank conflicts."),
                       transpose_tile_check_block, transpose_tile_grid, transpose_padded_function,
                       transpose_padded_launch, transpose_padded_launch_piece);

/* ws-selftest.c: the configurations --self-test runs.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-selftest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  const char *kernel;
  uint64_t shape[3];
  unsigned block[3]; /* ignored by kernels with a fixed block */
  int streams;       /* streams:K; 0: pageable and pinned by turns */
} Case;

/* Sizes that are multiples of every block and tile (1024, 64, 256, 128×128 tiles, 32×32
 * tiles), and sizes that are not (1, 1000003, 100×37×53, 257, 1000×37), so that the bounds
 * guards, the zero-filled tile edges and the tails of vector loops are exercised; rows,
 * columns and k that are not multiples of 4 put matmul_regtile on its unaligned path. A few
 * cases cut the problem into pieces (streams:K), with piece edges inside tiles. */
static const Case cases[] = {
  { "vector_add", { 1, 1, 1 }, { 32, 1, 1 }, 0 },
  { "vector_add", { 1024, 1, 1 }, { 32, 1, 1 }, 0 },
  { "vector_add", { 1024, 1, 1 }, { 1024, 1, 1 }, 0 },
  { "vector_add", { 1000003, 1, 1 }, { 96, 1, 1 }, 0 },
  { "vector_add", { 1000003, 1, 1 }, { 256, 1, 1 }, 0 },
  { "vector_add", { 10000000, 1, 1 }, { 256, 1, 1 }, 0 },
  { "vector_add", { 1000003, 1, 1 }, { 256, 1, 1 }, 3 },
  { "matmul_naive", { 64, 64, 64 }, { 16, 16, 1 }, 0 },
  { "matmul_naive", { 100, 37, 53 }, { 16, 16, 1 }, 0 },
  { "matmul_naive", { 257, 257, 257 }, { 32, 8, 1 }, 0 },
  { "matmul_naive", { 256, 512, 128 }, { 8, 8, 1 }, 0 },
  { "matmul_tiled", { 64, 64, 64 }, { 8, 8, 1 }, 0 },
  { "matmul_tiled", { 64, 64, 64 }, { 16, 16, 1 }, 0 },
  { "matmul_tiled", { 64, 64, 64 }, { 32, 32, 1 }, 0 },
  { "matmul_tiled", { 100, 37, 53 }, { 8, 8, 1 }, 0 },
  { "matmul_tiled", { 100, 37, 53 }, { 16, 16, 1 }, 0 },
  { "matmul_tiled", { 100, 37, 53 }, { 32, 32, 1 }, 0 },
  { "matmul_tiled", { 257, 257, 257 }, { 16, 16, 1 }, 0 },
  { "matmul_tiled", { 1024, 1024, 1024 }, { 32, 32, 1 }, 0 },
  { "matmul_tiled", { 513, 1031, 2049 }, { 16, 16, 1 }, 0 },
  { "matmul_tiled", { 300, 200, 100 }, { 16, 16, 1 }, 4 },
  { "vector_add_vec4", { 1, 1, 1 }, { 32, 1, 1 }, 0 },
  { "vector_add_vec4", { 3, 1, 1 }, { 32, 1, 1 }, 0 },
  { "vector_add_vec4", { 4, 1, 1 }, { 32, 1, 1 }, 0 },
  { "vector_add_vec4", { 1024, 1, 1 }, { 256, 1, 1 }, 0 },
  { "vector_add_vec4", { 1000003, 1, 1 }, { 96, 1, 1 }, 0 },
  { "vector_add_vec4", { 1000003, 1, 1 }, { 256, 1, 1 }, 0 },
  { "vector_add_vec4", { 10000000, 1, 1 }, { 1024, 1, 1 }, 0 },
  { "vector_add_vec4", { 1000003, 1, 1 }, { 256, 1, 1 }, 4 },
  { "vector_add_vec4", { 1000, 1, 1 }, { 64, 1, 1 }, 8 },
  { "matmul_regtile", { 128, 128, 128 }, { 16, 16, 1 }, 0 },
  { "matmul_regtile", { 256, 512, 128 }, { 16, 16, 1 }, 0 },
  { "matmul_regtile", { 1024, 1024, 1024 }, { 16, 16, 1 }, 0 },
  { "matmul_regtile", { 64, 64, 64 }, { 16, 16, 1 }, 0 },
  { "matmul_regtile", { 1000, 1000, 1000 }, { 16, 16, 1 }, 0 },
  { "matmul_regtile", { 100, 36, 52 }, { 16, 16, 1 }, 0 },
  { "matmul_regtile", { 100, 37, 53 }, { 16, 16, 1 }, 0 },
  { "matmul_regtile", { 257, 257, 257 }, { 16, 16, 1 }, 0 },
  { "matmul_regtile", { 513, 1031, 2049 }, { 16, 16, 1 }, 0 },
  { "matmul_regtile", { 1, 1, 1 }, { 16, 16, 1 }, 0 },
  { "matmul_regtile", { 1000, 1000, 1000 }, { 16, 16, 1 }, 3 },
  { "matmul_regtile", { 300, 201, 99 }, { 16, 16, 1 }, 2 },
  { "matmul_cublas", { 128, 128, 128 }, { 0, 0, 0 }, 0 },
  { "matmul_cublas", { 100, 37, 53 }, { 0, 0, 0 }, 0 },
  { "matmul_cublas", { 1024, 1024, 1024 }, { 0, 0, 0 }, 0 },
  { "matmul_cublas", { 1000, 1000, 1000 }, { 0, 0, 0 }, 4 },
  { "reduce_atomic", { 1, 1, 1 }, { 32, 1, 1 }, 0 },
  { "reduce_atomic", { 1 << 20, 1, 1 }, { 256, 1, 1 }, 0 },
  { "reduce_atomic", { 1000003, 1, 1 }, { 1024, 1, 1 }, 0 },
  { "reduce_shared", { 1, 1, 1 }, { 32, 1, 1 }, 0 },
  { "reduce_shared", { 1 << 20, 1, 1 }, { 256, 1, 1 }, 0 },
  { "reduce_shared", { 1000003, 1, 1 }, { 1024, 1, 1 }, 0 },
  { "reduce_shared", { 10000000, 1, 1 }, { 128, 1, 1 }, 0 },
  { "reduce_warp", { 1, 1, 1 }, { 32, 1, 1 }, 0 },
  { "reduce_warp", { 1 << 20, 1, 1 }, { 256, 1, 1 }, 0 },
  { "reduce_warp", { 1000003, 1, 1 }, { 1024, 1, 1 }, 0 },
  { "reduce_warp", { 10000000, 1, 1 }, { 64, 1, 1 }, 0 },
  { "reduce_warp_multi", { 1, 1, 1 }, { 32, 1, 1 }, 0 },
  { "reduce_warp_multi", { 7, 1, 1 }, { 32, 1, 1 }, 0 },
  { "reduce_warp_multi", { 1 << 20, 1, 1 }, { 256, 1, 1 }, 0 },
  { "reduce_warp_multi", { 1000003, 1, 1 }, { 1024, 1, 1 }, 0 },
  { "reduce_warp_multi", { 10000000, 1, 1 }, { 256, 1, 1 }, 0 },
  { "transpose_naive", { 1, 1, 1 }, { 32, 8, 1 }, 0 },
  { "transpose_naive", { 1024, 1024, 1 }, { 32, 8, 1 }, 0 },
  { "transpose_naive", { 1000, 37, 1 }, { 16, 16, 1 }, 0 },
  { "transpose_naive", { 37, 1000, 1 }, { 32, 32, 1 }, 0 },
  { "transpose_shared", { 1, 1, 1 }, { 32, 8, 1 }, 0 },
  { "transpose_shared", { 1024, 1024, 1 }, { 32, 8, 1 }, 0 },
  { "transpose_shared", { 1000, 37, 1 }, { 32, 32, 1 }, 0 },
  { "transpose_shared", { 1025, 513, 1 }, { 32, 4, 1 }, 0 },
  { "transpose_padded", { 1, 1, 1 }, { 32, 8, 1 }, 0 },
  { "transpose_padded", { 1024, 1024, 1 }, { 32, 8, 1 }, 0 },
  { "transpose_padded", { 37, 1000, 1 }, { 32, 8, 1 }, 0 },
  { "transpose_padded", { 1025, 513, 1 }, { 32, 1, 1 }, 0 },
  { "transpose_padded", { 1000, 300, 1 }, { 32, 8, 1 }, 4 },
  { "transpose_naive", { 100, 3000, 1 }, { 32, 8, 1 }, 3 },
  { "divergence_lane", { 1, 1, 1 }, { 32, 1, 1 }, 0 },
  { "divergence_lane", { 1 << 20, 1, 1 }, { 256, 1, 1 }, 0 },
  { "divergence_lane", { 1000003, 1, 1 }, { 96, 1, 1 }, 0 },
  { "divergence_warp", { 1, 1, 1 }, { 32, 1, 1 }, 0 },
  { "divergence_warp", { 1 << 20, 1, 1 }, { 256, 1, 1 }, 0 },
  { "divergence_warp", { 1000003, 1, 1 }, { 96, 1, 1 }, 0 },
};

void
ws_selftest_options (WsOptions *opts)
{
  opts->reps = 3;
  opts->warmup = 1;
  opts->cpu = WS_CPU_ONE;
  opts->cpu_reps = 1;
  opts->cpu_budget = 5.0;
}

WsRunSpec *
ws_selftest_plan (const WsOptions *opts, uint64_t seed, int *n_out)
{
  size_t n = sizeof cases / sizeof cases[0];
  WsRunSpec *specs = calloc (n, sizeof *specs);

  if (specs == NULL)
    return NULL;
  for (size_t i = 0; i < n; i++)
    {
      WsRunSpec *s = &specs[i];
      const Case *c = &cases[i];

      s->id = (int) i + 1;
      s->kernel = ws_catalog_find (c->kernel);
      memcpy (s->shape, c->shape, sizeof s->shape);
      memcpy (s->block, s->kernel->block_fixed ? s->kernel->default_block : c->block,
              sizeof s->block);
      ws_shape_text (s->kernel, s->shape, s->size_text, sizeof s->size_text);
      s->kernel->grid_for (s->shape, s->block, s->grid);
      s->transfer = c->streams   ? WS_TRANSFER_STREAMS
                    : i % 2      ? WS_TRANSFER_PINNED
                                 : WS_TRANSFER_PAGEABLE;
      s->streams = c->streams ? c->streams : 1;
      s->reps = opts->reps;
      s->warmup = opts->warmup;
      s->seed = seed + i;
    }
  *n_out = (int) n;
  return specs;
}

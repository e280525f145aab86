/* ws-selftest.c: what --self-test runs: configurations through the whole timing protocol,
 * and a sweep of the 1D kernels over every small size, block and grid.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-selftest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws-diagnose.h"
#include "ws-output.h"

typedef struct
{
  const char *kernel;
  uint64_t shape[3];
  unsigned block[3]; /* ignored by kernels with a fixed block */
  int streams;       /* streams:K; 0: pageable and pinned by turns */
  int cold;          /* --cache cold: flushes between the timed launches */
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
  /* --cache cold: the flushes between launches must not count as kernels, a reduction's
   * memset included, nor a library's kernels. */
  { "vector_add", { 1000003, 1, 1 }, { 256, 1, 1 }, 0, 1 },
  { "reduce_shared", { 1 << 20, 1, 1 }, { 256, 1, 1 }, 0, 1 },
  { "matmul_cublas", { 256, 256, 256 }, { 0, 0, 0 }, 0, 1 },
  { "transpose_padded", { 1000, 300, 1 }, { 32, 8, 1 }, 4, 1 },
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
      s->cache_cold = c->cold;
    }
  *n_out = (int) n;
  return specs;
}

/* ---- the tails of the 1D kernels -------------------------------------------------------- */

/* Every n from 1 to TAIL_MAX_N, with each of the first TAIL_BLOCKS block sizes the kernel
 * takes (1 to 5 threads where it takes any, whole warps for the shuffles), on the grid the
 * runner gives it and, for a kernel right for any grid, on grids of 1 to TAIL_GRIDS blocks:
 * the grids of fewer threads than the vector's tail, where a kernel that leaves the last
 * n % 4 elements to one thread each goes wrong. One launch per case, nothing timed. */
#define TAIL_MAX_N 67
#define TAIL_BLOCKS 5
#define TAIL_GRIDS 5

typedef struct
{
  float *dev[WS_MAX_INPUTS + 1];
  float *host[WS_MAX_INPUTS + 1];
  cudaStream_t stream;
} TailBuffers;

static cudaError_t
tail_case (const WsKernelDesc *k, TailBuffers *t, uint64_t n, unsigned block, unsigned grid,
           WsVerifyResult *v)
{
  WsLaunchConfig cfg = { .shape = { n, 1, 1 }, .block = { block, 1, 1 }, .grid = { grid, 1, 1 } };
  const int out = k->n_inputs;
  size_t out_bytes = k->buffer_elements (cfg.shape, out) * sizeof (float);
  cudaError_t err = cudaSuccess;

  for (int b = 0; b < k->n_inputs && err == cudaSuccess; b++)
    err = cudaMemcpyAsync (t->dev[b], t->host[b], k->buffer_elements (cfg.shape, b) * sizeof (float),
                           cudaMemcpyHostToDevice, t->stream);
  if (err == cudaSuccess)
    err = cudaMemsetAsync (t->dev[out], 0xFF, out_bytes, t->stream);
  if (err == cudaSuccess)
    err = k->launch (&cfg, t->dev, t->stream);
  memset (t->host[out], 0xFF, out_bytes);
  if (err == cudaSuccess)
    err = cudaMemcpyAsync (t->host[out], t->dev[out], out_bytes, cudaMemcpyDeviceToHost,
                           t->stream);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize (t->stream);
  if (err == cudaSuccess)
    k->verify (&cfg, (const float *const *) t->host, t->host[out], 1, v);
  return err;
}

/* One kernel's sweep; returns its failed cases, or -1 after a CUDA error. */
static int
tail_sweep (const WsKernelDesc *k, TailBuffers *t, cudaError_t *err)
{
  unsigned blocks[TAIL_BLOCKS];
  int n_blocks = 0, cases = 0, failed = 0;
  WsSelftestCase first = { 0 };
  char why[400], message[512];

  for (unsigned b = 1; b <= 1024 && n_blocks < TAIL_BLOCKS; b++)
    {
      unsigned dims[3] = { b, 1, 1 };

      if (k->check_block (dims, why, sizeof why))
        blocks[n_blocks++] = b;
    }
  for (uint64_t n = 1; n <= TAIL_MAX_N; n++)
    for (int bi = 0; bi < n_blocks; bi++)
      {
        uint64_t shape[3] = { n, 1, 1 };
        unsigned dims[3] = { blocks[bi], 1, 1 }, grid[3];

        k->grid_for (shape, dims, grid);
        for (unsigned g = 0; g <= (k->any_grid ? TAIL_GRIDS : 0); g++)
          {
            WsVerifyResult v;

            /* g = 0: the runner's grid; then the smaller ones, where they differ. */
            if (g > 0 && g == grid[0])
              continue;
            if ((*err = tail_case (k, t, n, blocks[bi], g ? g : grid[0], &v)) != cudaSuccess)
              return -1;
            cases++;
            if (!v.pass && failed++ == 0)
              first = (WsSelftestCase) { n, blocks[bi], g ? g : grid[0], v.mismatches,
                                         v.unwritten, v.first_bad };
          }
      }
  ws_output_selftest ("tails", k->name, cases, failed, failed ? &first : NULL);
  if (failed)
    {
      snprintf (message, sizeof message,
                "%s failed %d of its %d small cases; the first: n = %llu with blocks of %u "
                "thread%s and a grid of %u, %llu element%s wrong (%llu never written, the "
                "first at index %lld)",
                k->name, failed, cases, (unsigned long long) first.n, first.block,
                first.block == 1 ? "" : "s", first.grid, (unsigned long long) first.mismatches,
                first.mismatches == 1 ? "" : "s", (unsigned long long) first.unwritten,
                (long long) first.first_bad);
      ws_output_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_SELF_TEST_FAILED, message, NULL);
    }
  return failed;
}

int
ws_selftest_tails (int *fault)
{
  TailBuffers t = { 0 };
  cudaError_t err = cudaSuccess;
  int failed = 0;

  *fault = 0;
  err = cudaStreamCreateWithFlags (&t.stream, cudaStreamNonBlocking);
  for (int b = 0; b <= WS_MAX_INPUTS && err == cudaSuccess; b++)
    {
      err = cudaMalloc ((void **) &t.dev[b], TAIL_MAX_N * sizeof (float));
      t.host[b] = malloc (TAIL_MAX_N * sizeof (float));
      if (err == cudaSuccess && t.host[b] == NULL)
        err = cudaErrorMemoryAllocation;
      for (int i = 0; err == cudaSuccess && i < TAIL_MAX_N; i++)
        t.host[b][i] = (float) ((i * 37 + b * 11) % 101) / 50.0f - 1.0f;
    }
  for (size_t c = 0; c < ws_catalog_size () && err == cudaSuccess; c++)
    {
      const WsKernelDesc *k = ws_catalog_get (c);
      int f;

      if (k->hidden || k->library != NULL || k->shape_rank != 1)
        continue;
      f = tail_sweep (k, &t, &err);
      failed += f > 0 ? f : 0;
    }
  if (err != cudaSuccess)
    {
      char message[512];

      *fault = ws_cuda_error_is_sticky (err);
      snprintf (message, sizeof message,
                "The self-test's sweep of small sizes stopped: %s. %s", cudaGetErrorString (err),
                *fault ? "A kernel faulted, so the GPU context cannot be used any more."
                       : "The runs after it go on.");
      ws_output_error (0, WS_ERROR_SEVERITY_ERROR,
                       *fault ? WS_ERROR_KERNEL_FAULT : WS_ERROR_CUDA_ERROR, message,
                       cudaGetErrorName (err));
      cudaGetLastError ();
      failed++;
    }
  for (int b = 0; b <= WS_MAX_INPUTS && !*fault; b++)
    cudaFree (t.dev[b]);
  for (int b = 0; b <= WS_MAX_INPUTS; b++)
    free (t.host[b]);
  if (t.stream != NULL && !*fault)
    cudaStreamDestroy (t.stream);
  return failed;
}

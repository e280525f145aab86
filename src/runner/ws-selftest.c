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
  unsigned block[3];
} Case;

/* Sizes that are multiples of every block (1024, 64, 256), and sizes that are not (1, 1000003,
 * 100×37×53, 257), so the bounds guards and the zero-filled tile edges are exercised. */
static const Case cases[] = {
  { "vector_add", { 1, 1, 1 }, { 32, 1, 1 } },
  { "vector_add", { 1024, 1, 1 }, { 32, 1, 1 } },
  { "vector_add", { 1024, 1, 1 }, { 1024, 1, 1 } },
  { "vector_add", { 1000003, 1, 1 }, { 96, 1, 1 } },
  { "vector_add", { 1000003, 1, 1 }, { 256, 1, 1 } },
  { "vector_add", { 10000000, 1, 1 }, { 256, 1, 1 } },
  { "matmul_naive", { 64, 64, 64 }, { 16, 16, 1 } },
  { "matmul_naive", { 100, 37, 53 }, { 16, 16, 1 } },
  { "matmul_naive", { 257, 257, 257 }, { 32, 8, 1 } },
  { "matmul_naive", { 256, 512, 128 }, { 8, 8, 1 } },
  { "matmul_tiled", { 64, 64, 64 }, { 8, 8, 1 } },
  { "matmul_tiled", { 64, 64, 64 }, { 16, 16, 1 } },
  { "matmul_tiled", { 64, 64, 64 }, { 32, 32, 1 } },
  { "matmul_tiled", { 100, 37, 53 }, { 8, 8, 1 } },
  { "matmul_tiled", { 100, 37, 53 }, { 16, 16, 1 } },
  { "matmul_tiled", { 100, 37, 53 }, { 32, 32, 1 } },
  { "matmul_tiled", { 257, 257, 257 }, { 16, 16, 1 } },
  { "matmul_tiled", { 1024, 1024, 1024 }, { 32, 32, 1 } },
  { "matmul_tiled", { 513, 1031, 2049 }, { 16, 16, 1 } },
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
      memcpy (s->block, c->block, sizeof s->block);
      if (s->kernel->shape_rank == 1)
        snprintf (s->size_text, sizeof s->size_text, "%llu", (unsigned long long) c->shape[0]);
      else
        snprintf (s->size_text, sizeof s->size_text, "%llux%llux%llu",
                  (unsigned long long) c->shape[0], (unsigned long long) c->shape[1],
                  (unsigned long long) c->shape[2]);
      s->kernel->grid_for (s->shape, s->block, s->grid);
      s->transfer = i % 2 ? WS_TRANSFER_PINNED : WS_TRANSFER_PAGEABLE;
      s->reps = opts->reps;
      s->warmup = opts->warmup;
      s->seed = seed + i;
    }
  *n_out = (int) n;
  return specs;
}

/* ws-launch-facts.c: what a kernel asks of each SM (registers, shared memory) and what that
 * allows: blocks per SM, occupancy and the resource that limits it, waves.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "ws-output.h"
#include "ws-runner-private.h"

static int
div_floor (int a, int b)
{
  return b > 0 ? a / b : 0;
}

/* The occupancy of `f->registers` per thread: the resource limits by the rules of CUDA's
 * occupancy calculator (cuda_occupancy.h): registers are given out per warp in units of 256
 * and fit per sub-partition (4 per SM); shared memory per block, with the driver's
 * reservation, in units of 128 bytes (256 on sm_75), against the largest carve-out. Ties go to
 * warps, then the block cap, registers, shared memory — the order docs/occupancy.md gives.
 * The active blocks are cudaOccupancyMaxActiveBlocksPerMultiprocessor's, which counts the
 * compiler's registers, unless the registers the GPU really gives the function allow fewer. */
static void
occupancy_of_registers (const WsRunnerDevice *d, WsLaunchFacts *f)
{
  int regs_per_warp, warps_by_regs;
  size_t smem;

  f->limit_blocks = d->max_blocks_per_sm;
  f->limit_warps = div_floor (f->max_warps_per_sm, f->warps_per_block);
  regs_per_warp = (f->registers * d->warp_size + 255) / 256 * 256;
  if (regs_per_warp == 0)
    f->limit_registers = 1 << 20;
  else if (regs_per_warp * f->warps_per_block > d->regs_per_block)
    f->limit_registers = 0;
  else
    {
      warps_by_regs = (d->regs_per_sm / 4) / regs_per_warp * 4;
      f->limit_registers = div_floor (warps_by_regs, f->warps_per_block);
    }
  {
    size_t unit = d->cc_major < 8 ? 256 : 128;

    smem = (size_t) f->static_smem + (size_t) f->dynamic_smem;
    if (smem > 0 || d->reserved_smem_per_block > 0)
      smem = (smem + d->reserved_smem_per_block + unit - 1) / unit * unit;
    f->limit_smem = smem > 0 ? (int) (d->smem_per_sm / smem) : 1 << 20;
  }
  {
    int least = f->limit_warps;

    f->limiter = "warps";
    if (f->limit_blocks < least)
      least = f->limit_blocks, f->limiter = "blocks_per_sm";
    if (f->limit_registers < least)
      least = f->limit_registers, f->limiter = "registers";
    if (f->limit_smem < least)
      least = f->limit_smem, f->limiter = "shared_memory";
  }
  f->active_blocks_per_sm = f->active_blocks_by_attribute;
  if (f->limit_registers < f->active_blocks_per_sm)
    f->active_blocks_per_sm = f->limit_registers;
  f->active_warps_per_sm = f->active_blocks_per_sm * f->warps_per_block;
  f->occupancy = f->max_warps_per_sm > 0
                   ? (double) f->active_warps_per_sm / f->max_warps_per_sm
                   : 0;
  f->waves = 0;
  if (f->active_blocks_per_sm > 0)
    f->waves = (double) f->blocks_total / ((double) f->active_blocks_per_sm * d->sm_count);
}

WsRunStatus
_ws_launch_facts (WsRunner *r, const WsRunSpec *s, WsLaunchFacts *f)
{
  const WsKernelDesc *k = s->kernel;
  const WsRunnerDevice *d = r->device;
  WsLaunchConfig cfg;
  const void *fn;
  struct cudaFuncAttributes fa;
  size_t dyn = k->dynamic_smem ? k->dynamic_smem (s->block) : 0;
  char message[512];

  memset (f, 0, sizeof *f);
  /* The function launch() runs for this shape: matmul_regtile picks an unaligned variant
   * when k or n is not a multiple of 4, with registers of its own. */
  _ws_launch_config (s, &cfg);
  fn = k->function (&cfg);
  WS_TRY (cudaFuncGetAttributes (&fa, fn), "reading the kernel's attributes");
  /* The compiler's count (ptxas -v). The GPU may give the function more: on an H200 a
   * vector add compiled for 12 runs with 16, as CUPTI and Nsight Compute say, while one
   * compiled for 127 runs with 127, so no rounding rule predicts it. Until a traced launch
   * says otherwise (_ws_launch_facts_set_registers), the attribute is all there is. */
  f->registers_compiled = fa.numRegs;
  f->registers = fa.numRegs;
  f->registers_source = "attribute";
  f->static_smem = (int) fa.sharedSizeBytes;
  f->dynamic_smem = (int) dyn;
  f->local_bytes = (int) fa.localSizeBytes;
  f->kernel_max_threads = fa.maxThreadsPerBlock;
  f->ptx_version = fa.ptxVersion;
  f->binary_version = fa.binaryVersion;
  f->threads = (int) (s->block[0] * s->block[1] * s->block[2]);
  f->warps_per_block = (f->threads + d->warp_size - 1) / d->warp_size;
  f->max_warps_per_sm = d->max_threads_per_sm / d->warp_size;
  if (f->threads > fa.maxThreadsPerBlock)
    {
      snprintf (message, sizeof message,
                "%s uses %d registers per thread, so on the %s a block can have at most %d "
                "threads, not %d: choose a smaller block",
                k->name, fa.numRegs, d->name, fa.maxThreadsPerBlock, f->threads);
      ws_output_error (s->id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_INVALID_BLOCK, message, NULL);
      return WS_RUN_REFUSED;
    }
  WS_TRY (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&f->active_blocks_by_attribute, fn,
                                                         f->threads, dyn),
          "computing occupancy");
  f->blocks_total = (uint64_t) s->grid[0] * s->grid[1] * s->grid[2];
  occupancy_of_registers (d, f);
  return WS_RUN_OK;
}

int
_ws_launch_facts_set_registers (WsRunner *r, const WsRunSpec *s, WsLaunchFacts *f,
                                const WsRunnerActivityList *acts)
{
  const WsRunnerActivity *last = NULL;

  (void) s;
  /* The last kernel to start is a whole launch: the warm-up's sequences are whole launches,
   * except with streams:K, whose warm-up ends with one. The flush is not the kernel. */
  for (size_t i = 0; i < acts->len; i++)
    {
      const WsRunnerActivity *a = &acts->items[i];

      if (a->kind != WS_ACTIVITY_KERNEL || a->registers <= 0
          || (a->name != NULL && strcmp (a->name, ws_flush_kernel_name) == 0))
        continue;
      if (last == NULL || a->start >= last->start)
        last = a;
    }
  if (last == NULL)
    return 0;
  f->registers = last->registers;
  f->registers_source = "cupti";
  occupancy_of_registers (r->device, f);
  return 1;
}

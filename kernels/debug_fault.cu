/* debug_fault.cu: a kernel that faults on purpose, so the tests can check that a fault is
 * reported, that the runs before it are kept and that the runner exits non-zero. Hidden
 * from --list.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-kernel.h"

#include <stdio.h>

/* Writes far past the end of its buffer: an illegal address, a sticky error that leaves the
 * CUDA context unusable, as a real out-of-bounds bug would. */
extern "C" __global__ void
debug_fault (float *out, uint64_t n)
{
  volatile float *far = out + n + (1ull << 38);

  far[threadIdx.x] = 1.0f;
}

static int
debug_fault_check_block (const unsigned block[3], char *why, size_t why_len)
{
  if (block[1] != 1 || block[2] != 1)
    {
      snprintf (why, why_len, "debug_fault is a 1D kernel: give one number, such as 32");
      return 0;
    }
  return 1;
}

static void
debug_fault_grid (const uint64_t shape[3], const unsigned block[3], unsigned grid[3])
{
  grid[0] = ws_div_up (shape[0], block[0]);
  grid[1] = grid[2] = 1;
}

static uint64_t
debug_fault_buffer_elements (const uint64_t shape[3], int buffer)
{
  (void) buffer;
  return shape[0];
}

static double
debug_fault_zero (const uint64_t shape[3])
{
  (void) shape;
  return 0.0;
}

static uint64_t
debug_fault_work_units (const uint64_t shape[3])
{
  return shape[0];
}

static const void *
debug_fault_function (const WsLaunchConfig *cfg)
{
  (void) cfg;
  return (const void *) debug_fault;
}

static cudaError_t
debug_fault_launch (const WsLaunchConfig *cfg, float *const *dev, cudaStream_t stream)
{
  debug_fault<<<dim3 (cfg->grid[0]), dim3 (cfg->block[0]), 0, stream>>> (dev[0], cfg->shape[0]);
  return cudaGetLastError ();
}

static void
debug_fault_reference (const WsLaunchConfig *cfg, const float *const *in, float *out,
                       int threads, uint64_t part)
{
  (void) cfg, (void) in, (void) out, (void) threads, (void) part;
}

static void
debug_fault_verify (const WsLaunchConfig *cfg, const float *const *in, const float *out,
                    uint64_t seed, WsVerifyResult *result)
{
  (void) in, (void) out, (void) seed;
  ws_verify_init (result, "all", 0, 0, cfg->shape[0]);
  ws_verify_finish (result);
}

extern "C" const WsKernelDesc ws_debug_fault_desc = {
  .name = "debug_fault",
  .family = "debug_fault",
  .title = WS_N_ ("Deliberate fault (tests only)"),
  .description = WS_N_ ("Writes to an address it does not own, to test how faults are reported."),
  .source = "kernels/debug_fault.cu",
  .block_rank = 1,
  .shape_rank = 1,
  .default_shape = { 1024, 1, 1 },
  .default_block = { 32, 1, 1 },
  .flops_formula = "0",
  .bytes_formula = "0",
  .tolerance = "none: the kernel never finishes",
  .hidden = 1,
  .n_inputs = 0,
  .check_block = debug_fault_check_block,
  .grid_for = debug_fault_grid,
  .buffer_elements = debug_fault_buffer_elements,
  .flops = debug_fault_zero,
  .bytes = debug_fault_zero,
  .work_units = debug_fault_work_units,
  .function = debug_fault_function,
  .dynamic_smem = NULL,
  .launch = debug_fault_launch,
  .reference = debug_fault_reference,
  .verify = debug_fault_verify,
  .block_fixed = 0,
  .library = NULL,
  .available = NULL,
  .whole_inputs = 0,
  .piece = NULL,
  .launch_piece = NULL,
  .any_grid = 0,
  .cpu_sgemm = 0,
};

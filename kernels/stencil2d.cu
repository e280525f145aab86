/* stencil2d.cu: one Jacobi step of a 5-point stencil over a rows×cols grid, the built-in
 * counterpart of examples/kernels/stencil2d.cu: that own kernel is verified against it and
 * timed beside it (tests/gpu/test-gpu-own-kernel.c). Hidden: it is a yardstick, not a lesson
 * of its own.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-kernel.h"

#include <omp.h>
#include <stdio.h>

/* Border points keep their value; inner points become half their own value plus an eighth
 * of each of their four neighbours'. One thread per point. */
extern "C" __global__ void
stencil2d (const float *in, float *out, int rows, int cols)
{
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;

  if (r >= rows || c >= cols)
    return;
  size_t i = (size_t) r * cols + c;

  if (r == 0 || c == 0 || r == rows - 1 || c == cols - 1)
    out[i] = in[i];
  else
    out[i] = 0.5f * in[i] + 0.125f * (in[i - cols] + in[i + cols] + in[i - 1] + in[i + 1]);
}

static int
stencil2d_check_block (const unsigned block[3], char *why, size_t why_len)
{
  if (block[2] != 1)
    {
      snprintf (why, why_len, "stencil2d takes a 2D block such as 32x8, not a 3D one");
      return 0;
    }
  return 1;
}

static void
stencil2d_grid (const uint64_t shape[3], const unsigned block[3], unsigned grid[3])
{
  grid[0] = ws_div_up (shape[1], block[0]);
  grid[1] = ws_div_up (shape[0], block[1]);
  grid[2] = 1;
}

static uint64_t
stencil2d_buffer_elements (const uint64_t shape[3], int buffer)
{
  (void) buffer;
  return shape[0] * shape[1];
}

static double
stencil2d_flops (const uint64_t shape[3])
{
  return 6.0 * (double) shape[0] * (double) shape[1];
}

static double
stencil2d_bytes (const uint64_t shape[3])
{
  return 8.0 * (double) shape[0] * (double) shape[1];
}

static uint64_t
stencil2d_work_units (const uint64_t shape[3])
{
  return shape[0];
}

static const void *
stencil2d_function (const WsLaunchConfig *cfg)
{
  (void) cfg;
  return (const void *) stencil2d;
}

static cudaError_t
stencil2d_launch (const WsLaunchConfig *cfg, float *const *dev, cudaStream_t stream)
{
  dim3 grid (cfg->grid[0], cfg->grid[1]), block (cfg->block[0], cfg->block[1]);

  stencil2d<<<grid, block, 0, stream>>> (dev[0], dev[1], (int) cfg->shape[0],
                                         (int) cfg->shape[1]);
  return cudaGetLastError ();
}

static void
stencil2d_reference (const WsLaunchConfig *cfg, const float *const *in, float *out,
                     int threads, uint64_t part)
{
  const int64_t rows = (int64_t) cfg->shape[0], cols = (int64_t) cfg->shape[1];
  const int64_t done = part ? (int64_t) part : rows;
  const float *a = in[0];

#pragma omp parallel for num_threads (threads > 1 ? threads : 1) schedule(static)
  for (int64_t r = 0; r < done; r++)
    for (int64_t c = 0; c < cols; c++)
      {
        int64_t i = r * cols + c;

        out[i] = r == 0 || c == 0 || r == rows - 1 || c == cols - 1
                   ? a[i]
                   : 0.5f * a[i] + 0.125f * (a[i - cols] + a[i + cols] + a[i - 1] + a[i + 1]);
      }
}

static void
stencil2d_verify (const WsLaunchConfig *cfg, const float *const *in, const float *out,
                  uint64_t seed, WsVerifyResult *result)
{
  const int64_t rows = (int64_t) cfg->shape[0], cols = (int64_t) cfg->shape[1];
  const float *a = in[0];

  (void) seed;
  ws_verify_init (result, "all", 1e-6, 1e-6, (uint64_t) (rows * cols));
#pragma omp parallel
  {
    WsVerifyResult part;

    ws_verify_init (&part, "all", result->rtol, result->atol, (uint64_t) (rows * cols));
#pragma omp for schedule(static) nowait
    for (int64_t r = 0; r < rows; r++)
      for (int64_t c = 0; c < cols; c++)
        {
          int64_t i = r * cols + c;
          double ref = r == 0 || c == 0 || r == rows - 1 || c == cols - 1
                         ? (double) a[i]
                         : 0.5 * a[i] + 0.125 * ((double) a[i - cols] + a[i + cols] + a[i - 1]
                                                 + a[i + 1]);

          ws_verify_element (&part, (uint64_t) i, out[i], ref);
        }
#pragma omp critical
    ws_verify_merge (result, &part);
  }
  ws_verify_finish (result);
}

/* Not marked for translation: hidden entries are never shown to people. */
extern "C" const WsKernelDesc ws_stencil2d_desc = {
  .name = "stencil2d",
  .family = "stencil2d",
  .title = "5-point stencil",
  .description = "One Jacobi step: each inner point becomes half its value plus an eighth of "
                 "each neighbour's.",
  .source = "kernels/stencil2d.cu",
  .block_rank = 2,
  .shape_rank = 2,
  .default_shape = { 4096, 4096, 1 },
  .default_block = { 32, 8, 1 },
  .flops_formula = "6·rows·cols",
  .bytes_formula = "8·rows·cols",
  .tolerance = "every element: |gpu − ref| ≤ 1e-6 + 1e-6·|ref|, ref in double precision",
  .hidden = 1,
  .n_inputs = 1,
  .check_block = stencil2d_check_block,
  .grid_for = stencil2d_grid,
  .buffer_elements = stencil2d_buffer_elements,
  .flops = stencil2d_flops,
  .bytes = stencil2d_bytes,
  .work_units = stencil2d_work_units,
  .function = stencil2d_function,
  .dynamic_smem = NULL,
  .launch = stencil2d_launch,
  .reference = stencil2d_reference,
  .verify = stencil2d_verify,
  .block_fixed = 0,
  .library = NULL,
  .available = NULL,
  .whole_inputs = 0,
  .piece = NULL,
  .launch_piece = NULL,
  .any_grid = 0,
  .cpu_sgemm = 0,
};

/* warpscope
 * title:       5-point stencil, rows per thread
 * description: One Jacobi step over a rows×cols grid; each thread computes TILE_Y points of
 *              a column, so a block covers TILE_Y times as many rows.
 * kernel:      stencil2d
 * size:        rows = 4096, cols = 4096
 * arg in:      float[rows * cols] in random
 * arg out:     float[rows * cols] out
 * arg rows:    int = rows
 * arg cols:    int = cols
 * param TILE_Y: 1, 2, 4, 8
 * block:       32x8
 * grid:        ceil_div(cols, block.x), ceil_div(rows, block.y * TILE_Y)
 * verify:      builtin stencil2d
 * tolerance:   rtol 1e-6, atol 1e-6
 * flops:       6 * rows * cols
 * bytes:       8 * rows * cols
 */

/* Border points keep their value; inner points become half their own value plus an eighth
 * of each of their four neighbours'. A thread's TILE_Y points lie blockDim.y rows apart, so
 * that at every step a warp still reads and writes 32 neighbours of one row. */
extern "C" __global__ void
stencil2d (const float *in, float *out, int rows, int cols)
{
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r0 = blockIdx.y * blockDim.y * TILE_Y + threadIdx.y;

  if (c >= cols)
    return;
#pragma unroll
  for (int j = 0; j < TILE_Y; j++)
    {
      int r = r0 + j * blockDim.y;
      size_t i = (size_t) r * cols + c;

      if (r >= rows)
        return;
      if (r == 0 || c == 0 || r == rows - 1 || c == cols - 1)
        out[i] = in[i];
      else
        out[i] = 0.5f * in[i] + 0.125f * (in[i - cols] + in[i + cols] + in[i - 1] + in[i + 1]);
    }
}

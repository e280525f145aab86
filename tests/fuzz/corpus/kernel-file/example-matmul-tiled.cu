/* warpscope
 * title:       Matrix multiply, shared-memory tiles
 * description: The tutorial's matmul_shared_mem (§5) in CUDA C: a TILE×TILE block computes a
 *              tile of C, staging tiles of A and B in shared memory.
 * kernel:      matmul_tiled
 * size:        m = 1024, n = 1024, k = 1024
 * arg A:       float[m * k] in random
 * arg B:       float[k * n] in random
 * arg C:       float[m * n] out
 * arg m:       int = m
 * arg n:       int = n
 * arg k:       int = k
 * param TILE:  16, 8, 32
 * block:       16x16
 * restrict:    block.x == TILE && block.y == TILE
 * grid:        ceil_div(n, TILE), ceil_div(m, TILE)
 * verify:      reference matmul_naive block 16x16
 * tolerance:   rtol 1e-4, atol 1e-4 * max(1, k / 512)
 * flops:       2 * m * n * k
 * bytes:       4 * (m * k + k * n + m * n)
 */

/* C = A·B, row-major, A m×k, B k×n. TILE comes from the header (-DTILE=16): shared arrays
 * need their size at compile time, and a sweep compiles one variant per value. */
extern "C" __global__ void
matmul_tiled (const float *A, const float *B, float *C, int m, int n, int k)
{
  __shared__ float sA[TILE][TILE];
  __shared__ float sB[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float tmp = 0.0f;

  for (int kk = 0; kk < k; kk += TILE)
    {
      /* Zero where a tile runs past the matrix's edge, so that any size works. */
      sA[ty][tx] = (row < m && kk + tx < k) ? A[(size_t) row * k + kk + tx] : 0.0f;
      sB[ty][tx] = (kk + ty < k && col < n) ? B[(size_t) (kk + ty) * n + col] : 0.0f;
      __syncthreads (); /* every thread's loads are in shared memory */
      for (int i = 0; i < TILE; i++)
        tmp += sA[ty][i] * sB[i][tx];
      __syncthreads (); /* nobody still reads the tile the next iteration overwrites */
    }
  if (row < m && col < n)
    C[(size_t) row * n + col] = tmp;
}

/* The reference, run once per run at block 16x16: the tutorial's naive kernel, one thread per
 * element of C. It adds the products in the same order as the tiled kernel. */
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

// vector_add.cu: the tutorial's §4 vector add written in CUDA C++ and built with nvcc: n =
// 10,000,000 floats from pageable host memory, 256 threads per block, then ten more launches
// to show what a launch costs the host. Exits 0 when the result verifies.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void
add_kernel (const float *a, const float *b, float *c, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n)
    c[i] = a[i] + b[i];
}

#define CHECK(call)                                                                          \
  do                                                                                         \
    {                                                                                        \
      cudaError_t err_ = (call);                                                             \
      if (err_ != cudaSuccess)                                                               \
        {                                                                                    \
          std::fprintf (stderr, "%s: %s\n", #call, cudaGetErrorString (err_));               \
          return 1;                                                                          \
        }                                                                                    \
    }                                                                                        \
  while (0)

int
main ()
{
  const int n = 10000000, threads = 256, blocks = (n + threads - 1) / threads;
  const size_t bytes = n * sizeof (float);
  std::vector<float> a (n), b (n), c (n);
  float *da, *db, *dc;

  for (int i = 0; i < n; i++)
    {
      a[i] = std::sin (i * 1e-3f);
      b[i] = std::cos (i * 1e-3f);
    }
  CHECK (cudaMalloc (&da, bytes));
  CHECK (cudaMalloc (&db, bytes));
  CHECK (cudaMalloc (&dc, bytes));
  CHECK (cudaMemcpy (da, a.data (), bytes, cudaMemcpyHostToDevice));
  CHECK (cudaMemcpy (db, b.data (), bytes, cudaMemcpyHostToDevice));
  add_kernel<<<blocks, threads>>> (da, db, dc, n);
  CHECK (cudaGetLastError ());
  CHECK (cudaDeviceSynchronize ());
  for (int r = 0; r < 10; r++)
    add_kernel<<<blocks, threads>>> (da, db, dc, n);
  CHECK (cudaDeviceSynchronize ());
  CHECK (cudaMemcpy (c.data (), dc, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    if (std::fabs (c[i] - (a[i] + b[i])) > 1e-6f)
      {
        std::fprintf (stderr, "c[%d] = %g, expected %g\n", i, c[i], a[i] + b[i]);
        return 1;
      }
  std::printf ("launched %d blocks of %d threads; result verified\n", blocks, threads);
  cudaFree (da);
  cudaFree (db);
  cudaFree (dc);
  return 0;
}

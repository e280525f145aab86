// fixed_cost.cu: the least a CUDA program does, create its context (cudaFree(0)) and exit, so
// that traced against untraced it shows what tracing costs a program apart from any work: the
// library's start, CUPTI's, and the flush and write at exit. Exits 0 when CUDA answered.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cstdio>

int
main ()
{
  cudaError_t err = cudaFree (0);

  if (err != cudaSuccess)
    {
      std::fprintf (stderr, "cudaFree(0): %s\n", cudaGetErrorString (err));
      return 1;
    }
  return 0;
}

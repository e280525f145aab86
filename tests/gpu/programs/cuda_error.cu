// cuda_error.cu: a program that fails half-way, after three good launches. The argument says
// how: "launch" (a block of 2048 threads, which no GPU allows: the runtime refuses the launch,
// exit 1; CUDA 13 says cudaErrorInvalidValue, earlier ones cudaErrorInvalidConfiguration, and
// the program prints the number so that the test can find the call that failed), "fault" (a write
// through a null pointer: an illegal address, sticky, exit 2), "segv" (the host dereferences
// a null pointer), "abort", "term" (raise SIGTERM).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void
fill (float *x, int n, float v)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n)
    x[i] = v;
}

int
main (int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "launch";
  const int n = 1 << 20;
  float *x;
  cudaError_t err;

  if (cudaMalloc (&x, n * sizeof (float)) != cudaSuccess)
    return 3;
  for (int i = 0; i < 3; i++)
    fill<<<n / 256, 256>>> (x, n, (float) i);
  if (cudaDeviceSynchronize () != cudaSuccess)
    return 3;
  std::printf ("three launches done; now failing by %s\n", mode);
  std::fflush (stdout);
  if (std::strcmp (mode, "launch") == 0)
    {
      fill<<<n / 2048, 2048>>> (x, n, 1.0f);
      err = cudaGetLastError ();
      std::fprintf (stderr, "launch: error %d (%s): %s\n", (int) err, cudaGetErrorName (err),
                    cudaGetErrorString (err));
      return err == cudaErrorInvalidConfiguration || err == cudaErrorInvalidValue ? 1 : 4;
    }
  if (std::strcmp (mode, "fault") == 0)
    {
      fill<<<n / 256, 256>>> (nullptr, n, 1.0f);
      err = cudaDeviceSynchronize ();
      std::fprintf (stderr, "fault: %s\n", cudaGetErrorString (err));
      return err == cudaErrorIllegalAddress ? 2 : 4;
    }
  if (std::strcmp (mode, "segv") == 0)
    {
      volatile int *nowhere = nullptr;

      *nowhere = 1;
    }
  else if (std::strcmp (mode, "abort") == 0)
    std::abort ();
  else if (std::strcmp (mode, "term") == 0)
    std::raise (SIGTERM);
  return 5;
}

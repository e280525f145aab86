// launches.cu: N launches of an empty kernel (argument 1, default 20000) on the default
// stream, timed on the host from the first launch to the synchronization after the last, so
// that traced against untraced it shows what tracing costs per launch apart from the fixed
// cost. Prints "launches N ns_per_launch X"; exits 0 when every launch succeeded.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <chrono>
#include <cstdio>
#include <cstdlib>

__global__ void
empty_kernel ()
{
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? std::atoi (argv[1]) : 20000;
  cudaError_t err;

  if (n < 1)
    {
      std::fprintf (stderr, "usage: %s [LAUNCHES], LAUNCHES at least 1\n", argv[0]);
      return 2;
    }
  // One launch first: the module's lazy load and the first launch's set-up are not per launch.
  empty_kernel<<<1, 32>>> ();
  if ((err = cudaDeviceSynchronize ()) != cudaSuccess)
    {
      std::fprintf (stderr, "first launch: %s\n", cudaGetErrorString (err));
      return 1;
    }
  auto start = std::chrono::steady_clock::now ();
  for (int i = 0; i < n; i++)
    empty_kernel<<<1, 32>>> ();
  err = cudaDeviceSynchronize ();
  auto end = std::chrono::steady_clock::now ();
  if (err != cudaSuccess || (err = cudaGetLastError ()) != cudaSuccess)
    {
      std::fprintf (stderr, "launches: %s\n", cudaGetErrorString (err));
      return 1;
    }
  std::printf ("launches %d ns_per_launch %.1f\n", n,
               std::chrono::duration<double, std::nano> (end - start).count () / n);
  return 0;
}

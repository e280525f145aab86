// streams_threads.cu: four host threads, each with its own stream and pinned buffers, copying
// in, computing and copying out eight times inside an NVTX push/pop range named after the
// thread; the main thread holds a start/end range around them all and marks the end.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <nvtx3/nvToolsExt.h>

enum
{
  THREADS = 4,
  ROUNDS = 8,
  N = 1 << 22,
};

__global__ void
busy (float *x, int n, int iterations)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n)
    {
      float v = x[i];

      for (int k = 0; k < iterations; k++)
        v = v * 0.999f + 0.001f;
      x[i] = v;
    }
}

static int
worker (int id)
{
  std::string name = "worker " + std::to_string (id);
  cudaStream_t stream;
  float *host, *dev;

  if (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking) != cudaSuccess
      || cudaMallocHost (&host, N * sizeof (float)) != cudaSuccess
      || cudaMalloc (&dev, N * sizeof (float)) != cudaSuccess)
    return 1;
  for (int i = 0; i < N; i++)
    host[i] = (float) i;
  nvtxRangePushA (name.c_str ());
  for (int r = 0; r < ROUNDS; r++)
    {
      cudaMemcpyAsync (dev, host, N * sizeof (float), cudaMemcpyHostToDevice, stream);
      busy<<<(N + 255) / 256, 256, 0, stream>>> (dev, N, 64);
      cudaMemcpyAsync (host, dev, N * sizeof (float), cudaMemcpyDeviceToHost, stream);
    }
  cudaStreamSynchronize (stream);
  nvtxRangePop ();
  cudaFree (dev);
  cudaFreeHost (host);
  cudaStreamDestroy (stream);
  return cudaGetLastError () == cudaSuccess ? 0 : 1;
}

int
main ()
{
  std::vector<std::thread> threads;
  int failed[THREADS] = { 0 };
  nvtxRangeId_t all;

  cudaFree (nullptr); /* the context, before the threads share it */
  all = nvtxRangeStartA ("all workers");
  for (int t = 0; t < THREADS; t++)
    threads.emplace_back ([t, &failed] { failed[t] = worker (t); });
  for (auto &t : threads)
    t.join ();
  nvtxRangeEnd (all);
  nvtxMarkA ("done");
  for (int t = 0; t < THREADS; t++)
    if (failed[t])
      {
        std::fprintf (stderr, "worker %d failed\n", t);
        return 1;
      }
  std::printf ("%d threads x %d rounds done\n", (int) THREADS, (int) ROUNDS);
  return 0;
}

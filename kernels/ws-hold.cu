/* ws-hold.cu: a one-thread kernel that keeps a stream busy for a while, so that the launches
 * queued behind it start back to back, with no gaps from the host's launch rate.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-kernel.h"

static __device__ __forceinline__ unsigned long long
global_ns (void)
{
  unsigned long long t;

  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

extern "C" __global__ void
ws_hold_kernel (unsigned long long ns)
{
  unsigned long long start = global_ns ();

  while (global_ns () - start < ns)
    __nanosleep (1000);
}

extern "C" cudaError_t
ws_hold_stream (cudaStream_t stream, double ns)
{
  ws_hold_kernel<<<1, 1, 0, stream>>> (ns > 0 ? (unsigned long long) ns : 0ull);
  return cudaGetLastError ();
}

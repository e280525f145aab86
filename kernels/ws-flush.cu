/* ws-flush.cu: empties the L2 cache of the kernel's data between timed launches (--cache
 * cold), by reading a buffer several times the size of L2.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reading rather than writing: a write would leave L2 full of dirty lines, which the next
 * kernel would have to write back to memory while it runs, as after a warm launch. After
 * the read the lines in L2 are clean copies of the flush buffer, and the dirty lines the
 * previous launch left were written back during the flush, not during the timed kernel,
 * which is what Nsight Compute's cache control gives (flush and invalidate before each
 * profiled launch).
 */
#include "ws-kernel.h"

extern "C" __global__ void
warpscope_flush_l2 (const float4 *__restrict__ buffer, uint64_t n4, float *sink)
{
  const uint64_t stride = (uint64_t) gridDim.x * blockDim.x;
  float sum = 0.0f;

  for (uint64_t i = (uint64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride)
    {
      float4 v = __ldcg (buffer + i);

      sum += (v.x + v.y) + (v.z + v.w);
    }
  /* The buffer holds zeros, so this never writes; the compiler cannot know that, so the
   * loads stay. */
  if (sum == 1.0f)
    *sink = sum;
}

extern "C" const char ws_flush_kernel_name[] = "warpscope_flush_l2";

extern "C" cudaError_t
ws_flush_l2 (cudaStream_t stream, const float *buffer, size_t bytes, float *sink, int sm_count)
{
  /* Eight blocks of 256 threads per SM keep every SM's loads in flight. */
  unsigned blocks = (unsigned) (sm_count > 0 ? sm_count * 8 : 1024);

  warpscope_flush_l2<<<blocks, 256, 0, stream>>> ((const float4 *) buffer, bytes / 16, sink);
  return cudaGetLastError ();
}

/* warpscope
 * title:       A kernel that faults
 * description: Writes through an address no allocation owns, so that the GPU stops it with
 *              an illegal-address fault: the gpu-app walk's runner that faults.
 * kernel:      write_wild
 * size:        n = 1000000
 * arg c:       float[n] out
 * arg n:       uint64 = n
 * block:       256
 * verify:      none
 */

extern "C" __global__ void
write_wild (float *c, unsigned long long n)
{
  unsigned long long idx = (unsigned long long) blockIdx.x * blockDim.x + threadIdx.x;

  /* Far past the end of c: no allocation is there. */
  if (idx < n)
    c[idx + (1ull << 40)] = 1.0f;
}

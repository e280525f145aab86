/* warpscope
 * title:       Vector add without its bounds guard
 * description: The tutorial's vector add with `if (idx < n)` left out: the last block's
 *              extra threads read and write past the ends of the arrays. The result can
 *              still verify; the memory check shows what went wrong, and where.
 * kernel:      vector_add_oob
 * size:        n = 1000001
 * arg a:       float[n] in random
 * arg b:       float[n] in random
 * arg c:       float[n] out
 * arg n:       uint64 = n
 * block:       256
 * verify:      reference vector_add_ref
 * flops:       n
 * bytes:       12 * n
 */

/* At n = 1,000,001 and 256 threads a block, the grid has 3,907 blocks: 1,000,192 threads,
 * 191 of them past the end. Nothing here stops them (§6.2: out-of-bounds indexing is "the
 * number one suspect"). Run it with --memcheck memcheck to see each bad access's line. */
extern "C" __global__ void
vector_add_oob (const float *a, const float *b, float *c, unsigned long long n)
{
  unsigned long long idx = (unsigned long long) blockIdx.x * blockDim.x + threadIdx.x;

  c[idx] = a[idx] + b[idx];
}

/* The reference, with its guard. */
extern "C" __global__ void
vector_add_ref (const float *a, const float *b, float *c, unsigned long long n)
{
  unsigned long long idx = (unsigned long long) blockIdx.x * blockDim.x + threadIdx.x;

  if (idx < n)
    c[idx] = a[idx] + b[idx];
}

/* warpscope
 * title:       Vector add
 * description: The tutorial's first kernel: c[i] = a[i] + b[i], one thread per element.
 * kernel:      vector_add
 * size:        n = 10000000
 * arg a:       float[n] in random
 * arg b:       float[n] in random
 * arg c:       float[n] out
 * arg n:       uint64 = n
 * block:       256
 * grid:        ceil_div(n, block.x)
 * verify:      reference vector_add_ref
 * tolerance:   rtol 1e-5, atol 1e-8
 * flops:       n
 * bytes:       12 * n
 */

/* The tutorial's kernel (§4): idx = cuda.grid(1), guarded by `if idx < c.size` because the
 * last block usually runs past the end of the arrays. */
extern "C" __global__ void
vector_add (const float *a, const float *b, float *c, unsigned long long n)
{
  unsigned long long idx = (unsigned long long) blockIdx.x * blockDim.x + threadIdx.x;

  if (idx < n)
    c[idx] = a[idx] + b[idx];
}

/* The reference: the same sum, one element per thread of a grid-stride loop, so that it is
 * right at any block and grid. */
extern "C" __global__ void
vector_add_ref (const float *a, const float *b, float *c, unsigned long long n)
{
  for (unsigned long long i = (unsigned long long) blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long) gridDim.x * blockDim.x)
    c[i] = a[i] + b[i];
}

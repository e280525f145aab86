/* warpscope
 * kernel:  vector_add
 * size:    n = 10000000
 * arg c:   float[n] out
 * arg a:   float[n] in
 * arg b:   float[n] in
 * arg n:   int = n
 * verify:  builtin vector_add
 */
/* A kernel as Kernel Tuner takes it, with only the comment above added: the block's width is
 * the compile-time constant block_size_x (the runner defines it from --blocks), the output
 * comes first, and the function is C++ (no extern "C"): the header names it and NVRTC finds
 * its mangled name. The grid is the default, one thread per element of n. */

__global__ void vector_add(float *c, float *a, float *b, int n) {
    int i = blockIdx.x * block_size_x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}

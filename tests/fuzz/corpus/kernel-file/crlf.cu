/* warpscope
 * kernel: k
 * size: n = 10
 * arg a: float[n] inout iota
 * verify: none
 */
__global__ void k(float *a) {}

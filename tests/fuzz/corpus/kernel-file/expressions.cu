/* warpscope
 kernel: k
 size: m = 7, n = 5, k = 3
 arg a: float[m * n] in random(0, n)
 arg b: double[max(m, n, k) % 4 + 1] inout constant(2.5)
 arg s: int = n > 0 ? 10 / n : 1 / 0
 arg t: int64 = 0x7fffffffffffffff + 0
 param P: 1, 2, -3, 1.5e2
 block: 8x4x2
 grid: ceil_div(n, block.x * P), ceil_div(m, block.y), 1
 restrict: P * block.x <= 64 && !(P == 2) || block.z == 2
 verify: reference r block 4x4
 tolerance: rtol 1e-4, atol 1e-4 * max(1, k / 512)
 flops: 2 * m * n * k
 */

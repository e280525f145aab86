// a comment
/* license */
/* warpscope
 * kernel: vec add
 * size: n = 0
 * arg a: float[n * TILE] in
 * arg b: flot[n] in
 * arg c: float[n] out random
 * arg n: int = n + blok.x
 * block: 2000
 * grid: ceil_div(n, block.x
 * param TILE: 8, 16, x
 * restrict: TILE < < 3
 * verify: reference
 * tolerance: rtol -1
 * frobs: 3
 * kernel: again
 this line has no colon
 */

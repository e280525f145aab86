/* warpscope
 kernel: k
 size: n = 10
 arg a: float[n] out
 verify: none

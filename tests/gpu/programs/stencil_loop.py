# A Numba stencil that keeps its data on the GPU: its arrays copied in once, 50 steps of a
# 1D three-point average on the device, the result copied back once. Traced, its copies are
# one-time copies around a device-resident loop (docs/findings.md, transfer_bound).
import numpy as np
np.row_stack = np.vstack  # numba 0.68 with numpy 2
from numba import cuda


@cuda.jit
def step(src, dst):
    i = cuda.grid(1)
    if 0 < i < src.size - 1:
        dst[i] = (src[i - 1] + src[i] + src[i + 1]) / 3.0


n = 10_000_000
a = np.random.rand(n).astype(np.float32)
d_a = cuda.to_device(a)
d_b = cuda.device_array_like(d_a)
threads = 256
blocks = (n + threads - 1) // threads
for _ in range(50):
    step[blocks, threads](d_a, d_b)
    d_a, d_b = d_b, d_a
out = d_a.copy_to_host()
print("mean", float(out.mean()))

# A PyTorch matrix multiply loop, marked with NVTX: a push/pop range around the loop, a
# start/end range around the warm-up, a mark at the end. Arguments: size, iterations.
import sys
import time

import torch

n = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 50

a = torch.randn(n, n, device="cuda")
b = torch.randn(n, n, device="cuda")
warm_up = torch.cuda.nvtx.range_start("warm-up")
c = a @ b
torch.cuda.synchronize()
torch.cuda.nvtx.range_end(warm_up)

start = time.perf_counter()
torch.cuda.nvtx.range_push("matmul loop")
for _ in range(iterations):
    c = a @ b
torch.cuda.nvtx.range_pop()
torch.cuda.synchronize()
elapsed = time.perf_counter() - start
torch.cuda.nvtx.mark("done")
print(f"{iterations} matmuls of {n}x{n}: {elapsed * 1e3 / iterations:.3f} ms each, "
      f"c[0, 0] = {c[0, 0].item():.3f}")

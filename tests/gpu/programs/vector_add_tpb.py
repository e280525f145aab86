# The vector add of §4.1 of the tutorial with one change: its threads per block come from the
# command line (--tpb, default 256, the tutorial's), so that a sweep over the program's own
# parameter runs it unchanged:
#   warpscope-cli trace --sweep TPB=32,64,128,256,512,1024 -- python3 vector_add_tpb.py --tpb {TPB}
# As in vector_add.py, one line is added for numba 0.68 with numpy 2.
import argparse

import numpy as np
np.row_stack = np.vstack  # added for numba 0.68 with numpy 2
from numba import cuda
import time


@cuda.jit
def add_kernel(a, b, c):
    idx = cuda.grid(1)
    if idx < c.size:
        c[idx] = a[idx] + b[idx]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tpb", type=int, default=256, help="threads per block")
    args = parser.parse_args()

    n = 10_000_000
    a_host = np.random.randn(n).astype(np.float32)
    b_host = np.random.randn(n).astype(np.float32)
    c_host = np.empty_like(a_host)

    a_device = cuda.to_device(a_host)
    b_device = cuda.to_device(b_host)
    c_device = cuda.device_array_like(a_host)

    threads_per_block = args.tpb
    blocks_per_grid = (n + threads_per_block - 1) // threads_per_block

    print(f"启动内核: 网格大小{blocks_per_grid}, 线程块大小{threads_per_block}")

    start = time.time()
    add_kernel[blocks_per_grid, threads_per_block](a_device, b_device, c_device)
    cuda.synchronize()
    gpu_time = time.time() - start

    c_device.copy_to_host(c_host)

    start = time.time()
    c_cpu = a_host + b_host
    cpu_time = time.time() - start

    if np.allclose(c_host, c_cpu, rtol=1e-5):
        print("结果验证成功！")
    else:
        print("结果不一致！")

    print(f"GPU计算时间: {gpu_time:.4f} 秒")
    print(f"CPU计算时间: {cpu_time:.4f} 秒")
    print(f"加速比: {cpu_time / gpu_time:.2f}x")


if __name__ == "__main__":
    main()

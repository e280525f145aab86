# A CuPy RawKernel: CUDA C compiled by NVRTC at run time and loaded as a module, its name
# unmangled (extern "C"). Ten launches of 2^20 elements, 128 threads per block.
import cupy as cp

source = r'''
extern "C" __global__ void scale(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
}
'''
kernel = cp.RawKernel(source, "scale")
n = 1 << 20
x = cp.arange(n, dtype=cp.float32)
y = cp.empty_like(x)
for _ in range(10):
    kernel(((n + 127) // 128,), (128,), (x, y, cp.float32(2.0), cp.int32(n)))
cp.cuda.Device().synchronize()
assert float(y[10]) == 20.0
print("scale ok")

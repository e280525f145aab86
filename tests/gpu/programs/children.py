# A program whose GPU work is done by another process than the first, as PyTorch's data
# loaders, torch.multiprocessing.spawn and many scripts do. Run as
#   children.py MODE PIDFILE
# it writes its own pid to PIDFILE (and the process that runs child_kernel its pid to
# PIDFILE.child), then:
#   spawn  a multiprocessing child started with "spawn" (a fresh interpreter that keeps none of
#          the descriptors it inherited but the ones multiprocessing needs) runs child_kernel;
#          this process never touches CUDA
#   fork   the same with "fork" (the child initializes CUDA itself, after the fork)
#   exec   this process runs parent_kernel, then a subprocess (close_fds, as subprocess does by
#          default) execs another Python program that runs child_kernel
# Each kernel's result is checked; the exit status is 0 only when all were right.
import multiprocessing
import os
import subprocess
import sys

import numpy as np
np.row_stack = np.vstack  # numba 0.68 still calls np.row_stack, which numpy 2 no longer has


from numba import cuda  # importing it does not initialize CUDA: the parent of spawn and fork never does


@cuda.jit
def parent_kernel(a, b, c):
    i = cuda.grid(1)
    if i < c.size:
        c[i] = a[i] + b[i]


@cuda.jit
def child_kernel(a, b, c):
    i = cuda.grid(1)
    if i < c.size:
        c[i] = a[i] + b[i]


def vector_add(kernel, name):
    n = 1_000_000
    a = np.arange(n, dtype=np.float32)
    b = np.ones(n, dtype=np.float32)
    d_c = cuda.device_array_like(a)
    kernel[(n + 255) // 256, 256](cuda.to_device(a), cuda.to_device(b), d_c)
    ok = np.array_equal(d_c.copy_to_host(), a + b)
    print(f"{name} in process {os.getpid()} (parent {os.getppid()}): {'right' if ok else 'WRONG'}",
          flush=True)
    return ok


def write_pid(path):
    with open(path, "w") as f:
        f.write(f"{os.getpid()}\n")


def child_main(pidfile):
    write_pid(pidfile + ".child")
    sys.exit(0 if vector_add(child_kernel, "child_kernel") else 1)


def in_child(method, pidfile):
    context = multiprocessing.get_context(method)
    p = context.Process(target=child_main, args=(pidfile,))
    p.start()
    p.join()
    return p.exitcode == 0


def main():
    mode, pidfile = sys.argv[1], sys.argv[2]
    if mode == "child":
        child_main(pidfile)
    write_pid(pidfile)
    if mode in ("spawn", "fork"):
        ok = in_child(mode, pidfile)
    elif mode == "exec":
        ok = vector_add(parent_kernel, "parent_kernel")
        ok = subprocess.run([sys.executable, __file__, "child", pidfile],
                            close_fds=True).returncode == 0 and ok
    else:
        sys.exit(f"children.py: unknown mode {mode}: use spawn, fork or exec")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

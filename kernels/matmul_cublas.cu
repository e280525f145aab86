/* matmul_cublas.cu: the matmul ladder's ceiling, cuBLAS SGEMM in its default FP32 math.
 * libcublas is loaded at run time, as CUPTI is, so a machine without it runs the rest.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "matmul.h"

#include <cublas_v2.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "ws-config.h"

/* Only the types come from cublas_v2.h; every call goes through these pointers. */
static struct
{
  int tried, loaded;
  char why[320];
  cublasStatus_t (*Create) (cublasHandle_t *);
  cublasStatus_t (*SetStream) (cublasHandle_t, cudaStream_t);
  cublasStatus_t (*SetWorkspace) (cublasHandle_t, void *, size_t);
  cublasStatus_t (*SetMathMode) (cublasHandle_t, cublasMath_t);
  cublasStatus_t (*Sgemm) (cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                           const float *, const float *, int, const float *, int, const float *,
                           float *, int);
  const char *(*StatusString) (cublasStatus_t);
} api;

#define LOAD(lib, field, symbol) (*(void **) &api.field = dlsym (lib, symbol)) != NULL

static int
load_cublas (void)
{
  const char *override = getenv ("WARPSCOPE_LIBCUBLAS");
  const char *candidates[] = { "libcublas.so." WS_CUDA_MAJOR_STRING,
                               WS_CUDA_LIBDIR "/libcublas.so." WS_CUDA_MAJOR_STRING,
                               "libcublas.so" };
  void *lib = NULL;

  if (api.tried)
    return api.loaded;
  api.tried = 1;
  if (override != NULL && *override != '\0')
    lib = dlopen (override, RTLD_NOW | RTLD_LOCAL);
  for (size_t i = 0; lib == NULL && override == NULL && i < sizeof candidates / sizeof *candidates;
       i++)
    lib = dlopen (candidates[i], RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL)
    {
      snprintf (api.why, sizeof api.why,
                "cuBLAS (libcublas.so." WS_CUDA_MAJOR_STRING ") could not be loaded, so "
                "matmul_cublas cannot run; the other kernels can. Install the CUDA toolkit's "
                "cuBLAS or put its folder in LD_LIBRARY_PATH.");
      return 0;
    }
  if (!(LOAD (lib, Create, "cublasCreate_v2") && LOAD (lib, SetStream, "cublasSetStream_v2")
        && LOAD (lib, SetWorkspace, "cublasSetWorkspace_v2")
        && LOAD (lib, SetMathMode, "cublasSetMathMode") && LOAD (lib, Sgemm, "cublasSgemm_v2")
        && LOAD (lib, StatusString, "cublasGetStatusString")))
    {
      snprintf (api.why, sizeof api.why,
                "The cuBLAS library found lacks functions matmul_cublas needs (it may be from an "
                "older CUDA), so matmul_cublas cannot run; the other kernels can.");
      return 0;
    }
  api.loaded = 1;
  return 1;
}

static int
cublas_available (char *why, size_t why_len)
{
  if (load_cublas ())
    return 1;
  snprintf (why, why_len, "%s", api.why);
  return 0;
}

/* One handle per stream, each with a workspace of its own: streams:K runs products on K
 * streams at once, and cuBLAS must not share a workspace between kernels that may run
 * together. Setting the workspace also keeps cuBLAS from allocating inside the CUDA graph
 * the runner captures for its untraced cross-check. The handles live as long as the
 * process. 32 MiB is what cuBLAS asks for on Hopper. */
#define MAX_HANDLES 16
#define WORKSPACE_BYTES ((size_t) 32 << 20)

static struct
{
  cudaStream_t stream;
  cublasHandle_t handle;
} handles[MAX_HANDLES];
static int n_handles;

static cudaError_t
cublas_failure (cublasStatus_t status, const char *what)
{
  fprintf (stderr, "warpscope-runner: cuBLAS failed while %s: %s\n", what,
           api.StatusString ? api.StatusString (status) : "unknown status");
  return status == CUBLAS_STATUS_ALLOC_FAILED ? cudaErrorMemoryAllocation : cudaErrorUnknown;
}

static cudaError_t
handle_for (cudaStream_t stream, cublasHandle_t *out)
{
  cublasHandle_t h;
  cublasStatus_t st;
  void *workspace = NULL;
  cudaError_t err;

  for (int i = 0; i < n_handles; i++)
    if (handles[i].stream == stream)
      {
        *out = handles[i].handle;
        return cudaSuccess;
      }
  if (!load_cublas ())
    return cudaErrorNotSupported;
  if (n_handles == MAX_HANDLES)
    return cudaErrorNotSupported;
  if ((st = api.Create (&h)) != CUBLAS_STATUS_SUCCESS)
    return cublas_failure (st, "creating a handle");
  if ((err = cudaMalloc (&workspace, WORKSPACE_BYTES)) != cudaSuccess)
    return err;
  /* SetStream resets the workspace to cuBLAS's own pool, so the workspace comes after it. */
  if ((st = api.SetStream (h, stream)) != CUBLAS_STATUS_SUCCESS
      || (st = api.SetWorkspace (h, workspace, WORKSPACE_BYTES)) != CUBLAS_STATUS_SUCCESS
      || (st = api.SetMathMode (h, CUBLAS_DEFAULT_MATH)) != CUBLAS_STATUS_SUCCESS)
    return cublas_failure (st, "setting up a handle");
  handles[n_handles].stream = stream;
  handles[n_handles].handle = h;
  n_handles++;
  *out = h;
  return cudaSuccess;
}

/* cuBLAS is column-major; a row-major matrix is its transpose in column-major order, so
 * C = A·B in row-major is Cᵀ = Bᵀ·Aᵀ in column-major: the same call with A and B swapped
 * and m and n swapped, no transposition done. */
static cudaError_t
gemm (const float *A, const float *B, float *C, int m, int n, int k, cudaStream_t stream)
{
  const float one = 1.0f, zero = 0.0f;
  cublasHandle_t h;
  cublasStatus_t st;
  cudaError_t err;

  if ((err = handle_for (stream, &h)) != cudaSuccess)
    return err;
  st = api.Sgemm (h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, B, n, A, k, &zero, C, n);
  if (st != CUBLAS_STATUS_SUCCESS)
    return cublas_failure (st, "running SGEMM");
  return cudaGetLastError ();
}

static int
cublas_check_block (const unsigned block[3], char *why, size_t why_len)
{
  (void) block, (void) why, (void) why_len;
  return 1;
}

static void
cublas_grid (const uint64_t shape[3], const unsigned block[3], unsigned grid[3])
{
  (void) shape, (void) block;
  /* cuBLAS chooses its own; the kernel records say what it chose. */
  grid[0] = grid[1] = grid[2] = 1;
}

static const void *
cublas_function (const WsLaunchConfig *cfg)
{
  (void) cfg;
  return NULL;
}

static cudaError_t
cublas_launch (const WsLaunchConfig *cfg, float *const *dev, cudaStream_t stream)
{
  return gemm (dev[0], dev[1], dev[2], (int) cfg->shape[0], (int) cfg->shape[1],
               (int) cfg->shape[2], stream);
}

extern "C" const WsKernelDesc ws_matmul_cublas_desc;

static cudaError_t
cublas_launch_piece (const WsLaunchConfig *cfg, int pieces, int p, float *const *dev,
                     cudaStream_t stream)
{
  WsLaunchConfig sub;
  float *slice[3];

  if (!ws_matmul_slice (&ws_matmul_cublas_desc, cfg, pieces, p, dev, &sub, slice))
    return cudaSuccess;
  return cublas_launch (&sub, slice, stream);
}

extern "C" const WsKernelDesc ws_matmul_cublas_desc = {
  .name = "matmul_cublas",
  .family = "matmul",
  .title = WS_N_ ("Matrix multiply, cuBLAS SGEMM"),
  .description
  = WS_N_ ("NVIDIA's cuBLAS SGEMM in its default FP32 math (no TF32, no tensor cores): "
           "the ceiling for hand-written FP32 kernels. cuBLAS picks the kernel, its grid "
           "and its block; the trace shows cuBLAS's kernel names."),
  .source = "kernels/matmul_cublas.cu",
  .block_rank = 2,
  .shape_rank = 3,
  .default_shape = { 4096, 4096, 4096 },
  .default_block = { 0, 0, 0 },
  .flops_formula = "2·m·n·k",
  .bytes_formula = "4·(m·k + k·n + m·n)",
  .tolerance = WS_MATMUL_TOLERANCE,
  .hidden = 0,
  .n_inputs = 2,
  .check_block = cublas_check_block,
  .grid_for = cublas_grid,
  .buffer_elements = ws_matmul_buffer_elements,
  .flops = ws_matmul_flops,
  .bytes = ws_matmul_bytes,
  .work_units = ws_matmul_work_units,
  .function = cublas_function,
  .dynamic_smem = NULL,
  .launch = cublas_launch,
  .reference = ws_matmul_reference,
  .verify = ws_matmul_verify,
  .block_fixed = 1,
  .library = "cuBLAS",
  .available = cublas_available,
  .whole_inputs = WS_MATMUL_WHOLE_INPUTS,
  .piece = ws_matmul_piece,
  .launch_piece = cublas_launch_piece,
  .any_grid = 0,
  .cpu_sgemm = 1,
};

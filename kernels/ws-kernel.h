/* ws-kernel.h: the descriptor each kernel family fills in, read by warpscope-runner.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Plain C so that the runner (C11) and the kernel files (CUDA C++) share it. A family
 * provides its __global__ kernels, a launcher, CPU references, the verification rule and
 * one WsKernelDesc per catalog entry. Every buffer is float32; buffers 0 .. n_inputs-1 are
 * inputs (filled with fresh random numbers by the runner), buffer n_inputs is the output.
 * Fields after verify are optional: a family that leaves them zero keeps the old behaviour.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WS_MAX_INPUTS 3

/* Marks a kernel's title and description for translation: the runner has no gettext and
 * writes them in English; the app and warpscope-cli look them up in the catalog when they
 * show them (po/POTFILES.in lists the kernels' .cu files; xgettext --keyword=WS_N_). */
#define WS_N_(text) text

#include "ws-cpu-clones.h"

typedef struct
{
  uint64_t shape[3]; /* vector kernels: {n, 1, 1}; 2D: {rows, cols, 1}; matmul: {m, n, k} */
  unsigned block[3];
  unsigned grid[3];
  /* An own kernel's compiled variant (--source: one per value of its tunable parameters, and
   * of the block where the source uses block_size_x/y/z); NULL for the built-ins. */
  const void *variant;
} WsLaunchConfig;

typedef struct
{
  int pass;
  const char *method; /* "all": every element; "sample": random elements (see checked) */
  uint64_t checked;   /* elements compared with the reference */
  uint64_t total;     /* elements in the output */
  uint64_t unwritten; /* elements still holding the NaN poison: the kernel never wrote them */
  uint64_t mismatches;
  double max_abs_err;
  double max_rel_err;
  double rtol;
  double atol;
  int64_t first_bad;  /* flat index of the first failing element, -1 when none */
  double first_bad_value;
  double first_bad_expected;
  /* An own kernel with several outputs: the buffer first_bad is in; NULL for the one output. */
  const char *first_bad_buffer;
  /* Why the check could not be made (an own kernel's reference did not run); NULL when it
   * was made. */
  const char *note;
} WsVerifyResult;

/* A part of one buffer, in elements: `height` rows of `width` elements whose starts lie
 * `pitch` apart; a contiguous range when height is 1. Host and device copies of a buffer
 * share one layout, so a region names both ends of a copy. */
typedef struct
{
  uint64_t offset;
  uint64_t width;  /* 0: the piece does not touch this buffer */
  uint64_t height;
  uint64_t pitch;
} WsRegion;

typedef struct WsKernelDesc WsKernelDesc;

struct WsKernelDesc
{
  const char *name;          /* stable identifier: "vector_add" */
  const char *family;        /* the .cu file that holds it: "vector_add" */
  const char *title;         /* for people: "Vector add" */
  const char *description;   /* one sentence for people */
  const char *source;        /* path in the source tree: "kernels/vector_add.cu" */
  int block_rank;            /* 1: blocks are N; 2: blocks are WxH */
  int shape_rank;            /* 1: size is n; 2: rows, cols; 3: m, n, k */
  uint64_t default_shape[3];
  unsigned default_block[3];
  const char *flops_formula; /* for people: "n", "2·m·n·k" */
  const char *bytes_formula; /* fewest bytes any kernel must move: "12·n" */
  const char *tolerance;     /* the verification rule, for people */
  int hidden;                /* test-only entries are not listed */
  int n_inputs;

  /* Argument checks that need no GPU: 0 and a reason when the block cannot work. */
  int (*check_block) (const unsigned block[3], char *why, size_t why_len);
  void (*grid_for) (const uint64_t shape[3], const unsigned block[3], unsigned grid[3]);
  uint64_t (*buffer_elements) (const uint64_t shape[3], int buffer);
  double (*flops) (const uint64_t shape[3]);
  double (*bytes) (const uint64_t shape[3]);
  /* Outer units of work (rows, elements): the CPU reference can do the first `part`. */
  uint64_t (*work_units) (const uint64_t shape[3]);

  /* GPU side. */
  /* The function a whole launch of cfg runs, for cudaFuncGetAttributes: the one launch()
   * picks (a kernel may choose between instantiations by block or shape). */
  const void *(*function) (const WsLaunchConfig *cfg);
  size_t (*dynamic_smem) (const unsigned block[3]);  /* NULL: none */
  cudaError_t (*launch) (const WsLaunchConfig *cfg, float *const *dev, cudaStream_t stream);

  /* CPU side. reference() computes the first `part` work units (all when part is 0) on
   * `threads` threads; verify() compares the GPU output with a reference of its own. */
  void (*reference) (const WsLaunchConfig *cfg, const float *const *in, float *out,
                     int threads, uint64_t part);
  void (*verify) (const WsLaunchConfig *cfg, const float *const *in, const float *out,
                  uint64_t seed, WsVerifyResult *result);

  /* The kernel is built around one block (default_block), or a library picks its own (then
   * default_block is all zeros): --blocks does not apply, and a sweep runs it once per size. */
  int block_fixed;
  /* The library whose kernels run ("cuBLAS"); NULL for Warpscope's own. Such an entry has no
   * function(): its kernels' names, grids and registers are known only from CUPTI. */
  const char *library;
  /* NULL, or 0 and a reason when the entry cannot run here (its library is missing). */
  int (*available) (char *why, size_t why_len);

  /* streams:K. The problem is cut into `pieces` along its outer dimension (elements, rows of
   * the output); piece() gives the part of each buffer that piece p reads or writes, and
   * launch_piece() runs the kernel on that part alone. Inputs in whole_inputs (bit b for
   * input b) are needed whole by every piece and are copied once, before the pieces. NULL
   * when the problem cannot be cut (a reduction has a single output). */
  unsigned whole_inputs;
  void (*piece) (const WsLaunchConfig *cfg, int pieces, int p,
                 WsRegion region[WS_MAX_INPUTS + 1]);
  cudaError_t (*launch_piece) (const WsLaunchConfig *cfg, int pieces, int p, float *const *dev,
                               cudaStream_t stream);

  /* The kernel is right for any grid, not only grid_for's (a grid-stride loop): the
   * self-test also runs it on grids of 1 to 5 blocks. */
  int any_grid;
  /* The CPU baseline can be BLAS SGEMM (the runner loads a BLAS library at run time): the
   * family computes C = A·B, row-major, A (buffer 0) m×k, B (buffer 1) k×n, shape {m, n, k}. */
  int cpu_sgemm;
};

/* The catalog (kernels/catalog.c). */
size_t ws_catalog_size (void);
const WsKernelDesc *ws_catalog_get (size_t index);
const WsKernelDesc *ws_catalog_find (const char *name);

/* Shared helpers for the families (kernels/ws-kernel-util.c). */
static inline unsigned
ws_div_up (uint64_t a, unsigned b)
{
  return (unsigned) ((a + b - 1) / b);
}

/* The bit pattern the runner poisons outputs with (memset 0xFF): a NaN no kernel computes. */
#define WS_POISON_BITS 0xFFFFFFFFu

/* A check shared by the verify() routines: |x - ref| <= atol + rtol·|ref|; NaN fails, and
 * the poison pattern counts as unwritten. Updates result and returns whether x passed. */
int ws_verify_element (WsVerifyResult *result, uint64_t index, float x, double ref);
/* Counts poisoned elements over a whole output (used when only a sample is compared). */
uint64_t ws_count_poison (const float *out, uint64_t total);
/* Merges the per-thread partial results of a parallel verification into `into`. */
void ws_verify_merge (WsVerifyResult *into, const WsVerifyResult *part);
void ws_verify_init (WsVerifyResult *result, const char *method, double rtol, double atol,
                     uint64_t total);
void ws_verify_finish (WsVerifyResult *result);

/* Piece p of `pieces` over `units` outer units, its bounds rounded down to multiples of
 * `align` (so vector loads stay aligned and tiles stay whole); late pieces of a small
 * problem can be empty (lo == hi). */
void ws_piece_range (uint64_t units, int pieces, int p, uint64_t align, uint64_t *lo,
                     uint64_t *hi);
/* A contiguous region [lo, hi). */
WsRegion ws_region_range (uint64_t lo, uint64_t hi);

/* Keeps `stream` busy for about `ns` nanoseconds (ws-hold.cu): work queued behind it while it
 * runs starts without waiting for the host. */
cudaError_t ws_hold_stream (cudaStream_t stream, double ns);

/* --cache cold (ws-flush.cu): reads `bytes` of `buffer` (zeros, 16-byte aligned, several
 * times L2) on `stream`, so that the next kernel finds none of its data in L2 and no dirty
 * lines to write back. `sink` is a float of device memory it never writes in practice.
 * Its kernel is called ws_flush_kernel_name in CUPTI's records. */
cudaError_t ws_flush_l2 (cudaStream_t stream, const float *buffer, size_t bytes, float *sink,
                         int sm_count);
extern const char ws_flush_kernel_name[];

#ifdef __cplusplus
}
#endif

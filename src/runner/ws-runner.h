/* ws-runner.h: one configuration measured by the timing protocol (docs/protocol.md): warm-up,
 * traced repetitions, an untraced cross-check, end-to-end timing, CPU baselines, verification.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cuda_runtime_api.h>
#include <stdint.h>

#include "ws-runner-activity.h"
#include "ws-args.h"
#include "ws-blas.h"
#include "ws-cpu-baseline.h"
#include "ws-runner-device.h"
#include "ws-kernel.h"

/* An own kernel's steps beside its descriptor (ws-own-kernel.c). Its inputs get the contents
 * its header declares (instead of random floats), and in each sequence before_launch() runs
 * after the poison and before the kernel: an inout buffer's initial contents are copied into
 * its place in the output there. */
typedef struct
{
  void (*fill_inputs) (const WsLaunchConfig *cfg, float *const *host, uint64_t seed);
  cudaError_t (*before_launch) (const WsLaunchConfig *cfg, float *const *dev,
                                cudaStream_t stream);
} WsRunHooks;

typedef struct
{
  int id;
  const WsKernelDesc *kernel;
  uint64_t shape[3];
  char size_text[48];
  unsigned block[3];
  unsigned grid[3];
  WsTransfer transfer;
  int streams;             /* streams:K: K (the pieces, one stream each); 1 otherwise */
  int reps;
  int warmup;
  uint64_t seed;
  int cache_cold;          /* --cache cold: L2 flushed before every timed launch */
  /* An own kernel's run (--source): its compiled variant, its tunable parameters' names and
   * values as the header writes them, and the SHA-256 of its source; NULL and 0 otherwise. */
  const void *variant;
  int n_params;
  const char *param_names[8];
  const char *param_values[8];
  const char *source_hash;
  const WsRunHooks *hooks;
} WsRunSpec;

typedef struct
{
  int registers;           /* per thread: CUPTI's kernel record of a warm-up launch, which is
                            * what the GPU gives the function (and what ncu says), or
                            * untraced the compiler's count */
  const char *registers_source; /* "cupti" or "attribute" (cudaFuncGetAttributes) */
  int registers_compiled;  /* per thread as compiled (cudaFuncGetAttributes, ptxas -v) */
  int static_smem;
  int dynamic_smem;
  int local_bytes;
  int kernel_max_threads; /* what this kernel's resources allow per block */
  int ptx_version, binary_version;
  int threads;
  int warps_per_block;
  int active_blocks_by_attribute; /* cudaOccupancyMaxActiveBlocksPerMultiprocessor */
  int active_blocks_per_sm; /* that, or fewer when the registers allow fewer */
  int active_warps_per_sm;
  int max_warps_per_sm;
  double occupancy;        /* active warps / max warps */
  const char *limiter;     /* blocks_per_sm, warps, registers, shared_memory */
  int limit_blocks, limit_warps, limit_registers, limit_smem; /* blocks per SM each allows */
  uint64_t blocks_total;
  double waves;            /* blocks / (active blocks per SM × SMs) */
} WsLaunchFacts;

typedef struct
{
  int traced;
  WsRunnerStats kernel;             /* CUPTI durations of back-to-back launches */
  int records_per_launch;     /* kernel records one launch makes (a library's can be more) */
  const char *kernel_records; /* CUPTI's kind: "serialized" or "concurrent" */
  WsRunnerStats kernel_in_sequence; /* CUPTI durations of the kernels inside the sequences, summed
                               * over the pieces of streams:K */
  WsRunnerStats h2d, d2h, memset;
  double kernel_untraced_ns; /* back-to-back launches between one event pair, total / count */
  int untraced_launches;
  const char *untraced_method; /* "graph" or "stream" */
  WsRunnerStats e2e;
  /* The baselines speedups are taken against: the faster implementation measured. */
  WsRunnerBaseline cpu_one, cpu_all;
  /* The other implementation, where a family has two (BLAS beside the hand-written SGEMM);
   * implementation NULL when it did not run. */
  WsRunnerBaseline cpu_one_other, cpu_all_other;
  int cpu_one_wanted, cpu_all_wanted;
  /* A family that could use BLAS but did not: why (no library found, WARPSCOPE_BLAS=none). */
  const char *library_note;
} WsRunnerTiming;

typedef enum
{
  WS_RUN_OK,       /* measured and verified */
  WS_RUN_FAILED,   /* measured, verification failed */
  WS_RUN_REFUSED,  /* not run: an error record says why; the sweep goes on */
  WS_RUN_FAULT,    /* the CUDA context is unusable: stop */
} WsRunStatus;

typedef struct WsRunner WsRunner;

WsRunner *ws_runner_new (const WsOptions *opts, const WsRunnerDevice *device, int tracing);
void ws_runner_free (WsRunner *runner);

/* Checks a configuration against the device before anything is allocated. */
int ws_runner_check (WsRunner *runner, const WsRunSpec *spec, WsErrorCode *code, char *message,
                     size_t len);

/* Checks that a configuration fits in the host memory left now (buffers, pinned or not, and
 * the CPU baselines' output when `cpu` asks for baselines). */
int ws_runner_check_host (const WsRunSpec *spec, int cpu, WsErrorCode *code, char *message,
                          size_t len);

/* Runs one configuration, printing its records. */
WsRunStatus ws_runner_run (WsRunner *runner, WsRunSpec *spec);

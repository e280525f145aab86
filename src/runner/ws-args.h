/* ws-args.h: the runner's command line, parsed and checked before the GPU is touched.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "ws-kernel.h"
#include "ws-protocol.h"

typedef enum
{
  WS_MODE_NONE,
  WS_MODE_RUN,
  WS_MODE_LIST,
  WS_MODE_DEVICE_INFO,
  WS_MODE_SELF_TEST,
  WS_MODE_HELP,
  WS_MODE_VERSION,
  WS_MODE_CHECK_SOURCE, /* --check-source FILE: the header, then the compile */
} WsMode;

#define WS_MAX_STREAMS 8

typedef struct
{
  WsTransfer kind;
  int streams;       /* K for WS_TRANSFER_STREAMS; 1 otherwise */
} WsTransferMode;

enum
{
  WS_CPU_ONE = 1 << 0, /* one thread */
  WS_CPU_ALL = 1 << 1, /* every core, OpenMP */
};

#define WS_MAX_KERNELS 32
#define WS_MAX_LIST 1024     /* items in one --sizes or --blocks list after ranges expand */
#define WS_MAX_CONFIGS 10000 /* configurations in one sweep */

typedef struct
{
  int rank;          /* 1: one number (n, or a square matrix edge); 2: rows×cols; 3: m×n×k */
  uint64_t dims[3];
  char text[48];     /* as the person wrote it, for messages */
} WsSize;

typedef struct
{
  int rank;          /* 1, 2 or 3 numbers given */
  unsigned dims[3];  /* missing dimensions are 1 */
} WsBlock;

typedef struct
{
  WsMode mode;
  const WsKernelDesc *kernels[WS_MAX_KERNELS];
  int n_kernels;
  WsSize sizes[WS_MAX_LIST];
  int n_sizes;
  WsBlock blocks[WS_MAX_LIST];
  int n_blocks;
  WsTransferMode transfers[2 + WS_MAX_STREAMS];
  int n_transfers;
  int reps;
  int warmup;
  int cpu;           /* WS_CPU_* bits */
  int cpu_reps;      /* at most this many timed CPU runs per baseline */
  double cpu_budget; /* seconds one CPU baseline may take in all */
  int device;
  int device_given;  /* --device was given: --device-info describes that GPU alone */
  int cache_cold;    /* --cache cold: L2 flushed before every timed launch */
  int trace;         /* CUPTI activity tracing (off: untraced timing only) */
  uint64_t seed;
  int summary;       /* human-readable summary on stdout instead of JSON Lines */
  int check;         /* --check: only check the arguments, touch no GPU */
  int shard_index;   /* --shard K/N: this runner runs plan positions K, K+N, … (ws-shard.h) */
  int shard_count;   /* N; 0 without --shard */
  int cpu_given;     /* --cpu was given */
  char mode_option[40]; /* the option that chose the mode, for messages */

  /* Own kernels (docs/own-kernels.md). */
  const char *source;                /* --source / --check-source: the kernel file */
  const char *params[8];             /* --param NAME=V[,V…], as given */
  int n_params;
  int arch_major, arch_minor;        /* --arch sm_XY for --check-source; 0: the GPU's */
  const char *memcheck;              /* --memcheck TOOL: memcheck, racecheck, initcheck */

  /* Hardware counters (docs/counters.md). */
  unsigned counters;                 /* --counters GROUPS: WsCountersGroup bits; 0 none */
  const char *counters_text;         /* as given, for the record */
} WsOptions;

typedef struct
{
  WsErrorCode code;  /* stable: bad_argument, unknown_kernel, invalid_size, invalid_block, … */
  char message[640]; /* what is wrong and what to write instead */
} WsArgError;

/* Returns 1 when argv is usable; otherwise 0 with err filled in. */
int ws_args_parse (int argc, char **argv, WsOptions *opts, WsArgError *err);

/* After parsing, and after an own kernel's descriptor is in opts->kernels: the sizes, blocks
 * and transfer modes suit every kernel named. */
int ws_args_check_runs (WsOptions *opts, WsArgError *err);

/* The shape a size gives for a kernel: n for vector kernels, {rows, cols, 1} for 2D ones,
 * {m, n, k} for matrix products. */
void ws_size_shape (const WsSize *size, const WsKernelDesc *kernel, uint64_t shape[3]);
/* A shape as people write it: "1000000", "4096x4096", "512x256x1024". */
void ws_shape_text (const WsKernelDesc *kernel, const uint64_t shape[3], char *buf, size_t len);

/* "pageable", "pinned", "streams:4": as --transfer takes it and the run record gives it. */
const char *ws_transfer_text (WsTransfer transfer, int streams, char *buf, size_t len);

extern const char ws_args_usage[];

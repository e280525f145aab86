/* ws-cupti-translate.h: one CUPTI activity record, whichever version of its struct, read once
 * into Warpscope's terms: the runner's activity and what a whole program's trace adds to it
 * (ws-cupti-translate.c, the one switch over CUPTI's record kinds; the runner's buffer
 * callback and the injection library's writer both call it).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdint.h>

#include "ws-runner-activity.h"

typedef enum
{
  WS_NVTX_NONE,
  WS_NVTX_MARK,  /* an instantaneous marker */
  WS_NVTX_START, /* a range's start; its end comes as a record of its own, with its id */
  WS_NVTX_END,
} WsNvtxMarker;

typedef struct
{
  /* kind, start, end, correlation, stream, device, bytes, direction, host memory, detail (a
   * sync's type, an overhead's kind, a JIT compile's entry), grid, block, registers, shared
   * memory; its `name` is NULL: */
  WsRunnerActivity activity;
  /* Borrowed from the record: a kernel's (mangled) or NVTX marker's name, the marker's
   * domain, a JIT compile's cache path. */
  const char *name, *domain, *cache_path;
  uint32_t context;
  uint32_t graph;
  uint64_t graph_node;
  /* kernels */
  uint32_t local_bytes;        /* per thread */
  uint32_t smem_config;        /* the shared memory the SM was configured with */
  uint32_t cluster[3];
  int cooperative;
  /* copies and memsets */
  int async;
  uint32_t runtime_correlation;
  uint32_t value;              /* a memset's */
  /* synchronizations: a stream and an event only where the record names one */
  int has_stream, has_event;
  uint32_t event;
  uint32_t result;             /* a sync's or an API call's return value */
  /* API calls (kind WS_ACTIVITY_API) */
  int driver_api;              /* the driver's, or else the runtime's */
  uint32_t cbid;
  uint32_t thread;             /* API calls, JIT compiles and NVTX markers on a thread: its id */
  /* NVTX markers (kind WS_ACTIVITY_NVTX); start and end are the marker's timestamp */
  WsNvtxMarker marker;
  uint32_t id;
  /* JIT compiles (kind WS_ACTIVITY_JIT) */
  const char *operation;       /* cache_load, cache_store, compile, other */
  uint64_t cache_bytes;
} WsCuptiRecord;

/* 1 with `out` filled; 0 for kinds Warpscope does not record. */
int ws_cupti_translate (const void *record, WsCuptiRecord *out);

/* ws-counters-catalogue.h: the hardware counters Warpscope reads, the vocabulary of the
 * `counters` record: each counter's key in the record, its name in Nsight Compute (which
 * `ncu --metrics` takes as it is), its unit and the groups a person picks it by (basic,
 * memory, stalls, all). The runner reads them (src/runner/ws-counters.c), the model explains
 * them; docs/counters.md says what each means.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>

/* More than the catalogue holds: arrays of values by the catalogue's index may be this long. */
#define WS_COUNTERS_MAX 64

/* The groups, as bits: a metric may be in several. */
typedef enum
{
  WS_COUNTERS_BASIC = 1 << 0,  /* occupancy, issue slots, DRAM, SIMT, FP32 FLOP: 2 passes */
  WS_COUNTERS_MEMORY = 1 << 1, /* caches, coalescing, shared-memory bank conflicts */
  WS_COUNTERS_STALLS = 1 << 2, /* why warps did not issue */
  WS_COUNTERS_EXTRA = 1 << 3,  /* in `all` only: SM and memory throughputs, FP64 and FP16 */
} WsCountersGroup;

#define WS_COUNTERS_ALL (WS_COUNTERS_BASIC | WS_COUNTERS_MEMORY | WS_COUNTERS_STALLS \
                         | WS_COUNTERS_EXTRA)

typedef enum
{
  WS_COUNTER_PERCENT, /* 0–100 */
  WS_COUNTER_BYTES,
  WS_COUNTER_NS,
  WS_COUNTER_COUNT,   /* sectors, requests, conflicts, thread instructions */
  WS_COUNTER_RATIO,   /* threads per instruction, warps stalled per issue */
} WsCounterUnit;

typedef struct
{
  const char *key;    /* the record's member: "achieved_occupancy" */
  const char *metric; /* Nsight Compute's name: `ncu --metrics` takes it as it is */
  WsCounterUnit unit;
  unsigned groups;    /* WsCountersGroup */
} WsCounterMetric;

/* Every counter, in the order the record writes them. */
const WsCounterMetric *ws_counters_metrics (size_t *n);

/* "basic", "memory", "stalls", "all" or a comma-separated list of them into `groups`; 0 when
 * a word is none of them. */
int ws_counters_parse_groups (const char *text, unsigned *groups);

/* The metrics of `groups`, in the catalogue's order; returns how many (at most `max`). */
size_t ws_counters_select (unsigned groups, const char **metrics, size_t max);

/* The index of `key` in the catalogue, or -1. */
int ws_counters_index (const char *key);

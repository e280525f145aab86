/* ws-runner-activity.h: the runner's own activity record, what CUPTI's versioned records
 * become before they are written (the session model's WsRunnerActivity is what a reader keeps).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "ws-protocol.h"

typedef struct
{
  WsActivityKind kind;
  uint64_t start; /* ns, CUPTI's clock (the host's, normalised) */
  uint64_t end;
  uint32_t correlation;
  uint32_t stream;
  uint32_t device;
  uint64_t bytes;          /* copies and memsets */
  WsCopyDirection direction; /* copies */
  WsHostMemory host_memory;  /* copies: the host side; NONE for device-only copies */
  const char *detail;      /* sync: its type; overhead: its kind; cpu: "1 thread" */
  char *name;              /* kernels: the kernel's name (owned) */
  int grid[3];
  int block[3];
  int registers;
  int static_smem;
  int dynamic_smem;
  int threads;             /* cpu: threads used */
} WsRunnerActivity;

typedef struct
{
  WsRunnerActivity *items;
  size_t len;
  size_t cap;
} WsRunnerActivityList;

void ws_runner_activity_list_append (WsRunnerActivityList *list, const WsRunnerActivity *activity);
void ws_runner_activity_list_clear (WsRunnerActivityList *list);

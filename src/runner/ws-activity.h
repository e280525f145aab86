/* ws-activity.h: Warpscope's own activity record, what CUPTI's versioned records become.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

typedef enum
{
  WS_ACTIVITY_MEMCPY,
  WS_ACTIVITY_MEMSET,
  WS_ACTIVITY_KERNEL,
  WS_ACTIVITY_SYNC,
  WS_ACTIVITY_OVERHEAD,
  WS_ACTIVITY_CPU, /* a CPU reference run, timed by the runner itself */
} WsActivityKind;

typedef struct
{
  WsActivityKind kind;
  uint64_t start; /* ns, CUPTI's clock (the host's, normalised) */
  uint64_t end;
  uint32_t correlation;
  uint32_t stream;
  uint32_t device;
  uint64_t bytes;          /* copies and memsets */
  const char *direction;   /* copies: "htod", "dtoh", "dtod", "htoh", "ptop" */
  const char *host_memory; /* copies: "pageable", "pinned", … ; NULL for device-only copies */
  const char *detail;      /* sync: its type; overhead: its kind; cpu: "1 thread" */
  char *name;              /* kernels: the kernel's name (owned) */
  int grid[3];
  int block[3];
  int registers;
  int static_smem;
  int dynamic_smem;
  int threads;             /* cpu: threads used */
} WsActivity;

typedef struct
{
  WsActivity *items;
  size_t len;
  size_t cap;
} WsActivityList;

void ws_activity_list_append (WsActivityList *list, const WsActivity *activity);
void ws_activity_list_clear (WsActivityList *list);
const char *ws_activity_kind_name (WsActivityKind kind);

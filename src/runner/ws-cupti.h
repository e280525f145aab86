/* ws-cupti.h: CUPTI activity tracing, lifecycle and buffers. libcupti is loaded at run time,
 * so a machine without it, or with another profiler attached, still runs untraced.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "ws-cupti-api.h"
#include "ws-runner-activity.h"

/* Loads libcupti (ws-cupti-api.c) and registers the buffer callbacks. Returns 1 when tracing
 * can be used; otherwise 0 with a stable code ("cupti_unavailable", "cupti_in_use") and a
 * message. CUPTI's version and clock are ws_cupti_api_version and ws_cupti_api_timestamp. */
int ws_cupti_init (WsErrorCode *code, char *message, size_t len);

/* Starts recording memcpy, memset, kernel (serialized, or concurrent when `concurrent`),
 * synchronization and overhead activity; 0 with a code and message on failure. */
int ws_cupti_start (int concurrent, WsErrorCode *code, char *message, size_t len);
/* Stops recording and forces every buffer to be delivered. */
void ws_cupti_stop (void);
/* Moves the decoded records delivered so far into `out` (appending). */
void ws_cupti_take (WsRunnerActivityList *out);
/* Records CUPTI could not store (its buffers were full), summed since init. */
uint64_t ws_cupti_dropped (void);

/* Flushes what is left; called before the process exits, also after a fault. */
void ws_cupti_shutdown (void);

/* ws-counters.h: the hardware counters of the catalogue (ws-counters-catalogue.h) read with
 * CUPTI: the Profiler Host API's configuration of a group for a chip, which needs no GPU (built
 * from the chip's name), and the Range Profiler's reading of one launch.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>

#include "ws-counters-catalogue.h"

typedef enum
{
  WS_COUNTERS_OK,
  WS_COUNTERS_NO_CUPTI,      /* no libcupti, or one without the Profiler Host API */
  WS_COUNTERS_UNKNOWN_CHIP,  /* CUPTI does not support this chip */
  WS_COUNTERS_BAD_METRIC,    /* the chip has no such metric: the message names it */
  WS_COUNTERS_FAILED,        /* CUPTI refused for another reason: the message says which */
  WS_COUNTERS_NO_PERMISSION, /* the driver keeps counters to administrators */
  WS_COUNTERS_LAUNCH_FAILED, /* the profiled launch itself failed */
} WsCountersStatus;

/* A configuration: the image the Range Profiler is given, and how many passes (kernel
 * replays) it takes to read every counter in it. */
typedef struct
{
  unsigned char *image;
  size_t image_size;
  size_t passes;
  size_t n_metrics;
} WsCountersConfig;

/* The configuration of `groups` for `chip` (CUPTI's name: "GH100" for an H100 or H200), built on
 * the host: no GPU is needed. On failure `message` says why in plain words, naming the metric
 * a chip lacks. */
WsCountersStatus ws_counters_config_build (const char *chip, unsigned groups,
                                           WsCountersConfig *config, char *message,
                                           size_t len);
void ws_counters_config_clear (WsCountersConfig *config);

/* The chips this CUPTI supports, space-separated, into `out`; 0 when CUPTI cannot say. */
int ws_counters_supported_chips (char *out, size_t len);

/* ---- reading them on the GPU (ws-counters-range.c) ---------------------------------------- */

typedef struct WsCountersSession WsCountersSession;

/* Counters of `groups` on the GPU of CUDA index `device`, in the context current on this
 * thread: the chip's configuration built and the Range Profiler enabled. NULL, with `status`
 * and `message`, when they cannot be read here (no CUPTI, a chip CUPTI does not know, no
 * permission: the message says what to change). */
WsCountersSession *ws_counters_session_new (int device, unsigned groups, WsCountersStatus *status,
                                            char *message, size_t len);
const char *ws_counters_session_chip (const WsCountersSession *session);
size_t ws_counters_session_passes (const WsCountersSession *session);
/* The metrics read, and their number (the groups' metrics in the catalogue's order). */
const char *const *ws_counters_session_metrics (const WsCountersSession *session, size_t *n);

/* One launch read: `launch (data)` is called once, and returns 0 when the launch and its
 * completion went well; the profiler replays the kernel as many times as the counters need.
 * `values` receives one value per metric (NaN where one could not be evaluated). */
WsCountersStatus ws_counters_profile (WsCountersSession *session, int (*launch) (void *),
                                      void *data, double *values, char *message, size_t len);
void ws_counters_session_free (WsCountersSession *session);

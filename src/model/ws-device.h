/* ws-device.h: a GPU as a session describes it (the runner's `device` record).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* A host copy ceiling's samples at the runner's start, in GB/s; n = 0 when the recording does
 * not have them (recordings before they were kept). */
typedef struct
{
  double min, median, max;
  int n;
  gint64 bytes;  /* of each copy */
  /* Pageable copies: the rate over all the samples (the ceiling's figure), the CPUs and the
   * buffers they were taken on; 0 for pinned copies and in recordings from before. */
  double mean;
  int cpus, buffers;
} WsRateSpread;

typedef struct
{
  int index;
  const char *name;
  const char *uuid;
  const char *pci_bus_id;
  const char *sm;                 /* "sm_90" */
  const char *compute_capability; /* "9.0" */
  int sm_count;
  int warp_size;
  int max_threads_per_block;
  int max_block_dim[3];
  int max_grid_dim[3];
  int max_threads_per_sm;
  int max_blocks_per_sm;
  int regs_per_sm;
  int regs_per_block;
  gint64 smem_per_sm;
  gint64 smem_per_block;
  gint64 smem_per_block_optin;
  gint64 reserved_smem_per_block;
  gint64 l2_bytes;
  gint64 memory_bytes;
  gint64 memory_free_bytes;
  int memory_clock_khz;
  int bus_width_bits;
  int sm_clock_khz;
  gboolean ecc;
  int async_engines;
  int fp32_lanes_per_sm;
  /* 0 when not known. */
  double fp32_peak_gflops;
  double bandwidth_theoretical_gbs;
  double bandwidth_measured_gbs;
  double h2d_pinned_gbs;
  double d2h_pinned_gbs;
  double h2d_pageable_gbs;
  double d2h_pageable_gbs;
  WsRateSpread h2d_pinned, d2h_pinned, h2d_pageable, d2h_pageable;
  gint64 calibration_bytes; /* of each buffer of the device-to-device measurement */
} WsDeviceInfo;

#define WS_TYPE_DEVICE (ws_device_get_type ())
G_DECLARE_FINAL_TYPE (WsDevice, ws_device, WS, DEVICE, GObject)

const WsDeviceInfo *ws_device_get_info (WsDevice *self);
const char *ws_device_get_name (WsDevice *self);

G_END_DECLS

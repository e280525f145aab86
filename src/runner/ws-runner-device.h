/* ws-runner-device.h: what the runner knows about a GPU: properties, per-SM limits, and the copy
 * bandwidths it measures once per start (the ceilings that findings compare against).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* Copy rates over a device's start-up samples, in GB/s; n = 0 when not measured. */
typedef struct
{
  double min, median, max;
  int n;
  uint64_t bytes; /* of each copy */
  /* Pageable copies: the rate over all samples (their bytes over their time), which is the
   * ceiling's figure; the CPUs the samples were taken on and the buffers they came from. 0
   * for pinned copies, whose figure is the median. */
  double mean;
  int cpus, buffers;
} WsRunnerRateSpread;

typedef struct
{
  int index;
  char name[256];
  char uuid[48];
  char pci_bus_id[32];
  int cc_major, cc_minor;
  int sm_count;
  int warp_size;
  int max_threads_per_block;
  int max_block_dim[3];
  int max_grid_dim[3];
  int max_threads_per_sm;
  int max_blocks_per_sm;
  int regs_per_sm;
  int regs_per_block;
  size_t smem_per_sm;
  size_t smem_per_block;
  size_t smem_per_block_optin;
  size_t reserved_smem_per_block;
  int l2_bytes;
  size_t memory_bytes;
  size_t memory_free;
  int memory_clock_khz; /* 0 when the driver does not say */
  int bus_width_bits;
  int sm_clock_khz;
  int ecc;
  int async_engines;
  int fp32_lanes_per_sm;
  double fp32_peak_gflops;          /* lanes × 2 FLOP × clock × SMs */
  double bandwidth_theoretical_gbs; /* 2 × memory clock × bus width */
  /* Measured at start; 0 when not measured. GB/s count bytes read plus bytes written for
   * device-to-device copies, bytes moved for host copies. */
  double bandwidth_measured_gbs;
  /* Pinned: medians; pageable: the rate over all samples (WsRunnerRateSpread.mean). */
  double h2d_pinned_gbs, d2h_pinned_gbs, h2d_pageable_gbs, d2h_pageable_gbs;
  WsRunnerRateSpread h2d_pinned, d2h_pinned, h2d_pageable, d2h_pageable;
  uint64_t calibration_bytes;
} WsRunnerDevice;

/* Fills properties for device `index`; returns a cudaError_t value (0 = success). */
int ws_device_query (int index, WsRunnerDevice *info);

/* Measures copy bandwidths on the current device; returns a cudaError_t value. */
int ws_device_calibrate (WsRunnerDevice *info);

/* Whether this build has code the device can run: 0, or a cudaError_t value. */
int ws_device_check_image (void);

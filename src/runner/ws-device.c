/* ws-device.c: device queries and the start-up bandwidth measurements.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-device.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws-kernel.h"

static int
attr (enum cudaDeviceAttr a, int device)
{
  int v = 0;

  if (cudaDeviceGetAttribute (&v, a, device) != cudaSuccess)
    {
      cudaGetLastError ();
      return 0;
    }
  return v;
}

/* FP32 lanes per SM: 64 on Turing (7.5) and the A100 (8.0), 128 from 8.6 on. */
static int
fp32_lanes (int major, int minor)
{
  if (major == 7 || (major == 8 && minor == 0))
    return 64;
  return 128;
}

int
ws_device_query (int index, WsDeviceInfo *info)
{
  struct cudaDeviceProp prop;
  cudaError_t err;
  size_t free_bytes = 0, total_bytes = 0;

  memset (info, 0, sizeof *info);
  info->index = index;
  if ((err = cudaGetDeviceProperties (&prop, index)) != cudaSuccess)
    return err;
  snprintf (info->name, sizeof info->name, "%s", prop.name);
  snprintf (info->uuid, sizeof info->uuid,
            "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
            (unsigned char) prop.uuid.bytes[0], (unsigned char) prop.uuid.bytes[1],
            (unsigned char) prop.uuid.bytes[2], (unsigned char) prop.uuid.bytes[3],
            (unsigned char) prop.uuid.bytes[4], (unsigned char) prop.uuid.bytes[5],
            (unsigned char) prop.uuid.bytes[6], (unsigned char) prop.uuid.bytes[7],
            (unsigned char) prop.uuid.bytes[8], (unsigned char) prop.uuid.bytes[9],
            (unsigned char) prop.uuid.bytes[10], (unsigned char) prop.uuid.bytes[11],
            (unsigned char) prop.uuid.bytes[12], (unsigned char) prop.uuid.bytes[13],
            (unsigned char) prop.uuid.bytes[14], (unsigned char) prop.uuid.bytes[15]);
  cudaDeviceGetPCIBusId (info->pci_bus_id, sizeof info->pci_bus_id, index);
  info->cc_major = prop.major;
  info->cc_minor = prop.minor;
  info->sm_count = prop.multiProcessorCount;
  info->warp_size = prop.warpSize;
  info->max_threads_per_block = prop.maxThreadsPerBlock;
  for (int i = 0; i < 3; i++)
    {
      info->max_block_dim[i] = prop.maxThreadsDim[i];
      info->max_grid_dim[i] = prop.maxGridSize[i];
    }
  info->max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  info->max_blocks_per_sm = attr (cudaDevAttrMaxBlocksPerMultiprocessor, index);
  info->regs_per_sm = prop.regsPerMultiprocessor;
  info->regs_per_block = prop.regsPerBlock;
  info->smem_per_sm = prop.sharedMemPerMultiprocessor;
  info->smem_per_block = prop.sharedMemPerBlock;
  info->smem_per_block_optin = prop.sharedMemPerBlockOptin;
  info->reserved_smem_per_block = (size_t) attr (cudaDevAttrReservedSharedMemoryPerBlock, index);
  info->l2_bytes = prop.l2CacheSize;
  info->memory_bytes = prop.totalGlobalMem;
  info->ecc = prop.ECCEnabled;
  info->async_engines = prop.asyncEngineCount;
  /* CUDA 13 removed the clock fields from cudaDeviceProp; the attributes remain. */
  info->memory_clock_khz = attr (cudaDevAttrMemoryClockRate, index);
  info->bus_width_bits = attr (cudaDevAttrGlobalMemoryBusWidth, index);
  info->sm_clock_khz = attr (cudaDevAttrClockRate, index);
  info->fp32_lanes_per_sm = fp32_lanes (prop.major, prop.minor);
  if (info->sm_clock_khz > 0)
    info->fp32_peak_gflops = (double) info->sm_count * info->fp32_lanes_per_sm * 2.0
                             * info->sm_clock_khz * 1e3 / 1e9;
  if (info->memory_clock_khz > 0 && info->bus_width_bits > 0)
    info->bandwidth_theoretical_gbs
      = 2.0 * info->memory_clock_khz * 1e3 * (info->bus_width_bits / 8.0) / 1e9;
  if ((err = cudaSetDevice (index)) != cudaSuccess)
    return err;
  if ((err = cudaMemGetInfo (&free_bytes, &total_bytes)) != cudaSuccess)
    return err;
  info->memory_free = free_bytes;
  return cudaSuccess;
}

int
ws_device_check_image (void)
{
  struct cudaFuncAttributes fa;
  const WsKernelDesc *k = ws_catalog_find ("vector_add");
  WsLaunchConfig cfg = { .shape = { 1024, 1, 1 }, .block = { 256, 1, 1 }, .grid = { 4, 1, 1 } };
  cudaError_t err = cudaFuncGetAttributes (&fa, k->function (&cfg));

  if (err != cudaSuccess)
    cudaGetLastError ();
  return err;
}

/* Seconds per copy of `bytes`: the median over `reps` event pairs, each around `batch`
 * back-to-back copies so that short copies are not dominated by the events, after `warmup`
 * untimed copies. `spread`, when given, gets the rates of every sample. */
#define MAX_SAMPLES 32

static int
compare_float (const void *a, const void *b)
{
  float x = *(const float *) a, y = *(const float *) b;

  return x < y ? -1 : x > y;
}

static cudaError_t
time_copy (void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind, int warmup,
           int reps, int batch, cudaStream_t stream, double *seconds, WsRateSpread *spread)
{
  cudaEvent_t start, stop;
  cudaError_t err = cudaSuccess;
  float times[MAX_SAMPLES];

  if (reps > MAX_SAMPLES)
    reps = MAX_SAMPLES;
  if ((err = cudaEventCreate (&start)) != cudaSuccess)
    return err;
  if ((err = cudaEventCreate (&stop)) != cudaSuccess)
    {
      cudaEventDestroy (start);
      return err;
    }
  for (int i = 0; i < warmup && err == cudaSuccess; i++)
    err = cudaMemcpyAsync (dst, src, bytes, kind, stream);
  for (int r = 0; r < reps && err == cudaSuccess; r++)
    {
      cudaEventRecord (start, stream);
      for (int i = 0; i < batch && err == cudaSuccess; i++)
        err = cudaMemcpyAsync (dst, src, bytes, kind, stream);
      cudaEventRecord (stop, stream);
      if (err == cudaSuccess)
        err = cudaEventSynchronize (stop);
      if (err == cudaSuccess)
        err = cudaEventElapsedTime (&times[r], start, stop);
    }
  cudaEventDestroy (start);
  cudaEventDestroy (stop);
  if (err != cudaSuccess)
    return err;
  qsort (times, (size_t) reps, sizeof *times, compare_float);
  *seconds = (reps % 2 ? times[reps / 2] : 0.5f * (times[reps / 2 - 1] + times[reps / 2]))
             / 1e3 / batch;
  if (spread != NULL)
    {
      /* The fastest copy is the highest rate. */
      spread->max = (double) bytes * batch / (times[0] / 1e3) / 1e9;
      spread->min = (double) bytes * batch / (times[reps - 1] / 1e3) / 1e9;
      spread->median = (double) bytes / *seconds / 1e9;
      spread->n = reps;
      spread->bytes = bytes;
    }
  return cudaSuccess;
}

/* Host copies. Pinned ones are steady from the first: a few samples do. Pageable ones go
 * through the driver's staging buffers and wander from copy to copy and from one start of
 * the runner to the next (on an H200's host 8.8 to 10.5 GB/s host to device with a median of
 * three); the first few are slower still. So they are warmed up and sampled many times, and
 * the spread is recorded beside the median. */
#define PINNED_BYTES ((size_t) 64 << 20)
#define PINNED_WARMUP 1
#define PINNED_SAMPLES 7
#define PAGEABLE_BYTES ((size_t) 32 << 20)
#define PAGEABLE_WARMUP 3
#define PAGEABLE_SAMPLES 21

int
ws_device_calibrate (WsDeviceInfo *info)
{
  /* 512 MiB per device buffer is several times any L2 so far. */
  size_t d2d = (size_t) 512 << 20;
  void *a = NULL, *b = NULL, *pinned = NULL, *pageable = NULL;
  cudaStream_t stream;
  cudaError_t err;
  double s;

  if (info->memory_free < 4 * d2d)
    d2d = info->memory_free / 8;
  if ((err = cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking)) != cudaSuccess)
    return err;
  if ((err = cudaMalloc (&a, d2d)) != cudaSuccess || (err = cudaMalloc (&b, d2d)) != cudaSuccess)
    goto out;
  cudaMemsetAsync (a, 1, d2d, stream);
  if ((err = time_copy (b, a, d2d, cudaMemcpyDeviceToDevice, 1, 5, 10, stream, &s, NULL))
      != cudaSuccess)
    goto out;
  info->bandwidth_measured_gbs = 2.0 * (double) d2d / s / 1e9;
  info->calibration_bytes = d2d;

  if ((err = cudaMallocHost (&pinned, PINNED_BYTES)) != cudaSuccess)
    goto out;
  pageable = malloc (PAGEABLE_BYTES);
  if (pageable == NULL)
    {
      err = cudaErrorMemoryAllocation;
      goto out;
    }
  memset (pinned, 1, PINNED_BYTES);
  memset (pageable, 1, PAGEABLE_BYTES);
  if ((err = time_copy (a, pinned, PINNED_BYTES, cudaMemcpyHostToDevice, PINNED_WARMUP,
                        PINNED_SAMPLES, 1, stream, &s, &info->h2d_pinned))
      != cudaSuccess)
    goto out;
  info->h2d_pinned_gbs = info->h2d_pinned.median;
  if ((err = time_copy (pinned, a, PINNED_BYTES, cudaMemcpyDeviceToHost, PINNED_WARMUP,
                        PINNED_SAMPLES, 1, stream, &s, &info->d2h_pinned))
      != cudaSuccess)
    goto out;
  info->d2h_pinned_gbs = info->d2h_pinned.median;
  if ((err = time_copy (a, pageable, PAGEABLE_BYTES, cudaMemcpyHostToDevice, PAGEABLE_WARMUP,
                        PAGEABLE_SAMPLES, 1, stream, &s, &info->h2d_pageable))
      != cudaSuccess)
    goto out;
  info->h2d_pageable_gbs = info->h2d_pageable.median;
  if ((err = time_copy (pageable, a, PAGEABLE_BYTES, cudaMemcpyDeviceToHost, PAGEABLE_WARMUP,
                        PAGEABLE_SAMPLES, 1, stream, &s, &info->d2h_pageable))
      != cudaSuccess)
    goto out;
  info->d2h_pageable_gbs = info->d2h_pageable.median;

out:
  cudaFree (a);
  cudaFree (b);
  cudaFreeHost (pinned);
  free (pageable);
  cudaStreamDestroy (stream);
  return err;
}

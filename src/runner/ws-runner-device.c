/* ws-runner-device.c: device queries and the start-up bandwidth measurements.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-runner-device.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws-hostbuf.h"
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
ws_device_query (int index, WsRunnerDevice *info)
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
           int reps, int batch, cudaStream_t stream, double *seconds, WsRunnerRateSpread *spread)
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
 * through the driver's staging buffers, copied by the calling thread's CPU, and on an H200's
 * host (a virtual machine) they agreed within one start of the runner but not between starts
 * (device to host 10.6–11.6 GB/s in one, 15.3–17.1 in another): what varies is fixed for a
 * process — the CPU its thread runs on, where its buffer's pages lie — so more samples of one
 * buffer on one CPU cannot find the machine's figure. The pageable ceilings therefore sample
 * the distribution: the thread visits every CPU it may use (up to 16, spread evenly), each
 * sample from one of a few buffers allocated for it, and the figure is the rate over all the
 * samples (their bytes over their time: with CPUs on two sockets the samples fall in two
 * groups, and a median would jump between them from start to start); the spread is beside
 * it. tests/gpu/probe-pageable.sh measures each factor alone. */
#define PINNED_BYTES ((size_t) 64 << 20)
#define PINNED_WARMUP 1
#define PINNED_SAMPLES 7
#define PAGEABLE_BYTES ((size_t) 32 << 20)
#define PAGEABLE_WARMUP 3
#define PAGEABLE_BUFFERS 4
#define PAGEABLE_CPUS 16
#define PAGEABLE_PER_CPU 2 /* at least; more on a host of few CPUs, for 8 samples or more */
#define PAGEABLE_MAX_SAMPLES (PAGEABLE_CPUS * PAGEABLE_PER_CPU)

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* One pageable copy between an event pair, in seconds. */
static cudaError_t
time_one (void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
          cudaStream_t stream, cudaEvent_t start, cudaEvent_t stop, double *seconds)
{
  cudaError_t err;
  float ms = 0;

  if ((err = cudaEventRecord (start, stream)) == cudaSuccess
      && (err = cudaMemcpyAsync (dst, src, bytes, kind, stream)) == cudaSuccess
      && (err = cudaEventRecord (stop, stream)) == cudaSuccess
      && (err = cudaEventSynchronize (stop)) == cudaSuccess)
    err = cudaEventElapsedTime (&ms, start, stop);
  *seconds = ms / 1e3;
  return err;
}

static void
rate_spread (const double *seconds, int n, size_t bytes, WsRunnerRateSpread *spread, double *rate)
{
  double rates[PAGEABLE_MAX_SAMPLES], total = 0;

  for (int i = 0; i < n; i++)
    {
      rates[i] = (double) bytes / seconds[i] / 1e9;
      total += seconds[i];
    }
  qsort (rates, (size_t) n, sizeof *rates, compare_double);
  spread->min = rates[0];
  spread->max = rates[n - 1];
  spread->median = n % 2 ? rates[n / 2] : 0.5 * (rates[n / 2 - 1] + rates[n / 2]);
  spread->n = n;
  spread->bytes = bytes;
  *rate = (double) bytes * n / total / 1e9;
  spread->mean = *rate;
}

/* Pageable copies each way, PAGEABLE_PER_CPU (or more) on each CPU of up to PAGEABLE_CPUS
 * that the thread may use, from PAGEABLE_BUFFERS buffers in turn (ws_host_alloc, as the runs' arrays).
 * The thread gets its CPUs back afterwards. */
static cudaError_t
sample_pageable (WsRunnerDevice *info, void *dev, cudaStream_t stream)
{
  void *host[PAGEABLE_BUFFERS] = { NULL };
  int allowed[1024], cpus[PAGEABLE_CPUS], n_allowed, n_cpus = 0, n = 0, per_cpu;
  double h2d[PAGEABLE_MAX_SAMPLES], d2h[PAGEABLE_MAX_SAMPLES], s;
  cudaEvent_t start = NULL, stop = NULL;
  cudaError_t err = cudaSuccess;

  n_allowed = ws_host_allowed_cpus (allowed, (int) (sizeof allowed / sizeof *allowed));
  if (n_allowed > (int) (sizeof allowed / sizeof *allowed))
    n_allowed = (int) (sizeof allowed / sizeof *allowed);
  n_cpus = ws_host_spread_cpus (allowed, n_allowed, cpus, PAGEABLE_CPUS);
  if (n_cpus == 0)
    cpus[n_cpus++] = -1; /* wherever it runs */
  per_cpu = n_cpus >= 4 ? PAGEABLE_PER_CPU : (8 + n_cpus - 1) / n_cpus;
  for (int b = 0; b < PAGEABLE_BUFFERS; b++)
    {
      if ((host[b] = ws_host_alloc (PAGEABLE_BYTES)) == NULL)
        {
          err = cudaErrorMemoryAllocation;
          goto out;
        }
      memset (host[b], 1, PAGEABLE_BYTES);
    }
  if ((err = cudaEventCreate (&start)) != cudaSuccess || (err = cudaEventCreate (&stop)) != cudaSuccess)
    goto out;
  /* The first few copies of a process are slower still. */
  for (int i = 0; i < PAGEABLE_WARMUP && err == cudaSuccess; i++)
    if ((err = time_one (dev, host[0], PAGEABLE_BYTES, cudaMemcpyHostToDevice, stream, start,
                         stop, &s)) == cudaSuccess)
      err = time_one (host[0], dev, PAGEABLE_BYTES, cudaMemcpyDeviceToHost, stream, start, stop,
                      &s);
  for (int c = 0; c < n_cpus && err == cudaSuccess; c++)
    {
      if (cpus[c] >= 0)
        ws_host_pin_cpu (cpus[c]);
      for (int k = 0; k < per_cpu && err == cudaSuccess; k++, n++)
        {
          void *buffer = host[n % PAGEABLE_BUFFERS];

          if ((err = time_one (dev, buffer, PAGEABLE_BYTES, cudaMemcpyHostToDevice, stream, start,
                               stop, &h2d[n])) == cudaSuccess)
            err = time_one (buffer, dev, PAGEABLE_BYTES, cudaMemcpyDeviceToHost, stream, start,
                            stop, &d2h[n]);
        }
    }
  ws_host_pin_cpu (-1);
  if (err == cudaSuccess && n > 0)
    {
      rate_spread (h2d, n, PAGEABLE_BYTES, &info->h2d_pageable, &info->h2d_pageable_gbs);
      rate_spread (d2h, n, PAGEABLE_BYTES, &info->d2h_pageable, &info->d2h_pageable_gbs);
      info->h2d_pageable.cpus = info->d2h_pageable.cpus = cpus[0] >= 0 ? n_cpus : 0;
      info->h2d_pageable.buffers = info->d2h_pageable.buffers = PAGEABLE_BUFFERS;
    }

out:
  if (start != NULL)
    cudaEventDestroy (start);
  if (stop != NULL)
    cudaEventDestroy (stop);
  for (int b = 0; b < PAGEABLE_BUFFERS; b++)
    ws_host_free (host[b], PAGEABLE_BYTES);
  return err;
}

int
ws_device_calibrate (WsRunnerDevice *info)
{
  /* 512 MiB per device buffer is several times any L2 so far. */
  size_t d2d = (size_t) 512 << 20;
  void *a = NULL, *b = NULL, *pinned = NULL;
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
  memset (pinned, 1, PINNED_BYTES);
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
  err = sample_pageable (info, a, stream);

out:
  cudaFree (a);
  cudaFree (b);
  cudaFreeHost (pinned);
  cudaStreamDestroy (stream);
  return err;
}

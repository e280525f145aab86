/* ws-runner.c: the timing protocol for one configuration.
 *
 * 1. warm-up: W full sequences (copies in, kernel, copy out), untraced;
 * 2. traced, under CUPTI: R sequences, then R back-to-back launches. Copy times are the
 *    sequences' CUPTI durations; the kernel time is the back-to-back launches' CUPTI
 *    durations (the sequences' kernels are reported beside it: right after a copy part of
 *    the input is still in L2, so they can read faster than the kernel's steady state). The
 *    output is poisoned (NaN) before each sequence, and the last one's output is verified.
 *    With streams:K a sequence is K pieces interleaved over K streams (ws-sequence.c), and
 *    kernels are traced as concurrent records so that the overlap shows;
 * 3. cross-check: N back-to-back launches (N ≥ R, enough for about 2 ms), untraced, between
 *    one pair of CUDA events: tracing's cost and agreement become visible;
 * 4. end-to-end: R sequences, untraced, each between one pair of events around the whole;
 * 5. CPU baselines, shared by every run of the same family and size (ws-baseline.c).
 * One event pair around a single short launch is never used: it adds microseconds.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws-clock.h"
#include "ws-config.h"
#include "ws-cupti.h"
#include "ws-diagnose.h"
#include "ws-hostbuf.h"
#include "ws-hostmem.h"
#include "ws-output.h"
#include "ws-runner-private.h"

/* ---- set-up ---------------------------------------------------------------------------- */

WsRunner *
ws_runner_new (const WsOptions *opts, const WsRunnerDevice *device, int tracing)
{
  WsRunner *r = calloc (1, sizeof *r);

  if (r == NULL)
    return NULL;
  r->opts = opts;
  r->device = device;
  r->tracing = tracing;
  for (int i = 0; i < WS_MAX_STREAMS; i++)
    if (cudaStreamCreateWithFlags (&r->streams[i], cudaStreamNonBlocking) != cudaSuccess
        || cudaEventCreateWithFlags (&r->joined[i], cudaEventDisableTiming) != cudaSuccess)
      {
        cudaGetLastError ();
        ws_runner_free (r);
        return NULL;
      }
  if (cudaEventCreate (&r->start) != cudaSuccess || cudaEventCreate (&r->stop) != cudaSuccess
      || cudaEventCreateWithFlags (&r->ready, cudaEventDisableTiming) != cudaSuccess)
    {
      cudaGetLastError ();
      ws_runner_free (r);
      return NULL;
    }
  return r;
}

static void
free_buffers (WsRunner *r)
{
  for (int i = 0; i < r->n_buffers; i++)
    {
      if (r->pinned)
        cudaFreeHost (r->host[i]);
      else
        ws_host_free (r->host[i], _ws_host_bytes (r->elems[i]));
      cudaFree (r->dev[i]);
      r->host[i] = NULL;
      r->dev[i] = NULL;
    }
  r->n_buffers = 0;
}

void
ws_runner_free (WsRunner *r)
{
  if (r == NULL)
    return;
  free_buffers (r);
  _ws_runner_counters_free (r);
  ws_host_free (r->cpu_out, _ws_host_bytes (r->cpu_out_elems));
  free (r->cpu_cache);
  cudaFree (r->flush);
  cudaFree (r->flush_sink);
  for (int i = 0; i < r->n_cold_events; i++)
    cudaEventDestroy (r->cold_events[i]);
  free (r->cold_events);
  /* Handles that were never created are NULL, which these ignore. */
  if (r->start)
    cudaEventDestroy (r->start);
  if (r->stop)
    cudaEventDestroy (r->stop);
  if (r->ready)
    cudaEventDestroy (r->ready);
  for (int i = 0; i < WS_MAX_STREAMS; i++)
    {
      if (r->joined[i])
        cudaEventDestroy (r->joined[i]);
      if (r->streams[i])
        cudaStreamDestroy (r->streams[i]);
    }
  free (r);
}

static double
gb (uint64_t bytes)
{
  return (double) bytes / 1e9;
}

int
ws_runner_check (WsRunner *r, const WsRunSpec *s, WsErrorCode *code, char *message, size_t len)
{
  const WsKernelDesc *k = s->kernel;
  const WsRunnerDevice *d = r->device;
  uint64_t bytes = 0;
  unsigned threads = s->block[0] * s->block[1] * s->block[2];

  /* A library's kernels have no block of ours to check; it picks them. */
  for (int i = 0; i < 3 && k->library == NULL; i++)
    if (s->block[i] > (unsigned) d->max_block_dim[i])
      {
        *code = WS_ERROR_INVALID_BLOCK;
        snprintf (message, len,
                  "block %u×%u×%u: dimension %c can be at most %d on the %s; choose a smaller "
                  "block",
                  s->block[0], s->block[1], s->block[2], "xyz"[i], d->max_block_dim[i], d->name);
        return 0;
      }
  if (k->library == NULL && threads > (unsigned) d->max_threads_per_block)
    {
      *code = WS_ERROR_INVALID_BLOCK;
      snprintf (message, len,
                "block %u×%u×%u has %u threads; the %s allows at most %d per block", s->block[0],
                s->block[1], s->block[2], threads, d->name, d->max_threads_per_block);
      return 0;
    }
  for (int b = 0; b <= k->n_inputs; b++)
    bytes += k->buffer_elements (s->shape, b) * sizeof (float);
  if (s->cache_cold)
    bytes += _ws_flush_bytes (d);
  /* Leave 5% of the free memory for the CUDA context and the allocator's granularity. */
  if ((double) bytes > 0.95 * (double) d->memory_free)
    {
      uint64_t per_unit = bytes / (k->shape_rank == 1 ? s->shape[0] : 1);

      *code = WS_ERROR_SIZE_TOO_LARGE;
      if (k->shape_rank == 1)
        snprintf (message, len,
                  "%s at n = %s needs %.2f GB on the GPU for its %d arrays, but the %s has %.2f "
                  "GB free: choose n of at most %.3g",
                  k->name, s->size_text, gb (bytes), k->n_inputs + 1, d->name,
                  gb (d->memory_free), 0.95 * (double) d->memory_free / (double) per_unit);
      else
        snprintf (message, len,
                  "%s at %s needs %.2f GB on the GPU for its %d matrices, but the %s has "
                  "%.2f GB free: choose smaller matrices",
                  k->name, s->size_text, gb (bytes), k->n_inputs + 1, d->name,
                  gb (d->memory_free));
      return 0;
    }
  for (int i = 0; i < 3; i++)
    if (s->grid[i] == 0 || s->grid[i] > (unsigned) d->max_grid_dim[i])
      {
        *code = WS_ERROR_SIZE_TOO_LARGE;
        snprintf (message, len,
                  "%s at %s with block %u×%u needs a grid of %u×%u blocks, more than the %s can "
                  "launch (%d×%d); use a larger block or a smaller size",
                  k->name, s->size_text, s->block[0], s->block[1], s->grid[0], s->grid[1],
                  d->name, d->max_grid_dim[0], d->max_grid_dim[1]);
        return 0;
      }
  if (k->shape_rank >= 2)
    for (int i = 0; i < k->shape_rank; i++)
      if (s->shape[i] > 0x7fffffffull)
        {
          *code = WS_ERROR_SIZE_TOO_LARGE;
          snprintf (message, len, "%s takes matrix dimensions below 2^31, not %s", k->name,
                    s->size_text);
          return 0;
        }
  return ws_runner_check_host (s, r->opts->cpu, code, message, len);
}

/* ---- host memory ----------------------------------------------------------------------- */

/* The host memory run `s` allocates: its buffers (pinned or not) and, with CPU baselines,
 * their output; `have_out` bytes of that output are already allocated. */
static void
host_bytes (const WsRunSpec *s, int cpu, uint64_t have_out, uint64_t *arrays, uint64_t *cpu_out)
{
  const WsKernelDesc *k = s->kernel;
  uint64_t out = k->buffer_elements (s->shape, k->n_inputs) * sizeof (float);

  *arrays = 0;
  for (int b = 0; b <= k->n_inputs; b++)
    *arrays += k->buffer_elements (s->shape, b) * sizeof (float);
  *cpu_out = cpu != 0 && out > have_out ? out - have_out : 0;
}

/* 0 and an error message when the run does not fit in what the host has left now. */
static int
fits_host (const WsRunSpec *s, int cpu, uint64_t have_out, char *message, size_t len)
{
  const WsKernelDesc *k = s->kernel;
  uint64_t arrays, cpu_out;
  WsHostmem mem;

  host_bytes (s, cpu, have_out, &arrays, &cpu_out);
  ws_hostmem_query (&mem);
  return ws_hostmem_check (&mem, k->name, s->size_text, k->shape_rank == 1 ? s->shape[0] : 0,
                           k->n_inputs + 1,
                           ws_transfer_to_string (s->transfer == WS_TRANSFER_PAGEABLE
                                                    ? WS_TRANSFER_PAGEABLE
                                                    : WS_TRANSFER_PINNED),
                           arrays,
                           cpu_out, message, len);
}

int
ws_runner_check_host (const WsRunSpec *s, int cpu, WsErrorCode *code, char *message, size_t len)
{
  if (fits_host (s, cpu, 0, message, len))
    return 1;
  *code = WS_ERROR_HOST_OUT_OF_MEMORY;
  return 0;
}

/* ---- --cache cold ---------------------------------------------------------------------- */

size_t
_ws_flush_bytes (const WsRunnerDevice *device)
{
  size_t bytes = device->l2_bytes > 0 ? (size_t) device->l2_bytes * 4 : 0;

  return bytes > ((size_t) 64 << 20) ? (bytes + 15) / 16 * 16 : (size_t) 64 << 20;
}

cudaError_t
_ws_flush (WsRunner *r)
{
  cudaError_t err;

  if (r->flush == NULL)
    {
      r->flush_bytes = _ws_flush_bytes (r->device);
      if ((err = cudaMalloc ((void **) &r->flush, r->flush_bytes)) != cudaSuccess
          || (err = cudaMalloc ((void **) &r->flush_sink, sizeof (float))) != cudaSuccess
          || (err = cudaMemset (r->flush, 0, r->flush_bytes)) != cudaSuccess)
        {
          cudaFree (r->flush);
          r->flush = NULL;
          return err;
        }
    }
  return ws_flush_l2 (r->streams[0], r->flush, r->flush_bytes, r->flush_sink,
                      r->device->sm_count);
}

/* ---- errors ---------------------------------------------------------------------------- */

WsRunStatus
_ws_run_failure (const WsRunSpec *s, cudaError_t err, const char *what)
{
  char message[768], detail[256];

  snprintf (detail, sizeof detail, "%s: %s", cudaGetErrorName (err), cudaGetErrorString (err));
  if (ws_cuda_error_is_sticky (err))
    {
      snprintf (message, sizeof message,
                "The kernel %s faulted while %s (%s): it most likely read or wrote memory "
                "outside its arrays. After a fault the GPU context cannot be used, so the runner "
                "stopped here; the runs before this one are complete.",
                s->kernel->name, what, cudaGetErrorString (err));
      ws_output_error (s->id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_KERNEL_FAULT, message, detail);
      return WS_RUN_FAULT;
    }
  if (err == cudaErrorMemoryAllocation)
    {
      snprintf (message, sizeof message,
                "Run %d (%s at %s) ran out of memory while %s: close other programs that use "
                "the GPU or choose a smaller size. The sweep goes on.",
                s->id, s->kernel->name, s->size_text, what);
      ws_output_error (s->id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_OUT_OF_MEMORY, message, detail);
      return WS_RUN_REFUSED;
    }
  if (err == cudaErrorNoKernelImageForDevice || err == cudaErrorInvalidDeviceFunction)
    {
      snprintf (message, sizeof message,
                "This build has no machine code for this GPU, so %s cannot run. Rebuild "
                "Warpscope with the GPU's architecture in -Dgpu_archs (built for: %s).",
                s->kernel->name, WS_CUDA_ARCHS);
      ws_output_error (s->id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_NO_KERNEL_IMAGE, message, detail);
      return WS_RUN_REFUSED;
    }
  snprintf (message, sizeof message, "Run %d (%s) failed while %s: %s.", s->id, s->kernel->name,
            what, cudaGetErrorString (err));
  ws_output_error (s->id, WS_ERROR_SEVERITY_ERROR,
                   err == cudaErrorLaunchOutOfResources ? WS_ERROR_INVALID_BLOCK
                                                        : WS_ERROR_CUDA_ERROR,
                   message, detail);
  return WS_RUN_REFUSED;
}

/* ---- buffers and inputs ---------------------------------------------------------------- */

static uint64_t
mix64 (uint64_t z)
{
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Uniform in [-1, 1), a pure function of (seed, buffer, index) so any thread count gives the
 * same inputs for the same seed. */
static void
fill_random (float *p, uint64_t n, uint64_t seed, int buffer)
{
  uint64_t key = mix64 (seed + 0x9E3779B97F4A7C15ull * (uint64_t) (buffer + 1));

#pragma omp parallel for schedule(static)
  for (uint64_t i = 0; i < n; i++)
    p[i] = (float) ((double) (mix64 (key ^ (i * 0xD1B54A32D192ED03ull)) >> 40) / (double) (1ull << 23)
                    - 1.0);
}

static WsRunStatus
prepare_buffers (WsRunner *r, const WsRunSpec *s)
{
  const WsKernelDesc *k = s->kernel;
  int n = k->n_inputs + 1, pinned = s->transfer != WS_TRANSFER_PAGEABLE;
  int same = r->n_buffers == n && r->pinned == pinned;

  for (int b = 0; same && b < n; b++)
    same = r->elems[b] == k->buffer_elements (s->shape, b);
  if (!same)
    {
      char message[768];

      free_buffers (r);
      /* Checked again now, with this run's buffers freed: others may have taken memory since
       * the sweep was checked. */
      if (!fits_host (s, r->opts->cpu, r->cpu_out_elems * sizeof (float), message,
                      sizeof message))
        {
          ws_output_error (s->id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_HOST_OUT_OF_MEMORY, message,
                           NULL);
          return WS_RUN_REFUSED;
        }
      r->pinned = pinned;
      for (int b = 0; b < n; b++)
        {
          uint64_t elems = k->buffer_elements (s->shape, b);
          size_t bytes = elems * sizeof (float);

          r->elems[b] = elems;
          r->n_buffers = b + 1;
          if (pinned)
            WS_TRY (cudaMallocHost ((void **) &r->host[b], bytes ? bytes : 4),
                 "allocating pinned host memory");
          else
            {
              /* As numpy allocates its arrays: large ones on huge pages. */
              r->host[b] = ws_host_alloc (_ws_host_bytes (elems));
              if (r->host[b] == NULL)
                return _ws_run_failure (s, cudaErrorMemoryAllocation, "allocating host memory");
            }
          WS_TRY (cudaMalloc ((void **) &r->dev[b], bytes ? bytes : 4), "allocating GPU memory");
        }
    }
  if (s->hooks != NULL)
    {
      WsLaunchConfig cfg;

      _ws_launch_config (s, &cfg);
      s->hooks->fill_inputs (&cfg, r->host, s->seed);
    }
  else
    for (int b = 0; b < k->n_inputs; b++)
      fill_random (r->host[b], r->elems[b], s->seed, b);
  /* Touch the output once so first-touch page faults stay out of every timing. */
  memset (r->host[k->n_inputs], 0xFF, r->elems[k->n_inputs] * sizeof (float));
  return WS_RUN_OK;
}

/* ---- warm-up --------------------------------------------------------------------------- */

/* W sequences (module load, first touch), and with streams:K one whole launch after them.
 * Traced when tracing and `facts` is given, for one thing only: CUPTI's kernel records of the
 * whole launches say how many registers the GPU gives the function, which the compiler's
 * count does not predict (docs/protocol.md, `launch`). The records are not written. */
static WsRunStatus
warm_up (WsRunner *r, const WsRunSpec *s, WsLaunchFacts *facts)
{
  int concurrent = _ws_concurrent_records (s);
  int traced = 0;
  WsRunnerActivityList acts = { 0 };
  cudaError_t err = cudaSuccess;
  WsErrorCode code;
  char message[640];

  if (facts != NULL && r->tracing && s->warmup > 0)
    {
      traced = ws_cupti_start (concurrent, &code, message, sizeof message);
      if (!traced)
        {
          ws_output_error (s->id, WS_ERROR_SEVERITY_WARNING, code, message, NULL);
          r->tracing = 0;
        }
    }
  for (int i = 0; i < s->warmup && err == cudaSuccess; i++)
    err = _ws_sequence_run (r, s, 1);
  if (err == cudaSuccess && traced && s->transfer == WS_TRANSFER_STREAMS)
    {
      err = _ws_launch (r, s);
      if (err == cudaSuccess)
        err = cudaStreamSynchronize (r->streams[0]);
    }
  if (traced)
    {
      ws_cupti_stop ();
      ws_cupti_take (&acts);
    }
  if (err != cudaSuccess)
    {
      ws_runner_activity_list_clear (&acts);
      cudaGetLastError ();
      return _ws_run_failure (s, err, "warming up");
    }
  if (traced && !_ws_launch_facts_set_registers (r, s, facts, &acts))
    {
      snprintf (message, sizeof message,
                "CUPTI delivered no kernel record of run %d's warm-up, so its registers are the "
                "compiler's count (registers_source \"attribute\"), which can be fewer than "
                "the GPU gives the kernel",
                s->id);
      ws_output_error (s->id, WS_ERROR_SEVERITY_WARNING, WS_ERROR_TRACE_INCOMPLETE, message, NULL);
    }
  ws_runner_activity_list_clear (&acts);
  return WS_RUN_OK;
}

/* ---- one run --------------------------------------------------------------------------- */

WsRunStatus
ws_runner_run (WsRunner *r, WsRunSpec *s)
{
  WsLaunchFacts facts;
  WsRunnerTiming timing;
  WsVerifyResult verify;
  WsLaunchConfig cfg;
  WsRunStatus status;
  int have_facts;
  char why[512];

  memset (&timing, 0, sizeof timing);
  ws_output_run (s, r->opts->cpu);
  if (s->kernel->available != NULL && !s->kernel->available (why, sizeof why))
    {
      ws_output_error (s->id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_KERNEL_UNAVAILABLE, why, NULL);
      return WS_RUN_REFUSED;
    }
  if ((status = prepare_buffers (r, s)) != WS_RUN_OK)
    return status;
  /* A library's kernel is unknown until it runs: its facts are in its kernel records. */
  _ws_launch_config (s, &cfg);
  have_facts = s->kernel->function (&cfg) != NULL;
  if (have_facts && (status = _ws_launch_facts (r, s, &facts)) != WS_RUN_OK)
    return status;
  if ((status = warm_up (r, s, have_facts ? &facts : NULL)) != WS_RUN_OK)
    return status;
  if (have_facts)
    ws_output_launch (s->id, &facts);
  /* The flush's buffer and module are set up here, before anything is traced. */
  if (s->cache_cold)
    {
      WS_TRY (_ws_flush (r), "flushing L2");
      WS_TRY (cudaStreamSynchronize (r->streams[0]), "flushing L2");
    }
  if ((status = _ws_traced_reps (r, s, &timing)) != WS_RUN_OK)
    return status;

  /* The last traced repetition's output, copied into NaN-poisoned host memory. */
  s->kernel->verify (&cfg, (const float *const *) r->host, r->host[s->kernel->n_inputs], s->seed,
                     &verify);

  if (!timing.traced && (status = _ws_untraced_copies (r, s, &timing)) != WS_RUN_OK)
    return status;
  if ((status = _ws_untraced_phases (r, s, &timing)) != WS_RUN_OK)
    return status;
  /* After every timed launch, never between them. */
  _ws_runner_counters (r, s);
  if ((status = _ws_cpu_baselines (r, s, &timing)) != WS_RUN_OK)
    return status;

  ws_output_verify (s->id, &verify);
  ws_output_timing (s->id, s, &timing);
  ws_output_summary_run (s, have_facts ? &facts : NULL, &timing, &verify, r->device);
  return verify.pass ? WS_RUN_OK : WS_RUN_FAILED;
}

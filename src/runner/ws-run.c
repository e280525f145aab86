/* ws-run.c: the timing protocol for one configuration.
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
#include "ws-run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws-clock.h"
#include "ws-config.h"
#include "ws-cupti.h"
#include "ws-diagnose.h"
#include "ws-output.h"
#include "ws-run-private.h"

/* ---- statistics ------------------------------------------------------------------------ */

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

WsStats
_ws_stats_of (double *values, int n)
{
  WsStats s = { 0 };

  if (n <= 0)
    return s;
  qsort (values, (size_t) n, sizeof *values, compare_double);
  s.n = n;
  s.min = values[0];
  s.max = values[n - 1];
  s.median = n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
  return s;
}

/* ---- set-up ---------------------------------------------------------------------------- */

WsRunner *
ws_runner_new (const WsOptions *opts, const WsDeviceInfo *device, int tracing)
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
        free (r->host[i]);
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
  free (r->cpu_out);
  free (r->cpu_cache);
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
ws_runner_check (WsRunner *r, const WsRunSpec *s, const char **code, char *message, size_t len)
{
  const WsKernelDesc *k = s->kernel;
  const WsDeviceInfo *d = r->device;
  uint64_t bytes = 0;
  unsigned threads = s->block[0] * s->block[1] * s->block[2];

  /* A library's kernels have no block of ours to check; it picks them. */
  for (int i = 0; i < 3 && k->library == NULL; i++)
    if (s->block[i] > (unsigned) d->max_block_dim[i])
      {
        *code = "invalid_block";
        snprintf (message, len,
                  "block %u×%u×%u: dimension %c can be at most %d on the %s; choose a smaller "
                  "block",
                  s->block[0], s->block[1], s->block[2], "xyz"[i], d->max_block_dim[i], d->name);
        return 0;
      }
  if (k->library == NULL && threads > (unsigned) d->max_threads_per_block)
    {
      *code = "invalid_block";
      snprintf (message, len,
                "block %u×%u×%u has %u threads; the %s allows at most %d per block", s->block[0],
                s->block[1], s->block[2], threads, d->name, d->max_threads_per_block);
      return 0;
    }
  for (int b = 0; b <= k->n_inputs; b++)
    bytes += k->buffer_elements (s->shape, b) * sizeof (float);
  /* Leave 5% of the free memory for the CUDA context and the allocator's granularity. */
  if ((double) bytes > 0.95 * (double) d->memory_free)
    {
      uint64_t per_unit = bytes / (k->shape_rank == 1 ? s->shape[0] : 1);

      *code = "size_too_large";
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
        *code = "size_too_large";
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
          *code = "size_too_large";
          snprintf (message, len, "%s takes matrix dimensions below 2^31, not %s", k->name,
                    s->size_text);
          return 0;
        }
  return 1;
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
      ws_output_error (s->id, "error", "kernel_fault", message, detail);
      return WS_RUN_FAULT;
    }
  if (err == cudaErrorMemoryAllocation)
    {
      snprintf (message, sizeof message,
                "Run %d (%s at %s) ran out of memory while %s: close other programs that use "
                "the GPU or choose a smaller size. The sweep goes on.",
                s->id, s->kernel->name, s->size_text, what);
      ws_output_error (s->id, "error", "out_of_memory", message, detail);
      return WS_RUN_REFUSED;
    }
  if (err == cudaErrorNoKernelImageForDevice || err == cudaErrorInvalidDeviceFunction)
    {
      snprintf (message, sizeof message,
                "This build has no machine code for this GPU, so %s cannot run. Rebuild "
                "Warpscope with the GPU's architecture in -Dgpu_archs (built for: %s).",
                s->kernel->name, WS_CUDA_ARCHS);
      ws_output_error (s->id, "error", "no_kernel_image", message, detail);
      return WS_RUN_REFUSED;
    }
  snprintf (message, sizeof message, "Run %d (%s) failed while %s: %s.", s->id, s->kernel->name,
            what, cudaGetErrorString (err));
  ws_output_error (s->id, "error", err == cudaErrorLaunchOutOfResources ? "invalid_block"
                                                                        : "cuda_error",
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
      free_buffers (r);
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
              r->host[b] = aligned_alloc (64, ((bytes ? bytes : 4) + 63) / 64 * 64);
              if (r->host[b] == NULL)
                return _ws_run_failure (s, cudaErrorMemoryAllocation, "allocating host memory");
            }
          WS_TRY (cudaMalloc ((void **) &r->dev[b], bytes ? bytes : 4), "allocating GPU memory");
        }
    }
  for (int b = 0; b < k->n_inputs; b++)
    fill_random (r->host[b], r->elems[b], s->seed, b);
  /* Touch the output once so first-touch page faults stay out of every timing. */
  memset (r->host[k->n_inputs], 0xFF, r->elems[k->n_inputs] * sizeof (float));
  return WS_RUN_OK;
}

/* ---- launch facts ---------------------------------------------------------------------- */

static int
div_floor (int a, int b)
{
  return b > 0 ? a / b : 0;
}

static WsRunStatus
launch_facts (WsRunner *r, const WsRunSpec *s, WsLaunchFacts *f)
{
  const WsKernelDesc *k = s->kernel;
  const WsDeviceInfo *d = r->device;
  const void *fn = k->function (s->block);
  struct cudaFuncAttributes fa;
  size_t dyn = k->dynamic_smem ? k->dynamic_smem (s->block) : 0;
  int regs_per_warp, warps_by_regs;
  size_t smem;
  char message[512];

  memset (f, 0, sizeof *f);
  WS_TRY (cudaFuncGetAttributes (&fa, fn), "reading the kernel's attributes");
  f->registers = fa.numRegs;
  f->static_smem = (int) fa.sharedSizeBytes;
  f->dynamic_smem = (int) dyn;
  f->local_bytes = (int) fa.localSizeBytes;
  f->kernel_max_threads = fa.maxThreadsPerBlock;
  f->ptx_version = fa.ptxVersion;
  f->binary_version = fa.binaryVersion;
  f->threads = (int) (s->block[0] * s->block[1] * s->block[2]);
  f->warps_per_block = (f->threads + d->warp_size - 1) / d->warp_size;
  f->max_warps_per_sm = d->max_threads_per_sm / d->warp_size;
  if (f->threads > fa.maxThreadsPerBlock)
    {
      snprintf (message, sizeof message,
                "%s uses %d registers per thread, so on the %s a block can have at most %d "
                "threads, not %d: choose a smaller block",
                k->name, fa.numRegs, d->name, fa.maxThreadsPerBlock, f->threads);
      ws_output_error (s->id, "error", "invalid_block", message, NULL);
      return WS_RUN_REFUSED;
    }
  WS_TRY (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&f->active_blocks_per_sm, fn, f->threads,
                                                      dyn),
       "computing occupancy");
  f->active_warps_per_sm = f->active_blocks_per_sm * f->warps_per_block;
  f->occupancy = (double) f->active_warps_per_sm / f->max_warps_per_sm;

  /* Which resource sets that number, by the rules of CUDA's occupancy calculator
   * (cuda_occupancy.h): registers are given out per warp in units of 256 and fit per
   * sub-partition (4 per SM); shared memory per block, with the driver's reservation, in
   * units of 128 bytes (256 on sm_75), against the largest carve-out. Ties go to warps, then
   * the block cap, registers, shared memory — the order docs/occupancy.md gives. */
  f->limit_blocks = d->max_blocks_per_sm;
  f->limit_warps = div_floor (f->max_warps_per_sm, f->warps_per_block);
  regs_per_warp = (f->registers * d->warp_size + 255) / 256 * 256;
  if (regs_per_warp == 0)
    f->limit_registers = 1 << 20;
  else if (regs_per_warp * f->warps_per_block > d->regs_per_block)
    f->limit_registers = 0;
  else
    {
      warps_by_regs = (d->regs_per_sm / 4) / regs_per_warp * 4;
      f->limit_registers = div_floor (warps_by_regs, f->warps_per_block);
    }
  {
    size_t unit = d->cc_major < 8 ? 256 : 128;

    smem = (size_t) f->static_smem + dyn;
    if (smem > 0 || d->reserved_smem_per_block > 0)
      smem = (smem + d->reserved_smem_per_block + unit - 1) / unit * unit;
    f->limit_smem = smem > 0 ? (int) (d->smem_per_sm / smem) : 1 << 20;
  }
  {
    int least = f->limit_warps;

    f->limiter = "warps";
    if (f->limit_blocks < least)
      least = f->limit_blocks, f->limiter = "blocks_per_sm";
    if (f->limit_registers < least)
      least = f->limit_registers, f->limiter = "registers";
    if (f->limit_smem < least)
      least = f->limit_smem, f->limiter = "shared_memory";
  }
  f->blocks_total = (uint64_t) s->grid[0] * s->grid[1] * s->grid[2];
  if (f->active_blocks_per_sm > 0)
    f->waves = (double) f->blocks_total / ((double) f->active_blocks_per_sm * d->sm_count);
  return WS_RUN_OK;
}

/* ---- GPU phases ------------------------------------------------------------------------ */

/* One sequence, waited for. */
static cudaError_t
sequence (WsRunner *r, const WsRunSpec *s, int poison)
{
  cudaError_t err = _ws_sequence_issue (r, s, poison);

  if (err == cudaSuccess)
    err = cudaStreamSynchronize (r->streams[0]);
  return err;
}

static int
rep_of (const uint64_t *rep_start, int reps, uint64_t mid)
{
  int rep = 0;

  while (rep + 1 < reps && mid >= rep_start[rep + 1])
    rep++;
  return rep;
}

static int
compare_start (const void *a, const void *b)
{
  const WsActivity *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

/* Traced phase: R sequences, then R back-to-back launches. Fills timing->kernel,
 * kernel_in_sequence, h2d, d2h, memset and emits the activity records.
 *
 * A launch normally makes one kernel record. A library may run its work as a kernel of its
 * own name (cuBLAS does), or as several (a split reduction): the back-to-back launches tell
 * how many records each launch makes, and the kernel time of a launch is the sum of its
 * records. Pieces of streams:K can make a different number from a whole launch, so for a
 * library's kernels a sequence needs at least one record per piece. */
static WsRunStatus
traced_reps (WsRunner *r, const WsRunSpec *s, WsTiming *t)
{
  int reps = s->reps, out = s->kernel->n_inputs, launches = _ws_sequence_launches (s);
  int concurrent = s->transfer == WS_TRANSFER_STREAMS && s->streams > 1;
  uint64_t *rep_start = calloc ((size_t) reps, sizeof *rep_start), burst_start = 0;
  double *kernel = calloc ((size_t) reps, sizeof (double)),
         *seq_kernel = calloc ((size_t) reps, sizeof (double)),
         *h2d = calloc ((size_t) reps, sizeof (double)),
         *d2h = calloc ((size_t) reps, sizeof (double)),
         *mset = calloc ((size_t) reps, sizeof (double));
  int *kernels_in_rep = calloc ((size_t) reps, sizeof (int)), burst = 0, per_launch = 1;
  WsActivityList acts = { 0 };
  const char *code;
  char message[640];
  cudaError_t err = cudaSuccess;
  WsRunStatus status = WS_RUN_OK;

  if (!rep_start || !kernel || !seq_kernel || !h2d || !d2h || !mset || !kernels_in_rep)
    {
      status = _ws_run_failure (s, cudaErrorMemoryAllocation, "keeping timing records");
      goto out;
    }
  /* Serialized kernel records are exact for one stream; with several streams they would
   * keep the pieces' kernels from overlapping, so those are traced as concurrent records. */
  t->traced = r->tracing && ws_cupti_start (concurrent, &code, message, sizeof message);
  if (r->tracing && !t->traced)
    {
      ws_output_error (s->id, "warning", code, message, NULL);
      r->tracing = 0;
    }
  for (int rep = 0; rep < reps && err == cudaSuccess; rep++)
    {
      if (rep == reps - 1)
        memset (r->host[out], 0xFF, r->elems[out] * sizeof (float));
      rep_start[rep] = ws_cupti_timestamp ();
      err = sequence (r, s, 1);
    }
  if (t->traced && err == cudaSuccess)
    {
      burst_start = ws_cupti_timestamp ();
      for (int i = 0; i < reps && err == cudaSuccess; i++)
        err = _ws_launch (r, s);
      if (err == cudaSuccess)
        err = cudaStreamSynchronize (r->streams[0]);
    }
  if (t->traced)
    {
      ws_cupti_stop ();
      ws_cupti_take (&acts);
    }
  if (err != cudaSuccess)
    {
      cudaGetLastError ();
      status = _ws_run_failure (s, err, "running the traced repetitions");
      goto out;
    }
  if (!t->traced)
    goto out;

  /* Concurrent records of several streams arrive in any order. */
  if (acts.len > 1)
    qsort (acts.items, acts.len, sizeof *acts.items, compare_start);
  for (size_t i = 0; i < acts.len; i++)
    {
      const WsActivity *a = &acts.items[i];

      burst += a->kind == WS_ACTIVITY_KERNEL && a->start / 2 + a->end / 2 >= burst_start;
    }
  if (burst >= reps && burst % reps == 0)
    per_launch = burst / reps;
  burst = 0;
  for (size_t i = 0; i < acts.len; i++)
    {
      WsActivity *a = &acts.items[i];
      uint64_t mid = a->start / 2 + a->end / 2;
      double dur = (double) (a->end - a->start);
      int rep;

      if (mid >= burst_start)
        {
          /* The back-to-back launches, numbered in the order they ran. */
          /* A memset (the zeroing of a reduction) belongs to the launch it precedes,
           * anything else to the launch before it. */
          rep = a->kind == WS_ACTIVITY_KERNEL || a->kind == WS_ACTIVITY_MEMSET
                  ? burst / per_launch
                  : (burst > 0 ? burst - 1 : 0) / per_launch;
          if (rep >= reps)
            rep = reps - 1;
          ws_output_activity (s->id, "kernels", rep, a);
          if (a->kind == WS_ACTIVITY_KERNEL)
            {
              if (burst / per_launch < reps)
                kernel[burst / per_launch] += dur;
              burst++;
            }
          continue;
        }
      rep = rep_of (rep_start, reps, mid);
      ws_output_activity (s->id, "sequence", rep, a);
      if (a->kind == WS_ACTIVITY_KERNEL)
        seq_kernel[rep] += dur, kernels_in_rep[rep]++;
      else if (a->kind == WS_ACTIVITY_MEMSET)
        mset[rep] += dur;
      else if (a->kind == WS_ACTIVITY_MEMCPY && strcmp (a->direction, "htod") == 0)
        h2d[rep] += dur;
      else if (a->kind == WS_ACTIVITY_MEMCPY && strcmp (a->direction, "dtoh") == 0)
        d2h[rep] += dur;
    }
  for (int rep = 0; rep < reps; rep++)
    {
      int expected = launches * per_launch, got = kernels_in_rep[rep];
      int library = s->kernel->library != NULL;

      if (burst != reps * per_launch || (library ? got < launches : got != expected)
          || (!library && per_launch != 1))
        {
          snprintf (message, sizeof message,
                    "CUPTI delivered %d kernel records for repetition %d of run %d, where %d "
                    "%s expected, and %d for %d back-to-back launches; the traced figures are "
                    "left out",
                    got, rep, s->id, library ? launches : expected,
                    library ? "or more were" : "were", burst, reps);
          ws_output_error (s->id, "warning", "trace_incomplete", message, NULL);
          t->traced = 0;
          break;
        }
    }
  if (t->traced)
    {
      t->kernel = _ws_stats_of (kernel, reps);
      t->kernel_in_sequence = _ws_stats_of (seq_kernel, reps);
      t->h2d = _ws_stats_of (h2d, reps);
      t->d2h = _ws_stats_of (d2h, reps);
      t->memset = _ws_stats_of (mset, reps);
      t->records_per_launch = per_launch;
    }

out:
  ws_activity_list_clear (&acts);
  free (rep_start);
  free (kernel);
  free (seq_kernel);
  free (h2d);
  free (d2h);
  free (mset);
  free (kernels_in_rep);
  return status;
}

/* Without CUPTI the copies are timed with one event pair each (they last milliseconds),
 * whole and on one stream whatever the transfer mode. */
static WsRunStatus
untraced_copies (WsRunner *r, const WsRunSpec *s, WsTiming *t)
{
  int reps = s->reps, out = s->kernel->n_inputs;
  double *h2d = calloc ((size_t) reps, sizeof (double)), *d2h = calloc ((size_t) reps, sizeof (double));
  cudaStream_t stream = r->streams[0];
  WsRunStatus status = WS_RUN_OK;
  float ms;

  for (int rep = 0; rep < reps && h2d && d2h; rep++)
    {
      cudaEventRecord (r->start, stream);
      WS_TRY (_ws_copy_in (r, s), "copying the inputs");
      cudaEventRecord (r->stop, stream);
      WS_TRY (cudaEventSynchronize (r->stop), "copying the inputs");
      cudaEventElapsedTime (&ms, r->start, r->stop);
      h2d[rep] = ms * 1e6;
      cudaEventRecord (r->start, stream);
      WS_TRY (cudaMemcpyAsync (r->host[out], r->dev[out], r->elems[out] * sizeof (float),
                               cudaMemcpyDeviceToHost, stream),
              "copying the output");
      cudaEventRecord (r->stop, stream);
      WS_TRY (cudaEventSynchronize (r->stop), "copying the output");
      cudaEventElapsedTime (&ms, r->start, r->stop);
      d2h[rep] = ms * 1e6;
    }
  if (h2d && d2h)
    {
      t->h2d = _ws_stats_of (h2d, reps);
      t->d2h = _ws_stats_of (d2h, reps);
    }
  free (h2d);
  free (d2h);
  return status;
}

/* `launches` kernels captured into one graph, replayed once between an event pair. Returns 0
 * when graphs cannot be used here, so the caller falls back to stream launches. */
static int
graph_batch (WsRunner *r, const WsRunSpec *s, int launches, float *ms)
{
  cudaStream_t stream = r->streams[0];
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;
  int ok = 0;

  if (cudaStreamBeginCapture (stream, cudaStreamCaptureModeThreadLocal) != cudaSuccess)
    goto out;
  for (int i = 0; i < launches; i++)
    if (_ws_launch (r, s) != cudaSuccess)
      break;
  if (cudaStreamEndCapture (stream, &graph) != cudaSuccess || graph == NULL)
    goto out;
  if (cudaGraphInstantiate (&exec, graph, 0) != cudaSuccess)
    goto out;
  /* The first replay uploads the graph; the second is timed. */
  if (cudaGraphLaunch (exec, stream) != cudaSuccess
      || cudaStreamSynchronize (stream) != cudaSuccess)
    goto out;
  ok = cudaEventRecord (r->start, stream) == cudaSuccess
       && cudaGraphLaunch (exec, stream) == cudaSuccess
       && cudaEventRecord (r->stop, stream) == cudaSuccess
       && cudaEventSynchronize (r->stop) == cudaSuccess
       && cudaEventElapsedTime (ms, r->start, r->stop) == cudaSuccess;
out:
  if (exec != NULL)
    cudaGraphExecDestroy (exec);
  if (graph != NULL)
    cudaGraphDestroy (graph);
  if (!ok)
    cudaGetLastError ();
  return ok;
}

/* `launches` kernels queued behind ws_hold_stream, between an event pair. The hold lasts
 * longer than the host takes to submit them (checked: the start event must still be pending
 * when the last launch is queued; if not, once more with a longer hold), so the kernels run
 * back to back without waiting for the host, as in an application that queues its work. */
static cudaError_t
held_batch (WsRunner *r, const WsRunSpec *s, int launches, float *ms)
{
  cudaStream_t stream = r->streams[0];
  double hold_ns = 100e3 + 4e3 * launches;
  cudaError_t err = cudaSuccess;

  for (int attempt = 0; attempt < 3 && err == cudaSuccess; attempt++)
    {
      uint64_t begin = ws_clock_ns ();
      double submitted;
      cudaError_t pending;

      err = ws_hold_stream (stream, hold_ns);
      if (err == cudaSuccess)
        err = cudaEventRecord (r->start, stream);
      for (int i = 0; i < launches && err == cudaSuccess; i++)
        err = _ws_launch (r, s);
      if (err == cudaSuccess)
        err = cudaEventRecord (r->stop, stream);
      if (err != cudaSuccess)
        break;
      pending = cudaEventQuery (r->start);
      submitted = (double) (ws_clock_ns () - begin);
      err = cudaEventSynchronize (r->stop);
      if (err == cudaSuccess)
        err = cudaEventElapsedTime (ms, r->start, r->stop);
      if (err != cudaSuccess || pending == cudaErrorNotReady)
        break;
      if (pending != cudaSuccess)
        {
          err = pending;
          break;
        }
      /* The GPU caught up with the host: hold it for twice as long as submitting took. */
      hold_ns = fmin (2 * submitted + 100e3, 500e6);
    }
  return err;
}

static WsRunStatus
untraced_phases (WsRunner *r, const WsRunSpec *s, WsTiming *t)
{
  int reps = s->reps, launches = reps;
  double *e2e = calloc ((size_t) reps, sizeof (double));
  cudaStream_t stream = r->streams[0];
  float ms = 0;

  if (e2e == NULL)
    return _ws_run_failure (s, cudaErrorMemoryAllocation, "keeping timing records");
  /* Back-to-back launches between one event pair: the launch gaps overlap the kernels, and
   * enough of them (about 2 ms in all) that the events' own cost is spread thin. */
  if (t->kernel.n > 0 && t->kernel.median > 0)
    {
      double wanted = ceil (2e6 / t->kernel.median);

      launches = wanted > 100000 ? 100000 : wanted > reps ? (int) wanted : reps;
    }
  if (launches > 20000)
    launches = 20000;
  /* Which way (WARPSCOPE_CROSS_CHECK, for benchmarks that compare them): "held", the
   * default, queues the launches behind a kernel that keeps the GPU busy until all of them
   * are submitted, so they run back to back as fast as the GPU starts them; "stream" launches
   * straight from the host; "graph" replays them captured in a CUDA graph. */
  {
    const char *method = getenv ("WARPSCOPE_CROSS_CHECK");

    if (method != NULL && strcmp (method, "graph") == 0 && graph_batch (r, s, launches, &ms))
      t->untraced_method = "graph";
    else if (method != NULL && strcmp (method, "stream") == 0)
      {
        t->untraced_method = "stream";
        WS_TRY (cudaEventRecord (r->start, stream), "recording an event");
        for (int i = 0; i < launches; i++)
          WS_TRY (_ws_launch (r, s), "launching the kernel back to back");
        WS_TRY (cudaEventRecord (r->stop, stream), "recording an event");
        WS_TRY (cudaEventSynchronize (r->stop), "running the kernel back to back");
        WS_TRY (cudaEventElapsedTime (&ms, r->start, r->stop), "reading events");
      }
    else
      {
        t->untraced_method = "held";
        WS_TRY (held_batch (r, s, launches, &ms), "running the kernel back to back");
      }
  }
  t->kernel_untraced_ns = (double) ms * 1e6 / launches;
  t->untraced_launches = launches;

  /* The whole sequence between one event pair on streams[0], which every piece of a
   * streams:K sequence waits for and which waits for all of them. */
  for (int rep = 0; rep < reps; rep++)
    {
      WS_TRY (cudaEventRecord (r->start, stream), "recording an event");
      WS_TRY (_ws_sequence_issue (r, s, 0), "running end to end");
      WS_TRY (cudaEventRecord (r->stop, stream), "recording an event");
      WS_TRY (cudaEventSynchronize (r->stop), "running end to end");
      WS_TRY (cudaEventElapsedTime (&ms, r->start, r->stop), "reading events");
      e2e[rep] = (double) ms * 1e6;
    }
  t->e2e = _ws_stats_of (e2e, reps);
  free (e2e);
  return WS_RUN_OK;
}

/* ---- one run --------------------------------------------------------------------------- */

WsRunStatus
ws_runner_run (WsRunner *r, WsRunSpec *s)
{
  WsLaunchFacts facts;
  WsTiming timing;
  WsVerifyResult verify;
  WsLaunchConfig cfg;
  WsRunStatus status;
  int have_facts;
  char why[512];

  memset (&timing, 0, sizeof timing);
  ws_output_run (s, r->opts->cpu);
  if (s->kernel->available != NULL && !s->kernel->available (why, sizeof why))
    {
      ws_output_error (s->id, "error", "kernel_unavailable", why, NULL);
      return WS_RUN_REFUSED;
    }
  if ((status = prepare_buffers (r, s)) != WS_RUN_OK)
    return status;
  /* A library's kernel is unknown until it runs: its facts are in its kernel records. */
  have_facts = s->kernel->function (s->block) != NULL;
  if (have_facts && (status = launch_facts (r, s, &facts)) != WS_RUN_OK)
    return status;
  if (have_facts)
    ws_output_launch (s->id, &facts);

  for (int i = 0; i < s->warmup; i++)
    WS_TRY (sequence (r, s, 1), "warming up");
  if ((status = traced_reps (r, s, &timing)) != WS_RUN_OK)
    return status;

  /* The last traced repetition's output, copied into NaN-poisoned host memory. */
  _ws_launch_config (s, &cfg);
  s->kernel->verify (&cfg, (const float *const *) r->host, r->host[s->kernel->n_inputs], s->seed,
                     &verify);

  if (!timing.traced && (status = untraced_copies (r, s, &timing)) != WS_RUN_OK)
    return status;
  if ((status = untraced_phases (r, s, &timing)) != WS_RUN_OK)
    return status;
  if ((status = _ws_cpu_baselines (r, s, &timing)) != WS_RUN_OK)
    return status;

  ws_output_verify (s->id, &verify);
  ws_output_timing (s->id, s, &timing);
  ws_output_summary_run (s, have_facts ? &facts : NULL, &timing, &verify, r->device);
  return verify.pass ? WS_RUN_OK : WS_RUN_FAILED;
}

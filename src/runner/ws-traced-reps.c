/* ws-traced-reps.c: the traced phase of the timing protocol (ws-runner.c, step 2): R
 * sequences, then R back-to-back launches, under CUPTI; each record written with its phase
 * and the repetition it belongs to, and the repetitions' kernel and copy times summed from
 * them.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws-cupti.h"
#include "ws-output.h"
#include "ws-runner-private.h"

static int
rep_of (const uint64_t *rep_start, int reps, uint64_t mid)
{
  int rep = 0;

  while (rep + 1 < reps && mid >= rep_start[rep + 1])
    rep++;
  return rep;
}

static int
is_flush (const WsRunnerActivity *a)
{
  return a->kind == WS_ACTIVITY_KERNEL && a->name != NULL
         && strcmp (a->name, ws_flush_kernel_name) == 0;
}

/* Which kernel records CUPTI makes: serialized ones are exact for one stream; with several
 * streams they would keep the pieces' kernels from overlapping, so streams:K with K > 1 is
 * traced with concurrent records. WARPSCOPE_KERNEL_RECORDS=concurrent asks for those on one
 * stream too, for benchmarks that compare the two (tests/gpu/bench-ncu.sh). */
int
_ws_concurrent_records (const WsRunSpec *s)
{
  const char *asked = getenv ("WARPSCOPE_KERNEL_RECORDS");

  return (s->transfer == WS_TRANSFER_STREAMS && s->streams > 1)
         || (asked != NULL && strcmp (asked, "concurrent") == 0);
}

static int
compare_start (const void *a, const void *b)
{
  const WsRunnerActivity *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

/* What the traced phase gathers for each of its R repetitions. */
typedef struct
{
  int reps;
  uint64_t *rep_start;   /* when each sequence began, on CUPTI's clock */
  uint64_t burst_start;  /* when the back-to-back launches began */
  double *kernel, *seq_kernel, *h2d, *d2h, *mset;
  int *kernels_in_rep;
  int burst;             /* kernel records of the back-to-back launches */
  int per_launch;        /* kernel records one launch makes */
} TracedReps;

static int
traced_reps_init (TracedReps *x, int reps)
{
  memset (x, 0, sizeof *x);
  x->reps = reps;
  x->per_launch = 1;
  x->rep_start = calloc ((size_t) reps, sizeof *x->rep_start);
  x->kernel = calloc ((size_t) reps, sizeof (double));
  x->seq_kernel = calloc ((size_t) reps, sizeof (double));
  x->h2d = calloc ((size_t) reps, sizeof (double));
  x->d2h = calloc ((size_t) reps, sizeof (double));
  x->mset = calloc ((size_t) reps, sizeof (double));
  x->kernels_in_rep = calloc ((size_t) reps, sizeof (int));
  return x->rep_start && x->kernel && x->seq_kernel && x->h2d && x->d2h && x->mset
         && x->kernels_in_rep;
}

static void
traced_reps_clear (TracedReps *x)
{
  free (x->rep_start);
  free (x->kernel);
  free (x->seq_kernel);
  free (x->h2d);
  free (x->d2h);
  free (x->mset);
  free (x->kernels_in_rep);
}

/* R sequences, then, when traced, R back-to-back launches. */
static cudaError_t
run_traced_reps (WsRunner *r, const WsRunSpec *s, int traced, TracedReps *x)
{
  int reps = x->reps, out = s->kernel->n_inputs;
  cudaError_t err = cudaSuccess;

  for (int rep = 0; rep < reps && err == cudaSuccess; rep++)
    {
      if (rep == reps - 1)
        memset (r->host[out], 0xFF, r->elems[out] * sizeof (float));
      x->rep_start[rep] = ws_cupti_api_timestamp ();
      err = _ws_sequence_run (r, s, 1);
    }
  if (traced && err == cudaSuccess)
    {
      x->burst_start = ws_cupti_api_timestamp ();
      /* --cache cold: each launch after a flush of L2, whose own records are told apart by
       * name and left out of the kernel's time. */
      for (int i = 0; i < reps && err == cudaSuccess; i++)
        if (!s->cache_cold || (err = _ws_flush (r)) == cudaSuccess)
          err = _ws_launch (r, s);
      if (err == cudaSuccess)
        err = cudaStreamSynchronize (r->streams[0]);
    }
  return err;
}

/* How many kernel records one launch makes: the back-to-back launches' records over R. */
static void
count_per_launch (TracedReps *x, WsRunnerActivityList *acts)
{
  int burst = 0;

  /* Concurrent records of several streams arrive in any order. */
  if (acts->len > 1)
    qsort (acts->items, acts->len, sizeof *acts->items, compare_start);
  for (size_t i = 0; i < acts->len; i++)
    {
      const WsRunnerActivity *a = &acts->items[i];

      burst += a->kind == WS_ACTIVITY_KERNEL && !is_flush (a)
               && a->start / 2 + a->end / 2 >= x->burst_start;
    }
  if (burst >= x->reps && burst % x->reps == 0)
    x->per_launch = burst / x->reps;
}

/* Each record written with its phase and repetition, and its time added to that
 * repetition's. */
static void
attribute_records (const WsRunSpec *s, TracedReps *x, const WsRunnerActivityList *acts)
{
  int reps = x->reps, per_launch = x->per_launch, burst = 0;

  for (size_t i = 0; i < acts->len; i++)
    {
      const WsRunnerActivity *a = &acts->items[i];
      uint64_t mid = a->start / 2 + a->end / 2;
      double dur = (double) (a->end - a->start);
      int rep;

      if (mid >= x->burst_start && is_flush (a))
        {
          /* A flush belongs to the launch it comes before. */
          rep = burst / per_launch < reps ? burst / per_launch : reps - 1;
          ws_output_activity (s->id, WS_PHASE_FLUSH, rep, a);
          continue;
        }
      if (mid >= x->burst_start)
        {
          /* The back-to-back launches, numbered in the order they ran. */
          /* A memset (the zeroing of a reduction) belongs to the launch it precedes,
           * anything else to the launch before it. */
          rep = a->kind == WS_ACTIVITY_KERNEL || a->kind == WS_ACTIVITY_MEMSET
                  ? burst / per_launch
                  : (burst > 0 ? burst - 1 : 0) / per_launch;
          if (rep >= reps)
            rep = reps - 1;
          ws_output_activity (s->id, WS_PHASE_KERNELS, rep, a);
          if (a->kind == WS_ACTIVITY_KERNEL)
            {
              if (burst / per_launch < reps)
                x->kernel[burst / per_launch] += dur;
              burst++;
            }
          continue;
        }
      rep = rep_of (x->rep_start, reps, mid);
      ws_output_activity (s->id, WS_PHASE_SEQUENCE, rep, a);
      if (a->kind == WS_ACTIVITY_KERNEL)
        x->seq_kernel[rep] += dur, x->kernels_in_rep[rep]++;
      else if (a->kind == WS_ACTIVITY_MEMSET)
        x->mset[rep] += dur;
      else if (a->kind == WS_ACTIVITY_MEMCPY && a->direction == WS_COPY_HTOD)
        x->h2d[rep] += dur;
      else if (a->kind == WS_ACTIVITY_MEMCPY && a->direction == WS_COPY_DTOH)
        x->d2h[rep] += dur;
    }
  x->burst = burst;
}

/* Every repetition has the kernel records its launches make, or the traced figures are
 * left out, with a warning that says why. */
static int
records_complete (const WsRunSpec *s, const TracedReps *x)
{
  int reps = x->reps, per_launch = x->per_launch, burst = x->burst;
  int launches = _ws_sequence_launches (s);
  char message[640];

  for (int rep = 0; rep < reps; rep++)
    {
      int expected = launches * per_launch, got = x->kernels_in_rep[rep];
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
          ws_output_error (s->id, WS_ERROR_SEVERITY_WARNING, WS_ERROR_TRACE_INCOMPLETE, message,
                           NULL);
          return 0;
        }
    }
  return 1;
}

/* Traced phase: R sequences, then R back-to-back launches. Fills timing->kernel,
 * kernel_in_sequence, h2d, d2h, memset and emits the activity records.
 *
 * A launch normally makes one kernel record. A library may run its work as a kernel of its
 * own name (cuBLAS does), or as several (a split reduction): the back-to-back launches tell
 * how many records each launch makes, and the kernel time of a launch is the sum of its
 * records. Pieces of streams:K can make a different number from a whole launch, so for a
 * library's kernels a sequence needs at least one record per piece. */
WsRunStatus
_ws_traced_reps (WsRunner *r, const WsRunSpec *s, WsRunnerTiming *t)
{
  int reps = s->reps;
  int concurrent = _ws_concurrent_records (s);
  TracedReps x;
  WsRunnerActivityList acts = { 0 };
  WsErrorCode code;
  char message[640];
  cudaError_t err;
  WsRunStatus status = WS_RUN_OK;

  if (!traced_reps_init (&x, reps))
    {
      status = _ws_run_failure (s, cudaErrorMemoryAllocation, "keeping timing records");
      goto out;
    }
  t->traced = r->tracing && ws_cupti_start (concurrent, &code, message, sizeof message);
  t->kernel_records = concurrent ? "concurrent" : "serialized";
  if (r->tracing && !t->traced)
    {
      ws_output_error (s->id, WS_ERROR_SEVERITY_WARNING, code, message, NULL);
      r->tracing = 0;
    }
  err = run_traced_reps (r, s, t->traced, &x);
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

  count_per_launch (&x, &acts);
  attribute_records (s, &x, &acts);
  t->traced = records_complete (s, &x);
  if (t->traced)
    {
      t->kernel = _ws_stats_of (x.kernel, reps);
      t->kernel_in_sequence = _ws_stats_of (x.seq_kernel, reps);
      t->h2d = _ws_stats_of (x.h2d, reps);
      t->d2h = _ws_stats_of (x.d2h, reps);
      t->memset = _ws_stats_of (x.mset, reps);
      t->records_per_launch = x.per_launch;
    }

out:
  ws_runner_activity_list_clear (&acts);
  traced_reps_clear (&x);
  return status;
}

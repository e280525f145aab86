/* ws-cpu-baseline.h: one CPU baseline timed within its budget, and the all-core baseline as
 * the faster of one thread and every core. Plain C, no CUDA, no GLib: the runner's tests time
 * real work with it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdint.h>

#include "ws-blas.h"

typedef struct
{
  double median, min, max; /* ns */
  int n;                   /* 0: not measured */
} WsRunnerStats;

typedef struct
{
  int threads;
  WsRunnerStats stats;
  int from_run;            /* measured by an earlier run of the same family and size; 0 = here */
  int warmed_up;
  double estimate_ns;      /* the estimate that decided how often it ran */
  char note[320];          /* why it ran fewer times, or why it was skipped; "" otherwise */
  const char *implementation; /* "hand_written" (the kernel family's reference) or "blas" */
  const WsBlasInfo *library;  /* for "blas": the library that ran it */
  /* An all-core baseline: the threads "all cores" means (0 for a one-thread baseline), and
   * whether the run on one thread was the faster and is the one kept. */
  int max_threads;
  int one_thread_faster;
} WsRunnerBaseline;

/* The work a baseline times. run() does it once on `threads` threads, over `part` of its
 * `units` (0: all of them), and returns how long it took in ns; `rep` numbers the timed
 * repetitions from 0, and is -1 for the estimate and the warm-up. `blas` is the library
 * run() calls, whose threads are set before (NULL: the hand-written code). */
typedef struct
{
  double (*run) (void *data, int threads, uint64_t part, int rep);
  void *data;
  WsBlas *blas;
  uint64_t units;
  int reps;          /* repetitions wanted (--cpu-reps) */
  double budget_s;   /* the most a baseline may take (--cpu-budget) */
} WsCpuWork;

/* What the one-thread baseline is timed for. */
typedef enum
{
  WS_CPU_ONE_NONE,    /* nothing: it is known already */
  WS_CPU_ONE_WANTED,  /* the one-thread baseline, asked for */
  WS_CPU_ONE_FOR_ALL, /* only to compare the all-core baseline with */
} WsCpuOneFor;

/* Times `w` on `threads` threads into `c`: an estimate from a slice, a warm-up where the
 * budget has room, then up to w->reps repetitions within the budget. Where `ceiling_ns` is
 * above 0, a baseline whose estimate is over it is skipped: it could not be the faster. */
void ws_cpu_baseline_measure (const WsCpuWork *w, int threads, double ceiling_ns,
                              WsRunnerBaseline *c);

/* One implementation's baselines: on one thread as `one_for` says, and on `max_threads`
 * threads when `want_all`. One thread timed only for the comparison is skipped once its
 * estimate is over twice every core's time, as it could not be the faster. */
void ws_cpu_baselines (const WsCpuWork *w, WsCpuOneFor one_for, int want_all, int max_threads,
                       WsRunnerBaseline *one, WsRunnerBaseline *all);

/* The all-core baseline: the faster of `one` (one thread) and `all` (`max_threads` threads)
 * of the same implementation, so that it is never slower than one thread; a baseline that
 * did not run loses. */
void ws_cpu_baseline_best_of (const WsRunnerBaseline *one, const WsRunnerBaseline *all,
                              int max_threads, WsRunnerBaseline *best);

/* The median, minimum and maximum of `values` (sorted in place). */
WsRunnerStats _ws_stats_of (double *values, int n);

/* ws-runner-private.h: the runner's state, shared by the files of the timing protocol: ws-runner.c
 * (the phases), ws-sequence.c (how one sequence of copies and kernels is issued) and
 * ws-baseline.c (the CPU baselines).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-runner.h"

#define WS_MAX_BUFFERS (WS_MAX_INPUTS + 1)

typedef struct
{
  const char *family;
  uint64_t shape[3];
  int run;
  WsRunnerBaseline one, all, one_blas, all_blas;
  int have_one, have_all;
} _WsCpuCacheEntry;

struct WsRunner
{
  const WsOptions *opts;
  const WsRunnerDevice *device;
  int tracing;
  /* streams[0] is the stream of every phase; streams:K adds K − 1 more for its pieces. */
  cudaStream_t streams[WS_MAX_STREAMS];
  cudaEvent_t start, stop;
  /* Ordering only (no timing): the pieces' streams wait for `ready` (whole inputs copied,
   * output poisoned), and streams[0] waits for each of them through joined[p]. */
  cudaEvent_t ready, joined[WS_MAX_STREAMS];

  /* Buffers are kept while consecutive runs need the same sizes and kind of host memory. */
  float *host[WS_MAX_BUFFERS];
  float *dev[WS_MAX_BUFFERS];
  uint64_t elems[WS_MAX_BUFFERS];
  int n_buffers;
  int pinned;
  float *cpu_out;
  uint64_t cpu_out_elems;

  _WsCpuCacheEntry *cpu_cache;
  size_t n_cpu_cache;

  /* --cache cold: a buffer of zeros several times L2, read before every timed launch, and
   * one event pair per launch for the cross-check (WS_COLD_LAUNCHES at most). */
  float *flush;
  size_t flush_bytes;
  float *flush_sink;
  cudaEvent_t *cold_events;
  int n_cold_events;

  /* --counters: the Range Profiler's session, made at the first run (ws-runner-counters.c);
   * counters_off once they cannot be read here, said once. */
  struct WsCountersSession *counters;
  int counters_off;
};

#define WS_COLD_LAUNCHES 100

/* Reports a CUDA error met during run `s` and says whether the session can go on. */
WsRunStatus _ws_run_failure (const WsRunSpec *s, cudaError_t err, const char *what);

#define WS_TRY(call, what)                                                                   \
  do                                                                                         \
    {                                                                                        \
      cudaError_t err_ = (call);                                                             \
      if (err_ != cudaSuccess)                                                               \
        {                                                                                    \
          cudaGetLastError ();                                                               \
          return _ws_run_failure (s, err_, what);                                            \
        }                                                                                    \
    }                                                                                        \
  while (0)

/* Bytes of a pageable host buffer of `elems` floats (ws_host_alloc), never 0: a run may have
 * an empty output. */
static inline size_t
_ws_host_bytes (uint64_t elems)
{
  return elems > 0 ? elems * sizeof (float) : 4;
}

/* ws-runner-counters.c: the run's counters read in one more launch, when asked for; a
 * failure to read them is said and the run goes on. */
void _ws_runner_counters (WsRunner *r, const WsRunSpec *s);
void _ws_runner_counters_free (WsRunner *r);

/* ws-sequence.c */
void _ws_launch_config (const WsRunSpec *s, WsLaunchConfig *cfg);
/* Copies every input in whole on streams[0] (the untraced copy timings without CUPTI). */
cudaError_t _ws_copy_in (WsRunner *r, const WsRunSpec *s);
/* One launch of the whole problem on streams[0]. */
cudaError_t _ws_launch (WsRunner *r, const WsRunSpec *s);
/* Copies in, (poisons the output,) runs the kernel, copies out: on streams[0], or for
 * streams:K as K pieces over K streams joined back into streams[0]. Does not wait: an event
 * recorded on streams[0] afterwards follows all of it. */
cudaError_t _ws_sequence_issue (WsRunner *r, const WsRunSpec *s, int poison);
/* The kernel launches one sequence makes: 1, or the pieces that are not empty. */
int _ws_sequence_launches (const WsRunSpec *s);
/* One sequence, waited for. */
cudaError_t _ws_sequence_run (WsRunner *r, const WsRunSpec *s, int poison);

/* ws-traced-reps.c: R sequences, then R back-to-back launches, traced. Fills timing->kernel,
 * kernel_in_sequence, h2d, d2h, memset and writes the activity records. */
WsRunStatus _ws_traced_reps (WsRunner *r, const WsRunSpec *s, WsRunnerTiming *t);
/* Whether CUPTI is asked for concurrent kernel records rather than serialized ones. */
int _ws_concurrent_records (const WsRunSpec *s);

/* ws-baseline.c: the CPU baselines, shared by every run of one family and size. */
WsRunStatus _ws_cpu_baselines (WsRunner *r, const WsRunSpec *s, WsRunnerTiming *t);

/* ws-launch-facts.c: registers, shared memory, occupancy and its limiter, waves, from the
 * function's attributes (registers_source "attribute"). */
WsRunStatus _ws_launch_facts (WsRunner *r, const WsRunSpec *s, WsLaunchFacts *f);
/* The registers of the last whole launch's kernel record in `acts` (CUPTI's: what the GPU
 * gives the function), and the occupancy they allow; 0, with `f` unchanged, when `acts` has
 * no kernel record. */
int _ws_launch_facts_set_registers (WsRunner *r, const WsRunSpec *s, WsLaunchFacts *f,
                                    const WsRunnerActivityList *acts);

/* ws-untraced.c: without CUPTI, the copies from one event pair each. */
WsRunStatus _ws_untraced_copies (WsRunner *r, const WsRunSpec *s, WsRunnerTiming *t);
/* The cross-check of the kernel time and the end-to-end sequences, tracing off. */
WsRunStatus _ws_untraced_phases (WsRunner *r, const WsRunSpec *s, WsRunnerTiming *t);

/* --cache cold: the bytes of the flush buffer for this device (four times L2, at least
 * 64 MiB), and one flush on streams[0]; the buffer is allocated on first use. */
size_t _ws_flush_bytes (const WsRunnerDevice *device);
cudaError_t _ws_flush (WsRunner *r);

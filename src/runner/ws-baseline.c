/* ws-baseline.c: the CPU baselines: the same computation on one thread and on every core,
 * after a warm-up, within a time budget; runs of one kernel family and size share them. The
 * matrix products are timed twice, with the hand-written SGEMM and with an optimized BLAS
 * when one can be loaded (ws-blas.c), and speedups are taken against the faster: what a
 * reader would compare with (numpy's `A @ B` is OpenBLAS).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws-blas.h"
#include "ws-clock.h"
#include "ws-cupti.h"
#include "ws-hostbuf.h"
#include "ws-output.h"
#include "ws-runner-private.h"

static const char *const span_names[2][2] = {
  { "cpu_reference_1_thread", "cpu_reference_all_cores" },
  { "cpu_blas_1_thread", "cpu_blas_all_cores" },
};

static double
time_reference (WsRunner *r, const WsRunSpec *s, WsBlas *blas, int threads, uint64_t part,
                WsRunnerActivity *span)
{
  WsLaunchConfig cfg;
  uint64_t t0, t1, c0;

  memcpy (cfg.shape, s->shape, sizeof cfg.shape);
  memcpy (cfg.block, s->block, sizeof cfg.block);
  memcpy (cfg.grid, s->grid, sizeof cfg.grid);
  c0 = ws_cupti_api_timestamp ();
  t0 = ws_clock_ns ();
  if (blas != NULL)
    ws_blas_sgemm (blas, r->host[0], r->host[1], r->cpu_out, part ? part : s->shape[0],
                   s->shape[1], s->shape[2]);
  else
    s->kernel->reference (&cfg, (const float *const *) r->host, r->cpu_out, threads, part);
  t1 = ws_clock_ns ();
  if (span != NULL)
    {
      memset (span, 0, sizeof *span);
      span->kind = WS_ACTIVITY_CPU;
      span->start = c0;
      span->end = c0 + (t1 - t0);
      span->threads = threads;
      span->detail = span_names[blas != NULL][threads != 1];
    }
  return (double) (t1 - t0);
}

/* One baseline: `threads` threads of the family's reference, or of `blas` when given. */
static void
cpu_baseline (WsRunner *r, const WsRunSpec *s, WsBlas *blas, int threads, WsRunnerBaseline *c)
{
  const WsOptions *o = r->opts;
  const uint64_t units = s->kernel->work_units (s->shape);
  uint64_t part = units >= 64 ? units / 64 : units;
  double budget = o->cpu_budget * 1e9, spent, estimate, times[1000];
  int n = 0, wanted = o->cpu_reps, busy;

  memset (c, 0, sizeof *c);
  /* The cores to themselves: OpenMP's threads spin for a while after the hand-written
   * baseline's last parallel region (libgomp: GOMP_SPINCOUNT), a BLAS's after its last call,
   * and a baseline on every core would share the cores with them. */
  busy = ws_host_wait_quiet (1.0) < 0;
  c->threads = threads;
  c->implementation = blas != NULL ? "blas" : "hand_written";
  if (blas != NULL)
    {
      /* What the library says it uses; 0 when it cannot be told (a plain libblas). */
      c->threads = ws_blas_set_threads (blas, threads);
      c->library = ws_blas_get_info (blas);
    }
  /* First a slice of the work (or all of it when it is small) to estimate a whole run. */
  spent = time_reference (r, s, blas, threads, part == units ? 0 : part, NULL);
  estimate = spent * (double) units / (double) part;
  c->estimate_ns = estimate;
  if (estimate > budget)
    {
      snprintf (c->note, sizeof c->note,
                "skipped: one run would take about %.1f s on %d thread%s (estimated from %.1f%% "
                "of the work), over the %.0f s allowed (--cpu-budget)",
                estimate / 1e9, threads, threads == 1 ? "" : "s",
                100.0 * (double) part / (double) units, o->cpu_budget);
      return;
    }
  /* The slice warmed the caches when it was the whole job; otherwise warm up with a whole
   * run if the budget has room for it. */
  c->warmed_up = part == units;
  if (!c->warmed_up && spent + 2 * estimate <= budget)
    {
      spent += time_reference (r, s, blas, threads, 0, NULL);
      c->warmed_up = 1;
    }
  if (wanted > (int) (sizeof times / sizeof times[0]))
    wanted = (int) (sizeof times / sizeof times[0]);
  while (n < wanted && (n == 0 || spent + estimate <= budget))
    {
      WsRunnerActivity span;

      times[n] = time_reference (r, s, blas, threads, 0, &span);
      spent += times[n];
      ws_output_activity (s->id, WS_PHASE_CPU, n, &span);
      n++;
    }
  c->stats = _ws_stats_of (times, n);
  if (n < o->cpu_reps)
    snprintf (c->note, sizeof c->note,
              "ran %d time%s instead of %d: one run takes %.2f s and the baseline may take "
              "%.0f s (--cpu-budget)%s",
              n, n == 1 ? "" : "s", o->cpu_reps, c->stats.median / 1e9, o->cpu_budget,
              c->warmed_up ? "" : "; no warm-up run");
  else if (busy)
    snprintf (c->note, sizeof c->note,
              "other threads of the runner were still running 1 s after the previous work, so "
              "this baseline may have shared the cores with them");
}

/* The baseline speedups are taken against is the faster of the two; the other is kept
 * beside it, so that a reader sees both. */
static void
pick (const WsRunnerBaseline *hand, const WsRunnerBaseline *blas, WsRunnerBaseline *primary,
      WsRunnerBaseline *other)
{
  int blas_wins = blas->implementation != NULL && blas->stats.n > 0
                  && (hand->stats.n == 0 || blas->stats.median <= hand->stats.median);

  *primary = blas_wins ? *blas : *hand;
  if (blas->implementation == NULL)
    memset (other, 0, sizeof *other);
  else
    *other = blas_wins ? *hand : *blas;
}

static _WsCpuCacheEntry *
cache_entry (WsRunner *r, const WsRunSpec *s)
{
  const WsKernelDesc *k = s->kernel;
  _WsCpuCacheEntry *e, *grown;

  for (size_t i = 0; i < r->n_cpu_cache; i++)
    if (strcmp (r->cpu_cache[i].family, k->family) == 0
        && memcmp (r->cpu_cache[i].shape, s->shape, sizeof s->shape) == 0)
      return &r->cpu_cache[i];
  grown = realloc (r->cpu_cache, (r->n_cpu_cache + 1) * sizeof *grown);
  if (grown == NULL)
    return NULL;
  r->cpu_cache = grown;
  e = &r->cpu_cache[r->n_cpu_cache++];
  memset (e, 0, sizeof *e);
  e->family = k->family;
  memcpy (e->shape, s->shape, sizeof s->shape);
  e->run = s->id;
  return e;
}

WsRunStatus
_ws_cpu_baselines (WsRunner *r, const WsRunSpec *s, WsRunnerTiming *t)
{
  const WsKernelDesc *k = s->kernel;
  uint64_t out_elems = k->buffer_elements (s->shape, k->n_inputs);
  const char *why = NULL;
  WsBlas *blas = k->cpu_sgemm ? ws_blas_default (&why) : NULL;
  _WsCpuCacheEntry *e;

  /* An own kernel has no CPU version to compare with. */
  t->cpu_one_wanted = (r->opts->cpu & WS_CPU_ONE) != 0 && k->reference != NULL;
  t->cpu_all_wanted = (r->opts->cpu & WS_CPU_ALL) != 0 && k->reference != NULL;
  if (!t->cpu_one_wanted && !t->cpu_all_wanted)
    return WS_RUN_OK;
  t->library_note = k->cpu_sgemm ? why : NULL;
  if ((e = cache_entry (r, s)) == NULL)
    return _ws_run_failure (s, cudaErrorMemoryAllocation, "keeping CPU baselines");
  if ((t->cpu_one_wanted && !e->have_one) || (t->cpu_all_wanted && !e->have_all))
    {
      if (r->cpu_out_elems < out_elems)
        {
          ws_host_free (r->cpu_out, _ws_host_bytes (r->cpu_out_elems));
          r->cpu_out = ws_host_alloc (_ws_host_bytes (out_elems));
          r->cpu_out_elems = r->cpu_out ? out_elems : 0;
          if (r->cpu_out == NULL)
            return _ws_run_failure (s, cudaErrorMemoryAllocation, "allocating the CPU output");
          /* Touched once here, so no baseline's time includes its page faults. */
          memset (r->cpu_out, 0, out_elems * sizeof (float));
        }
      e->run = s->id;
      /* The hand-written ones first: a BLAS's threads spin for a while after a call (about
       * 0.1 s for OpenBLAS). cpu_baseline() also waits for spinning threads to go idle. */
      if (t->cpu_one_wanted && !e->have_one)
        cpu_baseline (r, s, NULL, 1, &e->one);
      if (t->cpu_all_wanted && !e->have_all)
        cpu_baseline (r, s, NULL, omp_get_max_threads (), &e->all);
      if (blas != NULL && t->cpu_one_wanted && !e->have_one)
        cpu_baseline (r, s, blas, 1, &e->one_blas);
      if (blas != NULL && t->cpu_all_wanted && !e->have_all)
        cpu_baseline (r, s, blas, omp_get_max_threads (), &e->all_blas);
      e->have_one |= t->cpu_one_wanted;
      e->have_all |= t->cpu_all_wanted;
    }
  pick (&e->one, &e->one_blas, &t->cpu_one, &t->cpu_one_other);
  pick (&e->all, &e->all_blas, &t->cpu_all, &t->cpu_all_other);
  if (e->run != s->id)
    t->cpu_one.from_run = t->cpu_all.from_run = t->cpu_one_other.from_run
      = t->cpu_all_other.from_run = e->run;
  return WS_RUN_OK;
}

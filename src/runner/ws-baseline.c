/* ws-baseline.c: the CPU baselines: the same computation on one thread and on every core,
 * after a warm-up, within a time budget; runs of one kernel family and size share them. The
 * matrix products are timed twice, with the hand-written SGEMM and with an optimized BLAS
 * when one can be loaded (ws-blas.c), and speedups are taken against the faster: what a
 * reader would compare with (numpy's `A @ B` is OpenBLAS). The all-core baseline is the
 * faster of every core and one thread (ws-cpu-baseline.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <omp.h>
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

typedef struct
{
  WsRunner *r;
  const WsRunSpec *s;
  WsBlas *blas;
} Timed;

static double
time_rep (void *data, int threads, uint64_t part, int rep)
{
  Timed *t = data;
  WsRunnerActivity span;
  double ns = time_reference (t->r, t->s, t->blas, threads, part, rep >= 0 ? &span : NULL);

  if (rep >= 0)
    ws_output_activity (t->s->id, WS_PHASE_CPU, rep, &span);
  return ns;
}

/* One implementation's baselines: the family's reference, or `blas` when given. */
static void
cpu_baselines (WsRunner *r, const WsRunSpec *s, WsBlas *blas, WsCpuOneFor one_for, int want_all,
               WsRunnerBaseline *one, WsRunnerBaseline *all)
{
  Timed timed = { r, s, blas };
  const WsCpuWork work = {
    .run = time_rep,
    .data = &timed,
    .blas = blas,
    .units = s->kernel->work_units (s->shape),
    .reps = r->opts->cpu_reps,
    .budget_s = r->opts->cpu_budget,
  };

  ws_cpu_baselines (&work, one_for, want_all, omp_get_max_threads (), one, all);
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
  WsRunnerBaseline all_hand, all_blas;
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
      WsCpuOneFor one_for = e->have_one            ? WS_CPU_ONE_NONE
                            : t->cpu_one_wanted ? WS_CPU_ONE_WANTED
                                                : WS_CPU_ONE_FOR_ALL;
      int want_all = t->cpu_all_wanted && !e->have_all;

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
      cpu_baselines (r, s, NULL, one_for, want_all, &e->one, &e->all);
      if (blas != NULL)
        cpu_baselines (r, s, blas, one_for, want_all, &e->one_blas, &e->all_blas);
      /* One thread timed for the comparison alone is the one-thread baseline where it ran in
       * full, not skipped at its ceiling. */
      e->have_one |= t->cpu_one_wanted
                     || (one_for == WS_CPU_ONE_FOR_ALL && e->one.stats.n > 0
                         && (blas == NULL || e->one_blas.stats.n > 0));
      e->have_all |= t->cpu_all_wanted;
    }
  pick (&e->one, &e->one_blas, &t->cpu_one, &t->cpu_one_other);
  ws_cpu_baseline_best_of (&e->one, &e->all, omp_get_max_threads (), &all_hand);
  ws_cpu_baseline_best_of (&e->one_blas, &e->all_blas, omp_get_max_threads (), &all_blas);
  pick (&all_hand, &all_blas, &t->cpu_all, &t->cpu_all_other);
  if (e->run != s->id)
    t->cpu_one.from_run = t->cpu_all.from_run = t->cpu_one_other.from_run
      = t->cpu_all_other.from_run = e->run;
  return WS_RUN_OK;
}

/* ws-cpu-baseline.c: one CPU baseline timed within its budget, and the all-core baseline as
 * the faster of one thread and every core.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "All cores" is what the CPU does best with up to that many threads: on a small job, waking
 * sixteen threads costs more than the work (a vector add of 1,000 floats took 8 ms on every
 * core of a 16-core host and 0.78 µs on one thread), and numpy, what a reader compares with,
 * stays on one thread there. So the all-core baseline is the faster of the two runs.
 */
#include "ws-cpu-baseline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws-hostbuf.h"

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

WsRunnerStats
_ws_stats_of (double *values, int n)
{
  WsRunnerStats s = { 0 };

  if (n <= 0)
    return s;
  qsort (values, (size_t) n, sizeof *values, compare_double);
  s.n = n;
  s.min = values[0];
  s.max = values[n - 1];
  s.median = n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
  return s;
}

/* Skipped before it ran: over the budget, or over the ceiling set by the other run. */
static int
skip (const WsCpuWork *w, int threads, uint64_t part, double ceiling_ns, WsRunnerBaseline *c)
{
  const double budget = w->budget_s * 1e9, estimate = c->estimate_ns;

  if (estimate > budget)
    snprintf (c->note, sizeof c->note,
              "skipped: one run would take about %.1f s on %d thread%s (estimated from %.1f%% "
              "of the work), over the %.0f s allowed (--cpu-budget)",
              estimate / 1e9, threads, threads == 1 ? "" : "s",
              100.0 * (double) part / (double) w->units, w->budget_s);
  else if (ceiling_ns > 0 && estimate > ceiling_ns)
    snprintf (c->note, sizeof c->note,
              "skipped: one run would take about %.3g ms on %d thread%s (estimated from %.1f%% "
              "of the work), over the %.3g ms it is compared with",
              estimate / 1e6, threads, threads == 1 ? "" : "s",
              100.0 * (double) part / (double) w->units, ceiling_ns / 1e6);
  else
    return 0;
  return 1;
}

void
ws_cpu_baseline_measure (const WsCpuWork *w, int threads, double ceiling_ns, WsRunnerBaseline *c)
{
  uint64_t part = w->units >= 64 ? w->units / 64 : w->units;
  double budget = w->budget_s * 1e9, spent, times[1000];
  int n = 0, wanted = w->reps, busy;

  memset (c, 0, sizeof *c);
  c->threads = threads;
  c->implementation = w->blas != NULL ? "blas" : "hand_written";
  if (w->blas != NULL)
    {
      /* What the library says it uses; 0 when it cannot be told (a plain libblas). */
      c->threads = ws_blas_set_threads (w->blas, threads);
      c->library = ws_blas_get_info (w->blas);
    }
  /* The cores to themselves: OpenMP's threads spin for a while after the hand-written
   * baseline's last parallel region (libgomp: GOMP_SPINCOUNT), a BLAS's after its last call,
   * and a baseline on every core would share the cores with them. */
  busy = ws_host_wait_quiet (1.0) < 0;
  /* First a slice of the work (or all of it when it is small) to estimate a whole run. */
  spent = w->run (w->data, threads, part == w->units ? 0 : part, -1);
  c->estimate_ns = spent * (double) w->units / (double) part;
  if (skip (w, threads, part, ceiling_ns, c))
    return;
  /* The slice warmed the caches when it was the whole job; otherwise warm up with a whole
   * run if the budget has room for it. */
  c->warmed_up = part == w->units;
  if (!c->warmed_up && spent + 2 * c->estimate_ns <= budget)
    {
      spent += w->run (w->data, threads, 0, -1);
      c->warmed_up = 1;
    }
  if (wanted > (int) (sizeof times / sizeof times[0]))
    wanted = (int) (sizeof times / sizeof times[0]);
  while (n < wanted && (n == 0 || spent + c->estimate_ns <= budget))
    {
      times[n] = w->run (w->data, threads, 0, n);
      spent += times[n];
      n++;
    }
  c->stats = _ws_stats_of (times, n);
  if (n < w->reps)
    snprintf (c->note, sizeof c->note,
              "ran %d time%s instead of %d: one run takes %.2f s and the baseline may take "
              "%.0f s (--cpu-budget)%s",
              n, n == 1 ? "" : "s", w->reps, c->stats.median / 1e9, w->budget_s,
              c->warmed_up ? "" : "; no warm-up run");
  else if (busy)
    snprintf (c->note, sizeof c->note,
              "other threads of the runner were still running 1 s after the previous work, so "
              "this baseline may have shared the cores with them");
}

void
ws_cpu_baselines (const WsCpuWork *w, WsCpuOneFor one_for, int want_all, int max_threads,
                  WsRunnerBaseline *one, WsRunnerBaseline *all)
{
  if (one_for == WS_CPU_ONE_WANTED)
    ws_cpu_baseline_measure (w, 1, 0, one);
  if (want_all)
    {
      ws_cpu_baseline_measure (w, max_threads, 0, all);
      if (one_for == WS_CPU_ONE_FOR_ALL && all->stats.n > 0)
        ws_cpu_baseline_measure (w, 1, 2 * all->stats.median, one);
    }
}

void
ws_cpu_baseline_best_of (const WsRunnerBaseline *one, const WsRunnerBaseline *all,
                         int max_threads, WsRunnerBaseline *best)
{
  int one_wins = one->implementation != NULL && one->stats.n > 0
                 && (all->stats.n == 0 || one->stats.median < all->stats.median);

  *best = one_wins ? *one : *all;
  best->max_threads = max_threads;
  best->one_thread_faster = one_wins;
}

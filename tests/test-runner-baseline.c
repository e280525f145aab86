/* test-runner-baseline.c: the runner's CPU baselines without a GPU: a small vector add timed
 * on one thread and on every core in one process, whose all-core baseline is never the slower
 * and says which run it kept; stand-ins for work that threads slow down or speed up; and one
 * thread timed for the comparison alone skipped where it could not win.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <omp.h>
#include <string.h>
#include <time.h>

#include "ws-cpu-baseline.h"

/* ---- a small vector add, as the family's reference computes it -------------------------- */

#define SMALL 1000

typedef struct
{
  float a[SMALL], b[SMALL], c[SMALL];
} VectorAdd;

static double
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

static void
add_range (VectorAdd *v, uint64_t lo, uint64_t hi)
{
  for (uint64_t i = lo; i < hi; i++)
    v->c[i] = v->a[i] + v->b[i];
}

/* kernels/vector_add.cu's reference: one thread adds in place; more share the array in
 * contiguous slices, one parallel region per call. */
static double
vector_add (void *data, int threads, uint64_t part, int rep)
{
  VectorAdd *v = data;
  uint64_t n = part ? part : SMALL;
  double t0 = now_ns ();

  (void) rep;
  if (threads <= 1)
    {
      add_range (v, 0, n);
      return now_ns () - t0;
    }
#pragma omp parallel num_threads (threads)
  {
    uint64_t t = (uint64_t) omp_get_thread_num (), nt = (uint64_t) omp_get_num_threads ();

    add_range (v, n * t / nt, n * (t + 1) / nt);
  }
  return now_ns () - t0;
}

/* Both runs in one process, as the runner makes them; the all-core baseline is the faster,
 * never slower than one thread, and names the run it kept. */
static void
test_small_vector_add (void)
{
  VectorAdd *v = g_new0 (VectorAdd, 1);
  const int cores = omp_get_max_threads ();
  WsCpuWork w = { .run = vector_add, .data = v, .units = SMALL, .reps = 31, .budget_s = 5 };
  WsRunnerBaseline one, all, best;

  for (int i = 0; i < SMALL; i++)
    v->a[i] = (float) i, v->b[i] = 0.5f;
  ws_cpu_baselines (&w, WS_CPU_ONE_WANTED, TRUE, cores, &one, &all);
  g_assert_cmpint (one.stats.n, ==, 31);
  g_assert_cmpint (all.stats.n, ==, 31);
  g_assert_cmpint (one.threads, ==, 1);
  g_assert_cmpint (all.threads, ==, cores);
  g_assert_cmpfloat (v->c[SMALL - 1], ==, SMALL - 0.5f);
  ws_cpu_baseline_best_of (&one, &all, cores, &best);
  g_test_message ("1 thread: %.0f ns, %d threads: %.0f ns", one.stats.median, cores,
                  all.stats.median);
  g_assert_cmpfloat (best.stats.median, <=, one.stats.median);
  g_assert_cmpfloat (best.stats.median, <=, all.stats.median);
  g_assert_cmpint (best.max_threads, ==, cores);
  g_assert_cmpint (best.one_thread_faster, ==, one.stats.median < all.stats.median);
  g_assert_cmpint (best.threads, ==, best.one_thread_faster ? 1 : cores);
  g_assert_cmpstr (best.implementation, ==, "hand_written");
  g_free (v);
}

/* ---- stand-ins ---------------------------------------------------------------------------- */

/* Work that takes `one` ns on one thread and `many` ns on more, spinning for it. */
typedef struct
{
  double one, many;
  int calls[2]; /* on one thread, on more */
} StandIn;

static double
stand_in (void *data, int threads, uint64_t part, int rep)
{
  StandIn *s = data;
  double t0 = now_ns (), want = threads > 1 ? s->many : s->one;

  (void) part, (void) rep;
  s->calls[threads > 1]++;
  while (now_ns () - t0 < want)
    ;
  return now_ns () - t0;
}

/* Starting threads costs more than the work: one thread is the all-core baseline. Work that
 * threads speed up keeps every core. */
static void
test_stand_ins (void)
{
  StandIn slow_threads = { .one = 20e3, .many = 2e6 }, fast_threads = { .one = 2e6, .many = 2e5 };
  WsCpuWork w = { .run = stand_in, .units = 1, .reps = 3, .budget_s = 5 };
  WsRunnerBaseline one, all, best;

  w.data = &slow_threads;
  ws_cpu_baselines (&w, WS_CPU_ONE_WANTED, TRUE, 16, &one, &all);
  ws_cpu_baseline_best_of (&one, &all, 16, &best);
  g_assert_true (best.one_thread_faster);
  g_assert_cmpint (best.threads, ==, 1);
  g_assert_cmpint (best.max_threads, ==, 16);
  g_assert_cmpfloat (best.stats.median, ==, one.stats.median);
  g_assert_cmpfloat (best.stats.median, <, 1e6);

  w.data = &fast_threads;
  ws_cpu_baselines (&w, WS_CPU_ONE_WANTED, TRUE, 16, &one, &all);
  ws_cpu_baseline_best_of (&one, &all, 16, &best);
  g_assert_false (best.one_thread_faster);
  g_assert_cmpint (best.threads, ==, 16);
  g_assert_cmpfloat (best.stats.median, ==, all.stats.median);
  g_assert_cmpfloat (best.stats.median, <, 1e6);

  /* A one-thread baseline that did not run never wins. */
  memset (&one, 0, sizeof one);
  ws_cpu_baseline_best_of (&one, &all, 16, &best);
  g_assert_false (best.one_thread_faster);
  g_assert_cmpint (best.threads, ==, 16);
}

/* One thread timed only for the comparison: it runs where it may win, and where its estimate
 * is over twice every core's time it is skipped after the estimate alone, saying why. */
static void
test_one_for_all (void)
{
  StandIn slow_threads = { .one = 20e3, .many = 2e6 }, fast_threads = { .one = 5e6, .many = 2e5 };
  WsCpuWork w = { .run = stand_in, .units = 1, .reps = 3, .budget_s = 5 };
  WsRunnerBaseline one, all, best;

  w.data = &slow_threads;
  ws_cpu_baselines (&w, WS_CPU_ONE_FOR_ALL, TRUE, 16, &one, &all);
  g_assert_cmpint (one.stats.n, ==, 3);
  ws_cpu_baseline_best_of (&one, &all, 16, &best);
  g_assert_true (best.one_thread_faster);

  w.data = &fast_threads;
  ws_cpu_baselines (&w, WS_CPU_ONE_FOR_ALL, TRUE, 16, &one, &all);
  g_assert_cmpint (fast_threads.calls[0], ==, 1); /* the estimate */
  g_assert_cmpint (one.stats.n, ==, 0);
  g_assert_nonnull (strstr (one.note, "over the"));
  g_assert_nonnull (strstr (one.note, "it is compared with"));
  ws_cpu_baseline_best_of (&one, &all, 16, &best);
  g_assert_false (best.one_thread_faster);
  g_assert_cmpfloat (best.stats.median, ==, all.stats.median);

  /* Asked for, it runs whatever every core took; and nothing runs that is known already. */
  fast_threads.calls[0] = fast_threads.calls[1] = 0;
  ws_cpu_baselines (&w, WS_CPU_ONE_WANTED, TRUE, 16, &one, &all);
  g_assert_cmpint (one.stats.n, ==, 3);
  g_assert_true (one.stats.median >= 5e6);
  fast_threads.calls[0] = fast_threads.calls[1] = 0;
  ws_cpu_baselines (&w, WS_CPU_ONE_NONE, FALSE, 16, &one, &all);
  g_assert_cmpint (fast_threads.calls[0] + fast_threads.calls[1], ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/runner-baseline/small-vector-add", test_small_vector_add);
  g_test_add_func ("/runner-baseline/stand-ins", test_stand_ins);
  g_test_add_func ("/runner-baseline/one-for-all", test_one_for_all);
  return g_test_run ();
}

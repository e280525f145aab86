/* test-analysis-baselines.c: what a run is measured against, on sessions built here from
 * records: the memory and FP32 ceilings (and cuBLAS as the ceiling at its size), the CPU
 * baselines and their notes, a BLAS baseline named in every word about it, an all-core
 * baseline that is the run on one thread, and the device record's host copy ceilings with
 * their spread.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "test-analysis-session.h"

static void
test_ceilings (void)
{
  Spec s, m[3];
  g_autoptr (GPtrArray) peak = NULL, cublas = NULL, top = NULL;
  g_autoptr (WsFinding) poor = NULL;
  g_autoptr (WsSession) session = NULL;
  const WsFinding *f;
  double fraction, ceiling;

  spec_init (&s, 1);
  quiet (&s, WS_FINDING_BELOW_BANDWIDTH);
  quiet (&s, WS_FINDING_BELOW_COMPUTE);
  s.kernel = 1e6, s.kernel_min = 0.99e6, s.kernel_max = 1.01e6;
  poor = fires (&s, WS_FINDING_BELOW_BANDWIDTH, WS_SEVERITY_MEDIUM);
  g_assert_cmpfloat_with_epsilon (poor->value, 1200 / 4180.0, 1e-9);
  HAS (poor->numbers, "1.20 GB in 1.00 ms: 1200 GB/s");
  HAS (poor->cause, "ridge point (16.0 FLOP per byte)");
  s.kernel = 0.6e6, s.kernel_min = 0.59e6, s.kernel_max = 0.61e6;
  ws_finding_free (fires (&s, WS_FINDING_BELOW_BANDWIDTH, WS_SEVERITY_LOW));

  /* A 4096³ matrix product at 8.1 TFLOP/s: compute-bound (683 FLOP per byte). */
  for (int i = 0; i < 3; i++)
    {
      spec_init (&m[i], i + 1);
      m[i].name = i == 2 ? "matmul_cublas" : "matmul_tiled", m[i].rank = 3;
      m[i].shape[0] = m[i].shape[1] = m[i].shape[2] = 4096, m[i].block[0] = m[i].block[1] = 16;
      m[i].grid = 65536, m[i].flops = 2 * pow (4096, 3), m[i].bytes = 12 * pow (4096, 2);
      m[i].kernel = i == 2 ? 3.05e6 : 17e6;
      m[i].kernel_min = m[i].kernel * 0.99, m[i].kernel_max = m[i].kernel * 1.01;
      m[i].e2e = m[i].kernel + 1e6, m[i].cpu1 = 2e9, m[i].cpu_all = 3e8;
    }
  session = session_of (m, 1);
  peak = ws_analyze_run (session, ws_session_find_run (session, 1));
  f = expect (peak, WS_FINDING_BELOW_COMPUTE, WS_SEVERITY_MEDIUM);
  HAS (f->title, "8.08 TFLOP/s, 12% of the FP32 peak");
  HAS (f->numbers, "66.9 TFLOP/s (132 SMs × 128 lanes × 2 FLOP × 1.98 GHz)");
  g_assert_cmpint (ws_analysis_get_ceiling (session, ws_session_find_run (session, 1), &fraction,
                                            &ceiling),
                   ==, WS_CEILING_FP32_PEAK);
  g_assert_cmpfloat_with_epsilon (ceiling, 66908.16, 1e-9);
  g_clear_object (&session);

  /* With cuBLAS in the session at the same size, cuBLAS is the ceiling. */
  m[1].shape[0] = 2048, m[1].name = "matmul_cublas"; /* another shape: not a ceiling for run 1 */
  session = session_of (m, 3);
  cublas = ws_analyze_run (session, ws_session_find_run (session, 1));
  check_pointers (session, cublas);
  f = expect (cublas, WS_FINDING_BELOW_COMPUTE, WS_SEVERITY_MEDIUM);
  HAS (f->title, "of cuBLAS");
  HAS (f->numbers, "cuBLAS SGEMM reaches 45.1 TFLOP/s");
  g_assert_cmpint (ws_analysis_get_ceiling (session, ws_session_find_run (session, 1), &fraction,
                                            &ceiling),
                   ==, WS_CEILING_CUBLAS);
  g_assert_cmpfloat_with_epsilon (fraction, 3.05 / 17, 1e-9);
  g_assert_cmpstr (ws_ceiling_describe (WS_CEILING_CUBLAS), ==, "cuBLAS SGEMM at this size");
  /* cuBLAS itself, at 67% of the FP32 peak, is fine. */
  top = ws_analyze_run (session, ws_session_find_run (session, 3));
  g_assert_null (find (top, WS_FINDING_BELOW_COMPUTE, 0));
}

static void
test_cpu (void)
{
  Spec r[3], s;
  g_autoptr (WsSession) session = NULL;
  g_autoptr (GPtrArray) series = NULL, first = NULL;
  g_autoptr (WsFinding) e2e = NULL, cores = NULL;
  const WsFinding *f;
  char expected[WS_FMT_LEN];
  double size = 0;

  /* A size series whose kernel catches up with one CPU thread at n = 2500 / 0.35 = 7,143. */
  for (int i = 0; i < 3; i++)
    {
      spec_init (&r[i], i + 1);
      r[i].shape[0] = (gint64) pow (10, 3 + i), r[i].grid = 391;
      r[i].kernel = 2500, r[i].kernel_min = 2450, r[i].kernel_max = 2550;
      r[i].cpu1 = 350 * pow (10, i), r[i].cpu_all = 1e9, r[i].e2e = 1e3;
      r[i].h2d = r[i].d2h = 100, r[i].bytes = 12000, r[i].flops = 1000;
    }
  session = session_of (r, 3);
  series = ws_session_get_series (session, WS_SERIES_BY_SIZE, 2);
  g_assert_cmpuint (series->len, ==, 1);
  g_assert_true (ws_analysis_find_crossover (g_ptr_array_index (series, 0), FALSE, FALSE, &size));
  g_assert_cmpfloat_with_epsilon (size, 2500 / 0.35, 1e-6);
  g_assert_false (ws_analysis_find_crossover (g_ptr_array_index (series, 0), TRUE, FALSE, NULL));
  g_assert_cmpfloat_with_epsilon (ws_run_get_speedup (ws_session_find_run (session, 1), FALSE,
                                                      FALSE),
                                  0.14, 1e-12);
  first = ws_analyze_run (session, ws_session_find_run (session, 1));
  check_pointers (session, first);
  f = expect (first, WS_FINDING_SLOWER_THAN_CPU, WS_SEVERITY_HIGH);
  g_assert_cmpfloat_with_epsilon (f->value, 0.14, 1e-12);
  HAS (f->title, "the hand-written CPU code on one thread, even without the copies");
  _ws_fmt_size (expected, ws_run_get_config (ws_session_find_run (session, 1)), size);
  g_assert_cmpstr (expected, ==, "n ≈ 7,100");
  HAS (f->numbers, "the GPU catches up at n ≈ 7,100");

  /* A series the GPU wins at first and loses later: it falls behind at n = 10^3.5. */
  g_clear_object (&session);
  g_clear_pointer (&first, g_ptr_array_unref);
  r[0].kernel = 2500, r[0].cpu1 = 5000;
  r[1].kernel = r[1].kernel_min = r[1].kernel_max = 100000, r[1].cpu1 = 50000;
  session = session_of (r, 2);
  first = ws_analyze_run (session, ws_session_find_run (session, 2));
  HAS (expect (first, WS_FINDING_SLOWER_THAN_CPU, WS_SEVERITY_HIGH)->numbers,
       "the GPU falls behind from n ≈ 3,200 on");

  spec_init (&s, 1);
  quiet (&s, WS_FINDING_SLOWER_THAN_CPU);
  s.e2e = 200e6; /* the copies lose it */
  e2e = fires (&s, WS_FINDING_SLOWER_THAN_CPU, WS_SEVERITY_MEDIUM);
  HAS (e2e->title, "the hand-written CPU code on one thread once the copies are counted");
  spec_init (&s, 1);
  s.cpu_all = 0.5e6; /* 16 cores beat it end to end, not the kernel */
  cores = fires (&s, WS_FINDING_SLOWER_THAN_CPU, WS_SEVERITY_LOW);
  HAS (cores->title, "the hand-written CPU code on 16 threads once the copies are counted");
}

static void
test_baseline_notes (void)
{
  Spec s;
  g_autoptr (WsFinding) fewer = NULL, skipped = NULL;

  spec_init (&s, 1);
  quiet (&s, WS_FINDING_CPU_BASELINE_NOTE);
  s.cpu1_n = 3, s.cpu1_note = "ran 3 times instead of 5: one run takes 1.92 s";
  fewer = fires (&s, WS_FINDING_CPU_BASELINE_NOTE, WS_SEVERITY_INFO);
  g_assert_cmpstr (fewer->title, ==, "CPU baseline ran 3 times: 1 thread");
  HAS (fewer->numbers, "one run takes 1.92 s.");
  spec_init (&s, 1);
  s.cpu1_skipped = TRUE;
  skipped = fires (&s, WS_FINDING_CPU_BASELINE_NOTE, WS_SEVERITY_INFO);
  g_assert_cmpstr (skipped->title, ==, "CPU baseline skipped: 1 thread");
}

/* A matrix product timed with OpenBLAS beside the hand-written SGEMM, with a cold L2: the
 * speedups are against the BLAS, and every word about them names it. Recordings from before
 * BLAS baselines read as hand-written. */
static void
test_baselines_named (void)
{
  g_autoptr (WsSession) s = new_session ();
  g_autoptr (GPtrArray) findings = NULL;
  g_autofree char *one = NULL, *all = NULL, *other = NULL, *old_all = NULL;
  const WsFinding *f;
  const WsTiming *t;
  WsRun *run;
  Spec old;

  feed (s, "{\"type\":\"run\",\"id\":1,\"kernel\":\"matmul_tiled\",\"family\":\"matmul\","
           "\"shape\":[256,256,256],\"size\":256,\"block\":[16,16,1],\"grid\":[16,16,1],"
           "\"threads_per_block\":256,\"transfer\":\"pinned\",\"reps\":10,\"cpu\":\"1,all\","
           "\"cache\":\"cold\",\"flops\":33554432,\"bytes\":786432}");
  feed (s, "{\"type\":\"verify\",\"run\":1,\"pass\":true,\"method\":\"all\",\"checked\":65536,"
           "\"total\":65536,\"mismatches\":0,\"unwritten\":0}");
  feed (s, "{\"type\":\"timing\",\"run\":1,\"traced\":true,"
           "\"kernel_ns\":{\"median\":100000,\"min\":99000,\"max\":101000,\"n\":10},"
           "\"e2e_ns\":{\"median\":300000,\"min\":290000,\"max\":310000,\"n\":10},"
           "\"cpu_1\":{\"threads\":1,\"implementation\":\"blas\",\"library\":\"OpenBLAS\","
           "\"library_version\":\"0.3.21\",\"library_config\":\"OpenBLAS 0.3.21 DYNAMIC_ARCH\","
           "\"median\":50000,\"min\":50000,\"max\":50000,\"n\":5,\"warmed_up\":true},"
           "\"cpu_all\":{\"threads\":16,\"implementation\":\"blas\",\"library\":\"OpenBLAS\","
           "\"library_version\":\"0.3.21\",\"median\":20000,\"min\":20000,\"max\":20000,"
           "\"n\":5,\"warmed_up\":true},"
           "\"cpu_1_hand_written\":{\"threads\":1,\"implementation\":\"hand_written\","
           "\"median\":400000,\"n\":5},"
           "\"cpu_all_hand_written\":{\"threads\":16,\"implementation\":\"hand_written\","
           "\"median\":80000,\"n\":5}}");
  feed (s, "{\"type\":\"done\",\"runs\":1,\"failed\":0,\"exit_code\":0}");
  run = ws_session_find_run (s, 1);
  t = ws_run_get_timing (run);
  g_assert_cmpstr (ws_run_get_config (run)->cache, ==, "cold");
  g_assert_cmpstr (t->cpu_all.implementation, ==, "blas");
  g_assert_cmpstr (t->cpu_all.library_config, ==, NULL);
  g_assert_cmpstr (t->cpu_one.library_config, ==, "OpenBLAS 0.3.21 DYNAMIC_ARCH");
  g_assert_true (t->cpu_all_other.present);
  g_assert_cmpstr (t->cpu_all_other.implementation, ==, "hand_written");
  g_assert_cmpfloat (t->cpu_all_other.stats.median, ==, 80000);
  g_assert_cmpfloat_with_epsilon (ws_run_get_speedup (run, TRUE, FALSE), 0.2, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_run_get_speedup (run, FALSE, FALSE), 0.5, 1e-12);
  one = ws_run_dup_baseline_label (run, FALSE);
  all = ws_run_dup_baseline_label (run, TRUE);
  other = ws_cpu_baseline_dup_label (&t->cpu_all_other);
  g_assert_cmpstr (one, ==, "OpenBLAS 0.3.21, 1 thread");
  g_assert_cmpstr (all, ==, "OpenBLAS 0.3.21, 16 threads");
  g_assert_cmpstr (other, ==, "hand-written, 16 threads");

  findings = ws_analyze_run (s, run);
  f = expect (findings, WS_FINDING_SLOWER_THAN_CPU, WS_SEVERITY_HIGH);
  g_assert_cmpstr (f->title, ==,
                   "Slower than OpenBLAS 0.3.21 on one CPU thread, even without the copies");
  HAS (f->numbers, "OpenBLAS 0.3.21 on one CPU thread does the same work in 50.0 µs");
  HAS (f->numbers, "measured with a cold L2");

  spec_init (&old, 1);
  {
    g_autoptr (WsSession) before = session_of (&old, 1);
    WsRun *r = ws_session_find_run (before, 1);

    old_all = ws_run_dup_baseline_label (r, TRUE);
    g_assert_cmpstr (old_all, ==, "hand-written, 16 threads");
    g_assert_cmpstr (ws_run_get_config (r)->cache, ==, "warm");
    g_assert_false (ws_run_get_timing (r)->cpu_all_other.present);
  }
}

/* A small vector add whose all-core baseline is the run on one thread, that being faster than
 * every core: the label says so, speedups are against it, and the cores it stands for are the
 * host's. A recording from before counts its threads as its cores. */
static void
test_one_thread_faster (void)
{
  g_autoptr (WsSession) s = new_session ();
  g_autofree char *one = NULL, *all = NULL, *old_all = NULL;
  const WsTiming *t;
  WsRun *run;
  Spec old;

  feed (s, "{\"type\":\"run\",\"id\":1,\"kernel\":\"vector_add\",\"family\":\"vector_add\","
           "\"shape\":[1000,1,1],\"size\":1000,\"block\":[256,1,1],\"grid\":[4,1,1],"
           "\"threads_per_block\":256,\"transfer\":\"pinned\",\"reps\":10,\"cpu\":\"1,all\","
           "\"flops\":1000,\"bytes\":12000}");
  feed (s, "{\"type\":\"timing\",\"run\":1,\"traced\":true,"
           "\"kernel_ns\":{\"median\":2000,\"min\":1900,\"max\":2100,\"n\":10},"
           "\"e2e_ns\":{\"median\":30000,\"min\":29000,\"max\":31000,\"n\":10},"
           "\"cpu_1\":{\"threads\":1,\"implementation\":\"hand_written\",\"median\":780,"
           "\"min\":760,\"max\":800,\"n\":5,\"warmed_up\":true},"
           "\"cpu_all\":{\"threads\":1,\"implementation\":\"hand_written\",\"median\":780,"
           "\"min\":760,\"max\":800,\"n\":5,\"warmed_up\":true,\"max_threads\":16,"
           "\"one_thread_faster\":true}}");
  feed (s, "{\"type\":\"done\",\"runs\":1,\"failed\":0,\"exit_code\":0}");
  run = ws_session_find_run (s, 1);
  t = ws_run_get_timing (run);
  g_assert_true (t->cpu_all.one_thread_faster);
  g_assert_false (t->cpu_one.one_thread_faster);
  g_assert_cmpint (t->cpu_all.max_threads, ==, 16);
  g_assert_cmpint (ws_cpu_baseline_get_cores (&t->cpu_all), ==, 16);
  g_assert_cmpfloat_with_epsilon (ws_run_get_speedup (run, TRUE, FALSE), 0.39, 1e-12);
  one = ws_run_dup_baseline_label (run, FALSE);
  all = ws_run_dup_baseline_label (run, TRUE);
  g_assert_cmpstr (one, ==, "hand-written, 1 thread");
  g_assert_cmpstr (all, ==, "hand-written, 1 thread (faster than all cores)");

  spec_init (&old, 1);
  {
    g_autoptr (WsSession) before = session_of (&old, 1);
    const WsTiming *o = ws_run_get_timing (ws_session_find_run (before, 1));

    old_all = ws_run_dup_baseline_label (ws_session_find_run (before, 1), TRUE);
    g_assert_cmpstr (old_all, ==, "hand-written, 16 threads");
    g_assert_false (o->cpu_all.one_thread_faster);
    g_assert_cmpint (o->cpu_all.max_threads, ==, 0);
    g_assert_cmpint (ws_cpu_baseline_get_cores (&o->cpu_all), ==, 16);
  }
}

/* The device record's host copy ceilings with the spread of their samples. */
static void
test_device_spreads (void)
{
  g_autoptr (WsSession) s = ws_session_new (WS_SESSION_SOURCE_RECORDING);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsDevice) device = NULL;
  const WsDeviceInfo *d;

  ws_session_feed_line (s, "{\"type\":\"hello\",\"protocol\":1}", -1, &error);
  g_assert_no_error (error);
  ws_session_feed_line (s, "{\"type\":\"device\",\"index\":0,\"name\":\"NVIDIA H200\","
                           "\"h2d_pageable_gbs\":9.4,\"h2d_pageable_spread\":{\"min\":8.9,"
                           "\"median\":9.4,\"max\":9.8,\"n\":21,\"bytes\":33554432},"
                           "\"d2h_pageable_spread\":null}",
                        -1, &error);
  g_assert_no_error (error);
  device = g_list_model_get_item (ws_session_get_devices (s), 0);
  d = ws_device_get_info (device);
  g_assert_cmpint (d->h2d_pageable.n, ==, 21);
  g_assert_cmpfloat (d->h2d_pageable.min, ==, 8.9);
  g_assert_cmpfloat (d->h2d_pageable.max, ==, 9.8);
  g_assert_cmpint (d->h2d_pageable.bytes, ==, 33554432);
  g_assert_cmpint (d->d2h_pageable.n, ==, 0);
  g_assert_cmpint (d->h2d_pinned.n, ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/ceilings", test_ceilings);
  g_test_add_func ("/analysis/cpu", test_cpu);
  g_test_add_func ("/analysis/baseline-notes", test_baseline_notes);
  g_test_add_func ("/analysis/baselines-named", test_baselines_named);
  g_test_add_func ("/analysis/one-thread-faster", test_one_thread_faster);
  g_test_add_func ("/analysis/device-spreads", test_device_spreads);
  return g_test_run ();
}

/* test-analysis.c: findings: each one fires where it should and stays quiet where it should
 * not, on sessions built here from records, and the bundled H200 recordings say what a GPU
 * teacher would point at.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "test-analysis-session.h"

static void
test_clean (void)
{
  Spec s;
  g_autoptr (GPtrArray) findings = NULL;

  spec_init (&s, 1);
  findings = analyze_one (&s);
  for (guint i = 0; i < findings->len; i++)
    g_test_message ("unexpected: %s", ((WsFinding *) g_ptr_array_index (findings, i))->title);
  g_assert_cmpuint (findings->len, ==, 0);
}

static void
test_verification (void)
{
  Spec s;
  g_autoptr (GPtrArray) wrong = NULL;
  g_autoptr (WsFinding) unwritten = NULL;
  const WsFinding *f;

  spec_init (&s, 1);
  quiet (&s, WS_FINDING_VERIFICATION_FAILED);
  s.pass = FALSE, s.mismatches = 12;
  wrong = analyze_one (&s);
  f = expect (wrong, WS_FINDING_VERIFICATION_FAILED, WS_SEVERITY_HIGH);
  g_assert_cmpfloat (f->value, ==, 12);
  HAS (f->numbers, "12 of the 1,000,000");
  HAS (f->numbers, "number 17: 3.5 instead of 2.5");
  g_assert_true (g_ptr_array_index (wrong, 0) == f); /* most severe first: it leads */

  s.mismatches = 0, s.unwritten = 2048;
  unwritten = fires (&s, WS_FINDING_VERIFICATION_FAILED, WS_SEVERITY_HIGH);
  HAS (unwritten->title, "2,048 elements were never written");
  HAS (unwritten->fix, "(n + block − 1) / block");
}

static void
test_run_errors (void)
{
  g_autoptr (WsSession) s = new_session ();
  g_autoptr (GPtrArray) all = NULL, refused = NULL, lost = NULL, warned = NULL;
  Spec a, b, c;
  const WsFinding *f;

  spec_init (&a, 1);
  quiet (&a, WS_FINDING_RUN_ERROR);
  a.results = FALSE;
  add_run (s, &a);
  feed (s, "{\"type\":\"error\",\"run\":1,\"severity\":\"error\",\"code\":\"out_of_memory\","
           "\"message\":\"cudaMalloc of 4.0 GB failed: the GPU has 1.2 GB free\","
           "\"detail\":\"cudaErrorMemoryAllocation\"}");
  spec_init (&b, 2);
  add_run (s, &b);
  feed (s, "{\"type\":\"error\",\"run\":2,\"severity\":\"warning\",\"code\":\"trace_incomplete\","
           "\"message\":\"CUPTI delivered 9 kernel records for 10 launches\"}");
  feed (s, "{\"type\":\"error\",\"severity\":\"error\",\"code\":\"no_such_thing\","
           "\"message\":\"something went wrong\"}");
  spec_init (&c, 3);
  c.results = FALSE;
  add_run (s, &c);
  ws_session_end (s);

  refused = ws_analyze_run (s, ws_session_find_run (s, 1));
  f = expect (refused, WS_FINDING_RUN_ERROR, WS_SEVERITY_HIGH);
  g_assert_cmpstr (f->title, ==, "Run refused: out of GPU memory");
  HAS (f->numbers, "1.2 GB free. CUDA says: cudaErrorMemoryAllocation.");
  g_assert_cmpuint (refused->len, ==, 1); /* nothing else can be said of a run that never ran */
  warned = ws_analyze_run (s, ws_session_find_run (s, 2));
  HAS (expect (warned, WS_FINDING_RUN_ERROR, WS_SEVERITY_INFO)->title, "CUPTI lost records");
  lost = ws_analyze_run (s, ws_session_find_run (s, 3));
  HAS (expect (lost, WS_FINDING_RUN_ERROR, WS_SEVERITY_HIGH)->title, "Run lost");

  /* The session's own errors come last, about run 0. */
  all = ws_analyze_session (s);
  check_pointers (s, all);
  f = g_ptr_array_index (all, all->len - 1);
  g_assert_cmpint (f->kind, ==, WS_FINDING_RUN_ERROR);
  g_assert_cmpint (f->run, ==, 0);
  HAS (f->numbers, "something went wrong");
}

static void
test_occupancy (void)
{
  Spec s;
  g_autoptr (WsFinding) blocks = NULL, regs = NULL, smem = NULL, warps = NULL;

  spec_init (&s, 1);
  quiet (&s, WS_FINDING_UNDER_OCCUPIED);
  s.block[0] = 32, s.grid = 3125000, s.active_blocks = 32, s.occupancy = 0.5;
  s.limiter = "blocks_per_sm";
  blocks = fires (&s, WS_FINDING_UNDER_OCCUPIED, WS_SEVERITY_MEDIUM);
  g_assert_cmpfloat (blocks->value, ==, 0.5);
  g_assert_cmpfloat (blocks->threshold, ==, 1.0);
  HAS (blocks->title, "50% of the warp slots, limited by blocks per SM");
  HAS (blocks->fix, "at least 64 threads");
  g_assert_cmpuint (blocks->activities->len, ==, 2 * s.reps); /* its kernels, both phases */
  s.occupancy = 0.25, s.active_blocks = 16;
  ws_finding_free (fires (&s, WS_FINDING_UNDER_OCCUPIED, WS_SEVERITY_HIGH));

  /* 64 registers × 256 threads: 4 blocks of 8 warps; at most 32 registers fill the SM. */
  spec_init (&s, 1);
  s.registers = 64, s.active_blocks = 4, s.occupancy = 0.5, s.limiter = "registers";
  regs = fires (&s, WS_FINDING_UNDER_OCCUPIED, WS_SEVERITY_MEDIUM);
  HAS (regs->cause, "16,384 of the SM's 65,536 registers");
  HAS (regs->fix, "at most 32 registers per thread, 8 blocks would fit (100%)");

  /* 48 KiB of shared memory: 4 blocks fit in 228 KiB. */
  spec_init (&s, 1);
  s.smem = 48 * 1024, s.active_blocks = 4, s.occupancy = 0.5, s.limiter = "shared_memory";
  smem = fires (&s, WS_FINDING_UNDER_OCCUPIED, WS_SEVERITY_MEDIUM);
  HAS (smem->cause, "48 KiB of shared memory");
  HAS (smem->fix, "8 blocks would fit (100%)");

  /* 704 threads: 22 warps fit twice into 64; a few percent short of 100% is low. */
  spec_init (&s, 1);
  s.block[0] = 704, s.grid = 142046, s.active_blocks = 2, s.occupancy = 0.6875;
  warps = fires (&s, WS_FINDING_UNDER_OCCUPIED, WS_SEVERITY_MEDIUM);
  HAS (warps->fix, "blocks of 512 or 1024 threads reach 100%");
  s.block[0] = 96, s.grid = 1041667, s.active_blocks = 21, s.occupancy = 0.984375;
  ws_finding_free (fires (&s, WS_FINDING_UNDER_OCCUPIED, WS_SEVERITY_LOW));
  s.limiter = "tensor_memory"; /* a limiter of a later protocol */
  ws_finding_free (fires (&s, WS_FINDING_UNDER_OCCUPIED, WS_SEVERITY_LOW));
}

static void
test_partial_warp (void)
{
  Spec s;
  g_autoptr (WsFinding) half = NULL, little = NULL;

  spec_init (&s, 1);
  s.block[0] = 16, s.block[1] = 16; /* 256 threads in two dimensions */
  quiet (&s, WS_FINDING_PARTIAL_WARP);
  s.block[0] = 4, s.block[1] = 4, s.grid = 6250000, s.active_blocks = 32, s.occupancy = 0.5;
  s.limiter = "blocks_per_sm";
  half = fires (&s, WS_FINDING_PARTIAL_WARP, WS_SEVERITY_MEDIUM);
  g_assert_cmpfloat_with_epsilon (half->value, 0.5, 1e-12);
  HAS (half->numbers, "(block 4×4) gets 32 lanes in whole warps: 16 of them (50%)");

  spec_init (&s, 1);
  s.block[0] = 200, s.grid = 500000, s.occupancy = 0.875, s.active_blocks = 9;
  little = fires (&s, WS_FINDING_PARTIAL_WARP, WS_SEVERITY_LOW);
  g_assert_cmpfloat_with_epsilon (little->value, 24.0 / 224, 1e-12);
  HAS (little->fix, "such as 192 or 224");
}

static void
test_grid (void)
{
  Spec s;
  g_autoptr (WsFinding) tiny = NULL, few = NULL, tail = NULL;

  spec_init (&s, 1);
  s.grid = 100;
  tiny = fires (&s, WS_FINDING_SMALL_GRID, WS_SEVERITY_HIGH);
  HAS (tiny->numbers, "32 SMs have nothing to do");
  HAS (tiny->fix, "with 64 threads per block this problem makes 400 blocks");
  s.grid = 200;
  few = fires (&s, WS_FINDING_SMALL_GRID, WS_SEVERITY_LOW);
  HAS (few->numbers, "at most 2 per SM, which brings 16 of its 64");
  s.grid = 264;
  quiet (&s, WS_FINDING_SMALL_GRID);

  /* 1.1 waves of 8 × 132 blocks: the second wave keeps 10% of the slots busy. */
  s.grid = 1162;
  tail = fires (&s, WS_FINDING_TAIL_EFFECT, WS_SEVERITY_LOW);
  g_assert_cmpfloat_with_epsilon (tail->value, (2 - 1162.0 / 1056) / 2, 1e-9);
  HAS (tail->title, "last of 2 waves is 10% full");
  s.grid = 4118; /* 3.9 waves: the last one is nearly full */
  quiet (&s, WS_FINDING_TAIL_EFFECT);
  s.grid = 5808; /* 5.5 waves: too many full waves for the half one to matter */
  quiet (&s, WS_FINDING_TAIL_EFFECT);
  s.grid = 528; /* half a wave: all blocks run at once */
  quiet (&s, WS_FINDING_TAIL_EFFECT);
}

static void
test_transfers (void)
{
  Spec s;
  g_autoptr (GPtrArray) high = NULL, small = NULL;
  g_autoptr (WsFinding) medium = NULL;
  const WsFinding *f;

  spec_init (&s, 1);
  quiet (&s, WS_FINDING_TRANSFER_BOUND);
  quiet (&s, WS_FINDING_PAGEABLE_MEMORY);
  quiet (&s, WS_FINDING_SMALL_COPIES);
  s.h2d = 300000, s.d2h = 150000, s.e2e = 900000;
  medium = fires (&s, WS_FINDING_TRANSFER_BOUND, WS_SEVERITY_MEDIUM);
  g_assert_cmpfloat_with_epsilon (medium->value, 450000.0 / 350000, 1e-9);
  HAS (medium->numbers, "Copies take 450 µs of the 900 µs end to end (50%)");
  g_assert_cmpuint (medium->activities->len, ==, 3 * s.reps); /* the copies, nothing else */

  /* The recording's pageable vector add: 80 MB in, 40 MB out, from malloc'd memory. */
  spec_init (&s, 1);
  s.transfer = "pageable", s.input_bytes = 80000000, s.output_bytes = 40000000;
  s.h2d = 11.9e6, s.d2h = 2.66e6, s.e2e = 12.2e6, s.kernel = 37400, s.kernel_min = 37300;
  s.kernel_max = 39100, s.bytes = 1.2e8, s.shape[0] = 10000000, s.grid = 39063;
  high = analyze_one (&s);
  HAS (expect (high, WS_FINDING_TRANSFER_BOUND, WS_SEVERITY_HIGH)->numbers,
       "untraced, the run took 12.2 ms");
  f = expect (high, WS_FINDING_PAGEABLE_MEMORY, WS_SEVERITY_MEDIUM);
  HAS (f->numbers, "Host to device: 80.0 MB in 11.9 ms, 6.72 GB/s.");
  HAS (f->title, "pinned memory reaches 55.0 GB/s");
  /* Pageable, but nearly as fast as pinned: nothing to gain. */
  s.h2d = 2e6, s.d2h = 1e6, s.e2e = 3.2e6;
  quiet (&s, WS_FINDING_PAGEABLE_MEMORY);

  spec_init (&s, 1);
  s.input_bytes = 8000, s.output_bytes = 4000, s.h2d = 2000, s.d2h = 1600, s.e2e = 360000;
  s.transfer = "pageable";
  small = analyze_one (&s);
  f = expect (small, WS_FINDING_SMALL_COPIES, WS_SEVERITY_LOW);
  g_assert_cmpfloat_with_epsilon (f->value, 4000, 1e-9);
  g_assert_cmpuint (f->activities->len, ==, 3 * s.reps);
  /* Latency, not pinning, is what holds small copies back. */
  g_assert_null (find (small, WS_FINDING_PAGEABLE_MEMORY, 0));
}

static void
test_overlap (void)
{
  Spec s;
  g_autoptr (WsFinding) f = NULL;

  spec_init (&s, 1); /* one stream: overlap is not what it tried */
  quiet (&s, WS_FINDING_LOW_OVERLAP);
  s.transfer = "streams:4", s.streams = 4, s.overlap = 0.1;
  f = fires (&s, WS_FINDING_LOW_OVERLAP, WS_SEVERITY_MEDIUM);
  g_assert_cmpfloat (f->value, <, 0.1);
  g_assert_cmpfloat (f->value, >, 0.05);
  g_assert_cmpuint (f->activities->len, ==, 4 * s.reps); /* copies and kernels */
  s.overlap = 0.9;
  quiet (&s, WS_FINDING_LOW_OVERLAP);
  s.transfer = "streams:1", s.streams = 1; /* one stream has nothing to overlap with */
  quiet (&s, WS_FINDING_LOW_OVERLAP);
}

static void
test_launch_bound (void)
{
  Spec s;
  g_autoptr (GPtrArray) findings = NULL;
  const WsFinding *f;

  spec_init (&s, 1);
  quiet (&s, WS_FINDING_LAUNCH_BOUND);
  s.kernel = 2500, s.kernel_min = 2400, s.kernel_max = 2600, s.bytes = 12000, s.flops = 1000;
  s.e2e = 300000, s.h2d = 1000, s.d2h = 1000, s.input_bytes = 200000, s.output_bytes = 100000;
  findings = analyze_one (&s);
  f = expect (findings, WS_FINDING_LAUNCH_BOUND, WS_SEVERITY_MEDIUM);
  g_assert_cmpfloat_with_epsilon (f->value, 2.5, 1e-9);
  g_assert_cmpfloat (f->threshold, ==, 5);
  HAS (f->numbers, "the GPU also waited 1.50 µs");
  /* At 4.8 GB/s it is far below the memory ceiling, but the launch is what holds it back. */
  g_assert_null (find (findings, WS_FINDING_BELOW_BANDWIDTH, 0));
}

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

static void
test_noise_and_ranking (void)
{
  Spec s, r[3];
  g_autoptr (GPtrArray) series = NULL, tied = NULL, all = NULL;
  g_autoptr (WsFinding) noisy = NULL;
  g_autoptr (WsSession) session = NULL;
  const WsFinding *f;
  const int blocks[] = { 128, 256, 512 };
  const double medians[] = { 100000, 101000, 120000 };

  spec_init (&s, 1);
  quiet (&s, WS_FINDING_NOISY_TIMING);
  s.kernel_min = 300000, s.kernel_max = 400000;
  noisy = fires (&s, WS_FINDING_NOISY_TIMING, WS_SEVERITY_LOW);
  g_assert_cmpfloat_with_epsilon (noisy->value, 100000 / 350000.0, 1e-12);
  HAS (noisy->numbers, "took 300 µs to 400 µs around a median of 350 µs");

  /* Blocks of 128 and 256 are tied within the fastest one's 98–103 µs; 512 is slower. */
  for (int i = 0; i < 3; i++)
    {
      spec_init (&r[i], i + 1);
      r[i].block[0] = blocks[i], r[i].grid = 100000000 / blocks[i];
      r[i].active_blocks = 2048 / blocks[i];
      r[i].kernel = medians[i], r[i].kernel_min = medians[i] - 2000;
      r[i].kernel_max = medians[i] + 3000;
    }
  session = session_of (r, 3);
  series = ws_session_get_series (session, WS_SERIES_BY_BLOCK, 2);
  g_assert_cmpuint (series->len, ==, 1);
  tied = g_ptr_array_new ();
  g_assert_true (ws_analysis_rank_blocks (g_ptr_array_index (series, 0), tied)
                 == ws_session_find_run (session, 1));
  g_assert_cmpuint (tied->len, ==, 2);
  g_assert_true (g_ptr_array_index (tied, 1) == ws_session_find_run (session, 2));

  all = ws_analyze_session (session);
  check_pointers (session, all);
  f = find (all, WS_FINDING_BEST_IN_SWEEP, 1);
  g_assert_nonnull (f);
  g_assert_cmpstr (f->title, ==, "Fastest of 3 block sizes: block 128 (100 µs)");
  HAS (f->numbers, "Tied with it, within that spread: 256.");
  f = find (all, WS_FINDING_TIED_WITH_BEST, 2);
  g_assert_nonnull (f);
  HAS (f->title, "block 256 (101 µs) against block 128 (100 µs)");
  g_assert_null (find (all, WS_FINDING_TIED_WITH_BEST, 3));
  g_assert_null (find (all, WS_FINDING_BEST_IN_SWEEP, 2));
  g_assert_null (find (all, WS_FINDING_BEST_IN_SWEEP, 3));
}

/* Records with little in them (no device, no launch, few timings) give what can be said, and
 * no warnings. */
static void
test_sparse (void)
{
  g_autoptr (WsSession) s = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autoptr (GPtrArray) all = NULL;

  feed (s, "{\"type\":\"hello\",\"protocol\":1}");
  feed (s, "{\"type\":\"run\",\"id\":1,\"kernel\":\"k\",\"shape\":[100],\"block\":[100,1,1]}");
  feed (s, "{\"type\":\"verify\",\"run\":1,\"pass\":false}");
  feed (s, "{\"type\":\"timing\",\"run\":1,\"kernel_ns\":{\"median\":1000},"
           "\"cpu_1\":{\"threads\":1,\"median\":100}}");
  feed (s, "{\"type\":\"device\",\"name\":\"a GPU that says little\",\"sm_count\":4}");
  feed (s, "{\"type\":\"run\",\"id\":2,\"kernel\":\"k\",\"shape\":[1000],\"block\":[0,0,0],"
           "\"transfer\":\"streams\",\"flops\":1,\"bytes\":0}");
  feed (s, "{\"type\":\"launch\",\"run\":2,\"occupancy\":0.5}");
  feed (s, "{\"type\":\"verify\",\"run\":2,\"pass\":true}");
  feed (s, "{\"type\":\"timing\",\"run\":2,\"kernel_ns\":{\"median\":0}}");
  feed (s, "{\"type\":\"run\",\"id\":3,\"kernel\":\"k\",\"shape\":[1000]}");
  /* A library kernel (cuBLAS) picks its own blocks: the run names none. */
  feed (s, "{\"type\":\"run\",\"id\":4,\"kernel\":\"matmul_cublas\",\"shape\":[64,64,64],"
           "\"block\":null,\"grid\":null,\"threads_per_block\":null}");
  feed (s, "{\"type\":\"verify\",\"run\":4,\"pass\":true}");
  feed (s, "{\"type\":\"timing\",\"run\":4,\"kernel_ns\":{\"median\":9000}}");
  ws_session_end (s);
  all = ws_analyze_session (s);
  check_pointers (s, all);
  expect (all, WS_FINDING_VERIFICATION_FAILED, WS_SEVERITY_HIGH);
  expect (all, WS_FINDING_PARTIAL_WARP, WS_SEVERITY_LOW); /* 100 threads: 28 of 128 lanes */
  expect (all, WS_FINDING_SLOWER_THAN_CPU, WS_SEVERITY_HIGH);
  expect (all, WS_FINDING_UNDER_OCCUPIED, WS_SEVERITY_MEDIUM);
  expect (all, WS_FINDING_RUN_ERROR, WS_SEVERITY_HIGH); /* run 3 never finished */
  g_assert_null (find (all, WS_FINDING_PARTIAL_WARP, 4));
  g_assert_null (find (all, WS_FINDING_SMALL_GRID, 4));
}

static void
test_numbers (void)
{
  char b[WS_FMT_LEN];

  g_assert_cmpstr (_ws_fmt_time (b, 810), ==, "810 ns");
  g_assert_cmpstr (_ws_fmt_time (b, 37472), ==, "37.5 µs");
  g_assert_cmpstr (_ws_fmt_time (b, 999700), ==, "1.00 ms");
  g_assert_cmpstr (_ws_fmt_time (b, 12.4e6), ==, "12.4 ms");
  g_assert_cmpstr (_ws_fmt_time (b, 2.5e9), ==, "2.50 s");
  g_assert_cmpstr (_ws_fmt_bytes (b, 4000), ==, "4.00 kB");
  g_assert_cmpstr (_ws_fmt_bytes (b, 1.2e8), ==, "120 MB");
  g_assert_cmpstr (_ws_fmt_kib (b, 49152), ==, "48 KiB");
  g_assert_cmpstr (_ws_fmt_gbs (b, 4175.3), ==, "4175 GB/s");
  g_assert_cmpstr (_ws_fmt_gbs (b, 6.735), ==, "6.74 GB/s");
  g_assert_cmpstr (_ws_fmt_gbs (b, 9.996), ==, "10.0 GB/s");
  g_assert_cmpstr (_ws_fmt_gflops (b, 8098), ==, "8.10 TFLOP/s");
  g_assert_cmpstr (_ws_fmt_gflops (b, 52.44), ==, "52.4 GFLOP/s");
  g_assert_cmpstr (_ws_fmt_percent (b, 0.5), ==, "50%");
  g_assert_cmpstr (_ws_fmt_percent (b, 0.997), ==, "99.7%");
  g_assert_cmpstr (_ws_fmt_percent (b, 1), ==, "100%");
  g_assert_cmpstr (_ws_fmt_ratio (b, 0.158), ==, "0.16×");
  g_assert_cmpstr (_ws_fmt_ratio (b, 1.66), ==, "1.66×");
  g_assert_cmpstr (_ws_fmt_ratio (b, 0.9976), ==, "0.998×");
  g_assert_cmpstr (_ws_fmt_ratio (b, 388.2), ==, "388×");
  g_assert_cmpstr (_ws_fmt_count (b, 10000000), ==, "10,000,000");
  g_assert_cmpstr (_ws_fmt_count (b, 999), ==, "999");
}

/* docs/findings.md holds the same table as the code, row for row. */
static void
test_thresholds_documented (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR") ?: ".", "..", "docs",
                                            "findings.md", NULL);
  g_autofree char *text = NULL, *want = NULL;
  g_auto (GStrv) lines = NULL;
  const WsThreshold *t;
  guint n, rows = 0;
  gboolean in_table = FALSE;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  t = ws_analysis_get_thresholds (&n);
  g_assert_cmpuint (n, ==, WS_N_THRESHOLDS);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "## "))
        in_table = g_str_equal (lines[i], "## Thresholds");
      if (!in_table || !g_str_has_prefix (lines[i], "| `"))
        continue;
      g_assert_cmpuint (rows, <, n);
      g_free (want);
      want = g_strdup_printf ("| `%s` | %g | %s | %s |", t[rows].name, t[rows].value,
                              t[rows].unit, t[rows].description);
      g_assert_cmpstr (lines[i], ==, want);
      rows++;
    }
  g_assert_cmpuint (rows, ==, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpfloat (ws_analysis_threshold (t[i].name), ==, t[i].value);
  g_assert_cmpfloat (ws_analysis_threshold ("occupancy_low"), ==, 1.0);
}

/* ---- the bundled recordings -------------------------------------------------------------- */

/* Every recording, those to come included: findings are well formed, point at real records,
 * and the session's analysis is the runs' analyses together. The first four say that nothing
 * failed on the H200. */
static void
test_samples_consistent (void)
{
  const char *const clean[] = { "vector-add-sizes-h200.jsonl", "vector-add-blocks-h200.jsonl",
                                "matmul-sizes-h200.jsonl", "matmul-naive-blocks-h200.jsonl" };
  g_autoptr (GDir) dir = g_dir_open (g_getenv ("WS_SAMPLES_DIR"), 0, NULL);
  const char *name;
  guint seen = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autoptr (WsSession) s = NULL;
      g_autoptr (GPtrArray) all = NULL;
      GListModel *runs;
      guint total = 0;

      if (!g_str_has_suffix (name, ".jsonl"))
        continue;
      s = load_sample (name);
      all = ws_analyze_session (s);
      runs = ws_session_get_runs (s);
      check_pointers (s, all);
      for (guint r = 0; r < g_list_model_get_n_items (runs); r++)
        {
          g_autoptr (WsRun) run = g_list_model_get_item (runs, r);
          g_autoptr (GPtrArray) one = ws_analyze_run (s, run);

          total += one->len;
        }
      g_assert_cmpuint (total + ws_session_get_errors (s)->len, ==, all->len);
      for (guint i = 0; i < G_N_ELEMENTS (clean); i++)
        if (g_str_equal (name, clean[i]))
          {
            g_assert_null (find (all, WS_FINDING_VERIFICATION_FAILED, 0));
            g_assert_null (find (all, WS_FINDING_RUN_ERROR, 0));
            seen++;
          }
    }
  g_assert_cmpuint (seen, ==, G_N_ELEMENTS (clean));
}

/* vector_add over sizes, pageable and pinned: the pageable runs are transfer-bound, small sizes
 * lose to the CPU, and the crossover sizes are named. */
static void
test_sample_vector_sizes (void)
{
  g_autoptr (WsSession) s = load_sample ("vector-add-sizes-h200.jsonl");
  g_autoptr (GPtrArray) all = ws_analyze_session (s);
  g_autoptr (GPtrArray) series = ws_session_get_series (s, WS_SERIES_BY_SIZE, 2);
  g_autoptr (GPtrArray) smallest = NULL;
  GListModel *runs = ws_session_get_runs (s);
  WsRun *big = run_where (s, "vector_add", 1e7, 256, 1, "pageable");
  const WsFinding *f;
  char expected[WS_FMT_LEN];
  double pinned_e2e = 0, pageable_kernel = 0;

  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);
      const WsRunConfig *c = ws_run_get_config (run);

      if (!g_str_equal (c->transfer, "pageable"))
        {
          g_assert_null (find (all, WS_FINDING_PAGEABLE_MEMORY, ws_run_get_id (run)));
          continue;
        }
      g_assert_nonnull (find (all, WS_FINDING_TRANSFER_BOUND, ws_run_get_id (run)));
      if (c->size >= 1e6)
        g_assert_nonnull (find (all, WS_FINDING_PAGEABLE_MEMORY, ws_run_get_id (run)));
    }
  /* n = 10⁷ with pageable memory: 14.5 ms of copies for a 40 µs kernel. */
  f = find (all, WS_FINDING_TRANSFER_BOUND, ws_run_get_id (big));
  g_assert_true (f->severity == WS_SEVERITY_HIGH && f->value > 100);
  g_assert_cmpuint (f->activities->len, ==, 30); /* 2 copies in, 1 out, × 10 sequences */

  /* Where the GPU catches up with one CPU thread: the kernel alone between 10³ and 10⁴,
   * end to end with pinned copies between 10⁴ and 10⁵, never with pageable ones. */
  g_assert_cmpuint (series->len, ==, 2);
  for (guint i = 0; i < series->len; i++)
    {
      WsSeries *one = g_ptr_array_index (series, i);
      gboolean pinned = g_str_equal (one->transfer, "pinned");
      double kernel = 0, e2e = 0;

      g_assert_true (ws_analysis_find_crossover (one, FALSE, FALSE, &kernel));
      g_assert_true (kernel > 1e3 && kernel < 1e4);
      g_assert_true (ws_analysis_find_crossover (one, FALSE, TRUE, &e2e) == pinned);
      pageable_kernel = pinned ? pageable_kernel : kernel;
      pinned_e2e = pinned ? e2e : pinned_e2e;
    }
  g_assert_true (pinned_e2e > 1e4 && pinned_e2e < 1e5);

  /* The smallest size loses to one CPU thread even without its copies, and says from where on
   * the GPU wins. */
  smallest = analyze_where (s, "vector_add", 1e3, 256, 1, "pageable");
  f = expect (smallest, WS_FINDING_SLOWER_THAN_CPU, WS_SEVERITY_HIGH);
  g_assert_cmpfloat (f->value, <, 0.2);
  _ws_fmt_size (expected, ws_run_get_config (big), pageable_kernel);
  HAS (f->numbers, expected);
  expect (smallest, WS_FINDING_LAUNCH_BOUND, WS_SEVERITY_MEDIUM);
  expect (smallest, WS_FINDING_SMALL_GRID, WS_SEVERITY_HIGH);
  expect (smallest, WS_FINDING_SMALL_COPIES, WS_SEVERITY_LOW);
  /* A pinned run in the middle of the series says where it catches up end to end. */
  g_clear_pointer (&smallest, g_ptr_array_unref);
  smallest = analyze_where (s, "vector_add", 1e4, 256, 1, "pinned");
  f = expect (smallest, WS_FINDING_SLOWER_THAN_CPU, WS_SEVERITY_MEDIUM);
  HAS (f->title, "once the copies are counted");
  _ws_fmt_size (expected, ws_run_get_config (big), pinned_e2e);
  HAS (f->numbers, expected);
}

/* vector_add over block sizes: block 32 is held to 50% by the cap on blocks per SM, 704 loses
 * warps, the fastest is a mid-sized block tied with its neighbours, the tutorial's 256 among
 * them. */
static void
test_sample_vector_blocks (void)
{
  g_autoptr (WsSession) s = load_sample ("vector-add-blocks-h200.jsonl");
  g_autoptr (GPtrArray) b32 = analyze_where (s, "vector_add", 1e7, 32, 1, "pageable");
  g_autoptr (GPtrArray) b704 = analyze_where (s, "vector_add", 1e7, 704, 1, "pageable");
  g_autoptr (GPtrArray) series = ws_session_get_series (s, WS_SERIES_BY_BLOCK, 2);
  g_autoptr (GPtrArray) tied = g_ptr_array_new ();
  const WsFinding *f;
  WsRun *best;

  f = expect (b32, WS_FINDING_UNDER_OCCUPIED, WS_SEVERITY_MEDIUM);
  g_assert_cmpfloat (f->value, ==, 0.5);
  HAS (f->title, "limited by blocks per SM");
  HAS (f->fix, "at least 64 threads");
  g_assert_cmpfloat (expect (b32, WS_FINDING_BELOW_BANDWIDTH, WS_SEVERITY_MEDIUM)->value, <, 0.2);
  HAS (expect (b704, WS_FINDING_UNDER_OCCUPIED, WS_SEVERITY_MEDIUM)->title,
       "limited by warps per SM");

  g_assert_cmpuint (series->len, ==, 1);
  best = ws_analysis_rank_blocks (g_ptr_array_index (series, 0), tied);
  g_assert_cmpuint (ws_run_get_config (best)->threads_per_block - 160, <=, 352 - 160);
  g_assert_cmpuint (tied->len, >, 1);
  for (guint i = 0; i < tied->len; i++)
    g_assert_cmpuint (ws_run_get_config (g_ptr_array_index (tied, i))->threads_per_block - 160,
                      <=, 352 - 160); /* neighbours only */
  g_assert_true (g_ptr_array_find (tied, run_where (s, "vector_add", 1e7, 256, 1, "pageable"),
                                   NULL));
  g_assert_true (g_ptr_array_find (tied, run_where (s, "vector_add", 1e7, 224, 1, "pageable"),
                                   NULL));
}

/* matmul over sizes: at every size and block, the tiled kernel beats the naive one beyond the
 * noise (its slowest launch is faster than the naive kernel's fastest), and both are compared
 * with the FP32 peak, the tiled one reaching more of it. */
static void
test_sample_matmul (void)
{
  g_autoptr (WsSession) s = load_sample ("matmul-sizes-h200.jsonl");
  g_autoptr (WsSession) blocks = load_sample ("matmul-naive-blocks-h200.jsonl");
  g_autoptr (GPtrArray) narrow = analyze_where (blocks, "matmul_naive", 2048, 4, 4, "pageable");
  GListModel *runs = ws_session_get_runs (s);
  guint pairs = 0;

  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) naive = g_list_model_get_item (runs, i);
      const WsRunConfig *c = ws_run_get_config (naive);
      WsRun *tiled;
      double naive_fraction, tiled_fraction;

      if (!g_str_equal (c->kernel, "matmul_naive"))
        continue;
      tiled = run_where (s, "matmul_tiled", c->size, c->block[0], c->block[1], c->transfer);
      g_assert_cmpfloat (ws_run_get_timing (tiled)->kernel.max, <,
                         ws_run_get_timing (naive)->kernel.min);
      g_assert_cmpint (ws_analysis_get_ceiling (s, naive, &naive_fraction, NULL), ==,
                       WS_CEILING_FP32_PEAK);
      g_assert_cmpint (ws_analysis_get_ceiling (s, tiled, &tiled_fraction, NULL), ==,
                       WS_CEILING_FP32_PEAK);
      g_assert_cmpfloat (tiled_fraction, >, naive_fraction);
      pairs++;
    }
  g_assert_cmpuint (pairs, ==, 15);

  /* 4×4 blocks: 16 threads, half of each warp idle, and 50% occupancy. */
  expect (narrow, WS_FINDING_PARTIAL_WARP, WS_SEVERITY_MEDIUM);
  g_assert_cmpfloat (expect (narrow, WS_FINDING_UNDER_OCCUPIED, WS_SEVERITY_MEDIUM)->value, ==,
                     0.5);
}

/* The ladders and stream sweeps, where present: cuBLAS is the ceiling of the matmul kernels at
 * its size and gets no findings about blocks it does not choose; two streams overlap poorly,
 * one stream is not asked to. */
static void
test_sample_ceilings_and_streams (void)
{
  g_autoptr (WsSession) ladder = NULL, streams = NULL;
  g_autoptr (GPtrArray) all = NULL, two = NULL, one = NULL;
  GListModel *runs;
  guint cublas = 0;

  if (!have_sample ("matmul-ladder-h200.jsonl") || !have_sample ("matmul-streams-h200.jsonl"))
    {
      g_test_skip ("no matmul ladder or streams recording");
      return;
    }
  ladder = load_sample ("matmul-ladder-h200.jsonl");
  all = ws_analyze_session (ladder);
  runs = ws_session_get_runs (ladder);
  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);
      const WsRunConfig *c = ws_run_get_config (run);

      if (g_str_equal (c->kernel, "matmul_cublas"))
        {
          g_assert_null (find (all, WS_FINDING_PARTIAL_WARP, ws_run_get_id (run)));
          g_assert_null (find (all, WS_FINDING_SMALL_GRID, ws_run_get_id (run)));
          cublas++;
        }
      else if (g_str_equal (c->kernel, "matmul_tiled"))
        g_assert_cmpint (ws_analysis_get_ceiling (ladder, run, NULL, NULL), ==,
                         WS_CEILING_CUBLAS);
    }
  g_assert_cmpuint (cublas, >, 0);

  streams = load_sample ("matmul-streams-h200.jsonl");
  one = analyze_where (streams, "matmul_regtile", 4096, 16, 16, "streams:1");
  g_assert_null (find (one, WS_FINDING_LOW_OVERLAP, 0));
  two = analyze_where (streams, "matmul_regtile", 4096, 16, 16, "streams:2");
  g_assert_nonnull (find (two, WS_FINDING_LOW_OVERLAP, 0));
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
  g_test_add_func ("/analysis/clean", test_clean);
  g_test_add_func ("/analysis/verification", test_verification);
  g_test_add_func ("/analysis/run-errors", test_run_errors);
  g_test_add_func ("/analysis/occupancy", test_occupancy);
  g_test_add_func ("/analysis/partial-warp", test_partial_warp);
  g_test_add_func ("/analysis/grid", test_grid);
  g_test_add_func ("/analysis/transfers", test_transfers);
  g_test_add_func ("/analysis/overlap", test_overlap);
  g_test_add_func ("/analysis/launch-bound", test_launch_bound);
  g_test_add_func ("/analysis/ceilings", test_ceilings);
  g_test_add_func ("/analysis/cpu", test_cpu);
  g_test_add_func ("/analysis/baseline-notes", test_baseline_notes);
  g_test_add_func ("/analysis/baselines-named", test_baselines_named);
  g_test_add_func ("/analysis/device-spreads", test_device_spreads);
  g_test_add_func ("/analysis/noise-and-ranking", test_noise_and_ranking);
  g_test_add_func ("/analysis/sparse", test_sparse);
  g_test_add_func ("/analysis/numbers", test_numbers);
  g_test_add_func ("/analysis/thresholds-documented", test_thresholds_documented);
  g_test_add_func ("/analysis/samples/consistent", test_samples_consistent);
  g_test_add_func ("/analysis/samples/vector-add-sizes", test_sample_vector_sizes);
  g_test_add_func ("/analysis/samples/vector-add-blocks", test_sample_vector_blocks);
  g_test_add_func ("/analysis/samples/matmul", test_sample_matmul);
  g_test_add_func ("/analysis/samples/ceilings-and-streams", test_sample_ceilings_and_streams);
  return g_test_run ();
}

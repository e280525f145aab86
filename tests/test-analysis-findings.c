/* test-analysis-findings.c: findings: each one fires where it should and stays quiet where it
 * should not, on sessions built here from records (verification, errors, occupancy, warps,
 * grids, copies, overlap, launches, noise and ranking, sparse records), in the words and the
 * numbers docs/findings.md gives.
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

/* What a run's launch and a traced kernel are judged by alike: the idle share of a last wave
 * (none below one wave, at whole waves, or past the full waves that make it matter), how bad
 * an occupancy is, and the words for its limiter, a later protocol's included. */
static void
test_launch_shared (void)
{
  g_assert_cmpfloat_with_epsilon (_ws_tail_idle (1.1), 0.45, 1e-12);
  g_assert_cmpfloat_with_epsilon (_ws_tail_idle (3.9), 0.025, 1e-12);
  g_assert_cmpfloat (_ws_tail_idle (0.5), <, 0);
  g_assert_cmpfloat (_ws_tail_idle (2.0), <, 0);
  g_assert_cmpfloat (_ws_tail_idle (5.5), <, 0);
  g_assert_cmpfloat (_ws_tail_idle (0), <, 0);
  g_assert_cmpint (_ws_occupancy_severity (0.4), ==, WS_SEVERITY_HIGH);
  g_assert_cmpint (_ws_occupancy_severity (0.6), ==, WS_SEVERITY_MEDIUM);
  g_assert_cmpint (_ws_occupancy_severity (0.9), ==, WS_SEVERITY_LOW);
  g_assert_cmpstr (_ws_limiter_words (WS_LIMITER_REGISTERS), ==, "registers");
  g_assert_cmpstr (_ws_limiter_words (WS_LIMITER_SHARED_MEMORY), ==, "shared memory");
  g_assert_cmpstr (_ws_limiter_words ((WsLimiter) 99), ==,
                   "a resource this version does not know");
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
       "untraced (the runs table's figure), the run took 12.2 ms");
  f = expect (high, WS_FINDING_PAGEABLE_MEMORY, WS_SEVERITY_MEDIUM);
  HAS (f->numbers, "Host to device: 80.0 MB in 11.9 ms, 6.72 GB/s.");
  HAS (f->title, "pinned memory reaches 55.0 GB/s");
  /* The share of pinned memory's rate is the time pinned copies would take over the time these
   * took, one division, as for a traced program (a rate over a rate rounds differently). */
  s.h2d = 11900006;
  g_clear_pointer (&high, g_ptr_array_unref);
  high = analyze_one (&s);
  f = expect (high, WS_FINDING_PAGEABLE_MEMORY, WS_SEVERITY_MEDIUM);
  g_assert_cmpfloat (f->value, ==, (80000000 / 55.0 + 40000000 / 55.0) / (11900006 + 2.66e6));
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
  /* No counters: nothing measured said of why it wins. */
  f = find (all, WS_FINDING_BEST_IN_SWEEP, 1);
  g_assert_null (strstr (f->cause, "Measured"));

  /* With counters: why the fastest wins, against the slowest, in one sentence. */
  {
    const double achieved[] = { 92, 85, 78 };
    g_autoptr (WsSession) counted = NULL;
    g_autoptr (GPtrArray) measured = NULL;

    for (int i = 0; i < 3; i++)
      {
        r[i].achieved = achieved[i];
        r[i].counted = ",\"dram_bytes_write\":4e7";
      }
    counted = session_of (r, 3);
    measured = ws_analyze_session (counted);
    f = find (measured, WS_FINDING_BEST_IN_SWEEP, 1);
    g_assert_nonnull (f);
    HAS (f->cause, "Measured by the GPU's counters, block 128 beats block 512 by 20%: achieved "
                   "occupancy 92% against 78%, the same DRAM traffic (120 MB against 120 MB).");
  }
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

/* The GPU's counters beside the theory: a run whose counters found achieved occupancy well
 * below its theoretical 100% is told so (low from 10 points, medium from 20), with the cause
 * its launch gives (a partial last wave, barriers, or imbalance); one within 10 points, or
 * without counters, is not; the run keeps its counters by key, and a key this version does
 * not know is left out. */
static void
test_achieved_occupancy (void)
{
  Spec s;
  const WsFinding *f;

  /* No counters, or close to the ceiling: nothing. */
  spec_init (&s, 1);
  {
    g_autoptr (GPtrArray) none = analyze_one (&s);

    g_assert_null (find (none, WS_FINDING_ACHIEVED_OCCUPANCY, 0));
  }
  s.achieved = 91;
  {
    g_autoptr (WsSession) session = session_of (&s, 1);
    const WsCounters *c = ws_run_get_counters (ws_session_find_run (session, 1));
    g_autoptr (GPtrArray) close = analyze_one (&s);

    g_assert_nonnull (c);
    g_assert_cmpstr (c->chip, ==, "GH100");
    g_assert_cmpint (c->passes, ==, 2);
    g_assert_cmpfloat (ws_counters_get (c, "achieved_occupancy"), ==, 91);
    g_assert_cmpfloat (ws_counters_get (c, "dram_bytes_read"), ==, 8e7);
    g_assert_true (isnan (ws_counters_get (c, "stall_barrier")));
    g_assert_true (isnan (ws_counters_get (c, "future_counter")));
    g_assert_null (find (close, WS_FINDING_ACHIEVED_OCCUPANCY, 0));
  }
  /* 82% of 100% with 185 waves and no stalls read: low, imbalance. */
  s.achieved = 82;
  {
    g_autoptr (GPtrArray) low = analyze_one (&s);

    f = expect (low, WS_FINDING_ACHIEVED_OCCUPANCY, WS_SEVERITY_LOW);
    HAS (f->title, "Achieved occupancy 82%, below the theoretical 100%");
    HAS (f->numbers, "found 82% of the SMs' warp slots");
    HAS (f->cause, "imbalance");
    g_assert_cmpfloat_with_epsilon (f->value, 0.18, 1e-9);
  }
  /* 60% with barriers holding 40% of the stalls: medium, barriers. */
  s.achieved = 60, s.stall_total = 10, s.stall_barrier = 4;
  {
    g_autoptr (GPtrArray) medium = analyze_one (&s);

    f = expect (medium, WS_FINDING_ACHIEVED_OCCUPANCY, WS_SEVERITY_MEDIUM);
    HAS (f->cause, "Warps wait at barriers (__syncthreads) for 40% of their stalled time");
  }
  /* 1.5 waves: the partial last one. */
  s.stall_total = 0, s.grid = 1584;
  {
    g_autoptr (GPtrArray) tail = analyze_one (&s);

    f = expect (tail, WS_FINDING_ACHIEVED_OCCUPANCY, WS_SEVERITY_MEDIUM);
    HAS (f->cause, "The grid makes 1.50 waves");
  }
}

/* What the counters say of coalescing, shared memory's banks, divergence and stalls: each rule
 * fires past its threshold with the numbers, and not below it. */
static void
test_counted_rules (void)
{
  Spec s;
  const WsFinding *f;

  spec_init (&s, 1);
  s.achieved = 98;
  /* 16 sectors a load request, no conflicts, 31.9 threads, stalls spread: one finding. */
  s.counted = ",\"global_load_sectors\":1.6e7,\"global_load_requests\":1e6,"
              "\"global_store_sectors\":4e6,\"global_store_requests\":1e6,"
              "\"shared_load_bank_conflicts\":0,\"shared_store_bank_conflicts\":0,"
              "\"shared_load_wavefronts\":1e6,\"shared_store_wavefronts\":1e6,"
              "\"threads_per_instruction\":31.9,\"stall_total\":10,"
              "\"stall_long_scoreboard\":3,\"stall_wait\":3,\"stall_not_selected\":3";
  {
    g_autoptr (GPtrArray) a = analyze_one (&s);

    f = expect (a, WS_FINDING_UNCOALESCED, WS_SEVERITY_MEDIUM);
    HAS (f->title, "Uncoalesced loads: 16.0 sectors per warp request, where 4 would do");
    g_assert_null (find (a, WS_FINDING_BANK_CONFLICTS, 0));
    g_assert_null (find (a, WS_FINDING_DIVERGENT, 0));
    g_assert_null (find (a, WS_FINDING_STALLS, 0));
  }
  /* Coalesced, a third of shared memory's passes from conflicts, 14 threads, long scoreboard
   * most of the stalls. */
  s.counted = ",\"global_load_sectors\":4e6,\"global_load_requests\":1e6,"
              "\"shared_load_bank_conflicts\":3e5,\"shared_store_bank_conflicts\":4e5,"
              "\"shared_load_wavefronts\":1e6,\"shared_store_wavefronts\":1e6,"
              "\"threads_per_instruction\":14,\"stall_total\":10,"
              "\"stall_long_scoreboard\":7.1,\"stall_wait\":1";
  {
    g_autoptr (GPtrArray) b = analyze_one (&s);

    g_assert_null (find (b, WS_FINDING_UNCOALESCED, 0));
    f = expect (b, WS_FINDING_BANK_CONFLICTS, WS_SEVERITY_MEDIUM);
    HAS (f->title, "Shared-memory bank conflicts: 35% of its passes");
    HAS (f->fix, "tile[32][33]");
    f = expect (b, WS_FINDING_DIVERGENT, WS_SEVERITY_MEDIUM);
    HAS (f->title, "Divergent warps: 14.0 of 32 threads active per instruction");
    f = expect (b, WS_FINDING_STALLS, WS_SEVERITY_INFO);
    HAS (f->title, "Warps wait on global or local memory (long scoreboard) 71% of their stalled "
                   "time");
  }
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
  g_test_add_func ("/analysis/noise-and-ranking", test_noise_and_ranking);
  g_test_add_func ("/analysis/sparse", test_sparse);
  g_test_add_func ("/analysis/numbers", test_numbers);
  g_test_add_func ("/analysis/thresholds-documented", test_thresholds_documented);
  g_test_add_func ("/analysis/launch-shared", test_launch_shared);
  g_test_add_func ("/analysis/achieved-occupancy", test_achieved_occupancy);
  g_test_add_func ("/analysis/counted-rules", test_counted_rules);
  return g_test_run ();
}

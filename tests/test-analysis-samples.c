/* test-analysis-samples.c: findings on the bundled H200 recordings: every one well formed,
 * and what a GPU teacher would point at in the vector_add and matmul sweeps, the matmul
 * ladder and the stream sweeps.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "test-analysis-session.h"

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

/* Two figures of one quantity are one number, or each says what it is: where a run's
 * transfer-bound finding times the kernel between its copies and that reads differently from
 * the runs table's kernel time (back to back), it gives both, named; where the untraced end to
 * end is less than the traced copies it adds up, it says the copies are medians of the traced
 * repetitions. vector-add-sizes' run 5 is the case that showed it: 37.4 µs in the table,
 * 40.0 µs in the finding; 14.5 ms of copies against 12.2 ms end to end. */
static void
test_samples_numbers_agree (void)
{
  g_autoptr (GDir) dir = g_dir_open (g_getenv ("WS_SAMPLES_DIR"), 0, NULL);
  const char *name;
  guint both_kernels = 0, copies_named = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autoptr (WsSession) s = NULL;
      g_autoptr (GPtrArray) all = NULL;

      if (!g_str_has_suffix (name, ".jsonl"))
        continue;
      s = load_sample (name);
      all = ws_analyze_session (s);
      for (guint i = 0; i < all->len; i++)
        {
          const WsFinding *f = g_ptr_array_index (all, i);
          WsRun *run;
          const WsTiming *t;
          char seq[WS_FMT_LEN], alone[WS_FMT_LEN], e2e[WS_FMT_LEN];
          double copies;

          if (f->trace || f->kind != WS_FINDING_TRANSFER_BOUND || f->run <= 0)
            continue;
          run = ws_session_find_run (s, f->run);
          t = ws_run_get_timing (run);
          g_assert_nonnull (t);
          _ws_fmt_time (seq, _ws_run_get_kernel_in_sequence_ns (run));
          _ws_fmt_time (alone, ws_run_get_kernel_ns (run));
          g_assert_nonnull (strstr (f->numbers, seq));
          if (!g_str_equal (seq, alone))
            {
              g_assert_nonnull (strstr (f->numbers, alone));
              g_assert_nonnull (strstr (f->numbers, "back to back"));
              both_kernels++;
            }
          copies = (t->h2d.n > 0 ? t->h2d.median : 0) + (t->d2h.n > 0 ? t->d2h.median : 0);
          if (t->e2e.n > 0 && t->e2e.median < copies + _ws_run_get_kernel_in_sequence_ns (run))
            {
              g_assert_nonnull (strstr (f->numbers, _ws_fmt_time (e2e, t->e2e.median)));
              g_assert_nonnull (strstr (f->numbers, "medians of"));
              copies_named++;
            }
        }
    }
  /* vector-add-sizes' runs 5 and 6 at least. */
  g_assert_cmpuint (both_kernels, >=, 2);
  g_assert_cmpuint (copies_named, >=, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/samples/consistent", test_samples_consistent);
  g_test_add_func ("/analysis/samples/vector-add-sizes", test_sample_vector_sizes);
  g_test_add_func ("/analysis/samples/numbers-agree", test_samples_numbers_agree);
  g_test_add_func ("/analysis/samples/vector-add-blocks", test_sample_vector_blocks);
  g_test_add_func ("/analysis/samples/matmul", test_sample_matmul);
  g_test_add_func ("/analysis/samples/ceilings-and-streams", test_sample_ceilings_and_streams);
  return g_test_run ();
}

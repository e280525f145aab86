/* test-charts-sweeps.c: what the charts of sweeps collect, and therefore draw, from the bundled
 * recordings: the speedup chart's series, points, crossovers and axes; the block-size chart's
 * series, fastest configurations and ties, or its heatmap; the occupancy calculator's curves;
 * the breakdown's rows; the roofline's points and ceilings. No cairo: the data alone.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "test-charts-util.h"
#include "test-repeat-session.h"
#include "ws-chart-blocks-private.h"
#include "ws-chart-breakdown-private.h"
#include "ws-chart-occupancy-private.h"
#include "ws-chart-roofline-private.h"
#include "ws-chart-speedup-private.h"

static WsChartBase
base_for (WsChartKind kind)
{
  return (WsChartBase) { ws_theme_get (WS_THEME_LIGHT), 1600, 900, 1 };
}

/* vector-add-sizes repeated 1,083 times: 12,996 runs, a million activities. */
static WsSession *
many_runs (void)
{
  static WsSession *session;

  if (session == NULL)
    {
      g_autofree char *path = g_build_filename (g_getenv ("WS_SAMPLES_DIR"),
                                                "vector-add-sizes-h200.jsonl", NULL);

      session = ws_test_repeat_session (path, 1083);
      g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (session)), ==, 12996);
    }
  return session;
}

/* ---- breakdown -------------------------------------------------------------------------- */

static const WsBreakdownRow *
breakdown_row (const WsBreakdownData *d, int run)
{
  for (guint i = 0; i < d->rows->len; i++)
    if (g_array_index (d->rows, WsBreakdownRow, i).run == run)
      return &g_array_index (d->rows, WsBreakdownRow, i);
  g_error ("no row for run %d", run);
}

static void
test_breakdown (void)
{
  WsSession *session = sample ("vector-add-sizes");
  WsChartBase base = base_for (WS_CHART_BREAKDOWN);
  WsBreakdownData *d = _ws_breakdown_collect (session, &base);
  static const char *const segments[] = { "H2D copy", "kernel", "D2H copy", "memset", "idle" };

  g_assert_null (d->frame.message);
  g_assert_cmpstr (d->frame.title, ==, "Time breakdown · vector_add");
  /* Every run shares its block; sizes and transfer modes differ, and the rows say them. */
  g_assert_cmpstr (d->common, ==, "every run: 256 threads");
  g_assert_cmpuint (d->n_runs, ==, 12);
  g_assert_cmpuint (d->rows->len, ==, 12);
  g_assert_cmpstr (breakdown_row (d, 1)->label, ==, "run 1 · n = 1,000 · pageable");
  g_assert_cmpstr (breakdown_row (d, 11)->label, ==, "run 11 · n = 10,000,000 · pinned");
  g_assert_cmpuint (d->legend.items->len, ==, 5);
  for (guint s = 0; s < 5; s++)
    g_assert_cmpstr (g_array_index (d->legend.items, WsLegendItem, s).label, ==, segments[s]);
  for (guint i = 0; i < d->rows->len; i++)
    {
      const WsBreakdownRow *row = &g_array_index (d->rows, WsBreakdownRow, i);
      WsTotals t;
      double sum = 0;

      ws_run_get_totals (ws_session_find_run (session, row->run), &t);
      g_assert_cmpint (row->run, ==, (int) i + 1);
      for (guint s = 0; s < WS_N_SEGMENTS; s++)
        sum += row->share[s];
      g_assert_cmpfloat_with_epsilon (sum, 1, 1e-9);
      /* Each segment in proportion to the run's own totals. */
      g_assert_cmpfloat_with_epsilon (row->share[WS_SEGMENT_H2D] / row->share[WS_SEGMENT_KERNEL],
                                      (double) t.h2d_ns / t.kernel_ns, 1e-9);
      g_assert_cmpfloat_with_epsilon (row->share[WS_SEGMENT_IDLE] * t.span_ns / sum,
                                      (double) t.idle_ns, 1e-3 * t.span_ns);
      g_assert_cmpint (row->span_ns, ==, t.span_ns);
      g_assert_cmpfloat (row->overlap, ==, 0);
    }
  /* Copies take half the time and more from 10⁷ elements on, pageable or pinned, and from 10⁶
   * when pinned: those rows are what the chart is for. */
  for (int run = 1; run <= 12; run++)
    {
      gboolean half = run == 5 || run == 6 || run >= 10;

      if ((breakdown_row (d, run)->copies >= 0.5) != half)
        g_error ("run %d: copies %.3f", run, breakdown_row (d, run)->copies);
    }
  g_assert_cmpstr (breakdown_row (d, 5)->right, ==, "151 ms · copies 92%");
  _ws_breakdown_data_free (d);

  /* Streams overlap copies with kernels, and the text says how much. */
  d = _ws_breakdown_collect (sample ("vector-add-streams"), &base);
  g_assert_cmpstr (d->common, ==, "every run: n = 100,000,000 · 256 threads");
  g_assert_cmpstr (breakdown_row (d, 4)->label, ==, "run 4 · streams:2");
  for (int run = 1; run <= 6; run++)
    g_assert_true ((breakdown_row (d, run)->overlap > 0) == (run >= 4));
  g_assert_nonnull (strstr (breakdown_row (d, 6)->right, " · overlap 1%"));
  g_assert_nonnull (strstr (d->widest, "overlap"));
  _ws_breakdown_data_free (d);
}

static void
test_breakdown_edges (void)
{
  WsChartBase base = base_for (WS_CHART_BREAKDOWN);
  WsBreakdownData *d = _ws_breakdown_collect (NULL, &base);

  /* Nothing to break down: a sentence. */
  g_assert_nonnull (d->frame.message);
  g_assert_cmpuint (d->rows->len, ==, 0);
  _ws_breakdown_data_free (d);

  /* One run picked: its row alone. */
  base.run = 5;
  d = _ws_breakdown_collect (sample ("vector-add-sizes"), &base);
  g_assert_cmpuint (d->rows->len, ==, 1);
  g_assert_cmpint (g_array_index (d->rows, WsBreakdownRow, 0).run, ==, 5);
  _ws_breakdown_data_free (d);

  /* Thirteen thousand runs: the rows a chart could ever show, and a count of the rest. */
  base.run = 0;
  d = _ws_breakdown_collect (many_runs (), &base);
  g_assert_cmpuint (d->n_runs, ==, 12996);
  g_assert_cmpuint (d->rows->len, ==, WS_BREAKDOWN_MAX_ROWS);
  _ws_breakdown_data_free (d);

  /* Presentation mode: the findings about the runs, each said once, the worst first. */
  base.annotate = TRUE;
  d = _ws_breakdown_collect (sample ("vector-add-sizes"), &base);
  g_assert_nonnull (d->frame.notes);
  g_assert_cmpuint (d->frame.notes->len, >=, 1);
  g_assert_cmpuint (d->frame.notes->len, <=, 3);
  for (guint i = 0; i < d->frame.notes->len; i++)
    for (guint j = i + 1; j < d->frame.notes->len; j++)
      g_assert_cmpstr (((WsChartNote *) g_ptr_array_index (d->frame.notes, i))->title, !=,
                       ((WsChartNote *) g_ptr_array_index (d->frame.notes, j))->title);
  _ws_breakdown_data_free (d);
}

/* ---- speedup ---------------------------------------------------------------------------- */

static const WsSpeedupSeries *
speedup_series (const WsSpeedupData *d, const char *label)
{
  for (guint i = 0; i < d->series->len; i++)
    if (g_str_equal (((WsSpeedupSeries *) g_ptr_array_index (d->series, i))->label, label))
      return g_ptr_array_index (d->series, i);
  g_error ("no series %s", label);
}

static void
test_speedup (void)
{
  g_autoptr (GPtrArray) sessions = one (sample ("vector-add-sizes"));
  WsChartBase base = base_for (WS_CHART_SPEEDUP);
  WsSpeedupData *d = _ws_speedup_collect (sessions, &base);
  const WsSpeedupSeries *pageable, *pinned;
  static const char *const legend[] = { "vector_add 256, pageable", "vector_add 256, pinned",
                                        "kernel only", "end to end, with copies",
                                        "vs 1 CPU thread", "vs 16 CPU cores" };

  g_assert_null (d->frame.message);
  g_assert_cmpstr (d->frame.title, ==, "Speedup over the CPU · vector_add");
  g_assert_cmpstr (d->frame.subtitle, ==, "NVIDIA H200 · recorded 2026-11-29");
  g_assert_true (d->any);
  g_assert_cmpint (d->cpu_threads, ==, 16);
  /* Two series, pageable and pinned, each with a point at every size for every baseline. */
  g_assert_cmpuint (d->series->len, ==, 2);
  pageable = speedup_series (d, "vector_add 256, pageable");
  pinned = speedup_series (d, "vector_add 256, pinned");
  for (int c = 0; c < WS_SPEEDUP_N_COMBOS; c++)
    {
      g_assert_cmpuint (pageable->points[c]->len, ==, 6);
      g_assert_cmpuint (pinned->points[c]->len, ==, 6);
      g_assert_cmpuint (pinned->curve[c]->len, ==, 6);
      for (guint i = 0; i < 6; i++)
        {
          const WsSpeedupPoint *p = &g_array_index (pinned->points[c], WsSpeedupPoint, i);
          WsRun *run = ws_session_find_run (sample ("vector-add-sizes"), p->run);

          g_assert_cmpfloat (p->size, ==, pow (10, 3 + i));
          g_assert_cmpfloat (p->value, ==, ws_run_get_speedup (run, c & WS_SPEEDUP_ALL_CORES,
                                                               c & WS_SPEEDUP_END_TO_END));
          g_assert_cmpfloat (p->lo, <=, p->value);
          g_assert_cmpfloat (p->hi, >=, p->value);
          /* One run per size: the line goes through the points. */
          g_assert_cmpfloat (g_array_index (pinned->curve[c], WsSpeedupVertex, i).value, ==,
                             p->value);
        }
    }
  /* The kernel alone beats one CPU thread from about 6,000 elements; with its copies, pinned
   * memory needs about 95,000 and pageable never gets there. */
  g_assert_cmpfloat_with_epsilon (pageable->crossover[0], 6078, 1);
  g_assert_cmpstr (pageable->crossover_text[0], ==,
                   "GPU faster above n ≈ 6.1 K (kernel only, vs 1 thread)");
  g_assert_cmpfloat_with_epsilon (pinned->crossover[WS_SPEEDUP_END_TO_END], 94717, 1);
  g_assert_cmpfloat (pageable->crossover[WS_SPEEDUP_END_TO_END], ==, 0);
  g_assert_null (pageable->crossover_text[WS_SPEEDUP_END_TO_END]);
  /* Log axes: 10³ to 10⁸ elements and a tick at each, widened by 6% of their decades. */
  g_assert_cmpint (d->x.kind, ==, WS_SCALE_LOG);
  g_assert_cmpfloat_with_epsilon (log10 (d->x.lo), 3 - 0.3, 1e-9);
  g_assert_cmpfloat_with_epsilon (log10 (d->x.hi), 8 + 0.3, 1e-9);
  g_assert_cmpuint (d->x_ticks->len, ==, 6);
  g_assert_cmpstr (d->x_title, ==, "Problem size n (elements; log scale)");
  g_assert_cmpfloat (d->y.lo, <, 0.01);
  g_assert_cmpfloat (d->y.hi, >, 500);
  g_assert_cmpuint (d->legend.items->len, ==, G_N_ELEMENTS (legend));
  for (guint i = 0; i < G_N_ELEMENTS (legend); i++)
    g_assert_cmpstr (g_array_index (d->legend.items, WsLegendItem, i).label, ==, legend[i]);
  _ws_speedup_data_free (d);
}

/* A run picked in the table kept only its own curve, and the other went without a word: now
 * both stay, the picked run's curve in its colour and the other pale, the subtitle says so,
 * and the run is ringed (drawn: a ring of the foreground at its points). */
static void
test_speedup_picked (void)
{
  g_autoptr (GPtrArray) sessions = one (sample ("vector-add-sizes"));
  WsChartBase base = base_for (WS_CHART_SPEEDUP);
  const WsSpeedupSeries *pageable, *pinned;
  WsSpeedupData *d;

  base.run = 5; /* vector_add, n = 10⁷, pageable */
  d = _ws_speedup_collect (sessions, &base);
  g_assert_cmpuint (d->series->len, ==, 2);
  pageable = speedup_series (d, "vector_add 256, pageable");
  pinned = speedup_series (d, "vector_add 256, pinned");
  g_assert_false (pageable->pale);
  g_assert_true (pinned->pale);
  g_assert_true (memcmp (&pageable->color, &base.theme->series[0], sizeof (WsColor)) == 0);
  g_assert_false (memcmp (&pinned->color, &base.theme->series[1], sizeof (WsColor)) == 0);
  g_assert_cmpstr (d->frame.subtitle, ==,
                   "NVIDIA H200 · recorded 2026-11-29 · run 5 ringed, other curves pale");
  _ws_speedup_data_free (d);

  /* No run picked: nothing pale, nothing said. */
  base.run = 0;
  d = _ws_speedup_collect (sessions, &base);
  for (guint i = 0; i < d->series->len; i++)
    g_assert_false (((WsSpeedupSeries *) g_ptr_array_index (d->series, i))->pale);
  g_assert_cmpstr (d->frame.subtitle, ==, "NVIDIA H200 · recorded 2026-11-29");
  _ws_speedup_data_free (d);
}

static void
test_speedup_edges (void)
{
  WsChartBase base = base_for (WS_CHART_SPEEDUP);
  g_autoptr (GPtrArray) two = g_ptr_array_new ();
  g_autoptr (GPtrArray) blocks = one (sample ("vector-add-blocks"));
  g_autoptr (GPtrArray) many = one (many_runs ());
  WsSpeedupData *d;

  /* What the table says each kind needs, against what the recordings have. */
  g_assert_true (_ws_chart_needs_met (WS_CHART_SPEEDUP, sample ("vector-add-sizes")));
  g_assert_false (_ws_chart_needs_met (WS_CHART_SPEEDUP, sample ("vector-add-blocks")));
  g_assert_true (_ws_chart_needs_met (WS_CHART_BLOCKS, sample ("vector-add-blocks")));
  g_assert_false (_ws_chart_needs_met (WS_CHART_BLOCKS, sample ("vector-add-sizes")));
  g_assert_true (_ws_chart_needs_met (WS_CHART_ROOFLINE, sample ("transpose-ladder")));
  /* A block sweep has no sizes to compare: a sentence. */
  d = _ws_speedup_collect (blocks, &base);
  g_assert_nonnull (strstr (d->frame.message, "No size sweep"));
  g_assert_cmpuint (d->series->len, ==, 0);
  _ws_speedup_data_free (d);

  /* A size sweep without a CPU baseline (the reduction ladder): the sentence says so on a
   * plot without the line at 1× and its sides, which would strike through it. */
  {
    g_autoptr (GPtrArray) ladder = one (sample ("reduce-ladder"));
    g_autoptr (GBytes) svg = NULL;
    g_autofree char *text = NULL;
    WsChartOptions options;

    d = _ws_speedup_collect (ladder, &base);
    g_assert_false (d->any);
    _ws_speedup_data_free (d);
    ws_chart_options_init (&options, WS_CHART_SPEEDUP, NULL, 1600, 900);
    svg = render (ladder, &options, WS_EXPORT_SVG, 1);
    text = svg_text_content (svg);
    g_assert_nonnull (strstr (text, "no CPU baseline to compare with"));
    g_assert_null (strstr (text, "GPU faster"));
    g_assert_null (strstr (text, "CPU faster"));
    /* An export of it is refused with the same words, saying what to run, in the words of
     * who reads them. */
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GPtrArray) sizes = one (sample ("vector-add-sizes"));

      g_assert_false (ws_chart_check (ladder, &options, &error));
      g_assert_nonnull (strstr (error->message, "no CPU baseline to compare with: run with "
                                                "--cpu 1,all"));
      g_clear_error (&error);
      options.audience = WS_AUDIENCE_APP;
      g_assert_false (ws_chart_check (ladder, &options, &error));
      g_assert_nonnull (strstr (error->message, "in the sidebar"));
      g_clear_error (&error);
      /* With a baseline the same chart passes. */
      g_assert_true (ws_chart_check (sizes, &options, &error));
      g_assert_no_error (error);
    }
  }

  /* Two recordings: a series per session, named by GPU; one colour each. */
  g_ptr_array_add (two, sample ("vector-add-sizes"));
  g_ptr_array_add (two, sample ("matmul-sizes"));
  d = _ws_speedup_collect (two, &base);
  g_assert_cmpstr (d->frame.subtitle, ==, "NVIDIA H200 vs NVIDIA H200");
  g_assert_cmpuint (d->series->len, ==, 4);
  g_assert_cmpuint (speedup_series (d, "NVIDIA H200 · matmul_tiled 16×16, pageable")->session,
                    ==, 1);
  for (guint i = 0; i < d->series->len; i++)
    for (guint j = i + 1; j < d->series->len; j++)
      g_assert_false (memcmp (&((WsSpeedupSeries *) g_ptr_array_index (d->series, i))->color,
                              &((WsSpeedupSeries *) g_ptr_array_index (d->series, j))->color,
                              sizeof (WsColor))
                      == 0);
  _ws_speedup_data_free (d);

  /* Each size measured 1,083 times: a point per run, a vertex per size. */
  d = _ws_speedup_collect (many, &base);
  g_assert_cmpuint (d->series->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      const WsSpeedupSeries *s = g_ptr_array_index (d->series, i);

      g_assert_cmpuint (s->points[0]->len, ==, 6 * 1083);
      g_assert_cmpuint (s->curve[0]->len, ==, 6);
    }
  _ws_speedup_data_free (d);
}

/* ---- block size ------------------------------------------------------------------------- */

static const WsBlocksPoint *
blocks_point (const WsBlocksSeries *s, int run)
{
  for (guint i = 0; i < s->points->len; i++)
    if (g_array_index (s->points, WsBlocksPoint, i).run == run)
      return &g_array_index (s->points, WsBlocksPoint, i);
  g_error ("no point for run %d", run);
}

static void
test_blocks (void)
{
  g_autoptr (GPtrArray) sessions = one (sample ("vector-add-blocks"));
  WsChartBase base = base_for (WS_CHART_BLOCKS);
  WsBlocksData *d = _ws_blocks_collect (sessions, &base);
  const WsBlocksSeries *s;
  guint tied = 0;
  static const char *const legend[] = {
    "kernel time", "median (band: min–max of the launches)",
    "theoretical occupancy (right axis)", "under-occupied: the darker, the lower", "fastest",
    "tied with the fastest (within its min–max)",
  };

  g_assert_null (d->frame.message);
  g_assert_null (d->heatmap);
  g_assert_cmpstr (d->frame.title, ==, "Block size · vector_add, n = 10,000,000, pageable");
  g_assert_cmpuint (d->series->len, ==, 1);
  g_assert_cmpuint (d->n_main, ==, 1);
  s = g_ptr_array_index (d->series, 0);
  /* 32 block sizes, 32 to 1024 threads: the spread as a band; 256 threads is fastest, four
   * more lie within its spread. */
  g_assert_cmpuint (s->points->len, ==, 32);
  g_assert_cmpuint (s->curve->len, ==, 32);
  g_assert_true (s->band);
  g_assert_cmpint (s->best, ==, 8);
  g_assert_cmpfloat (blocks_point (s, 8)->tpb, ==, 256);
  g_assert_true (blocks_point (s, 8)->best);
  g_assert_cmpuint (s->n_tied, ==, 5);
  for (guint i = 0; i < s->points->len; i++)
    tied += g_array_index (s->points, WsBlocksPoint, i).tied;
  g_assert_cmpuint (tied, ==, 5);
  g_assert_cmpstr (s->best_text, ==, "fastest: 256 threads, 37.5 µs (4 more within its spread)");
  /* Each point is its run's numbers. */
  for (guint i = 0; i < s->points->len; i++)
    {
      const WsBlocksPoint *p = &g_array_index (s->points, WsBlocksPoint, i);
      WsRun *run = ws_session_find_run (sample ("vector-add-blocks"), p->run);

      g_assert_cmpfloat (p->value, ==, ws_run_get_kernel_ns (run));
      g_assert_cmpfloat (p->lo, ==, ws_run_get_timing (run)->kernel.min);
      g_assert_cmpfloat (p->occupancy, ==, ws_run_get_launch (run)->occupancy);
    }
  /* 32 threads a block: half the warps an SM holds, below the threshold, shaded. */
  g_assert_cmpfloat (blocks_point (s, 1)->occupancy, ==, 0.5);
  g_assert_cmpfloat (d->threshold, ==, 1);
  /* A fine sweep on a linear axis in steps of 128 threads; time in µs from 0. */
  g_assert_cmpint (d->x.kind, ==, WS_SCALE_LINEAR);
  g_assert_cmpfloat (d->x.lo, ==, 0);
  g_assert_cmpfloat_with_epsilon (d->x.hi, 1024 + 128 / 3.0, 1e-9);
  g_assert_cmpuint (d->x_ticks->len, ==, 9);
  g_assert_cmpstr (d->x_title, ==, "Threads per block");
  g_assert_cmpint (d->y.kind, ==, WS_SCALE_LINEAR);
  g_assert_cmpfloat (d->y.lo, ==, 0);
  g_assert_cmpfloat_with_epsilon (d->y.hi, blocks_point (s, 1)->hi * 1.08, 1e-6);
  g_assert_cmpstr (d->y_title, ==, "Kernel time (µs)");
  g_assert_cmpuint (d->legend.items->len, ==, G_N_ELEMENTS (legend));
  for (guint i = 0; i < G_N_ELEMENTS (legend); i++)
    g_assert_cmpstr (g_array_index (d->legend.items, WsLegendItem, i).label, ==, legend[i]);
  _ws_blocks_data_free (d);
}

/* The under-occupied shade is centred on the configuration it marks, at an end of the sweep
 * too: 32 threads, the first of 32, 64 … 1024, reaches as far left of its grid line as right. */
static void
test_blocks_shade_centred (void)
{
  g_autoptr (GPtrArray) sessions = one (sample ("own-kernel-tuner-vector-add"));
  const WsTheme *theme = ws_theme_get (WS_THEME_LIGHT);
  WsColor shade = _ws_blocks_shade (theme, 0.5);
  WsChartOptions options;
  g_autoptr (GBytes) png = NULL;
  cairo_surface_t *image;
  int first = -1, last = -1, y;
  double line = 0;
  guint line_columns = 0;

  ws_chart_options_init (&options, WS_CHART_BLOCKS, theme, 1600, 900);
  png = render (sessions, &options, WS_EXPORT_PNG, 1);
  image = decode_png (png);
  cairo_surface_flush (image);
  /* A row low in the plot, under the kernel's line: only the shade and the grid there. */
  y = (int) (0.88 * 900);
  for (int x = 0; x < 1600; x++)
    if (pixel_is (image, x, y, &shade))
      {
        if (first < 0)
          first = x;
        last = x;
      }
  g_assert_cmpint (first, >, 0);
  g_assert_cmpint (last - first, >, 40);
  /* The grid line of 32 runs through the shade: its columns are not the shade's colour. */
  for (int x = first; x <= last; x++)
    if (!pixel_is (image, x, y, &shade))
      {
        line += x;
        line_columns++;
      }
  g_assert_cmpuint (line_columns, >, 0);
  g_assert_cmpuint (line_columns, <=, 3);
  line /= line_columns;
  g_assert_cmpfloat (fabs ((first + last) / 2.0 - line), <=, 1.5);
  cairo_surface_destroy (image);
}

static void
test_blocks_kernels (void)
{
  g_autoptr (GPtrArray) sessions = one (sample ("matmul-ladder"));
  WsChartBase base = base_for (WS_CHART_BLOCKS);
  WsBlocksData *d = _ws_blocks_collect (sessions, &base);

  /* Two kernels at three square blocks: a log axis with a tick at each, shapes named. */
  g_assert_cmpstr (d->frame.title, ==,
                   "Block size · matmul_naive vs matmul_tiled, 4096³, pinned");
  g_assert_cmpuint (d->n_main, ==, 2);
  g_assert_cmpint (d->x.kind, ==, WS_SCALE_LOG);
  g_assert_cmpuint (d->x_ticks->len, ==, 3);
  g_assert_cmpstr (d->x_title, ==, "Threads per block (block shape)");
  g_assert_cmpstr (g_hash_table_lookup (d->shapes, GINT_TO_POINTER (256)), ==, "16×16");
  for (guint i = 0; i < 2; i++)
    {
      const WsBlocksSeries *s = g_ptr_array_index (d->series, i);

      g_assert_false (s->band);
      g_assert_cmpuint (s->n_tied, ==, 1);
      g_assert_cmpfloat (blocks_point (s, s->best)->tpb, ==, 1024);
      g_assert_true (g_str_has_prefix (s->best_text, s->kernel));
    }
  _ws_blocks_data_free (d);
}

static void
test_heatmap (void)
{
  g_autoptr (GPtrArray) sessions = one (sample ("matmul-naive-blocks"));
  WsChartBase base = base_for (WS_CHART_BLOCKS);
  WsBlocksData *d = _ws_blocks_collect (sessions, &base);
  const WsHeatmapData *h = d->heatmap;
  guint measured = 0, too_big = 0, best = 0;

  /* 19 shapes of 4 to 64 threads wide and 4 to 32 high: a grid of 5 × 4. */
  g_assert_nonnull (h);
  g_assert_cmpuint (h->xs->len, ==, 5);
  g_assert_cmpuint (h->ys->len, ==, 4);
  g_assert_cmpuint (h->cells->len, ==, 20);
  for (guint i = 0; i < h->cells->len; i++)
    {
      const WsHeatmapCell *c = &g_array_index (h->cells, WsHeatmapCell, i);

      measured += c->state == WS_CELL_MEASURED;
      best += c->best;
      if (c->state == WS_CELL_TOO_BIG)
        {
          too_big++;
          /* 64 × 32 threads is more than the H200's 1024 a block. */
          g_assert_cmpuint (c->bx * c->by, >, 1024);
          g_assert_cmpstr (c->why, ==, "2048 threads > 1024");
        }
      if (c->state == WS_CELL_MEASURED)
        {
          g_assert_cmpfloat (c->shade, >=, 0);
          g_assert_cmpfloat (c->shade, <=, 1);
        }
    }
  g_assert_cmpuint (measured, ==, 19);
  g_assert_cmpuint (too_big, ==, 1);
  g_assert_cmpuint (best, ==, 1);
  /* The fastest, 32 × 4, at the light end of the scale. */
  {
    const WsHeatmapCell *c = &g_array_index (h->cells, WsHeatmapCell, 3 * 4 + 0);

    g_assert_cmpuint (c->bx, ==, 32);
    g_assert_cmpuint (c->by, ==, 4);
    g_assert_true (c->best);
    g_assert_cmpfloat (c->shade, ==, 0);
    g_assert_cmpstr (c->time, ==, h->fast);
  }
  _ws_blocks_data_free (d);

  /* A size sweep has no block sweep: a sentence. */
  {
    g_autoptr (GPtrArray) sizes = one (sample ("vector-add-sizes"));

    d = _ws_blocks_collect (sizes, &base);
    g_assert_nonnull (strstr (d->frame.message, "No block-size sweep"));
    _ws_blocks_data_free (d);
  }
  /* The same block measured a thousand times over: one vertex, a point per run. */
  {
    g_autoptr (GPtrArray) many = one (many_runs ());
    const WsBlocksSeries *s;

    d = _ws_blocks_collect (many, &base);
    s = g_ptr_array_index (d->series, 0);
    g_assert_cmpuint (s->points->len, ==, 1083);
    g_assert_cmpuint (s->curve->len, ==, 1);
    _ws_blocks_data_free (d);
  }
}

/* ---- roofline --------------------------------------------------------------------------- */

static void
test_roofline (void)
{
  WsSession *session = sample ("vector-add-sizes");
  g_autoptr (GPtrArray) sessions = one (session);
  WsChartBase base = base_for (WS_CHART_ROOFLINE);
  WsRooflineData *d = _ws_roofline_collect (sessions, &base);
  double ridge;
  guint labelled = 0;

  g_assert_null (d->frame.message);
  g_assert_null (d->bars);
  g_assert_cmpstr (d->frame.title, ==, "Roofline · vector_add");
  /* The H200's measured copy bandwidth and FP32 peak are the ceilings. */
  g_assert_cmpfloat_with_epsilon (d->bandwidth, 4189.28, 0.01);
  g_assert_cmpfloat_with_epsilon (d->peak, 66908.16, 0.01);
  g_assert_cmpstr (d->memory_text, ==, "memory: 4189 GB/s (measured copy)");
  g_assert_cmpstr (d->peak_text, ==, "FP32 peak: 66,900 GFLOP/s");
  g_assert_cmpfloat (d->cublas, ==, 0);
  /* A point per run, all at 1 FLOP per 12 bytes, each at its own rate. */
  g_assert_cmpuint (d->points->len, ==, 12);
  for (guint i = 0; i < d->points->len; i++)
    {
      const WsRooflinePoint *p = &g_array_index (d->points, WsRooflinePoint, i);
      WsRun *run = ws_session_find_run (session, p->run);

      g_assert_cmpfloat_with_epsilon (p->intensity, 1 / 12.0, 1e-12);
      g_assert_cmpfloat (p->gflops, ==, ws_run_get_config (run)->flops
                                            / ws_run_get_kernel_ns (run));
      labelled += p->size != NULL;
    }
  /* Sizes share the intensity: each size is written once, beside the first of its points. */
  g_assert_cmpuint (labelled, ==, 6);
  g_assert_cmpstr (g_array_index (d->points, WsRooflinePoint, 0).size, ==, "n = 1 K");
  g_assert_cmpuint (d->best->len, ==, 1);
  g_assert_cmpstr (g_array_index (d->best, WsRooflineBest, 0).text, ==,
                   "fastest vector_add: 286 GFLOP/s at n = 100,000,000, 82% of its roof");
  /* The axes reach the ridge point and beyond, and the peak. */
  ridge = d->peak / d->bandwidth;
  g_assert_cmpfloat (d->x.lo, <, ridge / 30);
  g_assert_cmpfloat (d->x.hi, >, ridge * 4);
  g_assert_cmpfloat (d->y.hi, >, d->peak);
  g_assert_cmpfloat (d->y.lo, <, 0.398);
  _ws_roofline_data_free (d);
}

static void
test_roofline_others (void)
{
  WsChartBase base = base_for (WS_CHART_ROOFLINE);
  g_autoptr (GPtrArray) ladder = one (sample ("matmul-ladder"));
  g_autoptr (GPtrArray) transpose = one (sample ("transpose-ladder"));
  WsRooflineData *d;

  /* cuBLAS is a ceiling, not a point; three hand-written kernels, each with its fastest. */
  d = _ws_roofline_collect (ladder, &base);
  g_assert_cmpfloat (d->cublas, >, 50000);
  g_assert_cmpuint (d->kernels->len, ==, 3);
  for (guint i = 0; i < d->kernels->len; i++)
    g_assert_cmpstr (g_ptr_array_index (d->kernels, i), !=, "matmul_cublas");
  g_assert_cmpuint (d->best->len, ==, 3);
  g_assert_nonnull (strstr (d->cublas_text, "cuBLAS SGEMM (its best size): 51,400 GFLOP/s"));
  g_assert_cmpfloat (d->y.hi, >, d->cublas);
  _ws_roofline_data_free (d);

  /* A transpose does no arithmetic: a bar per kernel and size against the bandwidth. */
  d = _ws_roofline_collect (transpose, &base);
  g_assert_nonnull (d->bars);
  g_assert_cmpuint (d->bars->len, ==, 6);
  g_assert_cmpuint (d->points->len, ==, 0);
  g_assert_cmpstr (d->bandwidth_text, ==, "measured copy bandwidth: 4206 GB/s");
  for (guint i = 0; i < d->bars->len; i++)
    {
      const WsRooflineBar *b = &g_array_index (d->bars, WsRooflineBar, i);
      WsRun *run = ws_session_find_run (sample ("transpose-ladder"), b->run);

      g_assert_cmpfloat (b->gbs, ==, ws_run_get_config (run)->bytes / ws_run_get_kernel_ns (run));
      g_assert_nonnull (strstr (b->value, "% of the copy bandwidth"));
    }
  g_assert_cmpstr (g_array_index (d->bars, WsRooflineBar, 4).label, ==,
                   "transpose_padded, 8192²");
  g_assert_cmpfloat_with_epsilon (d->bar_x.hi, d->bandwidth * 1.08, 1e-6);
  _ws_roofline_data_free (d);
}

/* ---- occupancy -------------------------------------------------------------------------- */

static const WsOccupancyPoint *
point_at (const WsOccupancyCurve *c, double x)
{
  for (guint i = 0; i < c->points->len; i++)
    if (g_array_index (c->points, WsOccupancyPoint, i).x == x)
      return &g_array_index (c->points, WsOccupancyPoint, i);
  return NULL;
}

static void
test_occupancy (void)
{
  WsChartBase base = base_for (WS_CHART_OCCUPANCY);
  WsOccupancyOptions options = { NULL };
  WsOccupancyData *d;

  /* vector-add-blocks' run 1: 32 threads a block, 32 blocks an SM at the most: half the warps. */
  base.run = 1;
  d = _ws_occupancy_collect (sample ("vector-add-blocks"), &base, &options);
  g_assert_null (d->frame.message);
  g_assert_cmpstr (d->frame.title, ==, "Occupancy 50%: 32 of 64 warps per SM, sm_90 (Hopper)");
  g_assert_cmpint (d->run, ==, 1);
  g_assert_cmpint (d->input.threads_per_block, ==, 32);
  g_assert_cmpint (d->result.limiter, ==, WS_LIMITER_BLOCKS);
  /* Every multiple of a warp up to 1024 threads; 1 to 255 registers; shared memory in
   * allocation units up to the opt-in maximum (227 KiB). */
  g_assert_cmpuint (d->curves[WS_PANEL_BLOCK].points->len, ==, 32);
  g_assert_cmpuint (d->curves[WS_PANEL_REGISTERS].points->len, ==, 255);
  g_assert_cmpfloat (d->curves[WS_PANEL_SMEM].x.hi, ==, 232448);
  g_assert_true (d->curves[WS_PANEL_BLOCK].limiting);
  g_assert_false (d->curves[WS_PANEL_REGISTERS].limiting);
  g_assert_cmpstr (d->curves[WS_PANEL_BLOCK].heading, ==, "Threads per block: the limit");
  g_assert_cmpstr (d->curves[WS_PANEL_BLOCK].current_text, ==, "32 → 50%");
  for (int p = 0; p < WS_N_PANELS; p++)
    {
      const WsOccupancyCurve *c = &d->curves[p];
      const WsOccupancyPoint *at = point_at (c, c->current);

      /* The mark sits on its curve. */
      g_assert_nonnull (at);
      g_assert_cmpfloat (at->occupancy, ==, d->result.occupancy);
      g_assert_cmpfloat (c->x.lo, ==, 0);
      g_assert_cmpuint (c->x_ticks->len, >=, 3);
      g_assert_cmpuint (c->x_ticks->len, <=, 7);
    }
  /* A block of 64 threads doubles the warps: full occupancy. */
  g_assert_cmpfloat (point_at (&d->curves[WS_PANEL_BLOCK], 64)->occupancy, ==, 1);
  _ws_occupancy_data_free (d);

  /* What the options say wins over the run's launch. */
  options.block_size = 1024;
  options.registers = 64;
  d = _ws_occupancy_collect (sample ("vector-add-blocks"), &base, &options);
  g_assert_cmpint (d->input.threads_per_block, ==, 1024);
  g_assert_cmpint (d->result.limiter, ==, WS_LIMITER_REGISTERS);
  g_assert_true (d->curves[WS_PANEL_REGISTERS].limiting);
  _ws_occupancy_data_free (d);

  /* An architecture the calculator does not know: a sentence naming it. */
  options.arch = "sm_1";
  d = _ws_occupancy_collect (NULL, &base, &options);
  g_assert_nonnull (strstr (d->frame.message, "“sm_1”"));
  g_assert_null (d->curves[WS_PANEL_BLOCK].points);
  _ws_occupancy_data_free (d);
}

/* A traced program swept over TPB (warpscope-cli trace --sweep): its kernel at each run's
 * block, fastest at 256 as the recording on the H200 has it, occupancy from its registers;
 * one block size alone (the vector add traced once) is no sweep. */
static void
test_blocks_trace (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_SAMPLES_DIR"),
                                            "trace-vector-add-tpb-sweep-h200.jsonl", NULL);
  g_autofree char *once = g_build_filename (g_getenv ("WS_SAMPLES_DIR"),
                                            "trace-vector-add-h200.jsonl", NULL);
  g_autoptr (WsSession) session = load_path (path);
  g_autoptr (WsSession) single = load_path (once);
  g_autoptr (GPtrArray) sessions = one (session);
  g_autoptr (GPtrArray) singles = one (single);
  WsChartBase base = base_for (WS_CHART_BLOCKS);
  WsBlocksData *d = _ws_blocks_collect (sessions, &base);
  const WsBlocksSeries *s;
  const double tpbs[] = { 32, 64, 128, 256, 512, 1024 };
  WsChartOptions options;
  g_autoptr (GError) error = NULL;

  g_assert_true (_ws_chart_needs_met (WS_CHART_BLOCKS, session));
  g_assert_false (_ws_chart_needs_met (WS_CHART_BLOCKS, single));
  g_assert_null (d->frame.message);
  g_assert_cmpstr (d->frame.title, ==, "Block size · add_kernel, a traced program's sweep");
  g_assert_cmpuint (d->series->len, ==, 1);
  s = g_ptr_array_index (d->series, 0);
  g_assert_cmpuint (s->points->len, ==, G_N_ELEMENTS (tpbs));
  for (guint i = 0; i < G_N_ELEMENTS (tpbs); i++)
    {
      const WsBlocksPoint *p = &g_array_index (s->points, WsBlocksPoint, i);

      g_assert_cmpfloat (p->tpb, ==, tpbs[i]);
      g_assert_cmpfloat (p->value, >, 0);
      g_assert_false (isnan (p->occupancy));
      g_assert_cmpint (p->best, ==, tpbs[i] == 256);
    }
  /* 32 threads: the 32-blocks-per-SM limit halves the occupancy. */
  g_assert_cmpfloat (g_array_index (s->points, WsBlocksPoint, 0).occupancy, ==, 0.5);
  g_assert_cmpint (s->best, ==, 4);
  g_assert_cmpstr (s->best_text, ==, "fastest: block 256 (TPB=256), 36.7 µs");
  _ws_blocks_data_free (d);
  d = _ws_blocks_collect (singles, &base);
  g_assert_nonnull (d->frame.message);
  _ws_blocks_data_free (d);
  /* An export takes the sweep and refuses the single trace. */
  ws_chart_options_init (&options, WS_CHART_BLOCKS, NULL, 720, 420);
  g_assert_true (ws_chart_check (sessions, &options, &error));
  g_assert_no_error (error);
  g_assert_false (ws_chart_check (singles, &options, &error));
  g_assert_nonnull (error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  load_samples ();

  g_test_add_func ("/charts/breakdown", test_breakdown);
  g_test_add_func ("/charts/breakdown/edges", test_breakdown_edges);
  g_test_add_func ("/charts/occupancy", test_occupancy);
  g_test_add_func ("/charts/roofline", test_roofline);
  g_test_add_func ("/charts/roofline/others", test_roofline_others);
  g_test_add_func ("/charts/blocks", test_blocks);
  g_test_add_func ("/charts/blocks/kernels", test_blocks_kernels);
  g_test_add_func ("/charts/blocks/shade-centred", test_blocks_shade_centred);
  g_test_add_func ("/charts/blocks/heatmap", test_heatmap);
  g_test_add_func ("/charts/blocks/trace", test_blocks_trace);
  g_test_add_func ("/charts/speedup", test_speedup);
  g_test_add_func ("/charts/speedup/edges", test_speedup_edges);
  g_test_add_func ("/charts/speedup/picked", test_speedup_picked);
  return g_test_run ();
}

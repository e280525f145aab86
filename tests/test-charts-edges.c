/* test-charts-edges.c: charts at the edges: every kind at every size from 1 × 1 up in every
 * format, and sessions with numbers no GPU measures (huge, negative and zero durations, sizes
 * of 1 and 2⁶⁴−1, NaN rates), built in the test.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "test-charts-util.h"

/* ---- sizes ------------------------------------------------------------------------------ */

/* Sides from a pixel up to a small page: every height below 200 where a title, a legend, an
 * axis and rows start to compete, then a few larger ones. */
static const double sides[] = { 1,  2,  3,  4,  5,  6,  8,  10, 12, 14, 16, 20, 24, 28, 32,
                                40, 48, 56, 64, 72, 80, 90, 100, 110, 120, 130, 140, 150,
                                160, 170, 180, 190, 200, 240, 300, 420 };

static void
render_sizes (WsSession *session, WsChartKind kind, WsExportFormat format)
{
  g_autoptr (GPtrArray) sessions = one (session);

  for (guint i = 0; i < G_N_ELEMENTS (sides); i++)
    for (guint axis = 0; axis < 3; axis++)
      {
        /* A side against the CLI's default page (720 × 420), and square. */
        double w = axis == 0 ? sides[i] : axis == 1 ? 720 : sides[i];
        double h = axis == 0 ? 420 : sides[i];
        WsChartOptions options;
        g_autoptr (GBytes) bytes = NULL;

        ws_chart_options_init (&options, kind, NULL, w, h);
        options.annotate = i % 2 == 1;
        bytes = render (sessions, &options, format, 1);
        g_assert_cmpuint (g_bytes_get_size (bytes), >, 0);
      }
}

static void
test_sizes (gconstpointer data)
{
  WsSession *session = g_ptr_array_index (samples, GPOINTER_TO_UINT (data));

  for (int k = 0; k < WS_N_CHARTS; k++)
    for (int f = WS_EXPORT_PNG; f <= WS_EXPORT_PDF; f++)
      render_sizes (session, (WsChartKind) k, (WsExportFormat) f);
}

/* The breakdown chart below 190 points high had room for no row: it counted "all but one"
 * of no rows, wrapped round to four billion and read past its runs. */
static void
test_breakdown_short (void)
{
  g_autoptr (GPtrArray) sessions = one (sample ("vector-add-sizes"));

  for (double h = 1; h <= 200; h += 1)
    {
      WsChartOptions options;
      g_autoptr (GBytes) png = NULL;

      ws_chart_options_init (&options, WS_CHART_BREAKDOWN, NULL, 720, h);
      png = render (sessions, &options, WS_EXPORT_PNG, 1);
      g_assert_cmpuint (g_bytes_get_size (png), >, 0);
    }
}

/* ---- numbers no GPU measures ------------------------------------------------------------ */

#define I64_MIN "-9223372036854775808"
#define I64_MAX "9223372036854775807"
#define U64_MAX "18446744073709551615"

/* One line of a hand-built session, with printf's formats. */
G_GNUC_PRINTF (2, 3) static void
feed (WsSession *session, const char *format, ...)
{
  va_list args;
  g_autofree char *line = NULL;

  va_start (args, format);
  line = g_strdup_vprintf (format, args);
  va_end (args);
  ws_session_feed_line (session, line, -1, NULL);
}

static void
feed_run (WsSession *session, int id, const char *size, const char *block, const char *timing)
{
  feed (session,
        "{\"type\":\"run\",\"id\":%d,\"kernel\":\"k\",\"shape\":[%s],\"size\":%s,"
        "\"block\":[%s],\"grid\":[1,1,1],\"transfer\":\"pinned\",\"reps\":3,"
        "\"flops\":%s,\"bytes\":%s}",
        id, size, size, block, id % 2 ? "1e308" : "0", id % 3 ? size : "0");
  feed (session,
        "{\"type\":\"launch\",\"run\":%d,\"registers\":%s,\"static_smem\":%s,"
        "\"threads_per_block\":%s,\"occupancy\":%s,\"limiter\":\"registers\",\"blocks\":%s,"
        "\"waves\":%s}",
        id, id % 2 ? "255" : "0", id % 2 ? I64_MAX : "0", id % 2 ? "1" : I64_MAX,
        id % 3 == 0 ? "0" : id % 3 == 1 ? "1e300" : "-1", U64_MAX, id % 2 ? "1e308" : "0");
  feed (session, "{\"type\":\"verify\",\"run\":%d,\"pass\":%s}", id, id % 4 ? "true" : "false");
  feed (session, "{\"type\":\"timing\",\"run\":%d,\"traced\":true,%s}", id, timing);
}

/* Activities of run `id`: a span of no time, one across the whole range of int64, spans of
 * every kind that start and end at the same instant, copies of no bytes and of 2⁶⁴−1. */
static void
feed_activities (WsSession *session, int id, gint64 base)
{
  static const char *const kinds[] = {
    "\"kind\":\"memcpy\",\"direction\":\"htod\",\"bytes\":0",
    "\"kind\":\"memcpy\",\"direction\":\"dtoh\",\"bytes\":" U64_MAX,
    "\"kind\":\"memcpy\",\"direction\":\"dtod\",\"bytes\":1",
    "\"kind\":\"memset\",\"bytes\":" I64_MAX,
    "\"kind\":\"kernel\",\"name\":\"k\",\"grid\":[" U64_MAX ",0,1],\"block\":[0,0,0]",
    "\"kind\":\"sync\",\"sync\":\"stream_synchronize\"",
    "\"kind\":\"overhead\",\"overhead\":\"activity_buffer_request\"",
    "\"kind\":\"cpu\",\"threads\":0",
  };
  const char *const phases[] = { "sequence", "kernels", "cpu" };

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      /* No time at all. */
      feed (session,
            "{\"type\":\"activity\",\"run\":%d,\"phase\":\"%s\",\"rep\":0,%s,\"stream\":%u,"
            "\"start\":%" G_GINT64_FORMAT ",\"end\":%" G_GINT64_FORMAT "}",
            id, phases[k % 3], kinds[k], k, base, base);
      /* From the start of time to its end. */
      feed (session,
            "{\"type\":\"activity\",\"run\":%d,\"phase\":\"%s\",\"rep\":1,%s,\"stream\":%s,"
            "\"start\":" I64_MIN ",\"end\":" I64_MAX "}",
            id, phases[k % 3], kinds[k], k % 2 ? U64_MAX : "0");
      /* Ending before it starts. */
      feed (session,
            "{\"type\":\"activity\",\"run\":%d,\"phase\":\"%s\",\"rep\":2,%s,\"stream\":1,"
            "\"start\":%" G_GINT64_FORMAT ",\"end\":%" G_GINT64_FORMAT "}",
            id, phases[k % 3], kinds[k], base + 1000, base - 1000);
    }
}

static WsSession *
extreme_session (void)
{
  WsSession *session = ws_session_new (WS_SESSION_SOURCE_RECORDING);
  /* Timings of no time, of negative time, of 10³⁰⁰ ns and beyond what a double holds; min
   * above max; CPU baselines of nothing. */
  static const char *const timings[] = {
    "\"kernel_ns\":{\"median\":0,\"min\":0,\"max\":0,\"n\":3},\"e2e_ns\":{\"median\":0,"
    "\"min\":0,\"max\":0,\"n\":3},\"cpu_1\":{\"threads\":1,\"median\":0,\"min\":0,\"max\":0,"
    "\"n\":3},\"cpu_all\":{\"threads\":0,\"median\":0,\"n\":3}",
    "\"kernel_ns\":{\"median\":1e300,\"min\":1e308,\"max\":-1e308,\"n\":3},\"e2e_ns\":"
    "{\"median\":1e400,\"min\":-1e400,\"max\":1e400,\"n\":3},\"cpu_1\":{\"threads\":1,"
    "\"median\":1e-300,\"min\":0,\"max\":1e308,\"n\":3},\"cpu_all\":{\"threads\":"
    I64_MAX ",\"median\":1e308,\"min\":1e308,\"max\":1e308,\"n\":3}",
    "\"kernel_ns\":{\"median\":-5,\"min\":-10,\"max\":-1,\"n\":3},\"e2e_ns\":{\"median\":"
    "-5,\"n\":1},\"cpu_1\":{\"threads\":-1,\"median\":-1,\"n\":1},\"cpu_all\":{\"threads\":"
    "-1,\"median\":5,\"n\":" I64_MAX "}",
    "\"kernel_ns\":{\"median\":1,\"min\":1,\"max\":1,\"n\":3},\"e2e_ns\":{\"median\":1,"
    "\"n\":1},\"cpu_1\":{\"threads\":1,\"median\":1e15,\"n\":5},\"cpu_all\":{\"threads\":2,"
    "\"median\":1e15,\"n\":5}",
  };
  static const char *const sizes[] = { "1", U64_MAX, "2", "1e308", "0", I64_MAX };
  static const char *const blocks[] = { "1,1,1", "4294967295,1,1", "32,32,1",
                                        "4294967295,4294967295,4294967295", "0,0,0", "2,1,1" };
  int id = 0;

  feed (session, "{\"type\":\"hello\",\"protocol\":1,\"time\":\"2026-11-29T12:00:00Z\"}");
  feed (session,
        "{\"type\":\"device\",\"index\":0,\"name\":\"Extreme GPU\",\"sm\":\"sm_90\","
        "\"sm_count\":0,\"warp_size\":0,\"max_threads_per_block\":" I64_MAX ","
        "\"bandwidth_measured_gbs\":1e308,\"fp32_peak_gflops\":1e-308}");
  /* A size sweep, a block sweep and a grid of 2D blocks, every one full of extremes. */
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      feed_run (session, ++id, sizes[s], "256,1,1", timings[s % G_N_ELEMENTS (timings)]);
      feed_activities (session, id, id % 2 ? G_MININT64 / 2 : G_MAXINT64 / 2);
    }
  for (guint b = 0; b < G_N_ELEMENTS (blocks); b++)
    {
      feed_run (session, ++id, "1000", blocks[b], timings[b % G_N_ELEMENTS (timings)]);
      feed_activities (session, id, (gint64) b * 1000000);
    }
  ws_session_end (session);
  return session;
}

/* Every chart of the extreme session, in every format, whole and zoomed, with every option a
 * person can pick: nothing crashes, every surface ends without an error, and the timeline's
 * geometry and picking stay finite. */
static void
test_extreme (void)
{
  g_autoptr (WsSession) session = extreme_session ();
  g_autoptr (GPtrArray) sessions = one (session);
  const gint64 windows[][2] = { { 0, 0 }, { G_MININT64, G_MAXINT64 }, { -1, 1 },
                                { G_MAXINT64 - 10, G_MAXINT64 }, { G_MININT64, G_MININT64 + 1 } };

  /* The reader refuses the records whose numbers are out of their fields' ranges
   * (src/model/ws-session-ranges.c: a size of 0 or 2⁶⁴, a block of 2³² threads…); the charts
   * must draw whatever extremes it lets through, and the runs it keeps are among them. */
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (session)), >=, 1);
  g_assert_cmpuint (ws_session_get_problems (session)->len, >, 0);
  for (int k = 0; k < WS_N_CHARTS; k++)
    for (guint w = 0; w < G_N_ELEMENTS (windows); w++)
      for (int pick = 0; pick < 3; pick++)
        {
          WsChartOptions options;
          WsTimelineGeometry g;
          gint64 s, e;

          ws_chart_options_init (&options, (WsChartKind) k, NULL, 900, 500);
          options.window_start = windows[w][0];
          options.window_end = windows[w][1];
          options.selection_start = windows[w][0];
          options.selection_end = windows[w][1];
          options.annotate = pick != 1;
          options.run = pick == 0 ? 0 : pick == 1 ? 2 : 7;
          options.compare_run = pick == 2 ? 9 : 0;
          for (int f = WS_EXPORT_PNG; f <= WS_EXPORT_PDF; f++)
            {
              g_autoptr (GBytes) bytes = render (sessions, &options, (WsExportFormat) f, 1);

              g_assert_cmpuint (g_bytes_get_size (bytes), >, 0);
            }
          if (k != WS_CHART_TIMELINE)
            continue;
          ws_timeline_get_geometry (session, &options, &g);
          g_assert_true (isfinite (g.plot_x) && isfinite (g.plot_width));
          g_assert_true (g.end >= g.start);
          ws_timeline_get_full_range (session, &options, &s, &e);
          for (double x = 0; x < 900; x += 37)
            for (double y = 0; y < 500; y += 23)
              {
                WsRun *run = NULL;
                guint index = G_MAXUINT;

                if (ws_timeline_pick (session, &options, x, y, &run, &index))
                  g_assert_cmpuint (index, <, ws_session_get_n_activities (session));
              }
        }
}

/* A run's lane index sums durations; spans from the start of time to its end must not
 * overflow those sums (they saturate), and a run with no activities has no lanes. */
static void
test_lanes_extreme (void)
{
  g_autoptr (WsSession) session = extreme_session ();
  GListModel *runs = ws_session_get_runs (session);

  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);
      WsRunLanes *lanes = ws_run_lanes_get (run);

      g_assert_true (lanes->has_range);
      for (guint j = 0; j < lanes->n_lanes; j++)
        {
          const WsLane *lane = &lanes->lanes[j];

          for (guint k = 0; k < lane->n; k++)
            {
              g_assert_cmpint (lane->spans[k].end, >=, lane->spans[k].start);
              g_assert_cmpint (lane->busy[k + 1], >=, lane->busy[k]);
              g_assert_cmpint (lane->reach[k], >=, lane->spans[k].end);
            }
        }
      ws_run_lanes_unref (lanes);
    }
  {
    g_autoptr (WsSession) empty = ws_session_new (WS_SESSION_SOURCE_RECORDING);
    WsRunLanes *lanes;
    WsRun *run;

    feed (empty, "{\"type\":\"hello\",\"protocol\":1}");
    feed (empty,
          "{\"type\":\"run\",\"id\":1,\"kernel\":\"k\",\"shape\":[10],\"size\":10,"
          "\"block\":[32,1,1],\"grid\":[1,1,1],\"transfer\":\"pinned\",\"reps\":3}");
    feed (empty, "{\"type\":\"timing\",\"run\":1,\"kernel_ns\":{\"median\":1,\"n\":1}}");
    ws_session_end (empty);
    run = ws_session_find_run (empty, 1);
    lanes = ws_run_lanes_get (run);
    g_assert_false (lanes->has_range);
    g_assert_cmpuint (lanes->n_lanes, ==, 0);
    ws_run_lanes_unref (lanes);
  }
}

/* A memory check's recording has no runs: each chart that needs them is refused before an
 * export, with the sentence it would draw; the occupancy calculator draws its defaults. */
static void
test_nothing_to_export (void)
{
  g_autoptr (WsSession) session = load_recording ("own-vector-add-oob-memcheck-h200.jsonl");
  g_autoptr (GPtrArray) sessions = one (session);
  const struct
  {
    WsChartKind kind;
    const char *said; /* NULL: exported */
  } cases[] = {
    { WS_CHART_TIMELINE, "No traced activity" },
    { WS_CHART_SPEEDUP, "No size sweep to compare with the CPU" },
    { WS_CHART_BLOCKS, "No block-size sweep in this session" },
    { WS_CHART_OCCUPANCY, NULL },
    { WS_CHART_BREAKDOWN, "No run has traced copy-and-kernel sequences" },
    { WS_CHART_ROOFLINE, "No run with a kernel time and its FLOP and byte counts" },
    { WS_CHART_PARAMS, "No tunable parameter was swept" },
  };

  g_assert_cmpuint (G_N_ELEMENTS (cases), ==, WS_N_CHARTS);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      WsChartOptions options;
      g_autoptr (GError) error = NULL;

      ws_chart_options_init (&options, cases[i].kind, NULL, 720, 420);
      if (cases[i].said == NULL)
        {
          g_assert_true (ws_chart_check (sessions, &options, &error));
          g_assert_no_error (error);
          continue;
        }
      g_assert_false (ws_chart_check (sessions, &options, &error));
      g_assert_nonnull (strstr (error->message, "own-vector-add-oob-memcheck-h200.jsonl: "));
      g_assert_nonnull (strstr (error->message, cases[i].said));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  load_samples ();

  g_test_add_func ("/charts/edges/breakdown-short", test_breakdown_short);
  g_test_add_func ("/charts/edges/extreme", test_extreme);
  g_test_add_func ("/charts/edges/lanes-extreme", test_lanes_extreme);
  g_test_add_func ("/charts/edges/nothing-to-export", test_nothing_to_export);
  for (guint s = 0; s < samples->len; s++)
    {
      const char *name = g_ptr_array_index (sample_names, s);
      g_autofree char *path = NULL;

      /* A size sweep, a 2D block sweep (heatmap), kernels without arithmetic (bars). */
      if (!g_str_has_prefix (name, "vector-add-sizes") && !g_str_has_prefix (name, "matmul-naive")
          && !g_str_has_prefix (name, "transpose-ladder"))
        continue;
      path = g_strdup_printf ("/charts/edges/sizes/%s", name);
      g_test_add_data_func (path, GUINT_TO_POINTER (s), test_sizes);
    }
  return g_test_run ();
}

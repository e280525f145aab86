/* test-charts-timeline.c: the timeline: its ruler and labels as the zoom changes, geometry and
 * picking for the widget, outlines where findings point, two runs compared, lanes squeezed by
 * presentation mode, and narrow spans merged into density bars.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "test-charts-util.h"
#include "test-repeat-session.h"
#include "ws-chart-timeline-private.h"
#include "ws-trace-command.h"
#include "ws-span-lanes.h"

static void
test_timeline_zoom (void)
{
  WsSession *session = sample ("vector-add-sizes");
  g_autoptr (GPtrArray) sessions = one (session);
  WsRun *run = ws_session_find_run (session, 5);
  guint index;
  const WsSpan *k = first_kernel (run, WS_PHASE_SEQUENCE, &index);
  g_autofree char *dur = ws_units_duration ((double) ws_span_duration (k));
  WsChartOptions options;
  struct
  {
    gint64 start, end;
    const char *unit;
  } windows[] = {
    { k->start - 200, k->start + 800, " ns" },             /* 1 µs: nanoseconds */
    { k->start - 20000, k->end + 20000, " µs" },          /* tens of µs */
    { 0, 0, " s" },                                        /* the whole session: seconds */
  };

  ws_chart_options_init (&options, WS_CHART_TIMELINE, NULL, 1600, 900);
  for (guint w = 0; w < G_N_ELEMENTS (windows); w++)
    {
      g_autoptr (GBytes) svg = NULL;
      g_autofree char *text = NULL;

      options.window_start = windows[w].start;
      options.window_end = windows[w].end;
      svg = render (sessions, &options, WS_EXPORT_SVG, 1);
      text = svg_text_content (svg);
      if (strstr (text, windows[w].unit) == NULL)
        g_error ("window %u: the ruler does not count in%s", w, windows[w].unit);
      if (w == 1)
        {
          /* Zoomed onto one sequence: the kernel is labelled with its name, time and shape. */
          g_autofree char *expect = g_strdup_printf ("vector_add · %s", dur);
          g_autofree char *escaped = g_markup_escape_text (expect, -1);

          g_assert_nonnull (strstr (text, escaped));
          g_assert_nonnull (strstr (text, "blocks × 256 threads"));
          g_assert_nonnull (strstr (text, "GB/s"));
        }
      if (w == 0)
        /* Deep into a long session labels count from a base, not "363,520,400 ns". */
        g_assert_nonnull (strstr (text, "after "));
    }
}

static void
test_timeline_pick (void)
{
  WsSession *session = sample ("vector-add-sizes");
  WsRun *run = ws_session_find_run (session, 3), *picked = NULL;
  guint index, picked_index = G_MAXUINT;
  const WsSpan *k = first_kernel (run, WS_PHASE_KERNELS, &index);
  WsChartOptions options;
  WsTimelineGeometry g;
  double x, y;

  ws_chart_options_init (&options, WS_CHART_TIMELINE, NULL, 1200, 700);
  options.window_start = k->start - (k->end - k->start) * 2;
  options.window_end = k->end + (k->end - k->start) * 2;
  ws_timeline_get_geometry (session, &options, &g);
  g_assert_cmpint (g.start, ==, options.window_start);
  g_assert_cmpint (g.end, ==, options.window_end);
  g_assert_cmpfloat (g.plot_width, >, 600);
  g_assert_cmpfloat (g.plot_height, >, 100);
  g_assert_cmpfloat (g.plot_x + g.plot_width, <=, 1200);
  g_assert_cmpfloat (g.plot_y + g.plot_height, <=, 700);

  x = g.plot_x + g.plot_width * ((k->start + k->end) / 2.0 - g.start) / (double) (g.end - g.start);
  /* Scan down the lanes at the kernel's middle: exactly one lane holds it. */
  for (y = g.plot_y + 1; y < g.plot_y + g.plot_height; y += 2)
    if (ws_timeline_pick (session, &options, x, y, &picked, &picked_index)
        && ws_run_get_activities (picked, NULL)[picked_index].kind == WS_ACTIVITY_KERNEL)
      break;
  g_assert_true (picked == run);
  g_assert_cmpuint (picked_index, ==, index);
  /* Outside the plot there is nothing to pick. */
  g_assert_false (ws_timeline_pick (session, &options, 2, 2, &picked, &picked_index));
  g_assert_false (ws_timeline_pick (session, &options, x, g.plot_y + g.plot_height + 3,
                                    &picked, &picked_index));
}

static void
test_timeline_highlight (void)
{
  WsSession *session = sample ("vector-add-sizes");
  g_autoptr (GPtrArray) sessions = one (session);
  WsRun *run = ws_session_find_run (session, 2);
  g_autoptr (GArray) refs = g_array_new (FALSE, FALSE, sizeof (WsActivityRef));
  WsActivityRef ref = { 2, 0 };
  const WsTheme *theme = ws_theme_get (WS_THEME_LIGHT);
  g_autoptr (GBytes) plain = NULL, marked = NULL;
  WsChartOptions options;
  guint n;
  const WsSpan *a = ws_run_get_activities (run, &n);

  first_kernel (run, WS_PHASE_SEQUENCE, &ref.index);
  g_array_append_val (refs, ref);
  ws_chart_options_init (&options, WS_CHART_TIMELINE, theme, 1200, 600);
  options.window_start = a[0].start;
  options.window_end = a[ref.index].end + 30000;
  plain = render (sessions, &options, WS_EXPORT_PNG, 1);
  options.highlight = refs;
  marked = render (sessions, &options, WS_EXPORT_PNG, 1);
  /* The outline changes the picture. */
  g_assert_false (g_bytes_equal (plain, marked));
}

/* Two runs compared: one group of lanes each, counted from each run's own start on one scale;
 * the window is in ns since those starts, and a span is picked in the group it is drawn in. */
static void
test_timeline_compare (void)
{
  WsSession *session = sample ("vector-add-sizes");
  g_autoptr (GPtrArray) sessions = one (session);
  WsRun *pageable = ws_session_find_run (session, 5), *pinned = ws_session_find_run (session, 11);
  WsRun *picked = NULL;
  guint index, picked_index = G_MAXUINT;
  const WsSpan *k = first_kernel (pinned, WS_PHASE_SEQUENCE, &index);
  gint64 s5, e5, s11, e11, fs, fe;
  g_autoptr (GBytes) svg = NULL;
  g_autofree char *text = NULL;
  WsChartOptions options;
  WsTimelineGeometry g;
  double x, y;
  gboolean in_lower = FALSE;

  g_assert_true (ws_run_get_time_range (pageable, &s5, &e5));
  g_assert_true (ws_run_get_time_range (pinned, &s11, &e11));
  ws_chart_options_init (&options, WS_CHART_TIMELINE, NULL, 1600, 900);
  options.run = 5;
  options.compare_run = 11;

  /* The whole of the longer run, from 0. */
  g_assert_true (ws_timeline_get_full_range (session, &options, &fs, &fe));
  g_assert_cmpint (fs, ==, 0);
  g_assert_cmpint (fe, ==, MAX (e5 - s5, e11 - s11));
  ws_timeline_get_geometry (session, &options, &g);
  g_assert_cmpint (g.start, ==, 0);
  g_assert_cmpint (g.end, ==, fe);

  svg = render (sessions, &options, WS_EXPORT_SVG, 1);
  text = svg_text_content (svg);
  g_assert_nonnull (strstr (text, "Timeline · run 5 beside run 11"));
  g_assert_nonnull (strstr (text, "run 5, from its start"));
  g_assert_nonnull (strstr (text, "run 11, from its start"));

  /* Zoomed onto run 11's first kernel, in ns since run 11 started: scanning down picks that
   * kernel, in the lower group, and never one of run 5's. */
  options.window_start = k->start - s11 - 2000;
  options.window_end = k->end - s11 + 2000;
  ws_timeline_get_geometry (session, &options, &g);
  g_assert_cmpint (g.start, ==, options.window_start);
  x = g.plot_x + g.plot_width * ((k->start + k->end) / 2.0 - s11 - g.start) / (g.end - g.start);
  for (y = g.plot_y + 1; y < g.plot_y + g.plot_height; y += 2)
    if (ws_timeline_pick (session, &options, x, y, &picked, &picked_index))
      {
        g_assert_true (picked == pinned || ws_run_get_activities (picked, NULL)[picked_index].kind
                                               != WS_ACTIVITY_KERNEL);
        if (picked == pinned && picked_index == index)
          {
            in_lower = y > g.plot_y + g.plot_height / 2;
            break;
          }
      }
  g_assert_true (picked == pinned);
  g_assert_cmpuint (picked_index, ==, index);
  g_assert_true (in_lower);

  /* One run alone is not a comparison: the session's own range. */
  options.compare_run = 0;
  g_assert_true (ws_timeline_get_full_range (session, &options, &fs, &fe));
  g_assert_true (ws_session_get_time_range (session, &s5, &e5));
  g_assert_cmpint (fs, ==, s5);
  g_assert_cmpint (fe, ==, e5);
}

/* Lane labels in an SVG: the timeline's rows, as (y, font size) pairs, in the order drawn. */
static GArray *
lane_labels (const char *svg, guint *n_kernels)
{
  static const char *const names[] = { "CPU reference", "H2D copies", "Kernels", "D2H copies",
                                       "Memsets", "Host waits (sync)", "CUPTI overhead" };
  g_autoptr (GRegex) re = g_regex_new ("<text x=\"([0-9.]+)\" y=\"([0-9.]+)\" [^>]*"
                                       "font-size=\"([0-9.]+)\"[^>]*>([^<]*)</text>",
                                       0, 0, NULL);
  g_autoptr (GMatchInfo) m = NULL;
  GArray *found = g_array_new (FALSE, FALSE, sizeof (double) * 2);
  double lane_x = G_MAXDOUBLE;

  /* Lane labels stand at the chart's left edge; the legend's start after a swatch. */
  for (g_regex_match (re, svg, 0, &m); g_match_info_matches (m); g_match_info_next (m, NULL))
    {
      g_autofree char *x = g_match_info_fetch (m, 1);
      g_autofree char *text = g_match_info_fetch (m, 4);

      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        if (g_str_equal (text, names[i]))
          lane_x = MIN (lane_x, g_ascii_strtod (x, NULL));
    }
  g_clear_pointer (&m, g_match_info_free);
  *n_kernels = 0;
  for (g_regex_match (re, svg, 0, &m); g_match_info_matches (m); g_match_info_next (m, NULL))
    {
      g_autofree char *x = g_match_info_fetch (m, 1);
      g_autofree char *y = g_match_info_fetch (m, 2);
      g_autofree char *size = g_match_info_fetch (m, 3);
      g_autofree char *text = g_match_info_fetch (m, 4);
      double pair[2] = { g_ascii_strtod (y, NULL), g_ascii_strtod (size, NULL) };

      if (fabs (g_ascii_strtod (x, NULL) - lane_x) > 0.5)
        continue;
      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        if (g_str_equal (text, names[i]))
          {
            g_array_append_vals (found, pair, 1);
            *n_kernels += g_str_equal (text, "Kernels");
          }
    }
  return found;
}

/* A projector in presentation mode, and two runs compared, leave little height for the lanes:
 * the findings written on the chart take whole findings only, the secondary lanes (memsets,
 * host waits, CUPTI) give way, and no lane label ever overprints another. */
static void
test_timeline_squeezed (void)
{
  WsSession *session = sample ("vector-add-sizes");
  g_autoptr (GPtrArray) sessions = one (session);
  g_autofree WsTheme *big = ws_theme_scaled (ws_theme_get (WS_THEME_LIGHT), 1.45);
  struct
  {
    int run, compare_run;
    double width, height;
    guint groups;
  } cases[] = {
    { 0, 0, 900, 520, 1 },   /* the whole session */
    { 5, 0, 900, 420, 1 },   /* one run */
    { 5, 6, 900, 520, 2 },   /* two runs, one above the other */
    { 5, 11, 1200, 700, 2 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      WsChartOptions options;
      g_autoptr (GBytes) svg = NULL;
      g_autofree char *text = NULL;
      g_autoptr (GArray) labels = NULL;
      guint kernels;

      ws_chart_options_init (&options, WS_CHART_TIMELINE, big, cases[c].width, cases[c].height);
      options.run = cases[c].run;
      options.compare_run = cases[c].compare_run;
      options.annotate = TRUE;
      svg = render (sessions, &options, WS_EXPORT_SVG, 1);
      text = svg_text_content (svg);
      labels = lane_labels (text, &kernels);
      /* The kernels keep their lane, in each group. */
      g_assert_cmpuint (kernels, ==, cases[c].groups);
      for (guint i = 1; i < labels->len; i++)
        {
          const double *prev = &g_array_index (labels, double, 2 * (i - 1));
          const double *cur = &g_array_index (labels, double, 2 * i);

          if (cur[0] - prev[0] < 0.9 * cur[1])
            g_error ("case %u: lane labels %u and %u are %.1f apart, their text %.1f high", c,
                     i - 1, i, cur[0] - prev[0], cur[1]);
        }
    }
}

/* A million-record session is the benchmark's; this one checks that narrow spans merge into
 * density bars and still cover the time they were busy. */
static void
test_timeline_density (void)
{
  WsSession *session = ws_session_new (WS_SESSION_SOURCE_RECORDING);
  g_autoptr (GPtrArray) sessions = one (session);
  g_autoptr (GBytes) svg = NULL, png = NULL;
  g_autofree char *text = NULL;
  WsChartOptions options;
  gint64 t = 1000;

  ws_session_feed_line (session, "{\"type\":\"hello\",\"protocol\":1}", -1, NULL);
  ws_session_feed_line (session,
                        "{\"type\":\"run\",\"id\":1,\"kernel\":\"k\",\"shape\":[10],\"size\":10,"
                        "\"block\":[32,1,1],\"grid\":[1,1,1],\"threads_per_block\":32}",
                        -1, NULL);
  for (int i = 0; i < 50000; i++, t += 1000)
    {
      g_autofree char *line = g_strdup_printf (
          "{\"type\":\"activity\",\"run\":1,\"phase\":\"kernels\",\"rep\":0,\"kind\":\"kernel\","
          "\"name\":\"k\",\"stream\":7,\"start\":%" G_GINT64_FORMAT ",\"end\":%" G_GINT64_FORMAT
          "}",
          t, t + 500);

      ws_session_feed_line (session, line, -1, NULL);
    }
  ws_session_end (session);
  ws_chart_options_init (&options, WS_CHART_TIMELINE, NULL, 1000, 400);
  svg = render (sessions, &options, WS_EXPORT_SVG, 1);
  text = svg_text_content (svg);
  /* 50,000 spans over 1,000 pixels become density bars, and the legend says so. */
  g_assert_nonnull (strstr (text, "pale: spans under a pixel"));
  png = render (sessions, &options, WS_EXPORT_PNG, 1);
  check_png (png, 1000, 400, ws_theme_get (WS_THEME_LIGHT));
  g_object_unref (session);
}

/* ---- what the timeline collects --------------------------------------------------------- */

static WsChartBase
timeline_base (double width, double height)
{
  return (WsChartBase) { ws_theme_get (WS_THEME_LIGHT), width, height, 1 };
}

static void
test_timeline_collect (void)
{
  WsSession *session = sample ("vector-add-sizes");
  WsChartBase base = timeline_base (1600, 900);
  WsTimelineOptions options = { 0 };
  WsTimelineData *d = _ws_timeline_collect (session, &base, &options);
  const WsTimelineGroup *g = &d->groups[0];
  static const char *const rows[] = { "CPU reference", "H2D copies", "Kernels", "D2H copies",
                                      "Memsets", "Host waits (sync)", "CUPTI overhead" };
  gint64 start, end;

  g_assert_null (d->frame.message);
  g_assert_cmpstr (d->frame.title, ==, "Timeline · vector_add, 12 runs");
  g_assert_cmpuint (d->n_groups, ==, 1);
  g_assert_cmpuint (g->index->runs->len, ==, 12);
  /* A row per lane any run has, in lane order; one stream, so "Kernels" alone. */
  g_assert_cmpuint (g->rows->len, ==, G_N_ELEMENTS (rows));
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    g_assert_cmpstr (g_array_index (g->rows, WsTimelineRow, i).label, ==, rows[i]);
  /* The whole session, counted from its first activity. */
  g_assert_true (ws_session_get_time_range (session, &start, &end));
  g_assert_cmpint (g->origin, ==, start);
  g_assert_cmpint (g->start, ==, start);
  g_assert_cmpint (g->end, ==, end);
  g_assert_cmpint (d->window_start, ==, start);
  g_assert_cmpuint (d->outlines->len, ==, 0);
  g_assert_false (d->outline_legend);
  g_assert_null (d->frame.notes);
  /* Runs in order of their start, each reaching at least as far as the one before. */
  for (guint i = 1; i < g->index->runs->len; i++)
    {
      g_assert_cmpint (g->index->starts[i], >=, g->index->starts[i - 1]);
      g_assert_cmpint (g->index->reach[i], >=, g->index->reach[i - 1]);
    }
  _ws_timeline_data_free (d);

  /* A window onto run 5, which is picked: the title names it. */
  {
    WsRun *run = ws_session_find_run (session, 5);

    g_assert_true (ws_run_get_time_range (run, &start, &end));
    base.run = 5;
    options.window_start = start;
    options.window_end = end;
    d = _ws_timeline_collect (session, &base, &options);
    g_assert_cmpstr (d->frame.title, ==,
                     "Timeline · run 5: vector_add, n = 10,000,000, block 256, pageable");
    g_assert_cmpint (d->groups[0].start, ==, start);
    g_assert_cmpint (d->groups[0].origin, <, start);
    _ws_timeline_data_free (d);
  }
}

static void
test_timeline_collect_compare (void)
{
  WsSession *session = sample ("vector-add-sizes");
  WsChartBase base = timeline_base (1600, 900);
  WsTimelineOptions options = { 0 };
  g_autoptr (GArray) refs = g_array_new (FALSE, FALSE, sizeof (WsActivityRef));
  WsActivityRef ref = { 11, 3 };
  WsTimelineData *d;
  gint64 s5, e5, s11, e11;

  ws_run_get_time_range (ws_session_find_run (session, 5), &s5, &e5);
  ws_run_get_time_range (ws_session_find_run (session, 11), &s11, &e11);
  g_array_append_val (refs, ref);
  base.run = 5;
  base.compare_run = 11;
  base.annotate = TRUE;
  options.highlight = refs;
  d = _ws_timeline_collect (session, &base, &options);
  /* Two groups, each a run counted from its own start, on the longer run's span. */
  g_assert_cmpuint (d->n_groups, ==, 2);
  g_assert_cmpstr (d->frame.title, ==, "Timeline · run 5 beside run 11");
  g_assert_cmpint (d->window_start, ==, 0);
  g_assert_cmpint (d->window_end, ==, MAX (e5 - s5, e11 - s11));
  g_assert_cmpint (d->groups[0].origin, ==, s5);
  g_assert_cmpint (d->groups[1].origin, ==, s11);
  g_assert_cmpstr (d->groups[1].caption, ==, "run 11, from its start");
  /* The same rows in both. */
  g_assert_cmpuint (d->groups[0].rows->len, ==, d->groups[1].rows->len);
  for (guint i = 0; i < d->groups[0].rows->len; i++)
    g_assert_cmpuint (g_array_index (d->groups[0].rows, WsTimelineRow, i).key, ==,
                      g_array_index (d->groups[1].rows, WsTimelineRow, i).key);
  /* The span asked for, and those the worst finding of each run points at. */
  g_assert_true (d->outline_legend);
  g_assert_cmpuint (d->outlines->len, >, 1);
  g_assert_cmpint (ws_run_get_id (g_array_index (d->outlines, WsTimelineOutline, 0).run), ==, 11);
  g_assert_cmpuint (g_array_index (d->outlines, WsTimelineOutline, 0).index, ==, 3);
  g_assert_nonnull (d->frame.notes);
  g_assert_cmpuint (d->frame.notes->len, >=, 1);
  _ws_timeline_data_free (d);

  /* Nothing traced: a sentence. */
  {
    g_autoptr (WsSession) empty = ws_session_new (WS_SESSION_SOURCE_RECORDING);

    ws_session_feed_line (empty, "{\"type\":\"hello\",\"protocol\":1}", -1, NULL);
    ws_session_end (empty);
    base.run = base.compare_run = 0;
    d = _ws_timeline_collect (empty, &base, &options);
    g_assert_nonnull (strstr (d->frame.message, "No traced activity yet"));
    g_assert_cmpuint (d->n_groups, ==, 0);
    _ws_timeline_data_free (d);
  }
}

/* The lane index is kept with the session and rebuilt when its activities change. */
static void
test_timeline_index (void)
{
  g_autoptr (GPtrArray) lines = sample_lines ("vector-add-sizes-h200.jsonl", keep_first_run, NULL);
  g_autoptr (WsSession) session = session_from_lines (lines);
  WsLaneIndex *a = ws_session_get_lane_index (session), *b = ws_session_get_lane_index (session), *c;
  guint n = a->runs->len ? ((WsRunLanes *) g_ptr_array_index (a->lanes, 0))->n_activities : 0;

  g_assert_true (a == b);
  g_assert_cmpuint (a->runs->len, ==, 1);
  g_assert_cmpuint (n, >, 0);
  /* One more activity, later than the rest: a new index, the old one still whole. */
  ws_session_feed_line (session,
                        "{\"type\":\"activity\",\"run\":1,\"phase\":\"sequence\",\"rep\":0,"
                        "\"kind\":\"memset\",\"bytes\":4,\"start\":999999999999,"
                        "\"end\":1000000000000}",
                        -1, NULL);
  c = ws_session_get_lane_index (session);
  g_assert_true (c != a);
  g_assert_cmpint (c->end, ==, 1000000000000);
  g_assert_cmpint (a->end, <, c->end);
  ws_lane_index_unref (a);
  ws_lane_index_unref (b);
  ws_lane_index_unref (c);
}

/* Thirteen thousand runs seen whole: most are a fraction of a pixel wide, and are drawn
 * together as density bars; a hundredth of the session shows a hundred-odd runs span by span;
 * the band names only the runs whose labels fit, and the widget's queries still work. */
static void
test_timeline_many_runs (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_SAMPLES_DIR"),
                                            "vector-add-sizes-h200.jsonl", NULL);
  g_autoptr (WsSession) session = ws_test_repeat_session (path, 1083);
  g_autoptr (GPtrArray) sessions = one (session);
  WsChartBase base = timeline_base (1600, 900);
  WsTimelineOptions options = { 0 };
  WsTimelineData *d = _ws_timeline_collect (session, &base, &options);
  WsChartContext ctx;
  WsTimelineFrame f;
  WsChartOptions o;
  WsTimelineGeometry g;
  gint64 start, end;
  g_autoptr (GBytes) svg = NULL;
  g_autofree char *text = NULL;
  guint labels = 0;

  g_assert_cmpuint (d->groups[0].index->runs->len, ==, 12996);
  g_assert_cmpstr (d->frame.title, ==, "Timeline · vector_add, 12996 runs");
  _ws_chart_context_init (&ctx, NULL, &base);
  _ws_timeline_layout (&ctx, d, FALSE, &f);
  g_assert_true (f.group[0].together);
  _ws_timeline_frame_clear (&f);
  _ws_timeline_data_free (d);

  ws_session_get_time_range (session, &start, &end);
  options.window_start = start + (end - start) / 2;
  options.window_end = options.window_start + (end - start) / 100;
  d = _ws_timeline_collect (session, &base, &options);
  _ws_timeline_layout (&ctx, d, FALSE, &f);
  g_assert_false (f.group[0].together);
  _ws_timeline_frame_clear (&f);
  _ws_timeline_data_free (d);
  _ws_chart_context_clear (&ctx);

  ws_chart_options_init (&o, WS_CHART_TIMELINE, NULL, 1600, 900);
  svg = render (sessions, &o, WS_EXPORT_SVG, 1);
  text = svg_text_content (svg);
  g_assert_nonnull (strstr (text, "pale: spans under a pixel"));
  for (const char *p = strstr (text, ">run "); p; p = strstr (p + 1, ">run "))
    labels++;
  /* Numbers in the band where they fit: the runs drawn together are named as one stretch,
   * not as thirteen thousand numbers, nor as the first few that happen to fit. */
  g_assert_nonnull (strstr (text, ">runs 1–12996<"));
  g_assert_cmpuint (labels, <, 200);
  ws_timeline_get_geometry (session, &o, &g);
  g_assert_cmpint (g.start, ==, start);
  g_assert_cmpint (g.end, ==, end);
  g_assert_cmpfloat (g.plot_width, >, 1000);
}

/* Presentation mode outlines the spans of each run's worst finding; outlines that overlap
 * become one around the group (a block sweep's finding points at every copy of a run). */
static void
test_timeline_outlines (void)
{
  g_autoptr (GPtrArray) sessions = one (sample ("vector-add-blocks"));
  g_autoptr (GBytes) svg = NULL;
  g_autofree char *text = NULL;
  WsChartOptions options;
  guint outlines = 0;

  ws_chart_options_init (&options, WS_CHART_TIMELINE, NULL, 1600, 900);
  options.annotate = TRUE;
  svg = render (sessions, &options, WS_EXPORT_SVG, 1);
  text = svg_text_content (svg);
  for (const char *p = strstr (text, "stroke-width:2.25"); p; p = strstr (p + 1, "stroke-width:2.25"))
    outlines++;
  /* 32 runs, two lanes each outlined: about one box per run and lane, not one per copy. */
  g_assert_cmpuint (outlines, >=, 32);
  g_assert_cmpuint (outlines, <=, 2 * 32 + 8);
  g_assert_nonnull (strstr (text, "a finding points here"));
}

/* A traced program: a lane of API calls (the host), JIT work, copies by direction, a lane per
 * stream, the host's waits, counted from its first call; the kernel's span is where CUPTI put
 * it; the widget can zoom (geometry) but picks no run's activity. */
static void
test_timeline_trace (void)
{
  g_autoptr (WsSession) session = load_recording ("trace-vector-add-h200.jsonl");
  WsTrace *trace = ws_session_get_trace (session);
  WsChartBase base = timeline_base (1600, 900);
  WsTimelineOptions options = { 0 };
  WsTimelineData *d = _ws_timeline_collect (session, &base, &options);
  const WsTimelineGroup *g = &d->groups[0];
  static const char *const rows[] = { "API calls", "JIT compiles", "H2D copies",
                                      "Kernels · stream 7", "D2H copies", "Host waits (sync)" };
  guint n_spans, kernels = 0;
  const WsSpan *spans = ws_trace_get_spans (trace, &n_spans);
  g_autoptr (GPtrArray) sessions = one (session);
  g_autoptr (GBytes) svg = NULL;
  g_autofree char *text = NULL;
  WsChartOptions chart;
  WsTimelineGeometry geometry;
  gint64 start, end;

  g_assert_nonnull (trace);
  g_assert_null (d->frame.message);
  g_assert_true (d->trace == trace);
  g_assert_cmpstr (d->frame.title, ==, "Timeline · python3 vector_add.py");
  g_assert_cmpuint (d->n_groups, ==, 1);
  g_assert_null (g->index);
  g_assert_cmpuint (g->rows->len, ==, G_N_ELEMENTS (rows));
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    g_assert_cmpstr (g_array_index (g->rows, WsTimelineRow, i).label, ==, rows[i]);
  /* From the first API call (cuInit's context) to the last, whole. */
  for (guint i = 0; i < n_spans; i++)
    if (spans[i].kind == WS_ACTIVITY_KERNEL)
      {
        guint64 key;

        kernels++;
        g_assert_true (ws_span_lane_key (trace, &spans[i], &key));
        g_assert_cmpuint (key, ==, WS_LANE_KEY (WS_LANE_KERNEL, 7));
        g_assert_cmpint (spans[i].start, >, g->start);
        g_assert_cmpint (spans[i].end, <, g->end);
      }
  g_assert_cmpuint (kernels, ==, 1);
  g_assert_true (ws_session_get_time_range (session, &start, &end));
  g_assert_cmpint (g->start, ==, start);
  g_assert_cmpint (g->end, ==, end);
  g_assert_cmpint (end - start, >, 1000000000); /* the program ran for seconds */
  _ws_timeline_data_free (d);

  ws_chart_options_init (&chart, WS_CHART_TIMELINE, NULL, 1600, 900);
  g_assert_true (ws_timeline_get_full_range (session, &chart, &start, &end));
  ws_timeline_get_geometry (session, &chart, &geometry);
  g_assert_cmpfloat (geometry.plot_width, >, 800);
  g_assert_cmpint (geometry.start, ==, start);
  g_assert_false (ws_timeline_pick (session, &chart, geometry.plot_x + 10, geometry.plot_y + 10,
                                    NULL, NULL));
  /* Its own spans are picked: the kernel, a pixel wide in two seconds, where it is drawn. */
  {
    const WsSpan *k = NULL;
    guint picked = G_MAXUINT;
    double x;
    g_autofree char *words = NULL;

    for (guint i = 0; i < n_spans && k == NULL; i++)
      if (spans[i].kind == WS_ACTIVITY_KERNEL)
        k = &spans[i];
    x = geometry.plot_x + (double) (k->start - geometry.start) / (double) (geometry.end
                                                                          - geometry.start)
                            * geometry.plot_width;
    /* Row 4 of 6: the kernels' lane. */
    g_assert_true (ws_timeline_pick_trace (session, &chart, x + 1,
                                           geometry.plot_y + geometry.plot_height * 3.5 / 6,
                                           &picked));
    g_assert_true (&spans[picked] == k);
    words = ws_trace_describe_span (trace, k);
    g_assert_true (g_str_has_prefix (words, "add_kernel · 37.7 µs\ngrid 39063, block 256, 16 "
                                            "registers, stream 7\nstarts "));
    /* Nothing in an empty stretch of the kernels' lane. */
    g_assert_false (ws_timeline_pick_trace (session, &chart, geometry.plot_x + 5,
                                            geometry.plot_y + geometry.plot_height * 3.5 / 6,
                                            &picked));
  }
  svg = render (sessions, &chart, WS_EXPORT_SVG, 1);
  text = svg_text_content (svg);
  g_assert_nonnull (strstr (text, "API call"));
  g_assert_nonnull (strstr (text, "Kernels · stream 7"));
}

/* A sweep of six program runs, a process each: their main threads share one API lane, and
 * the band names each run by its value. A trace with NVTX has its ranges' lane. */
static void
test_timeline_trace_sweep (void)
{
  g_autoptr (WsSession) session = load_recording ("trace-vector-add-tpb-sweep-h200.jsonl");
  g_autoptr (WsSession) torch = load_recording ("trace-torch-matmul-h200.jsonl");
  WsChartBase base = timeline_base (1600, 900);
  WsTimelineOptions options = { 0 };
  WsTimelineData *d = _ws_timeline_collect (session, &base, &options);
  g_autoptr (GPtrArray) sessions = one (session);
  g_autoptr (GBytes) svg = NULL;
  g_autofree char *text = NULL;
  WsChartOptions chart;
  guint api = 0;

  g_assert_cmpstr (d->frame.title, ==, "Timeline · python3 vector_add_tpb.py --tpb, 6 program runs");
  for (guint i = 0; i < d->groups[0].rows->len; i++)
    api += g_str_has_prefix (g_array_index (d->groups[0].rows, WsTimelineRow, i).label, "API");
  g_assert_cmpuint (api, ==, 1);
  _ws_timeline_data_free (d);
  ws_chart_options_init (&chart, WS_CHART_TIMELINE, NULL, 1600, 900);
  svg = render (sessions, &chart, WS_EXPORT_SVG, 1);
  text = svg_text_content (svg);
  g_assert_nonnull (strstr (text, "TPB=32"));
  g_assert_nonnull (strstr (text, "TPB=1024"));

  d = _ws_timeline_collect (torch, &base, &options);
  g_assert_cmpstr (g_array_index (d->groups[0].rows, WsTimelineRow, 1).label, ==, "NVTX ranges");
  _ws_timeline_data_free (d);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  load_samples ();

  g_test_add_func ("/charts/timeline/zoom", test_timeline_zoom);
  g_test_add_func ("/charts/timeline/pick", test_timeline_pick);
  g_test_add_func ("/charts/timeline/highlight", test_timeline_highlight);
  g_test_add_func ("/charts/timeline/compare", test_timeline_compare);
  g_test_add_func ("/charts/timeline/squeezed", test_timeline_squeezed);
  g_test_add_func ("/charts/timeline/density", test_timeline_density);
  g_test_add_func ("/charts/timeline/collect", test_timeline_collect);
  g_test_add_func ("/charts/timeline/collect-compare", test_timeline_collect_compare);
  g_test_add_func ("/charts/timeline/index", test_timeline_index);
  g_test_add_func ("/charts/timeline/many-runs", test_timeline_many_runs);
  g_test_add_func ("/charts/timeline/outlines", test_timeline_outlines);
  g_test_add_func ("/charts/timeline/trace", test_timeline_trace);
  g_test_add_func ("/charts/timeline/trace-sweep", test_timeline_trace_sweep);
  return g_test_run ();
}

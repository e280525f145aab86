/* test-session-numbers.c: numbers a file can hold that a view would misprint or overflow on:
 * each refused with the field named, the extremes allowed read exactly, and the fast path
 * for activities agreeing with the general parser at every edge.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-analysis.h"
#include "ws-record.h"
#include "ws-run-private.h"
#include "test-session-fixtures.h"

/* Each line, fed after a hello and run 1, is refused with exactly this problem. */
static void
test_numbers_out_of_range (void)
{
  static const struct
  {
    const char *line;
    const char *problem;
  } cases[] = {
    { "{\"type\":\"launch\",\"run\":1,\"occupancy\":7.5}",
      "field \"occupancy\" is 7.5, outside 0–1" },
    { "{\"type\":\"launch\",\"run\":1,\"limits\":{\"warps\":-3}}",
      "field \"limits.warps\" is -3, outside 0–65535" },
    { "{\"type\":\"run\",\"id\":2,\"shape\":[18446744073709551615]}",
      "field \"shape[0]\" is 18446744073709551615, outside 1–9007199254740992" },
    { "{\"type\":\"run\",\"id\":2,\"shape\":[0]}", "field \"shape[0]\" is 0, outside 1–9007199254740992" },
    { "{\"type\":\"run\",\"id\":2,\"shape\":[1000,1e300]}",
      "field \"shape[1]\" is 1e300, outside 1–9007199254740992" },
    { "{\"type\":\"run\",\"id\":1e300}", "field \"id\" is 1e300, outside 0–2147483647" },
    { "{\"type\":\"run\",\"id\":-1}", "field \"id\" is -1, outside 0–2147483647" },
    { "{\"type\":\"run\",\"id\":2.5}", "field \"id\" is 2.5, not a whole number" },
    { "{\"type\":\"run\",\"id\":2,\"block\":[2048,1,1]}",
      "field \"block[0]\" is 2048, outside 0–1024" },
    { "{\"type\":\"run\",\"id\":2,\"seed\":-1}",
      "field \"seed\" is -1, outside 0–18446744073709551615" },
    { "{\"type\":\"run\",\"id\":2,\"flops\":-1e9}", "field \"flops\" is -1e9, outside 0–1e24" },
    { "{\"type\":\"activity\",\"run\":1,\"kind\":\"kernel\",\"start\":1e300,\"end\":1e300}",
      "field \"start\" is 1e300, outside -9007199254740992–9007199254740992" },
    { "{\"type\":\"activity\",\"run\":1,\"kind\":\"kernel\",\"start\":-9223372036854775808,"
      "\"end\":9223372036854775807}",
      "field \"start\" is -9223372036854775808, outside -9007199254740992–9007199254740992" },
    { "{\"type\":\"activity\",\"run\":1,\"kind\":\"kernel\",\"start\":200,\"end\":100}",
      "the activity ends (\"end\" 100) before it starts (\"start\" 200)" },
    { "{\"type\":\"activity\",\"run\":1,\"kind\":\"kernel\",\"start\":1,\"end\":2,\"rep\":-1}",
      "field \"rep\" is -1, outside 0–4294967295" },
    { "{\"type\":\"activity\",\"run\":1,\"kind\":\"memcpy\",\"start\":1,\"end\":2,"
      "\"bytes\":18446744073709551615}",
      "field \"bytes\" is 18446744073709551615, outside 0–9007199254740992" },
    { "{\"type\":\"activity\",\"run\":1,\"kind\":\"kernel\",\"start\":1,\"end\":2,"
      "\"grid\":[1,1,4294967296]}",
      "field \"grid[2]\" is 4294967296, outside 0–4294967295" },
    { "{\"type\":\"activity\",\"run\":1e10,\"kind\":\"kernel\",\"start\":1,\"end\":2}",
      "field \"run\" is 1e10, outside 0–2147483647" },
    { "{\"type\":\"timing\",\"run\":1,\"kernel_ns\":{\"median\":-5,\"n\":3}}",
      "field \"kernel_ns.median\" is -5, outside 0–9007199254740992" },
    { "{\"type\":\"timing\",\"run\":1,\"kernel_ns\":{\"median\":5,\"n\":2.5}}",
      "field \"kernel_ns.n\" is 2.5, not a whole number" },
    { "{\"type\":\"timing\",\"run\":1,\"cpu_all\":{\"threads\":1e300,\"median\":5}}",
      "field \"cpu_all.threads\" is 1e300, outside 0–2147483647" },
    { "{\"type\":\"verify\",\"run\":1,\"pass\":true,\"rtol\":-1}", "field \"rtol\" is -1, below 0" },
    { "{\"type\":\"verify\",\"run\":1,\"pass\":true,\"total\":1e300}",
      "field \"total\" is 1e300, outside 0–9007199254740992" },
    { "{\"type\":\"progress\",\"done\":1e300,\"total\":2}",
      "field \"done\" is 1e300, outside 0–2147483647" },
    { "{\"type\":\"done\",\"exit_code\":256}", "field \"exit_code\" is 256, outside 0–255" },
    { "{\"type\":\"error\",\"run\":1e300,\"code\":\"kernel_fault\"}",
      "field \"run\" is 1e300, outside 0–2147483647" },
    { "{\"type\":\"device\",\"name\":\"GPU\",\"warp_size\":0}",
      "field \"warp_size\" is 0, outside 1–1024" },
    { "{\"type\":\"device\",\"name\":\"GPU\",\"max_grid_dim\":[1,-1,1]}",
      "field \"max_grid_dim[1]\" is -1, outside 0–2147483647" },
    { "{\"type\":\"device\",\"name\":\"GPU\",\"bandwidth_measured_gbs\":-4800}",
      "field \"bandwidth_measured_gbs\" is -4800, outside 0–1000000" },
    { "{\"type\":\"device\",\"name\":\"GPU\",\"fp32_peak_gflops\":1e300}",
      "field \"fp32_peak_gflops\" is 1e300, outside 0–1000000000" },
    { "{\"type\":\"run\",\"id\":2,\"flops\":1e25}", "field \"flops\" is 1e25, outside 0–1e24" },
    { "{\"type\":\"kernel\",\"name\":\"k\",\"default_block\":[1e300]}",
      "field \"default_block[0]\" is 1e300, outside 0–1024" },
    /* JSON has no words for these, nor room for numbers beyond a double. */
    { "{\"type\":\"launch\",\"run\":1,\"occupancy\":NaN}",
      "column 38: NaN and Infinity are not JSON numbers (write null)" },
    { "{\"type\":\"launch\",\"run\":1,\"occupancy\":-Infinity}",
      "column 38: NaN and Infinity are not JSON numbers (write null)" },
    { "{\"type\":\"launch\",\"run\":1,\"occupancy\":1e400}",
      "column 38: a number too large to hold (beyond ±1.8e308)" },
    { "{\"type\":\"launch\",\"run\":1,\"name\":\"\\ud800\"}",
      "column 34: a \\u escape of half a character (an unpaired surrogate)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (WsSession) session = fed_session ();
      g_autoptr (GError) error = NULL;
      g_autofree char *expected = g_strdup_printf ("line 3: %s", cases[i].problem);
      WsRun *run = ws_session_find_run (session, 1);
      WsProblem *p;

      g_test_message ("%s", cases[i].line);
      g_assert_false (ws_session_feed_line (session, cases[i].line, -1, &error));
      g_assert_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_MALFORMED);
      p = last_problem (session);
      g_assert_cmpstr (p->message, ==, cases[i].problem);
      g_assert_cmpuint (p->line, ==, 3);
      /* The message leads to the number: the column of its first character. */
      if (!g_str_has_prefix (cases[i].problem, "column"))
        {
          g_assert_cmpuint (p->column, >, 1);
          g_assert_true (strchr ("-0123456789", cases[i].line[p->column - 1]) != NULL);
          g_assert_nonnull (strstr (error->message, cases[i].problem));
          g_assert_cmpstr (error->message, ==, expected);
        }
      /* Nothing of the refused record was used. */
      g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (session)), ==, 1);
      g_assert_cmpuint (ws_session_get_n_activities (session), ==, 0);
      g_assert_null (ws_run_get_launch (run));
      g_assert_null (ws_run_get_timing (run));
      g_assert_null (ws_run_get_verify (run));
      g_assert_cmpuint (ws_run_get_errors (run)->len, ==, 0);
      g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_devices (session)), ==, 0);
      g_assert_null (ws_session_find_kernel (session, "k"));
      g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_kernels (session)), ==, 0);
      g_assert_false (ws_session_get_progress (session, NULL, NULL));
      g_assert_false (ws_session_is_done (session, NULL, NULL));
      /* And the stream goes on. */
      g_assert_true (ws_session_feed_line (session, KERNEL, -1, NULL));
      g_assert_cmpuint (ws_session_get_n_activities (session), ==, 1);
    }
}

/* The hello's and the catalog's words are read through json-glib, whose string getters
 * give NULL for a number (a date of 5 was a strlen of NULL in the CLI's report) and fail an
 * assertion for an array: such a record is refused with the field named. */
static void
test_text_fields (void)
{
  static const char *const kernels[] = {
    "{\"type\":\"kernel\",\"name\":\"k\",\"title\":5}",
    "{\"type\":\"kernel\",\"name\":[\"k\"]}",
    "{\"type\":\"kernel\",\"name\":\"k\",\"description\":{\"en\":\"x\"}}",
  };
  static const char *const fields[] = { "title", "name", "description" };

  for (guint i = 0; i < G_N_ELEMENTS (kernels); i++)
    {
      g_autoptr (WsSession) session = fed_session ();
      g_autoptr (GError) error = NULL;
      g_autofree char *problem = g_strdup_printf ("field \"%s\" is not text (a string in quotes)",
                                                  fields[i]);

      g_assert_false (ws_session_feed_line (session, kernels[i], -1, &error));
      g_assert_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_MALFORMED);
      g_assert_cmpstr (last_problem (session)->message, ==, problem);
      g_assert_null (ws_session_find_kernel (session, "k"));
    }

  {
    g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_RECORDING);
    g_autoptr (GError) error = NULL;

    g_assert_false (ws_session_feed_line (
      session, "{\"type\":\"hello\",\"protocol\":1,\"time\":5}", -1, &error));
    g_assert_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_NOT_A_SESSION);
    g_assert_nonnull (strstr (error->message, "field \"time\" is not text"));
    g_assert_null (ws_session_dup_date (session));
  }
  {
    g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_RECORDING);

    /* null is "not known", as for numbers. */
    g_assert_true (ws_session_feed_line (
      session, "{\"type\":\"hello\",\"protocol\":1,\"time\":null,\"host\":null}", -1, NULL));
    g_assert_null (ws_session_dup_date (session));
  }
}

/* The extremes that are allowed are read exactly. */
static void
test_numbers_at_the_edge (void)
{
  g_autoptr (WsSession) session = fed_session ();
  const char *lines[] = {
    "{\"type\":\"run\",\"id\":2147483647,\"seed\":18446744073709551615,\"shape\":[9007199254740992]}",
    "{\"type\":\"launch\",\"run\":2147483647,\"occupancy\":1,\"registers\":65535}",
    "{\"type\":\"activity\",\"run\":2147483647,\"kind\":\"kernel\",\"start\":-9007199254740992,"
    "\"end\":9007199254740992,\"rep\":4294967295}",
    "{\"type\":\"done\",\"exit_code\":255,\"dropped_records\":9007199254740992}",
  };
  WsRun *run;
  guint n;
  const WsSpan *a;
  gint64 dropped;
  int exit_code;

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    g_assert_true (ws_session_feed_line (session, lines[i], -1, NULL));
  g_assert_cmpuint (ws_session_get_problems (session)->len, ==, 0);
  run = ws_session_find_run (session, G_MAXINT32);
  g_assert_nonnull (run);
  g_assert_cmpuint (ws_run_get_config (run)->seed, ==, G_MAXUINT64);
  g_assert_cmpuint (ws_run_get_config (run)->shape[0], ==, WS_SPAN_MAX_TIME_NS);
  g_assert_cmpfloat (ws_run_get_launch (run)->occupancy, ==, 1.0);
  a = ws_run_get_activities (run, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (a[0].start, ==, -WS_SPAN_MAX_TIME_NS);
  g_assert_cmpint (ws_span_duration (&a[0]), ==, 2 * WS_SPAN_MAX_TIME_NS);
  g_assert_cmpuint (a[0].rep, ==, G_MAXUINT32);
  g_assert_true (ws_session_is_done (session, &exit_code, &dropped));
  g_assert_cmpint (exit_code, ==, 255);
  g_assert_cmpint (dropped, ==, WS_SPAN_MAX_TIME_NS);
}

/* Every integer the fast path reads: at the ends of its range it reads what the general path
 * reads, one beyond it leaves the line to the general path, which refuses it. */
static void
test_fast_path_ranges (void)
{
  static const struct
  {
    const char *field;
    gint64 min, max;
  } fields[] = {
    { "run", 0, G_MAXINT32 },
    { "rep", 0, G_MAXUINT32 },
    { "start", -WS_SPAN_MAX_TIME_NS, 0 }, /* the end is 0 */
    { "end", 0, WS_SPAN_MAX_TIME_NS },    /* the start is 0 */
    { "bytes", 0, WS_SPAN_MAX_TIME_NS },
    { "stream", 0, G_MAXUINT32 },
    { "correlation", 0, G_MAXUINT32 },
    { "registers", 0, G_MAXUINT16 },
    { "static_smem", 0, 1 << 29 },
    { "dynamic_smem", 0, 1 << 29 },
    { "threads", 0, G_MAXUINT16 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    for (int k = 0; k < 4; k++)
      {
        gint64 v = k == 0 ? fields[i].min - 1 : k == 1 ? fields[i].min
                   : k == 2                       ? fields[i].max
                                                  : fields[i].max + 1;
        gboolean in_range = k == 1 || k == 2;
        gboolean start_end = g_str_equal (fields[i].field, "start") || g_str_equal (fields[i].field, "end");
        /* Run 1 exists; other ids are announced first. */
        g_autofree char *line = g_strdup_printf (
          "{\"type\":\"activity\",\"kind\":\"kernel\"%s,\"%s\":%" G_GINT64_FORMAT "}",
          start_end ? (g_str_equal (fields[i].field, "start") ? ",\"end\":0" : ",\"start\":0")
                    : "",
          fields[i].field, v);
        g_autofree char *moved = g_strdup_printf ("{\"x\":0,%s", line + 1);
        g_autoptr (WsSession) session = fed_session ();
        WsSpan fast;
        guint32 run;
        guint n;

        g_test_message ("%s", line);
        if (g_str_equal (fields[i].field, "run") && in_range)
          {
            g_autofree char *announce = g_strdup_printf ("{\"type\":\"run\",\"id\":%" G_GINT64_FORMAT "}", v);

            ws_session_feed_line (session, announce, -1, NULL);
          }
        g_assert_true (_ws_session_parse_activity (line, strlen (line), &fast, &run) == in_range);
        g_assert_true (ws_session_feed_line (session, line, -1, NULL) == in_range);
        g_assert_true (ws_session_feed_line (session, moved, -1, NULL) == in_range);
        g_assert_cmpuint (ws_session_get_n_activities (session), ==, in_range ? 2 : 0);
        g_assert_cmpuint (ws_session_get_problems (session)->len, ==, in_range ? 0 : 2);
        if (in_range)
          {
            WsRun *r = ws_session_find_run (session, g_str_equal (fields[i].field, "run") ? (int) v : 1);
            const WsSpan *a = ws_run_get_activities (r, &n);

            g_assert_cmpuint (n, ==, 2);
            g_assert_cmpmem (&a[0], sizeof *a, &a[1], sizeof *a);
          }
      }
}

/* The fast path takes only what the general path takes: junk in a field it skips is not let
 * through. */
static void
test_fast_path_strict (void)
{
  static const struct
  {
    const char *x;
    gboolean valid;
  } values[] = {
    { "tru", FALSE },     { "nul", FALSE },  { "[1,]", FALSE },    { "[1 2]", FALSE },
    { "1x", FALSE },      { "-", FALSE },    { "1.", FALSE },      { "1e", FALSE },
    { "\"\x01\"", FALSE }, { "1e400", FALSE }, { "[[1],[2", FALSE }, { "\"\xc3\x28\"", FALSE },
    { "true", TRUE },     { "null", TRUE },  { "[1,[2,[]]]", TRUE }, { "-1.5e-7", TRUE },
    { "[]", TRUE },       { "\"é\"", TRUE }, { "1E+20", TRUE },    { "\"a\\\"b\"", TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *line = g_strdup_printf ("{\"type\":\"activity\",\"run\":1,\"kind\":\"kernel\","
                                               "\"start\":1,\"end\":2,\"x\":%s}",
                                               values[i].x);
      g_autoptr (WsSession) session = fed_session ();
      WsSpan a;
      guint32 run;

      {
        /* The TAP log is UTF-8: a case of invalid UTF-8 is shown escaped. */
        g_autofree char *shown = g_strescape (line, NULL);

        g_test_message ("%s", shown);
      }
      if (!values[i].valid)
        g_assert_false (_ws_session_parse_activity (line, strlen (line), &a, &run));
      g_assert_true (ws_session_feed_line (session, line, -1, NULL) == values[i].valid);
      g_assert_cmpuint (ws_session_get_n_activities (session), ==, values[i].valid);
      g_assert_cmpuint (ws_session_get_problems (session)->len, ==, !values[i].valid);
    }
}

/* A name given twice means its last value on both paths (as json-glib takes it too). */
static void
test_duplicate_names (void)
{
  const char *line = "{\"type\":\"activity\",\"run\":1,\"kind\":\"memcpy\",\"start\":5,\"end\":9,"
                     "\"start\":1,\"kind\":\"kernel\"}";
  g_autofree char *moved = g_strdup_printf ("{\"x\":0,%s", line + 1);
  g_autoptr (WsSession) session = fed_session ();
  const WsSpan *a;
  guint n;

  g_assert_true (ws_session_feed_line (session, line, -1, NULL));
  g_assert_true (ws_session_feed_line (session, moved, -1, NULL));
  a = ws_run_get_activities (ws_session_find_run (session, 1), &n);
  g_assert_cmpuint (n, ==, 2);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpint (a[i].start, ==, 1);
      g_assert_cmpuint (a[i].kind, ==, WS_ACTIVITY_KERNEL);
    }
}

/* A grid whose three dimensions multiply past 2^64 is not judged: 30041 × 409891 ×
 * 2996173443 is 2 × 2^64 + 1, which once wrapped around to one block, "a small grid". */
static void
test_huge_grid (void)
{
  g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  const char *lines[] = {
    HELLO,
    "{\"type\":\"device\",\"name\":\"GPU\",\"sm_count\":132,\"max_threads_per_sm\":2048,"
    "\"max_blocks_per_sm\":32}",
    "{\"type\":\"run\",\"id\":1,\"kernel\":\"k\",\"shape\":[1000],\"block\":[256,1,1],"
    "\"grid\":[30041,409891,2996173443]}",
    "{\"type\":\"launch\",\"run\":1,\"threads_per_block\":256,\"active_blocks_per_sm\":7,"
    "\"occupancy\":1}",
    "{\"type\":\"verify\",\"run\":1,\"pass\":true}",
    "{\"type\":\"timing\",\"run\":1,\"kernel_ns\":{\"median\":1000}}",
    DONE,
  };
  g_autoptr (GPtrArray) findings = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    g_assert_true (ws_session_feed_line (session, lines[i], -1, NULL));
  findings = ws_analyze_session (session);
  for (guint i = 0; i < findings->len; i++)
    {
      WsFinding *f = g_ptr_array_index (findings, i);

      g_assert_cmpint (f->kind, !=, WS_FINDING_SMALL_GRID);
      g_assert_cmpint (f->kind, !=, WS_FINDING_TAIL_EFFECT);
    }
}

/* The longest activities the reader takes, many of them: sums of their times stay right
 * (the copies' total once overflowed into a negative time, and the small-copies finding
 * vanished), and a window over all time has a positive span. */
static void
test_longest_activities (void)
{
  g_autoptr (WsSession) session = fed_session ();
  g_autoptr (GPtrArray) findings = NULL;
  gboolean small_copies = FALSE;
  WsTotals t;

  for (guint i = 0; i < 600; i++)
    {
      g_autofree char *line = g_strdup_printf (
        "{\"type\":\"activity\",\"run\":1,\"phase\":\"sequence\",\"kind\":\"memcpy\","
        "\"start\":-9007199254740992,\"end\":9007199254740992,\"direction\":\"htod\","
        "\"bytes\":1000,\"host_memory\":\"pinned\",\"stream\":7,\"correlation\":%u}",
        i);

      g_assert_true (ws_session_feed_line (session, line, -1, NULL));
    }
  g_assert_true (ws_session_feed_line (session, "{\"type\":\"verify\",\"run\":1,\"pass\":true}",
                                       -1, NULL));
  g_assert_true (ws_session_feed_line (session, "{\"type\":\"timing\",\"run\":1,"
                                                "\"kernel_ns\":{\"median\":1000}}",
                                       -1, NULL));
  ws_session_end (session);
  findings = ws_analyze_session (session);
  for (guint i = 0; i < findings->len; i++)
    small_copies |= ((WsFinding *) g_ptr_array_index (findings, i))->kind == WS_FINDING_SMALL_COPIES;
  g_assert_true (small_copies);
  ws_session_get_window_totals (session, G_MININT64, G_MAXINT64, &t);
  g_assert_cmpint (t.span_ns, >, 0);
  g_assert_cmpint (t.copy_ns, ==, 2 * WS_SPAN_MAX_TIME_NS);
  g_assert_cmpint (t.idle_ns, ==, t.span_ns - t.copy_ns);
}

/* Activities the reader would refuse, made past it, across the whole of int64: the run's
 * totals and the copies' analysis saturate instead of overflowing (UBSan: "signed integer
 * overflow" in ws_span_duration and in the union of spans, under build-asan). */
static void
test_unbounded_activities (void)
{
  g_autoptr (WsSession) session = fed_session ();
  g_autoptr (GPtrArray) findings = NULL;
  WsRun *run = ws_session_find_run (session, 1);
  const WsSpan copies[] = {
    { .start = G_MININT64, .end = G_MAXINT64, .kind = WS_ACTIVITY_MEMCPY,
      .phase = WS_PHASE_SEQUENCE, .direction = WS_COPY_HTOD, .bytes = 1000 },
    { .start = G_MININT64 + 1, .end = G_MAXINT64, .kind = WS_ACTIVITY_KERNEL,
      .phase = WS_PHASE_SEQUENCE, .name = "k" },
  };
  WsSpan a = { .start = G_MININT64, .end = G_MAXINT64 };
  WsTotals t;

  g_assert_cmpint (ws_span_duration (&a), ==, G_MAXINT64);
  a = (WsSpan) { .start = G_MAXINT64, .end = G_MININT64 };
  g_assert_cmpint (ws_span_duration (&a), ==, G_MININT64);
  a = (WsSpan) { .start = -5, .end = 7 };
  g_assert_cmpint (ws_span_duration (&a), ==, 12);
  g_assert_cmpint (ws_ns_add_saturated (G_MAXINT64, 1), ==, G_MAXINT64);
  g_assert_cmpint (ws_ns_add_saturated (G_MININT64, -1), ==, G_MININT64);

  g_assert_nonnull (run);
  for (guint i = 0; i < G_N_ELEMENTS (copies); i++)
    _ws_run_append_activity (run, &copies[i]);
  _ws_run_finish_activities (run);
  ws_run_get_totals (run, &t);
  g_assert_cmpint (t.span_ns, ==, G_MAXINT64);
  g_assert_cmpint (t.copy_ns, ==, G_MAXINT64);
  g_assert_cmpint (t.kernel_ns, ==, G_MAXINT64);
  g_assert_cmpint (t.overlap_ns, >=, 0);
  g_assert_cmpint (t.idle_ns, ==, 0);
  ws_session_end (session);
  findings = ws_analyze_run (session, run);
  g_assert_nonnull (findings);
}

/* The parser keeps integers exact up to 2^64 - 1, long numbers whole, and hands out no
 * number its C type cannot hold. */
static void
test_record_numbers (void)
{
  g_autofree char *zeros = repeat ('0', 80);
  g_autofree char *text = g_strdup_printf ("{\"big\":18446744073709551615,\"min\":-9223372036854775808,"
                                           "\"huge\":1e300,\"tiny\":0.%s1,\"half\":2.5,"
                                           "\"list\":[1e300,-1e300,7]}",
                                           zeros);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRecord) r = ws_record_parse (text, strlen (text), NULL, &error);
  gint64 list[3];

  g_assert_no_error (error);
  g_assert_cmpuint (ws_record_uint (r, WS_RECORD_ROOT, "big", 0), ==, G_MAXUINT64);
  g_assert_cmpint (ws_record_int (r, WS_RECORD_ROOT, "big", -1), ==, -1);
  g_assert_cmpint (ws_record_int (r, WS_RECORD_ROOT, "min", 0), ==, G_MININT64);
  g_assert_cmpuint (ws_record_uint (r, WS_RECORD_ROOT, "min", 7), ==, 7);
  g_assert_cmpint (ws_record_int (r, WS_RECORD_ROOT, "huge", -1), ==, -1);
  g_assert_cmpfloat (ws_record_double (r, WS_RECORD_ROOT, "huge", 0), ==, 1e300);
  /* 84 characters: all of them count. */
  g_assert_cmpfloat_with_epsilon (ws_record_double (r, WS_RECORD_ROOT, "tiny", 0) * 1e81, 1.0,
                                  1e-12);
  g_assert_cmpint (ws_record_int (r, WS_RECORD_ROOT, "half", 0), ==, 2);
  g_assert_cmpuint (ws_record_ints (r, WS_RECORD_ROOT, "list", list, 3), ==, 3);
  g_assert_cmpint (list[0], ==, 0);
  g_assert_cmpint (list[1], ==, 0);
  g_assert_cmpint (list[2], ==, 7);
  g_assert_cmpuint (ws_record_offset (r, ws_record_member (r, WS_RECORD_ROOT, "huge")), ==,
                    (guint) (strstr (text, "1e300") - text));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/session-numbers/numbers-out-of-range", test_numbers_out_of_range);
  g_test_add_func ("/session-numbers/numbers-at-the-edge", test_numbers_at_the_edge);
  g_test_add_func ("/session-numbers/text-fields", test_text_fields);
  g_test_add_func ("/session-numbers/fast-path-ranges", test_fast_path_ranges);
  g_test_add_func ("/session-numbers/fast-path-strict", test_fast_path_strict);
  g_test_add_func ("/session-numbers/duplicate-names", test_duplicate_names);
  g_test_add_func ("/session-numbers/huge-grid", test_huge_grid);
  g_test_add_func ("/session-numbers/longest-activities", test_longest_activities);
  g_test_add_func ("/session-numbers/record-numbers", test_record_numbers);
  g_test_add_func ("/session-numbers/unbounded-activities", test_unbounded_activities);
  return g_test_run ();
}

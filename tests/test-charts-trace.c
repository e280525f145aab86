/* test-charts-trace.c: the charts of a program traced as it is (resources/samples/trace-*):
 * the time breakdown splits each program run's wall time on the GPU, from the trace's own
 * spans, and says so in its labels; the speedup chart and the roofline say why they have nothing to show;
 * the timeline draws its shortest spans inside the plot, names every range that has room, and
 * draws and names the wait for Numba's compile before a kernel's first launch.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "test-charts-util.h"
#include "ws-chart-breakdown-private.h"
#include "ws-chart-timeline-private.h"
#include "ws-trace-command.h"
#include "ws-trace.h"

static WsChartBase
base_for (WsAudience audience)
{
  return (WsChartBase) { ws_theme_get (WS_THEME_LIGHT), 1600, 900, 1, .audience = audience };
}

/* The tutorial's vector add as written: one bar over the program's wall time, in which the
 * GPU ran its kernel, copied both ways, and was idle nearly all the time (Python, Numba's
 * JIT); the kernel's share is its spans' own time. */
static void
test_breakdown_program (void)
{
  g_autoptr (WsSession) session = load_recording ("trace-vector-add-h200.jsonl");
  WsTrace *trace = ws_session_get_trace (session);
  WsChartBase base = base_for (WS_AUDIENCE_CLI);
  WsBreakdownData *d = _ws_breakdown_collect (session, &base);
  const WsBreakdownRow *row;
  guint n;
  const WsSpan *spans = ws_trace_get_spans (trace, &n);
  const WsTraceProgram *p = g_ptr_array_index (ws_trace_get_programs (trace), 0);
  gint64 start, end;
  double sum = 0, kernel_ns = 0;

  g_assert_null (d->frame.message);
  g_assert_cmpuint (d->rows->len, ==, 1);
  g_assert_cmpuint (d->legend.items->len, ==, WS_N_SEGMENTS);
  row = &g_array_index (d->rows, WsBreakdownRow, 0);
  g_assert_cmpstr (row->label, ==, "the program");
  g_assert_true (ws_trace_get_program_range (trace, p->id, &start, &end));
  g_assert_cmpint (row->span_ns, ==, end - start);
  for (int s = 0; s < WS_N_SEGMENTS; s++)
    {
      g_assert_cmpfloat (row->share[s], >=, 0);
      sum += row->share[s];
    }
  g_assert_cmpfloat (fabs (sum - 1), <, 1e-9);
  for (guint i = 0; i < n; i++)
    if (spans[i].kind == WS_ACTIVITY_KERNEL && spans[i].run == p->id)
      kernel_ns += (double) (spans[i].end - spans[i].start);
  /* One stream: nothing overlaps the kernels, so their share is their own time. */
  g_assert_cmpfloat (fabs (row->share[WS_SEGMENT_KERNEL] * row->span_ns - kernel_ns), <,
                     kernel_ns * 1e-6 + 1);
  g_assert_cmpfloat (row->share[WS_SEGMENT_H2D], >, 0);
  g_assert_cmpfloat (row->share[WS_SEGMENT_D2H], >, 0);
  g_assert_cmpfloat (row->share[WS_SEGMENT_IDLE], >, 0.9);
  g_assert_nonnull (strstr (row->right, "CUDA calls"));
  g_assert_nonnull (strstr (d->frame.title, "the traced program"));
  /* A bar is the program's wall time, not a run's copy-and-kernel sequences. */
  g_assert_cmpstr (d->whole, ==, "wall time");
  g_assert_cmpstr (d->axis_title, ==, "Share of the wall time (%)");
  _ws_breakdown_data_free (d);
}

/* A sweep over threads per block: a bar per program run, named by its values, drawn. */
static void
test_breakdown_sweep (void)
{
  g_autoptr (WsSession) session = load_recording ("trace-vector-add-tpb-sweep-h200.jsonl");
  WsTrace *trace = ws_session_get_trace (session);
  WsChartBase base = base_for (WS_AUDIENCE_CLI);
  WsBreakdownData *d = _ws_breakdown_collect (session, &base);
  GPtrArray *programs = ws_trace_get_programs (trace);
  g_autoptr (GPtrArray) sessions = one (session);
  g_autoptr (GBytes) svg = NULL;
  g_autofree char *text = NULL;
  WsChartOptions options;

  g_assert_cmpuint (programs->len, >, 1);
  g_assert_cmpuint (d->rows->len, ==, programs->len);
  for (guint i = 0; i < d->rows->len; i++)
    {
      const WsTraceProgram *p = g_ptr_array_index (programs, i);
      g_autofree char *params = ws_trace_describe_params (p);
      g_autofree char *label = g_strdup_printf ("run %u · %s", p->id, params);

      g_assert_cmpstr (g_array_index (d->rows, WsBreakdownRow, i).label, ==, label);
    }
  _ws_breakdown_data_free (d);
  ws_chart_options_init (&options, WS_CHART_BREAKDOWN, NULL, 1200, 700);
  svg = render (sessions, &options, WS_EXPORT_SVG, 1);
  text = svg_text_content (svg);
  g_assert_nonnull (strstr (text, "run 1 · "));
  g_assert_null (strstr (text, "No run has traced"));
  g_assert_nonnull (strstr (text, "Share of the wall time"));
  g_assert_null (strstr (text, "sequence span"));
  g_assert_null (strstr (text, "all sequences, summed"));
}

/* No CPU baseline, no bytes or FLOPs, no block sweep: the charts say so, in the words of who
 * reads them, and an export of them is refused with the same words. */
static void
test_empty_states (void)
{
  g_autoptr (WsSession) session = load_recording ("trace-vector-add-h200.jsonl");
  g_autoptr (GPtrArray) sessions = one (session);
  const struct
  {
    WsChartKind kind;
    WsAudience audience;
    const char *said;
  } cases[] = {
    { WS_CHART_SPEEDUP, WS_AUDIENCE_CLI, "has no CPU baseline, so there is no speedup: trace a "
                                         "sweep with --sweep" },
    { WS_CHART_SPEEDUP, WS_AUDIENCE_APP, "has no CPU baseline, so there is no speedup: trace it "
                                         "over one of its parameters (Trace a Program…" },
    { WS_CHART_ROOFLINE, WS_AUDIENCE_CLI, "do not say how many bytes they move" },
    { WS_CHART_BLOCKS, WS_AUDIENCE_CLI, "each kernel in one configuration, so there is no block "
                                        "size to compare: trace a sweep" },
    { WS_CHART_BLOCKS, WS_AUDIENCE_APP, "each kernel in one configuration, so there is no block "
                                        "size to compare: trace it over" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      WsChartOptions options;
      g_autoptr (GBytes) svg = NULL;
      g_autofree char *text = NULL;
      g_autofree char *wanted = g_markup_escape_text (cases[i].said, -1);
      g_autoptr (GError) error = NULL;

      ws_chart_options_init (&options, cases[i].kind, NULL, 1600, 900);
      options.audience = cases[i].audience;
      svg = render (sessions, &options, WS_EXPORT_SVG, 1);
      text = svg_text_content (svg);
      /* The sentence wraps: its first words are on the first line. */
      wanted[40] = '\0';
      g_assert_nonnull (strstr (text, wanted));
      g_assert_false (ws_chart_check (sessions, &options, &error));
      g_assert_nonnull (strstr (error->message, cases[i].said));
    }
}

/* The breakdown's numbers of a traced sweep as CSV: a row per program run, with its values
 * (not the chart's translated label) and shares that sum to 1, as the chart draws them. */
static void
test_breakdown_csv (void)
{
  g_autoptr (WsSession) session = load_recording ("trace-vector-add-tpb-sweep-h200.jsonl");
  g_autoptr (GPtrArray) sessions = g_ptr_array_new ();
  g_autoptr (GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autoptr (GError) error = NULL;
  WsChartOptions options = { 0 };
  g_auto (GStrv) lines = NULL;
  g_autofree char *text = NULL;

  options.kind = WS_CHART_BREAKDOWN;
  options.theme = ws_theme_get (WS_THEME_LIGHT);
  g_ptr_array_add (sessions, session);
  g_assert_true (ws_export_csv_to_stream (sessions, &options, stream, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (stream, "", 1, NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (stream, NULL, NULL));
  text = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (stream));
  lines = g_strsplit (text, "\r\n", -1);
  g_assert_cmpstr (lines[0], ==, "session,program_run,params,wall_ns,h2d_share,kernel_share,"
                                 "d2h_share,other_share,idle_share,copy_share");
  g_assert_cmpuint (g_strv_length (lines), ==, 8); /* the header, six runs, "" */
  for (guint i = 1; i <= 6; i++)
    {
      g_auto (GStrv) f = g_strsplit (lines[i], ",", -1);
      double sum = 0;

      g_assert_cmpuint (g_strv_length (f), ==, 10);
      g_assert_cmpint (atoi (f[1]), ==, (int) i);
      g_assert_true (g_str_has_prefix (f[2], "TPB="));
      g_assert_cmpfloat (g_ascii_strtod (f[3], NULL), >, 1e9);
      for (guint k = 4; k <= 8; k++)
        sum += g_ascii_strtod (f[k], NULL);
      g_assert_cmpfloat_with_epsilon (sum, 1.0, 1e-9);
      g_assert_cmpfloat (g_ascii_strtod (f[8], NULL), >, 0.9); /* idle, as the chart shows */
    }
  g_assert_cmpstr (lines[7], ==, "");
}

/* The row of the first lane of `category` in a traced program's timeline, and how many rows. */
static int
trace_row (WsSession *session, WsLaneCategory category, guint *n_rows, WsColor *color)
{
  WsChartBase base = base_for (WS_AUDIENCE_CLI);
  WsTimelineOptions options = { 0 };
  WsTimelineData *d = _ws_timeline_collect (session, &base, &options);
  GArray *rows = d->groups[0].rows;
  int found = -1;

  *n_rows = rows->len;
  for (guint i = 0; i < rows->len && found < 0; i++)
    if (_ws_timeline_row_category (&g_array_index (rows, WsTimelineRow, i)) == category)
      {
        found = (int) i;
        *color = _ws_timeline_row_color (base.theme, &g_array_index (rows, WsTimelineRow, i));
      }
  _ws_timeline_data_free (d);
  return found;
}

/* The torch program's one D2H copy, 3 µs of 4 bytes, ends 10 µs before the trace's last call:
 * a pixel wide, where it ran, inside the plot (rounded, it fell a pixel past the plot's right
 * edge, and its lane looked empty). */
static void
test_timeline_short_copy (void)
{
  g_autoptr (WsSession) session = load_recording ("trace-torch-matmul-h200.jsonl");
  g_autoptr (GPtrArray) sessions = one (session);
  WsTrace *trace = ws_session_get_trace (session);
  WsChartOptions options;
  WsTimelineGeometry g;
  g_autoptr (GBytes) png = NULL;
  cairo_surface_t *image;
  guint n_spans, n_rows, copies = 0;
  const WsSpan *spans = ws_trace_get_spans (trace, &n_spans);
  WsColor color;
  int row = trace_row (session, WS_LANE_D2H, &n_rows, &color), y, hit = -1;
  double at = 0;

  for (guint i = 0; i < n_spans; i++)
    if (spans[i].kind == WS_ACTIVITY_MEMCPY && spans[i].direction == WS_COPY_DTOH)
      {
        copies++;
        g_assert_cmpint (spans[i].end - spans[i].start, <, 5000);
        at = (double) spans[i].start;
      }
  g_assert_cmpuint (copies, ==, 1);
  g_assert_cmpint (row, >=, 0);
  ws_chart_options_init (&options, WS_CHART_TIMELINE, NULL, 1600, 900);
  ws_timeline_get_geometry (session, &options, &g);
  png = render (sessions, &options, WS_EXPORT_PNG, 1);
  image = decode_png (png);
  cairo_surface_flush (image);
  y = (int) (g.plot_y + (row + 0.5) * g.plot_height / n_rows);
  for (int x = (int) g.plot_x; x < (int) (g.plot_x + g.plot_width); x++)
    if (pixel_is (image, x, y, &color))
      hit = x;
  g_assert_cmpint (hit, >=, 0);
  g_assert_cmpfloat (fabs (hit - (g.plot_x + (at - (double) g.start) / (double) (g.end - g.start)
                                               * g.plot_width)),
                     <=, 2);
  cairo_surface_destroy (image);
}

/* A program that marks an epoch and, inside it, its forward and backward passes (push/pop
 * ranges nest), then a step that starts as the epoch ends, with a short name. */
static WsSession *
nested_ranges (void)
{
  static const char *const records[] = {
    "{\"type\":\"hello\",\"t\":0,\"pid\":7,\"protocol\":2,\"source\":\"trace\","
    "\"command\":[\"python3\",\"train.py\"]}",
    "{\"type\":\"activity\",\"pid\":7,\"kind\":\"api\",\"start\":0,\"end\":2000000,"
    "\"api\":\"driver\",\"name\":\"cuInit\",\"thread\":7}",
    "{\"type\":\"activity\",\"pid\":7,\"kind\":\"nvtx\",\"start\":10000000,"
    "\"end\":80000000,\"nvtx\":\"range\",\"name\":\"epoch 1\",\"thread\":7}",
    "{\"type\":\"activity\",\"pid\":7,\"kind\":\"nvtx\",\"start\":12000000,"
    "\"end\":40000000,\"nvtx\":\"range\",\"name\":\"forward\",\"thread\":7}",
    "{\"type\":\"activity\",\"pid\":7,\"kind\":\"nvtx\",\"start\":50000000,"
    "\"end\":78000000,\"nvtx\":\"range\",\"name\":\"backward\",\"thread\":7}",
    "{\"type\":\"activity\",\"pid\":7,\"kind\":\"nvtx\",\"start\":80000000,"
    "\"end\":84000000,\"nvtx\":\"range\",\"name\":\"step\",\"thread\":7}",
    "{\"type\":\"activity\",\"pid\":7,\"kind\":\"api\",\"start\":98000000,"
    "\"end\":100000000,\"api\":\"runtime\",\"name\":\"cudaFree\",\"thread\":7}",
    "{\"type\":\"trace_end\",\"pid\":7,\"reason\":\"exit\",\"exit_status\":0}",
  };
  g_autoptr (GPtrArray) lines = g_ptr_array_new ();

  for (guint i = 0; i < G_N_ELEMENTS (records); i++)
    g_ptr_array_add (lines, (gpointer) records[i]);
  return session_from_lines (lines);
}

/* Every NVTX range whose name fits shows it: the ranges inside a named one too, and one as
 * wide as its short name, not only those four lines of text wide. */
static void
test_timeline_range_names (void)
{
  g_autoptr (WsSession) session = nested_ranges ();
  g_autoptr (GPtrArray) sessions = one (session);
  static const char *const names[] = { "epoch 1", "forward", "backward", "step" };
  WsChartOptions options;
  g_autoptr (GBytes) svg = NULL;
  g_autofree char *text = NULL;

  g_assert_nonnull (ws_session_get_trace (session));
  /* 4 ms of 100 ms on a plot about 1,400 px wide: some 55 px for "step". */
  ws_chart_options_init (&options, WS_CHART_TIMELINE, NULL, 1600, 900);
  svg = render (sessions, &options, WS_EXPORT_SVG, 1);
  text = svg_text_content (svg);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_test_message ("%s", names[i]);
      g_assert_nonnull (strstr (text, names[i]));
    }
}

/* The waits the session's analysis found with the trace's findings (what the timeline draws). */
static GArray *
waits_of (WsSession *session)
{
  WsSessionAnalysis *analysis = ws_session_get_analysis (session);

  ws_session_analysis_ensure (analysis);
  return ws_session_analysis_dup_code_waits (analysis);
}

/* The traced tutorial's story: add_kernel's first call waited 1.08 s for Numba's compile, the
 * "Compile timed" finding's wait, and the timeline draws that wait in the JIT lane, named,
 * in every format, with its hover text there (it was an unnamed gap with three hairlines). */
static void
test_timeline_compile_wait (void)
{
  g_autoptr (WsSession) session = load_recording ("trace-vector-add-h200.jsonl");
  g_autoptr (GPtrArray) sessions = one (session);
  g_autoptr (GPtrArray) findings = ws_analyze_trace (session);
  WsTrace *trace = ws_session_get_trace (session);
  g_autoptr (GArray) waits = waits_of (session);
  const WsCodeWait *w;
  const WsFinding *timed = NULL;
  guint n_spans, n_rows;
  const WsSpan *spans = ws_trace_get_spans (trace, &n_spans);
  g_autofree char *length = NULL, *label = NULL, *hover = NULL, *svg_text = NULL;
  g_autoptr (GBytes) svg = NULL, pdf = NULL, png = NULL;
  WsChartOptions options;
  WsTimelineGeometry g;
  WsColor jit, pale = _ws_timeline_wait_color (ws_theme_get (WS_THEME_LIGHT));
  cairo_surface_t *image;
  int row;
  double x, y;
  guint span;

  /* The model's wait is the finding's: the same kernel, the same length, up to the launch. */
  g_assert_cmpuint (waits->len, ==, 1);
  w = &g_array_index (waits, WsCodeWait, 0);
  g_assert_cmpint (w->kind, ==, WS_CODE_WAIT_NUMBA);
  g_assert_cmpuint (w->launch, <, n_spans);
  g_assert_cmpint (spans[w->launch].kind, ==, WS_ACTIVITY_API);
  g_assert_cmpint (w->end, ==, spans[w->launch].start);
  g_assert_cmpint (w->driver_ns, >, 0);
  for (guint i = 0; i < findings->len && timed == NULL; i++)
    if (((WsFinding *) g_ptr_array_index (findings, i))->kind == WS_FINDING_TIMED_COMPILE)
      timed = g_ptr_array_index (findings, i);
  g_assert_nonnull (timed);
  g_assert_true (timed->kernel == w->kernel);
  g_assert_cmpfloat_with_epsilon (timed->value, (double) (w->end - w->start) / 1e6, 1e-9);
  length = ws_units_duration ((double) (w->end - w->start));
  g_assert_cmpstr (length, ==, "1.08 s");
  g_assert_nonnull (strstr (timed->title, length));

  /* Named in the JIT lane, as text in SVG and PDF. */
  label = g_strdup_printf ("Numba compile · %s", length);
  ws_chart_options_init (&options, WS_CHART_TIMELINE, NULL, 1600, 900);
  svg = render (sessions, &options, WS_EXPORT_SVG, 1);
  svg_text = svg_text_content (svg);
  g_assert_nonnull (strstr (svg_text, label));
  pdf = render (sessions, &options, WS_EXPORT_PDF, 1);
  check_pdf (pdf, 1600, 900, (const char *const[]) { label, NULL });

  /* Drawn in the PNG: pale in its middle, where no JIT record is. */
  row = trace_row (session, WS_LANE_JIT, &n_rows, &jit);
  g_assert_cmpint (row, >=, 0);
  ws_timeline_get_geometry (session, &options, &g);
  x = g.plot_x + ((double) (w->start + (w->end - w->start) / 4) - (double) g.start)
                     / (double) (g.end - g.start) * g.plot_width;
  y = g.plot_y + (row + 0.5) * g.plot_height / n_rows;
  png = render (sessions, &options, WS_EXPORT_PNG, 1);
  image = decode_png (png);
  cairo_surface_flush (image);
  g_assert_true (pixel_is (image, (int) x, (int) y, &pale));
  cairo_surface_destroy (image);

  /* The hover there tells of the wait, as the finding does; no span is there. */
  hover = ws_timeline_dup_trace_tooltip (session, &options, x, y);
  g_assert_nonnull (hover);
  g_assert_true (g_str_has_prefix (hover, label));
  g_assert_nonnull (strstr (hover, "The first call of add_kernel waited 1.08 s for Numba's "
                                   "compile"));
  g_assert_false (ws_timeline_pick_trace (session, &options, x, y, &span));
}

/* The torch program's first launches waited for cuBLAS's modules, which its API lane shows
 * as calls: no compile, so no JIT lane and nothing named one. */
static void
test_timeline_module_load_wait (void)
{
  g_autoptr (WsSession) session = load_recording ("trace-torch-matmul-h200.jsonl");
  g_autoptr (GPtrArray) sessions = one (session);
  g_autoptr (GArray) waits = waits_of (session);
  g_autoptr (GBytes) svg = NULL;
  g_autofree char *text = NULL;
  WsChartOptions options;
  WsColor color;
  guint n_rows;

  g_assert_cmpuint (waits->len, >, 0);
  for (guint i = 0; i < waits->len; i++)
    g_assert_cmpint (g_array_index (waits, WsCodeWait, i).kind, ==, WS_CODE_WAIT_MODULE_LOAD);
  g_assert_cmpint (trace_row (session, WS_LANE_JIT, &n_rows, &color), ==, -1);
  ws_chart_options_init (&options, WS_CHART_TIMELINE, NULL, 1600, 900);
  svg = render (sessions, &options, WS_EXPORT_SVG, 1);
  text = svg_text_content (svg);
  g_assert_null (strstr (text, "Module load"));
  g_assert_null (strstr (text, "waiting for a compile"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/charts/trace/breakdown-program", test_breakdown_program);
  g_test_add_func ("/charts/trace/breakdown-sweep", test_breakdown_sweep);
  g_test_add_func ("/charts/trace/empty-states", test_empty_states);
  g_test_add_func ("/charts/trace/breakdown-csv", test_breakdown_csv);
  g_test_add_func ("/charts/trace/timeline-short-copy", test_timeline_short_copy);
  g_test_add_func ("/charts/trace/timeline-range-names", test_timeline_range_names);
  g_test_add_func ("/charts/trace/timeline-compile-wait", test_timeline_compile_wait);
  g_test_add_func ("/charts/trace/timeline-module-load-wait", test_timeline_module_load_wait);
  return g_test_run ();
}

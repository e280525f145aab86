/* test-charts-render.c: every chart drawn from every bundled recording onto image, SVG and PDF
 * surfaces and read back: what each collected (title, legend, sentence) is in the files; in
 * every theme; empty, one-run and all-equal sessions; presentation mode, a run picked, two
 * recordings overlaid, CJK text. With WS_CHARTS_OUTPUT_DIR set, the examples that the CLI
 * cannot draw (a zoom onto three sequences of one run) are written there.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "test-charts-util.h"
#include "ws-chart-blocks-private.h"
#include "ws-chart-breakdown-private.h"
#include "ws-chart-roofline-private.h"
#include "ws-chart-speedup-private.h"

/* ---- every chart from every recording --------------------------------------------------- */

typedef struct
{
  guint sample;
  WsChartKind kind;
} RenderCase;

/* Strings each chart must show whatever the recording: its title and an axis or lane. */
static const char *const *
expected_text (WsChartKind kind)
{
  static const char *const timeline[] = { "Timeline", "Kernels", "since start", NULL };
  static const char *const speedup[] = { "Speedup over the CPU", "size n", NULL };
  static const char *const blocks[] = { "Block size", "Kernel time", NULL };
  static const char *const occupancy[] = { "Occupancy", "Threads per block",
                                           "Registers per thread", NULL };
  static const char *const breakdown[] = { "Time breakdown", "Share of the sequence span",
                                           NULL };
  /* Kernels without arithmetic (a transpose) get bars against the bandwidth instead. */
  static const char *const roofline[] = { "Roofline", "Achieved", NULL };
  static const char *const params[] = { "Kernel time over", "(tunable parameter)", NULL };
  static const char *const *all[] = { timeline, speedup, blocks, occupancy, breakdown,
                                      roofline, params };

  G_STATIC_ASSERT (G_N_ELEMENTS (all) == WS_N_CHARTS);

  return all[kind];
}

/* The legend a chart collected, if it collects one (the timeline's follows its rows). */
static const WsLegend *
collected_legend (WsChartKind kind, gconstpointer data)
{
  switch (kind)
    {
    case WS_CHART_SPEEDUP:
      return &((const WsSpeedupData *) data)->legend;
    case WS_CHART_BLOCKS:
      {
        const WsBlocksData *d = data;

        return d->heatmap ? &d->heatmap->legend : &d->legend;
      }
    case WS_CHART_BREAKDOWN:
      return &((const WsBreakdownData *) data)->legend;
    case WS_CHART_PARAMS:
      {
        const WsBlocksData *d = data;

        return d->params ? &d->params->legend : &d->legend;
      }
    case WS_CHART_ROOFLINE:
      return &((const WsRooflineData *) data)->legend;
    case WS_CHART_TIMELINE:
    case WS_CHART_OCCUPANCY:
    default:
      return NULL;
    }
}

/* What the chart collected is what the files show: its title in the SVG's and the PDF's text,
 * and every entry of its legend in the SVG's. */
static void
check_collected (GPtrArray *sessions, const WsChartOptions *options, GBytes *svg, GBytes *pdf)
{
  WsChartRequest request;
  gpointer data;
  const WsChartFrame *frame;
  const WsLegend *legend;
  g_autoptr (GPtrArray) expect = g_ptr_array_new ();

  _ws_chart_request_init (&request, sessions, options);
  data = _ws_chart_collect (&request);
  frame = data;
  legend = collected_legend (options->kind, data);
  g_assert_nonnull (frame->title);
  g_ptr_array_add (expect, frame->title);
  g_ptr_array_add (expect, NULL);
  check_pdf (pdf, options->width, options->height, (const char *const *) expect->pdata);
  g_ptr_array_remove_index (expect, 1);
  for (guint i = 0; legend && i < legend->items->len; i++)
    g_ptr_array_add (expect, (gpointer) g_array_index (legend->items, WsLegendItem, i).label);
  if (frame->message)
    g_ptr_array_add (expect, frame->message);
  g_ptr_array_add (expect, NULL);
  check_svg (svg, options->width, options->height, (const char *const *) expect->pdata);
  _ws_chart_class (options->kind)->free (data);
}

static void
test_render (gconstpointer data)
{
  const RenderCase *c = data;
  WsSession *session = g_ptr_array_index (samples, c->sample);
  g_autoptr (GPtrArray) sessions = one (session);
  const WsTheme *theme = ws_theme_get (WS_THEME_LIGHT);
  WsChartOptions options;
  g_autoptr (GBytes) png = NULL, png2 = NULL, svg = NULL, pdf = NULL;

  ws_chart_options_init (&options, c->kind, theme, 1600, 900);
  png = render (sessions, &options, WS_EXPORT_PNG, 1);
  check_png (png, 1600, 900, theme);
  png2 = render (sessions, &options, WS_EXPORT_PNG, 2);
  check_png (png2, 3200, 1800, theme);
  svg = render (sessions, &options, WS_EXPORT_SVG, 1);
  check_svg (svg, 1600, 900, expected_text (c->kind));
  pdf = render (sessions, &options, WS_EXPORT_PDF, 1);
  check_collected (sessions, &options, svg, pdf);
}

static void
test_render_themes (void)
{
  for (int t = WS_THEME_LIGHT; t <= WS_THEME_PRINT; t++)
    {
      const WsTheme *theme = ws_theme_get ((WsThemeKind) t);

      for (guint s = 0; s < samples->len; s++)
        {
          g_autoptr (GPtrArray) sessions = one (g_ptr_array_index (samples, s));

          for (int k = 0; k < WS_N_CHARTS; k++)
            {
              WsChartOptions options;
              g_autoptr (GBytes) png = NULL;

              ws_chart_options_init (&options, (WsChartKind) k, theme, 800, 500);
              png = render (sessions, &options, WS_EXPORT_PNG, 1);
              check_png (png, 800, 500, theme);
            }
        }
    }
}

/* ---- sessions at the edges -------------------------------------------------------------- */

static char *
keep_hello_only (JsonObject *o, gpointer data)
{
  return g_str_equal (json_object_get_string_member (o, "type"), "hello") ? to_line (o) : NULL;
}

/* Every run gets run 1's timing record: a series whose points are all equal. */
static char *
equal_timings (JsonObject *o, gpointer data)
{
  JsonObject **first = data;

  if (g_str_equal (json_object_get_string_member (o, "type"), "timing"))
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autofree char *text = NULL;
      JsonObject *copy;

      if (*first == NULL)
        *first = json_object_ref (o);
      text = to_line (*first);
      g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
      copy = json_node_get_object (json_parser_get_root (parser));
      json_object_set_int_member (copy, "run", json_object_get_int_member (o, "run"));
      return to_line (copy);
    }
  return to_line (o);
}

static void
render_all_kinds (WsSession *session, double width, double height)
{
  g_autoptr (GPtrArray) sessions = one (session);

  for (int k = 0; k < WS_N_CHARTS; k++)
    for (int f = WS_EXPORT_PNG; f <= WS_EXPORT_PDF; f++)
      {
        WsChartOptions options;
        g_autoptr (GBytes) bytes = NULL;

        ws_chart_options_init (&options, (WsChartKind) k, ws_theme_get (WS_THEME_LIGHT), width,
                               height);
        bytes = render (sessions, &options, (WsExportFormat) f, 1);
        if (f == WS_EXPORT_PNG && width >= 200 && height >= 150)
          check_png (bytes, (int) ceil (width), (int) ceil (height),
                     ws_theme_get (WS_THEME_LIGHT));
      }
}

static void
test_empty (void)
{
  g_autoptr (GPtrArray) lines = sample_lines ("vector-add-sizes-h200.jsonl", keep_hello_only, NULL);
  g_autoptr (WsSession) session = session_from_lines (lines);
  g_autoptr (GPtrArray) none = g_ptr_array_new ();
  g_autoptr (GBytes) svg = NULL;
  WsChartOptions options;

  render_all_kinds (session, 800, 500);
  /* No session at all, and tiny, odd sizes. */
  for (int k = 0; k < WS_N_CHARTS; k++)
    {
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 40, 40);
      cairo_t *cr = cairo_create (s);
      const double sizes[][2] = { { 1, 1 }, { 3.5, 2 }, { 40, 40 }, { 0, 10 }, { -5, 10 } };

      for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
        {
          ws_chart_options_init (&options, (WsChartKind) k, NULL, sizes[i][0], sizes[i][1]);
          ws_chart_draw (cr, none, &options);
          ws_chart_draw (cr, NULL, &options);
        }
      g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
      cairo_destroy (cr);
      cairo_surface_destroy (s);
    }
  /* An empty chart says why, in words. */
  ws_chart_options_init (&options, WS_CHART_SPEEDUP, NULL, 800, 500);
  svg = render (none, &options, WS_EXPORT_SVG, 1);
  {
    const char *const expect[] = { "Speedup over the CPU", "No size sweep", NULL };

    check_svg (svg, 800, 500, expect);
  }
}

static void
test_one_run (void)
{
  for (guint s = 0; s < samples->len; s++)
    {
      g_autofree char *name = g_strdup_printf ("%s.jsonl",
                                               (char *) g_ptr_array_index (sample_names, s));
      g_autoptr (GPtrArray) lines = sample_lines (name, keep_first_run, NULL);
      g_autoptr (WsSession) session = session_from_lines (lines);

      g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (session)), ==, 1);
      render_all_kinds (session, 900, 600);
    }
}

static void
test_all_equal (void)
{
  const char *names[] = { "vector-add-sizes-h200.jsonl", "vector-add-blocks-h200.jsonl",
                          "matmul-naive-blocks-h200.jsonl" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      JsonObject *first = NULL;
      g_autoptr (GPtrArray) lines = sample_lines (names[i], equal_timings, &first);
      g_autoptr (WsSession) session = session_from_lines (lines);
      GListModel *runs = ws_session_get_runs (session);
      g_autoptr (WsRun) a = g_list_model_get_item (runs, 0);
      g_autoptr (WsRun) b = g_list_model_get_item (runs, 1);

      g_assert_cmpfloat (ws_run_get_kernel_ns (a), ==, ws_run_get_kernel_ns (b));
      render_all_kinds (session, 1000, 600);
      g_clear_pointer (&first, json_object_unref);
    }
}

/* Charts as the docs show them beyond one per recording: a zoom onto a run's sequences, a
 * dark and a print theme. Each is checked like the others; WS_CHARTS_OUTPUT_DIR keeps them. */
static void
test_examples (void)
{
  WsSession *sizes = sample ("vector-add-sizes");
  g_autoptr (GPtrArray) one_sizes = one (sizes);
  g_autoptr (GPtrArray) one_blocks = one (sample ("vector-add-blocks"));
  g_autoptr (GPtrArray) one_matmul = one (sample ("matmul-sizes"));
  WsRun *run = ws_session_find_run (sizes, 10);
  guint n, seen = 0;
  const WsSpan *a = ws_run_get_activities (run, &n);
  WsChartOptions options;
  g_autoptr (GBytes) zoom = NULL, dark = NULL, print = NULL;
  gint64 end = a[0].end;

  /* Run 10's first three copy-and-kernel sequences, overhead aside. */
  for (guint i = 0; i < n; i++)
    if (a[i].phase == WS_PHASE_SEQUENCE && a[i].kind == WS_ACTIVITY_SYNC && ++seen == 3)
      {
        end = a[i].end;
        break;
      }
  ws_chart_options_init (&options, WS_CHART_TIMELINE, ws_theme_get (WS_THEME_LIGHT), 1600, 900);
  options.run = 10;
  options.window_start = a[0].start;
  for (guint i = 0; i < n; i++)
    if (a[i].kind != WS_ACTIVITY_OVERHEAD && a[i].phase == WS_PHASE_SEQUENCE)
      {
        options.window_start = a[i].start - (end - a[i].start) / 40;
        break;
      }
  options.window_end = end + (end - options.window_start) / 40;
  zoom = render (one_sizes, &options, WS_EXPORT_PNG, 1);
  check_png (zoom, 1600, 900, options.theme);
  save_example (zoom, "vector-add-sizes-timeline-run10.png");

  ws_chart_options_init (&options, WS_CHART_BLOCKS, ws_theme_get (WS_THEME_DARK), 1600, 900);
  dark = render (one_blocks, &options, WS_EXPORT_PNG, 1);
  check_png (dark, 1600, 900, options.theme);
  save_example (dark, "vector-add-blocks-blocks-dark.png");

  ws_chart_options_init (&options, WS_CHART_SPEEDUP, ws_theme_get (WS_THEME_PRINT), 1600, 900);
  print = render (one_matmul, &options, WS_EXPORT_PNG, 1);
  check_png (print, 1600, 900, options.theme);
  save_example (print, "matmul-sizes-speedup-print.png");
}

/* Presentation mode writes the findings on every chart; a run picked shows that run. */
static void
test_annotate_and_pick (void)
{
  for (guint s = 0; s < samples->len; s++)
    {
      WsSession *session = g_ptr_array_index (samples, s);
      g_autoptr (GPtrArray) sessions = one (session);
      g_autoptr (GPtrArray) findings = ws_analyze_session (session);
      g_autoptr (WsRun) second = g_list_model_get_item (ws_session_get_runs (session), 1);

      for (int k = 0; k < WS_N_CHARTS; k++)
        {
          WsChartOptions options;
          g_autoptr (GBytes) svg = NULL, png = NULL;
          g_autofree char *text = NULL;
          gboolean said = FALSE;

          ws_chart_options_init (&options, (WsChartKind) k, NULL, 1400, 900);
          options.annotate = TRUE;
          svg = render (sessions, &options, WS_EXPORT_SVG, 1);
          text = svg_text_content (svg);
          /* The occupancy chart is about a configuration, not findings. */
          for (guint f = 0; f < findings->len && !said && k != WS_CHART_OCCUPANCY; f++)
            {
              const WsFinding *finding = g_ptr_array_index (findings, f);
              g_autofree char *escaped = g_markup_escape_text (finding->title, -1);

              said = finding->severity >= WS_SEVERITY_LOW && strstr (text, escaped) != NULL;
            }
          if (k != WS_CHART_OCCUPANCY && chart_applies (session, (WsChartKind) k))
            for (guint f = 0; f < findings->len; f++)
              if (((WsFinding *) g_ptr_array_index (findings, f))->severity >= WS_SEVERITY_LOW)
                {
                  if (!said)
                    g_error ("%s: the %s chart shows none of the findings",
                             (char *) g_ptr_array_index (sample_names, s),
                             ws_chart_kind_to_string ((WsChartKind) k));
                  break;
                }

          ws_chart_options_init (&options, (WsChartKind) k, NULL, 1000, 600);
          options.run = ws_run_get_id (second);
          options.compare_run = 1;
          png = render (sessions, &options, WS_EXPORT_PNG, 1);
          check_png (png, 1000, 600, ws_theme_get (WS_THEME_LIGHT));
        }
    }
}

/* Two recordings on one chart: the speedup chart names each GPU. */
static void
test_overlay (void)
{
  g_autoptr (GPtrArray) sessions = g_ptr_array_new ();
  WsChartOptions options;

  g_ptr_array_add (sessions, sample ("vector-add-sizes"));
  g_ptr_array_add (sessions, sample ("matmul-sizes"));
  for (int k = 0; k < WS_N_CHARTS; k++)
    {
      g_autoptr (GBytes) svg = NULL;
      g_autofree char *text = NULL;

      ws_chart_options_init (&options, (WsChartKind) k, NULL, 1400, 800);
      svg = render (sessions, &options, WS_EXPORT_SVG, 1);
      text = svg_text_content (svg);
      if (k == WS_CHART_SPEEDUP)
        {
          g_assert_nonnull (strstr (text, "NVIDIA H200 vs NVIDIA H200"));
          g_assert_nonnull (strstr (text, "NVIDIA H200 · vector_add 256, pinned"));
          g_assert_nonnull (strstr (text, "NVIDIA H200 · matmul_tiled 16×16, pageable"));
        }
    }
}

static void
test_cjk (void)
{
  WsSession *session = ws_session_new (WS_SESSION_SOURCE_RECORDING);
  g_autoptr (GPtrArray) sessions = one (session);
  g_autoptr (GBytes) png = NULL, svg = NULL;
  WsChartOptions options;
  const char *name = "向量加法";
  g_autofree char *run = g_strdup_printf (
      "{\"type\":\"run\",\"id\":1,\"kernel\":\"%s\",\"shape\":[10],\"size\":10,"
      "\"block\":[32,1,1],\"grid\":[1,1,1],\"threads_per_block\":32}",
      name);
  g_autofree char *activity = g_strdup_printf (
      "{\"type\":\"activity\",\"run\":1,\"phase\":\"kernels\",\"rep\":0,\"kind\":\"kernel\","
      "\"name\":\"%s\",\"stream\":7,\"start\":1000,\"end\":900000,\"grid\":[1,1,1],"
      "\"block\":[32,1,1]}",
      name);

  ws_session_feed_line (session, "{\"type\":\"hello\",\"protocol\":1}", -1, NULL);
  ws_session_feed_line (session, run, -1, NULL);
  ws_session_feed_line (session, activity, -1, NULL);
  ws_session_end (session);
  ws_chart_options_init (&options, WS_CHART_TIMELINE, NULL, 1000, 400);
  png = render (sessions, &options, WS_EXPORT_PNG, 1);
  check_png (png, 1000, 400, ws_theme_get (WS_THEME_LIGHT));
  svg = render (sessions, &options, WS_EXPORT_SVG, 1);
  {
    const char *const expect[] = { name, NULL };

    check_svg (svg, 1000, 400, expect);
  }
  g_object_unref (session);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  load_samples ();

  for (guint s = 0; s < samples->len; s++)
    for (int k = 0; k < WS_N_CHARTS; k++)
      {
        RenderCase *c = g_new0 (RenderCase, 1);
        g_autofree char *path = NULL;

        c->sample = s;
        c->kind = (WsChartKind) k;
        path = g_strdup_printf ("/charts/render/%s/%s",
                                (char *) g_ptr_array_index (sample_names, s),
                                ws_chart_kind_to_string ((WsChartKind) k));
        /* Charts that do not apply to a recording are still drawn, by test_render_themes
         * and test_render_empty_kind: here they would only show their sentence. */
        if (chart_applies (g_ptr_array_index (samples, s), (WsChartKind) k))
          g_test_add_data_func_full (path, c, test_render, g_free);
        else
          g_free (c);
      }
  g_test_add_func ("/charts/themes", test_render_themes);
  g_test_add_func ("/charts/empty", test_empty);
  g_test_add_func ("/charts/one-run", test_one_run);
  g_test_add_func ("/charts/all-equal", test_all_equal);
  g_test_add_func ("/charts/cjk", test_cjk);
  g_test_add_func ("/charts/examples", test_examples);
  g_test_add_func ("/charts/annotate-and-pick", test_annotate_and_pick);
  g_test_add_func ("/charts/overlay", test_overlay);
  return g_test_run ();
}

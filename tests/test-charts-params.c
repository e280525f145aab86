/* test-charts-params.c: the block-size chart of an own kernel's parameter sweep: runs' params
 * read, one point per parameter value on each line (the fastest block there), a line per size,
 * a heatmap for two parameters, the fastest run named, and built-in sessions left to the block
 * chart. The sessions are built here as the runner writes them.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <cairo.h>
#include <glib.h>

#include "ws-chart-blocks-private.h"
#include "ws-chart-private.h"

#define HELLO "{\"type\":\"hello\",\"t\":0,\"protocol\":2,\"runner\":\"test\",\"argv\":[]}"

/* One run of an own kernel with its parameters ("\"TILE\":16") and its kernel time. */
static void
feed_run (WsSession *session, int id, guint size, guint block, const char *params, double ns)
{
  g_autofree char *run = g_strdup_printf (
    "{\"type\":\"run\",\"t\":%d,\"id\":%d,\"kernel\":\"matmul_tiled\",\"family\":\"own\","
    "\"shape\":[%u,%u,%u],\"size\":%u,\"size_text\":\"%u\",\"block\":[%u,%u,1],"
    "\"grid\":[4,4,1],\"threads_per_block\":%u,\"transfer\":\"pageable\",\"streams\":1,"
    "\"reps\":10,\"warmup\":3,\"seed\":1,\"cpu\":\"none\",\"cache\":\"warm\",\"flops\":1,"
    "\"bytes\":1,\"input_bytes\":1,\"output_bytes\":1,\"source_hash\":\"ab\","
    "\"params\":{%s}}",
    id, id, size, size, size, size, size, block, block, block * block, params);
  g_autofree char *timing = g_strdup_printf (
    "{\"type\":\"timing\",\"t\":%d,\"run\":%d,\"traced\":true,\"kernel_ns\":{\"median\":%g,"
    "\"min\":%g,\"max\":%g,\"n\":10},\"e2e_ns\":{\"median\":%g,\"min\":%g,\"max\":%g,"
    "\"n\":10},\"cpu_1\":null,\"cpu_all\":null}",
    id, id, ns, ns * 0.98, ns * 1.03, ns * 3, ns * 3, ns * 3);
  g_autoptr (GError) error = NULL;

  g_assert_true (ws_session_feed_line (session, run, -1, &error));
  g_assert_no_error (error);
  g_assert_true (ws_session_feed_line (session, timing, -1, &error));
  g_assert_no_error (error);
}

static WsSession *
new_session (void)
{
  WsSession *session = ws_session_new (WS_SESSION_SOURCE_RECORDING);
  g_autoptr (GError) error = NULL;

  g_assert_true (ws_session_feed_line (session, HELLO, -1, &error));
  return session;
}

static const WsParamsPoint *
point (const WsParamsSeries *s, guint i)
{
  g_assert_cmpuint (i, <, s->points->len);
  return &g_array_index (s->points, WsParamsPoint, i);
}

static void
test_parse (void)
{
  g_autoptr (GHashTable) v = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  g_assert_true (_ws_params_parse ("TILE=16, UNROLL=2", v));
  g_assert_cmpuint (g_hash_table_size (v), ==, 2);
  g_assert_cmpfloat (*(double *) g_hash_table_lookup (v, "TILE"), ==, 16);
  g_assert_cmpfloat (*(double *) g_hash_table_lookup (v, "UNROLL"), ==, 2);
  g_hash_table_remove_all (v);
  g_assert_false (_ws_params_parse (NULL, v));
  g_assert_false (_ws_params_parse ("TILE", v));
  g_assert_false (_ws_params_parse ("TILE=x", v));
  g_assert_false (_ws_params_parse ("=3", v));
}

/* TILE = 8, 16, 32 with block = TILE×TILE at two sizes: a line per size, a point per tile. */
static void
test_one_parameter (void)
{
  g_autoptr (WsSession) session = new_session ();
  WsChartBase base = { .theme = ws_theme_get (WS_THEME_LIGHT), .width = 800, .height = 500 };
  WsParamsData *data;
  const WsParamsSeries *a, *b;

  feed_run (session, 1, 1024, 8, "\"TILE\":8", 900e3);
  feed_run (session, 2, 1024, 16, "\"TILE\":16", 500e3);
  feed_run (session, 3, 1024, 32, "\"TILE\":32", 700e3);
  feed_run (session, 4, 2048, 8, "\"TILE\":8", 7e6);
  feed_run (session, 5, 2048, 16, "\"TILE\":16", 4e6);
  feed_run (session, 6, 2048, 32, "\"TILE\":32", 5e6);
  /* A second block at TILE = 16, 1024: slower, so not the point drawn. */
  feed_run (session, 7, 1024, 8, "\"TILE\":16", 800e3);
  ws_session_end (session);

  data = _ws_params_collect (session, &base);
  g_assert_nonnull (data);
  g_assert_cmpstr (data->x_name, ==, "TILE");
  g_assert_null (data->y_name);
  g_assert_cmpuint (data->xs->len, ==, 3);
  g_assert_cmpfloat (g_array_index (data->xs, double, 0), ==, 8);
  g_assert_cmpfloat (g_array_index (data->xs, double, 2), ==, 32);
  g_assert_cmpuint (data->series->len, ==, 2);
  a = g_ptr_array_index (data->series, 0);
  b = g_ptr_array_index (data->series, 1);
  g_assert_nonnull (strstr (a->label, "1024³"));
  g_assert_nonnull (strstr (b->label, "2048³"));
  g_assert_cmpuint (a->points->len, ==, 3);
  g_assert_cmpuint (b->points->len, ==, 3);
  g_assert_cmpfloat (point (a, 0)->x, ==, 8);
  g_assert_cmpint (point (a, 0)->run, ==, 1);
  g_assert_cmpint (point (a, 1)->run, ==, 2);
  g_assert_cmpfloat (point (a, 1)->value, ==, 500e3);
  g_assert_cmpint (point (a, 2)->run, ==, 3);
  g_assert_cmpint (point (b, 1)->run, ==, 5);
  g_assert_cmpint (data->best, ==, 2);
  /* Each line's fastest value is marked; they agree, and the text says so. */
  g_assert_true (point (a, 1)->best);
  g_assert_true (point (b, 1)->best);
  g_assert_false (point (a, 0)->best);
  g_assert_false (point (b, 2)->best);
  g_assert_cmpstr (data->best_text, ==, "fastest at every size: TILE = 16");
  /* The legend says what a point is: a line per size, then the fastest block at each value
   * (run 7, a second block at TILE = 16, is not drawn). */
  g_assert_cmpuint (data->legend.items->len, ==, 3);
  g_assert_cmpstr (g_array_index (data->legend.items, WsLegendItem, 2).label, ==,
                   "each point: the fastest block size at that value");
  g_assert_cmpfloat (data->lo, ==, 500e3);
  g_assert_cmpfloat (data->hi, ==, 7e6);
  _ws_params_data_free (data);
}

/* The stencil's case: at each value several blocks ran and the line goes through the
 * fastest; a block 4× slower is not drawn, so the axis does not reach up to it. */
static void
test_axis_spans_drawn (void)
{
  g_autoptr (WsSession) session = new_session ();
  WsChartBase base = { .theme = ws_theme_get (WS_THEME_LIGHT), .width = 800, .height = 500 };
  WsParamsData *data;

  feed_run (session, 1, 1024, 8, "\"TILE\":8", 200e3);
  feed_run (session, 2, 1024, 16, "\"TILE\":8", 800e3);
  feed_run (session, 3, 1024, 8, "\"TILE\":16", 180e3);
  feed_run (session, 4, 1024, 16, "\"TILE\":16", 150e3);
  ws_session_end (session);
  data = _ws_params_collect (session, &base);
  g_assert_nonnull (data);
  g_assert_cmpuint (data->series->len, ==, 1);
  g_assert_cmpfloat (data->lo, ==, 150e3);
  g_assert_cmpfloat (data->hi, ==, 200e3);
  _ws_params_data_free (data);
}

/* TILE × UNROLL: a heatmap cell per pair, the fastest run of each, the best outlined. */
static void
test_two_parameters (void)
{
  g_autoptr (WsSession) session = new_session ();
  WsChartBase base = { .theme = ws_theme_get (WS_THEME_LIGHT), .width = 800, .height = 500 };
  WsParamsData *data;
  const WsParamsCell *c;
  int id = 1;

  for (guint t = 8; t <= 32; t *= 2)
    for (guint u = 1; u <= 2; u++)
      {
        g_autofree char *params = g_strdup_printf ("\"TILE\":%u,\"UNROLL\":%u", t, u);

        feed_run (session, id++, 1024, t, params, 1e6 / u + (t == 16 ? 0 : 2e5));
      }
  ws_session_end (session);
  data = _ws_params_collect (session, &base);
  g_assert_nonnull (data);
  g_assert_cmpstr (data->x_name, ==, "TILE");
  g_assert_cmpstr (data->y_name, ==, "UNROLL");
  g_assert_cmpuint (data->xs->len, ==, 3);
  g_assert_cmpuint (data->ys->len, ==, 2);
  g_assert_cmpuint (data->cells->len, ==, 6);
  /* TILE = 16 (i = 1), UNROLL = 2 (j = 1): run 4, the fastest. */
  c = &g_array_index (data->cells, WsParamsCell, 1 * 2 + 1);
  g_assert_cmpint (c->run, ==, 4);
  g_assert_true (c->best);
  g_assert_cmpfloat (c->shade, ==, 0);
  c = &g_array_index (data->cells, WsParamsCell, 0 * 2 + 0);
  g_assert_cmpint (c->run, ==, 1);
  g_assert_cmpfloat (c->shade, ==, 1);
  g_assert_cmpstr (c->time, ==, "1.20 ms");
  _ws_params_data_free (data);
}

/* Through the chart: the block-size chart of such a session is the parameter chart, and it
 * draws; a parameter with one value, or a built-in session, is not. */
static void
test_block_chart_takes_it (void)
{
  g_autoptr (WsSession) session = new_session ();
  g_autoptr (WsSession) one = new_session ();
  g_autoptr (GPtrArray) sessions = g_ptr_array_new ();
  g_autoptr (GPtrArray) ones = g_ptr_array_new ();
  WsChartOptions options;
  WsChartRequest request;
  WsBlocksData *data;
  WsChartBase base = { .theme = ws_theme_get (WS_THEME_LIGHT), .width = 800, .height = 500 };
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 800, 500);
  cairo_t *cr = cairo_create (surface);

  feed_run (session, 1, 1024, 8, "\"TILE\":8", 900e3);
  feed_run (session, 2, 1024, 16, "\"TILE\":16", 500e3);
  ws_session_end (session);
  g_ptr_array_add (sessions, session);
  ws_chart_options_init (&options, WS_CHART_BLOCKS, ws_theme_get (WS_THEME_LIGHT), 800, 500);
  data = NULL;
  _ws_chart_request_init (&request, sessions, &options);
  data = _ws_chart_collect (&request);
  g_assert_nonnull (data->params);
  g_assert_null (data->frame.message);
  g_assert_cmpstr (data->frame.title, ==, "Kernel time over TILE");
  _ws_blocks_data_free (data);
  ws_chart_draw (cr, sessions, &options);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);

  feed_run (one, 1, 1024, 16, "\"TILE\":16", 500e3);
  feed_run (one, 2, 2048, 16, "\"TILE\":16", 4e6);
  ws_session_end (one);
  g_assert_null (_ws_params_collect (one, &base));
  g_ptr_array_add (ones, one);
  _ws_chart_request_init (&request, ones, &options);
  data = _ws_chart_collect (&request);
  g_assert_null (data->params);
  g_assert_nonnull (data->frame.message);
  _ws_blocks_data_free (data);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* The heatmap draws too, at a small size. */
static void
test_heatmap_draws (void)
{
  g_autoptr (WsSession) session = new_session ();
  g_autoptr (GPtrArray) sessions = g_ptr_array_new ();
  WsChartOptions options;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 320, 240);
  cairo_t *cr = cairo_create (surface);

  feed_run (session, 1, 1024, 8, "\"TILE\":8,\"UNROLL\":1", 900e3);
  feed_run (session, 2, 1024, 16, "\"TILE\":16,\"UNROLL\":2", 500e3);
  ws_session_end (session);
  g_ptr_array_add (sessions, session);
  ws_chart_options_init (&options, WS_CHART_BLOCKS, ws_theme_get (WS_THEME_DARK), 320, 240);
  ws_chart_draw (cr, sessions, &options);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/charts/params/parse", test_parse);
  g_test_add_func ("/charts/params/one-parameter", test_one_parameter);
  g_test_add_func ("/charts/params/axis-spans-drawn", test_axis_spans_drawn);
  g_test_add_func ("/charts/params/two-parameters", test_two_parameters);
  g_test_add_func ("/charts/params/block-chart-takes-it", test_block_chart_takes_it);
  g_test_add_func ("/charts/params/heatmap-draws", test_heatmap_draws);
  return g_test_run ();
}

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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  load_samples ();

  g_test_add_func ("/charts/edges/breakdown-short", test_breakdown_short);
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

/* fuzz-chart.c: a session read from the input, drawn by every chart kind onto a small image
 * surface (the whole session, or one run beside another in a window with findings written
 * on it) and exported to SVG in memory; the timeline's geometry and picking beside it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "fuzz-support.h"

#include "ws-chart.h"
#include "ws-export.h"
#include "ws-span-lanes.h"

#define WIDTH 320
#define HEIGHT 200

static cairo_surface_t *surface;

static void
draw_all (GPtrArray *sessions, const WsChartOptions *base)
{
  for (int k = 0; k < WS_N_CHARTS; k++)
    {
      WsChartOptions options = *base;
      cairo_t *cr = cairo_create (surface);

      options.kind = (WsChartKind) k;
      ws_chart_draw (cr, sessions, &options);
      g_assert (cairo_status (cr) == CAIRO_STATUS_SUCCESS);
      cairo_destroy (cr);
    }
}

/* Fonts, fontconfig's caches and pango's: loaded once, before the first input. */
int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  g_autoptr (GPtrArray) none = g_ptr_array_new ();
  WsChartOptions options;

  ws_fuzz_init_glib ();
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  ws_chart_options_init (&options, WS_CHART_TIMELINE, ws_theme_get (WS_THEME_LIGHT), WIDTH,
                         HEIGHT);
  draw_all (none, &options);
  return 0;
}

static void
timeline (WsSession *session, WsChartOptions *options)
{
  WsTimelineGeometry geometry;
  gint64 start, end;
  WsRun *run;
  guint index;

  options->kind = WS_CHART_TIMELINE;
  ws_timeline_get_geometry (session, options, &geometry);
  for (double x = 0; x <= WIDTH; x += WIDTH / 8.0)
    for (double y = 0; y <= HEIGHT; y += HEIGHT / 8.0)
      if (ws_timeline_pick (session, options, x, y, &run, &index))
        {
          guint n;

          ws_run_get_activities (run, &n);
          g_assert_cmpuint (index, <, n);
        }
  if (ws_timeline_get_full_range (session, options, &start, &end))
    g_assert (start <= end);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (WsSession) session = ws_fuzz_session_from_lines (data, size);
  g_autoptr (GPtrArray) sessions = g_ptr_array_new ();
  g_autoptr (GBytes) svg = NULL;
  g_autoptr (GError) error = NULL;
  GListModel *runs = ws_session_get_runs (session);
  guint n_runs = g_list_model_get_n_items (runs);
  WsChartOptions options;
  gint64 start, end;

  g_ptr_array_add (sessions, session);
  ws_chart_options_init (&options, WS_CHART_TIMELINE, ws_theme_get (WS_THEME_DARK), WIDTH,
                         HEIGHT);
  /* Every other input: one run beside another, a window into the session, a selection,
   * findings written on the chart (each drawing costs milliseconds: one set an input). */
  if (size % 2 == 1)
    {
      if (n_runs > 0)
        {
          g_autoptr (WsRun) first = g_list_model_get_item (runs, 0);
          g_autoptr (WsRun) last = g_list_model_get_item (runs, n_runs - 1);

          options.run = ws_run_get_id (first);
          options.compare_run = n_runs > 1 ? ws_run_get_id (last) : 0;
        }
      options.annotate = TRUE;
      options.block_size = 256;
      options.registers = 32;
      if (ws_session_get_time_range (session, &start, &end))
        {
          options.window_start = start + (end - start) / 4;
          options.window_end = end - (end - start) / 4;
          options.selection_start = start;
          options.selection_end = start + (end - start) / 2;
        }
    }
  draw_all (sessions, &options);
  timeline (session, &options);

  /* SVG for one kind an input: which one follows from the input. */
  options.kind = (WsChartKind) ((size / 2) % WS_N_CHARTS);
  options.theme = ws_theme_get (WS_THEME_PRINT);
  svg = ws_export_chart_to_bytes (sessions, &options, WS_EXPORT_SVG, 1, &error);
  g_assert ((svg != NULL) == (error == NULL));
  return 0;
}

/* ws-chart-bench.c: how long a 1920×1080 timeline takes to draw from 100,000 and 1,000,000
 * activity records, whole and zoomed (docs/benchmarks.md, "Charts"). A measurement, not a test.
 * Usage: ws-chart-bench [RECORDS…]
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <cairo.h>
#include <glib.h>
#include <stdlib.h>

#include "ws-chart.h"

#define RUNS 10

/* A session like the runner's: runs of copy-in, copy-in, memset, kernel, copy-out, sync
 * sequences with gaps, durations varying as CUPTI's do, fed through the reader. */
static WsSession *
make_session (guint records)
{
  WsSession *session = ws_session_new (WS_SESSION_SOURCE_RECORDING);
  g_autoptr (GString) line = g_string_new (NULL);
  GRand *rand = g_rand_new_with_seed (42);
  gint64 t = 1000000;
  guint per_run = records / RUNS;

#define FEED(...)                                                                             \
  G_STMT_START                                                                                \
  {                                                                                           \
    g_string_printf (line, __VA_ARGS__);                                                      \
    ws_session_feed_line (session, line->str, line->len, NULL);                               \
  }                                                                                           \
  G_STMT_END

  FEED ("{\"type\":\"hello\",\"t\":0,\"protocol\":1,\"runner\":\"bench\",\"time\":"
        "\"2026-11-29T12:00:00Z\",\"host\":\"bench\"}");
  FEED ("{\"type\":\"device\",\"t\":1,\"index\":0,\"name\":\"Synthetic GPU\",\"sm\":\"sm_90\","
        "\"sm_count\":132,\"warp_size\":32,\"max_threads_per_block\":1024}");
  for (guint r = 1; r <= RUNS; r++)
    {
      FEED ("{\"type\":\"run\",\"t\":2,\"id\":%u,\"kernel\":\"vector_add\",\"family\":"
            "\"vector_add\",\"shape\":[100000],\"size\":100000,\"block\":[256,1,1],\"grid\":"
            "[391,1,1],\"threads_per_block\":256,\"transfer\":\"pinned\",\"reps\":10}",
            r);
      for (guint i = 0; i < per_run; i++)
        {
          static const char *const kinds[] = {
            "\"kind\":\"memcpy\",\"direction\":\"htod\",\"bytes\":400000,"
            "\"host_memory\":\"pinned\"",
            "\"kind\":\"memcpy\",\"direction\":\"htod\",\"bytes\":400000,"
            "\"host_memory\":\"pinned\"",
            "\"kind\":\"memset\",\"bytes\":400000",
            "\"kind\":\"kernel\",\"name\":\"vector_add\",\"grid\":[391,1,1],\"block\":[256,1,1]",
            "\"kind\":\"memcpy\",\"direction\":\"dtoh\",\"bytes\":400000,"
            "\"host_memory\":\"pinned\"",
            "\"kind\":\"sync\",\"sync\":\"stream_synchronize\"",
          };
          gint64 dur = 1500 + g_rand_int_range (rand, 0, 6000);

          FEED ("{\"type\":\"activity\",\"t\":3,\"run\":%u,\"phase\":\"sequence\",\"rep\":%u,"
                "%s,\"start\":%" G_GINT64_FORMAT ",\"end\":%" G_GINT64_FORMAT
                ",\"stream\":14,\"correlation\":%u}",
                r, i / 6, kinds[i % 6], t, t + dur, i);
          t += dur + 300 + g_rand_int_range (rand, 0, 800);
        }
      FEED ("{\"type\":\"verify\",\"t\":4,\"run\":%u,\"pass\":true}", r);
      FEED ("{\"type\":\"timing\",\"t\":5,\"run\":%u,\"traced\":true,\"kernel_ns\":{\"median\":"
            "3000,\"min\":2900,\"max\":3200,\"n\":10}}",
            r);
      t += 2000000;
    }
  FEED ("{\"type\":\"done\",\"t\":6,\"runs\":%d,\"failed\":0,\"dropped_records\":0,"
        "\"exit_code\":0}",
        RUNS);
#undef FEED
  g_rand_free (rand);
  ws_session_end (session);
  return session;
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* Milliseconds: the first frame (which builds the lane index) and the median of the next. */
static void
time_frames (WsSession *session, gint64 start, gint64 end, double *first, double *median)
{
  g_autoptr (GPtrArray) sessions = g_ptr_array_new ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1920, 1080);
  WsChartOptions options;
  double times[21];

  g_ptr_array_add (sessions, session);
  ws_chart_options_init (&options, WS_CHART_TIMELINE, ws_theme_get (WS_THEME_LIGHT), 1920, 1080);
  options.window_start = start;
  options.window_end = end;
  for (int i = 0; i < 21; i++)
    {
      cairo_t *cr = cairo_create (surface);
      gint64 t0 = g_get_monotonic_time ();

      ws_chart_draw (cr, sessions, &options);
      cairo_surface_flush (surface);
      times[i] = (g_get_monotonic_time () - t0) / 1000.0;
      cairo_destroy (cr);
    }
  *first = times[0];
  qsort (times + 1, 20, sizeof (double), compare_double);
  *median = (times[10] + times[11]) / 2;
  cairo_surface_destroy (surface);
}

int
main (int argc, char **argv)
{
  guint sizes[8] = { 100000, 1000000 };
  guint n_sizes = 2;

  if (argc > 1)
    {
      n_sizes = 0;
      for (int i = 1; i < argc && n_sizes < G_N_ELEMENTS (sizes); i++)
        sizes[n_sizes++] = (guint) g_ascii_strtoull (argv[i], NULL, 10);
    }
  g_print ("| records | view | spans in view | first frame (ms) | median of 20 frames (ms) |\n");
  g_print ("|---|---|---|---|---|\n");
  for (guint s = 0; s < n_sizes; s++)
    {
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr (WsSession) session = make_session (sizes[s]);
      gint64 start, end;
      struct
      {
        const char *name;
        double fraction;
      } views[] = { { "whole session", 1.0 }, { "1/100 of it", 0.01 }, { "1/10,000 of it", 1e-4 } };

      g_printerr ("%u records: generated and read in %.0f ms\n", sizes[s],
                  (g_get_monotonic_time () - t0) / 1000.0);
      ws_session_get_time_range (session, &start, &end);
      for (guint v = 0; v < G_N_ELEMENTS (views); v++)
        {
          gint64 w = (gint64) ((end - start) * views[v].fraction);
          gint64 a = start + (end - start) / 2 - w / 2;
          double first, median;

          if (views[v].fraction >= 1)
            a = start, w = end - start;
          time_frames (session, a, a + w, &first, &median);
          g_print ("| %u | %s | ~%.0f | %.1f | %.2f |\n", sizes[s], views[v].name,
                   sizes[s] * views[v].fraction, first, median);
        }
    }
  return 0;
}

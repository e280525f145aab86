/* ws-chart-bench.c: how long a 1920×1080 timeline takes to draw (docs/benchmarks.md, "Charts"),
 * and how large exported charts get. A measurement, not a test.
 *
 *   ws-chart-bench records [RECORDS…]   10 runs of generated sequences: 100,000 and 1,000,000
 *                                       activity records by default
 *   ws-chart-bench runs [COPIES…]       a bundled recording (vector-add-sizes, 12 runs) repeated
 *                                       with new ids and later times: 1, 108 and 1,083 copies
 *                                       (12, 1,296 and 12,996 runs; 924 to 1,000,692 records)
 *   ws-chart-bench export [COPIES…]     every chart of those sessions as SVG and PDF: bytes
 *   ws-chart-bench                      records and runs
 *
 * Frame times are the minimum, median and maximum of 20 frames after a first one.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <cairo.h>
#include <glib.h>
#include <stdlib.h>

#include "test-repeat-session.h"
#include "ws-chart.h"
#include "ws-export.h"
#include "ws-span-lanes.h"

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

#define FRAMES 20

typedef struct
{
  double first, min, median, max;
} Frames;

/* Milliseconds: the first frame (which builds the lane index) and the next FRAMES. */
static Frames
time_frames (WsSession *session, WsChartKind kind, gint64 start, gint64 end)
{
  g_autoptr (GPtrArray) sessions = g_ptr_array_new ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1920, 1080);
  WsChartOptions options;
  double times[FRAMES + 1];
  Frames f;

  g_ptr_array_add (sessions, session);
  ws_chart_options_init (&options, kind, ws_theme_get (WS_THEME_LIGHT), 1920, 1080);
  options.window_start = start;
  options.window_end = end;
  for (int i = 0; i <= FRAMES; i++)
    {
      cairo_t *cr = cairo_create (surface);
      gint64 t0 = g_get_monotonic_time ();

      ws_chart_draw (cr, sessions, &options);
      cairo_surface_flush (surface);
      times[i] = (g_get_monotonic_time () - t0) / 1000.0;
      cairo_destroy (cr);
    }
  f.first = times[0];
  qsort (times + 1, FRAMES, sizeof (double), compare_double);
  f.min = times[1];
  f.median = (times[FRAMES / 2] + times[FRAMES / 2 + 1]) / 2;
  f.max = times[FRAMES];
  cairo_surface_destroy (surface);
  return f;
}

static const struct
{
  const char *name;
  double fraction;
} views[] = { { "whole session", 1.0 }, { "1/100 of it", 0.01 }, { "1/10,000 of it", 1e-4 } };

static void
time_views (WsSession *session, const char *what, guint records)
{
  gint64 start, end;

  ws_session_get_time_range (session, &start, &end);
  for (guint v = 0; v < G_N_ELEMENTS (views); v++)
    {
      gint64 w = (gint64) ((end - start) * views[v].fraction);
      gint64 a = start + (end - start) / 2 - w / 2;
      Frames f;

      if (views[v].fraction >= 1)
        a = start, w = end - start;
      f = time_frames (session, WS_CHART_TIMELINE, a, a + w);
      g_print ("| %s | %s | ~%.0f | %.1f | %.2f | %.2f | %.2f |\n", what, views[v].name,
               records * views[v].fraction, f.first, f.min, f.median, f.max);
    }
}

static void
bench_records (guint *sizes, guint n_sizes)
{
  g_print ("| records | view | spans in view | first frame (ms) | min | median | max (ms) |\n");
  g_print ("|---|---|---|---|---|---|---|\n");
  for (guint s = 0; s < n_sizes; s++)
    {
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr (WsSession) session = make_session (sizes[s]);
      g_autofree char *what = g_strdup_printf ("%u", sizes[s]);

      g_printerr ("%u records: generated and read in %.0f ms\n", sizes[s],
                  (g_get_monotonic_time () - t0) / 1000.0);
      time_views (session, what, sizes[s]);
    }
}

static char *
recording_path (void)
{
  const char *dir = g_getenv ("WS_SAMPLES_DIR");

  return g_build_filename (dir ? dir : WS_SAMPLES_DIR, "vector-add-sizes-h200.jsonl", NULL);
}

static WsSession *
repeated (guint copies, guint *runs)
{
  g_autofree char *path = recording_path ();
  gint64 t0 = g_get_monotonic_time ();
  WsSession *session = ws_test_repeat_session (path, copies);

  *runs = g_list_model_get_n_items (ws_session_get_runs (session));
  g_printerr ("%u copies: %u runs, %u records, generated and read in %.0f ms\n", copies, *runs,
              ws_session_get_n_activities (session), (g_get_monotonic_time () - t0) / 1000.0);
  return session;
}

static void
bench_runs (guint *copies, guint n)
{
  g_print ("| runs | view | spans in view | first frame (ms) | min | median | max (ms) |\n");
  g_print ("|---|---|---|---|---|---|---|\n");
  for (guint c = 0; c < n; c++)
    {
      guint runs;
      g_autoptr (WsSession) session = repeated (copies[c], &runs);
      g_autofree char *what = g_strdup_printf ("%u", runs);

      time_views (session, what, ws_session_get_n_activities (session));
    }
}

static void
bench_export (guint *copies, guint n)
{
  static const double sizes[][2] = { { 720, 420 }, { 1920, 1080 } };

  g_print ("| runs | chart | size | SVG (bytes) | PDF (bytes) |\n");
  g_print ("|---|---|---|---|---|\n");
  for (guint c = 0; c < n; c++)
    {
      guint runs;
      g_autoptr (WsSession) session = repeated (copies[c], &runs);
      g_autoptr (GPtrArray) sessions = g_ptr_array_new ();

      g_ptr_array_add (sessions, session);
      for (int k = 0; k < WS_N_CHARTS; k++)
        for (guint z = 0; z < G_N_ELEMENTS (sizes); z++)
          {
            WsChartOptions options;
            gsize bytes[2] = { 0, 0 };

            ws_chart_options_init (&options, (WsChartKind) k, NULL, sizes[z][0], sizes[z][1]);
            for (int f = 0; f < 2; f++)
              {
                g_autoptr (GError) error = NULL;
                g_autoptr (GBytes) out = ws_export_chart_to_bytes (
                    sessions, &options, f == 0 ? WS_EXPORT_SVG : WS_EXPORT_PDF, 1, &error);

                if (out == NULL)
                  g_error ("%s", error->message);
                bytes[f] = g_bytes_get_size (out);
              }
            g_print ("| %u | %s | %.0fx%.0f | %" G_GSIZE_FORMAT " | %" G_GSIZE_FORMAT " |\n",
                     runs, ws_chart_kind_to_string ((WsChartKind) k), sizes[z][0], sizes[z][1],
                     bytes[0], bytes[1]);
          }
    }
}

/* The numbers after the mode, or the defaults. */
static guint
numbers (int argc, char **argv, const guint *defaults, guint n_defaults, guint *out)
{
  guint n = 0;

  for (int i = 0; i < argc && n < 8; i++)
    out[n++] = (guint) g_ascii_strtoull (argv[i], NULL, 10);
  if (n > 0)
    return n;
  for (guint i = 0; i < n_defaults; i++)
    out[i] = defaults[i];
  return n_defaults;
}

int
main (int argc, char **argv)
{
  static const guint default_records[] = { 100000, 1000000 };
  static const guint default_copies[] = { 1, 108, 1083 };
  const char *mode = argc > 1 ? argv[1] : "";
  guint values[8], n;

  if (g_str_equal (mode, "records"))
    {
      n = numbers (argc - 2, argv + 2, default_records, G_N_ELEMENTS (default_records), values);
      bench_records (values, n);
    }
  else if (g_str_equal (mode, "runs"))
    {
      n = numbers (argc - 2, argv + 2, default_copies, G_N_ELEMENTS (default_copies), values);
      bench_runs (values, n);
    }
  else if (g_str_equal (mode, "export"))
    {
      n = numbers (argc - 2, argv + 2, default_copies, G_N_ELEMENTS (default_copies), values);
      bench_export (values, n);
    }
  else if (argc == 1)
    {
      bench_records ((guint *) default_records, G_N_ELEMENTS (default_records));
      g_print ("\n");
      bench_runs ((guint *) default_copies, G_N_ELEMENTS (default_copies));
    }
  else
    {
      g_printerr ("usage: ws-chart-bench [records [RECORDS…] | runs [COPIES…] | export "
                  "[COPIES…]]\n");
      return 2;
    }
  return 0;
}

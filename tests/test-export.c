/* test-export.c: charts written to PNG (1×, 2×, 3×), SVG and PDF files, CSV of the runs behind
 * each chart, Chrome trace-event JSON of every recording (fields, units, tracks that never
 * overlap partially), and writes that are atomic or do not happen at all.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <cairo.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "ws-analysis.h"
#include "ws-export.h"
#include "ws-trace.h"
#include "test-repeat-session.h"
#include "test-util.h"

#if __has_include(<poppler.h>)
#include <poppler.h>
#define HAVE_POPPLER 1
#endif

static GPtrArray *samples; /* WsSession */
static GPtrArray *sample_names;

static void
load_samples (void)
{
  const char *dir_name = g_getenv ("WS_SAMPLES_DIR");
  g_autoptr (GPtrArray) names = ws_test_list_dir (dir_name, ".jsonl");

  g_assert_nonnull (names);
  samples = g_ptr_array_new_with_free_func (g_object_unref);
  sample_names = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir_name, g_ptr_array_index (names, i), NULL);
      g_autoptr (GFile) file = g_file_new_for_path (path);
      g_autoptr (GError) error = NULL;
      WsSession *session = ws_session_load (file, NULL, &error);

      g_assert_no_error (error);
      /* Traced programs have no runs to export yet (tests/test-cli-trace.c exports them), and
       * a memory check has none at all (tests/test-charts-edges.c draws it). */
      if (ws_session_get_trace (session) != NULL
          || g_list_model_get_n_items (ws_session_get_runs (session)) == 0)
        {
          g_object_unref (session);
          continue;
        }
      g_ptr_array_add (samples, session);
      g_ptr_array_add (sample_names, g_strdup (g_ptr_array_index (names, i)));
    }
  g_assert_cmpuint (samples->len, >=, 4);
}

static WsSession *
sample (const char *prefix)
{
  for (guint i = 0; i < samples->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (sample_names, i), prefix))
      return g_ptr_array_index (samples, i);
  g_assert_not_reached ();
}

static GPtrArray *
one (WsSession *session)
{
  GPtrArray *sessions = g_ptr_array_new ();

  g_ptr_array_add (sessions, session);
  return sessions;
}

/* The names in a folder: an atomic write leaves the target and nothing else. */
static GPtrArray *
list_dir (const char *path)
{
  GPtrArray *names = ws_test_list_dir (path, "");

  g_assert_nonnull (names);
  return names;
}

static void
assert_only (const char *dir, const char *name)
{
  g_autoptr (GPtrArray) names = list_dir (dir);

  if (names->len != 1 || g_strcmp0 (g_ptr_array_index (names, 0), name) != 0)
    {
      for (guint i = 0; i < names->len; i++)
        g_printerr ("  %s\n", (char *) g_ptr_array_index (names, i));
      g_error ("%s should hold only %s", dir, name);
    }
}

static char *
make_tmpdir (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("warpscope-export-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static void
remove_tree (const char *dir)
{
  g_autoptr (GPtrArray) names = list_dir (dir);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, g_ptr_array_index (names, i), NULL);

      g_assert_cmpint (g_remove (path), ==, 0);
    }
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* ---- formats ---------------------------------------------------------------------------- */

static void
test_formats (void)
{
  for (int f = WS_EXPORT_PNG; f <= WS_EXPORT_TRACE; f++)
    {
      WsExportFormat back;

      g_assert_true (ws_export_format_from_string (ws_export_format_to_string (f), &back));
      g_assert_cmpint (back, ==, f);
      g_assert_true (ws_export_format_from_string (ws_export_format_extension (f), &back));
      g_assert_cmpint (back, ==, f);
    }
  g_assert_false (ws_export_format_from_string ("gif", NULL));
}

/* ---- charts to files -------------------------------------------------------------------- */

static void
test_chart_files (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autoptr (GPtrArray) sessions = one (sample ("vector-add-sizes"));
  WsChartOptions options;

  ws_chart_options_init (&options, WS_CHART_SPEEDUP, ws_theme_get (WS_THEME_LIGHT), 900, 500);
  for (int scale = 1; scale <= 3; scale++)
    {
      g_autofree char *name = g_strdup_printf ("speedup@%d.png", scale);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr (GFile) file = g_file_new_for_path (path);
      g_autoptr (GError) error = NULL;
      cairo_surface_t *image;

      g_assert_true (ws_export_chart (sessions, &options, WS_EXPORT_PNG, scale, file, &error));
      g_assert_no_error (error);
      assert_only (dir, name);
      image = cairo_image_surface_create_from_png (path);
      g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
      g_assert_cmpint (cairo_image_surface_get_width (image), ==, 900 * scale);
      g_assert_cmpint (cairo_image_surface_get_height (image), ==, 500 * scale);
      cairo_surface_destroy (image);
      g_assert_cmpint (g_remove (path), ==, 0);
    }
  {
    g_autofree char *path = g_build_filename (dir, "speedup.svg", NULL);
    g_autoptr (GFile) file = g_file_new_for_path (path);
    g_autoptr (GError) error = NULL;
    g_autofree char *svg = NULL;

    g_assert_true (ws_export_chart (sessions, &options, WS_EXPORT_SVG, 1, file, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (path, &svg, NULL, NULL));
    g_assert_true (g_str_has_prefix (svg, "<?xml"));
    g_assert_nonnull (strstr (svg, "width=\"900\""));
    g_assert_nonnull (strstr (svg, "<title>Speedup over the CPU"));
    g_assert_nonnull (strstr (svg, ">Speedup over the CPU · vector_add</text>"));
    assert_only (dir, "speedup.svg");
    g_assert_cmpint (g_remove (path), ==, 0);
  }
  {
    g_autofree char *path = g_build_filename (dir, "speedup.pdf", NULL);
    g_autoptr (GFile) file = g_file_new_for_path (path);
    g_autoptr (GError) error = NULL;

    /* A page of any size: A4 landscape in points. */
    options.width = 842;
    options.height = 595;
    g_assert_true (ws_export_chart (sessions, &options, WS_EXPORT_PDF, 1, file, &error));
    g_assert_no_error (error);
    assert_only (dir, "speedup.pdf");
#ifdef HAVE_POPPLER
    {
      g_autofree char *uri = g_file_get_uri (file);
      PopplerDocument *doc = poppler_document_new_from_file (uri, NULL, &error);
      PopplerPage *page;
      double w, h;

      g_assert_no_error (error);
      page = poppler_document_get_page (doc, 0);
      poppler_page_get_size (page, &w, &h);
      g_assert_cmpfloat_with_epsilon (w, 842, 0.5);
      g_assert_cmpfloat_with_epsilon (h, 595, 0.5);
      {
        g_autofree char *title = poppler_document_get_title (doc);

        g_assert_true (g_str_has_prefix (title, "Speedup over the CPU"));
      }
      g_object_unref (page);
      g_object_unref (doc);
    }
#endif
    g_assert_cmpint (g_remove (path), ==, 0);
  }
  remove_tree (dir);
}

static void
test_chart_errors (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *missing = g_build_filename (dir, "no-such-folder", "chart.png", NULL);
  g_autofree char *existing = g_build_filename (dir, "chart.png", NULL);
  g_autoptr (GFile) missing_file = g_file_new_for_path (missing);
  g_autoptr (GFile) existing_file = g_file_new_for_path (existing);
  g_autoptr (GFile) dir_file = g_file_new_for_path (dir);
  g_autoptr (GPtrArray) sessions = one (sample ("vector-add-blocks"));
  WsChartOptions options;
  g_autofree char *before = NULL, *after = NULL;
  gsize before_len, after_len;

  ws_chart_options_init (&options, WS_CHART_BLOCKS, NULL, 600, 400);
  {
    g_autoptr (GError) error = NULL;

    g_assert_false (ws_export_chart (sessions, &options, WS_EXPORT_PNG, 1, missing_file, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  }
  {
    g_autoptr (GError) error = NULL;

    /* A folder is not a file to replace. */
    g_assert_false (ws_export_chart (sessions, &options, WS_EXPORT_PNG, 1, dir_file, &error));
    g_assert_nonnull (error);
  }
  {
    /* Failed writes leave nothing behind. */
    g_autoptr (GPtrArray) names = list_dir (dir);

    g_assert_cmpuint (names->len, ==, 0);
  }
  {
    g_autoptr (GError) error = NULL;

    options.width = 0;
    g_assert_false (ws_export_chart (sessions, &options, WS_EXPORT_PNG, 1, existing_file, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
    options.width = 600;
  }
  {
    g_autoptr (GError) error = NULL;

    g_assert_false (ws_export_chart (sessions, &options, WS_EXPORT_CSV, 1, existing_file, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  }
  {
    g_autoptr (GError) error = NULL;

    /* Beyond what an image surface can hold: said, not crashed. */
    g_assert_false (ws_export_chart (sessions, &options, WS_EXPORT_PNG, 100, existing_file,
                                     &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  }
  g_assert_false (g_file_test (existing, G_FILE_TEST_EXISTS));

  /* Replacing a file: the new one whole, nothing left beside it. */
  g_assert_true (g_file_set_contents (existing, "old", -1, NULL));
  {
    g_autoptr (GError) error = NULL;

    g_assert_true (ws_export_chart (sessions, &options, WS_EXPORT_PNG, 1, existing_file, &error));
    g_assert_no_error (error);
  }
  g_assert_true (g_file_get_contents (existing, &before, &before_len, NULL));
  g_assert_cmpuint (before_len, >, 1000);
  g_assert_true (memcmp (before, "\x89PNG", 4) == 0);
  {
    g_autoptr (GError) error = NULL;

    options.kind = WS_CHART_TIMELINE;
    g_assert_true (ws_export_chart (sessions, &options, WS_EXPORT_PNG, 1, existing_file, &error));
    g_assert_no_error (error);
  }
  g_assert_true (g_file_get_contents (existing, &after, &after_len, NULL));
  g_assert_false (before_len == after_len && memcmp (before, after, before_len) == 0);
  assert_only (dir, "chart.png");
  remove_tree (dir);
}

/* Whatever the session's size, an exported chart stays small enough to mail and to open:
 * 13,000 runs and a million activities draw as a dozen runs do, points that coincide once,
 * spans a few pixels wide as density bars. */
#define EXPORT_LIMIT (2 * 1024 * 1024)

static void
test_chart_size_bound (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_SAMPLES_DIR"),
                                            "vector-add-sizes-h200.jsonl", NULL);
  g_autoptr (WsSession) session = ws_test_repeat_session (path, 1083);
  g_autoptr (GPtrArray) sessions = one (session);
  static const struct
  {
    double width, height;
    gboolean annotate;
  } cases[] = { { 720, 420, FALSE }, { 1920, 1080, FALSE }, { 1920, 1080, TRUE } };

  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (session)), ==, 12996);
  g_assert_cmpuint (ws_session_get_n_activities (session), >, 1000000);
  for (int k = 0; k < WS_N_CHARTS; k++)
    for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
      for (int f = WS_EXPORT_SVG; f <= WS_EXPORT_PDF; f++)
        {
          WsChartOptions options;
          g_autoptr (GError) error = NULL;
          g_autoptr (GBytes) bytes = NULL;

          ws_chart_options_init (&options, (WsChartKind) k, NULL, cases[c].width,
                                 cases[c].height);
          options.annotate = cases[c].annotate;
          bytes = ws_export_chart_to_bytes (sessions, &options, (WsExportFormat) f, 1, &error);
          g_assert_no_error (error);
          if (g_bytes_get_size (bytes) > EXPORT_LIMIT)
            g_error ("%s as %s at %.0fx%.0f%s: %" G_GSIZE_FORMAT " bytes",
                     ws_chart_kind_to_string ((WsChartKind) k),
                     ws_export_format_to_string ((WsExportFormat) f), cases[c].width,
                     cases[c].height, cases[c].annotate ? ", annotated" : "",
                     g_bytes_get_size (bytes));
        }
}

/* ---- CSV -------------------------------------------------------------------------------- */

/* RFC 4180 records: fields split on commas outside quotes, "" inside quotes a quote. */
static GPtrArray *
parse_csv (const char *text)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  GPtrArray *row = g_ptr_array_new_with_free_func (g_free);
  GString *field = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *p = text; *p; p++)
    {
      if (quoted)
        {
          if (*p == '"' && p[1] == '"')
            g_string_append_c (field, *p++);
          else if (*p == '"')
            quoted = FALSE;
          else
            g_string_append_c (field, *p);
          continue;
        }
      if (*p == '"')
        quoted = TRUE;
      else if (*p == ',')
        {
          g_ptr_array_add (row, g_strdup (field->str));
          g_string_truncate (field, 0);
        }
      else if (*p == '\r' && p[1] == '\n')
        {
          p++;
          g_ptr_array_add (row, g_strdup (field->str));
          g_string_truncate (field, 0);
          g_ptr_array_add (rows, row);
          row = g_ptr_array_new_with_free_func (g_free);
        }
      else
        g_string_append_c (field, *p);
    }
  g_assert_false (quoted);
  g_assert_cmpuint (field->len, ==, 0);
  g_assert_cmpuint (row->len, ==, 0);
  g_ptr_array_unref (row);
  g_string_free (field, TRUE);
  return rows;
}

static int
column (GPtrArray *header, const char *name)
{
  for (guint i = 0; i < header->len; i++)
    if (g_str_equal (g_ptr_array_index (header, i), name))
      return (int) i;
  g_error ("no column %s", name);
}

static double
number (GPtrArray *row, int col)
{
  const char *text = g_ptr_array_index (row, col);
  char *end;
  double v;

  if (*text == '\0')
    return NAN;
  v = g_ascii_strtod (text, &end);
  g_assert_cmpint (*end, ==, '\0');
  return v;
}

static GPtrArray *
export_csv (WsSession *session, WsChartKind kind)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "runs.csv", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GPtrArray) sessions = one (session);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  WsChartOptions options;
  GPtrArray *rows;

  ws_chart_options_init (&options, kind, NULL, 800, 600);
  g_assert_true (ws_export_csv (sessions, &options, file, &error));
  g_assert_no_error (error);
  assert_only (dir, "runs.csv");
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  rows = parse_csv (text);
  g_assert_cmpuint (rows->len, >=, 2);
  for (guint i = 1; i < rows->len; i++)
    g_assert_cmpuint (((GPtrArray *) g_ptr_array_index (rows, i))->len, ==,
                      ((GPtrArray *) g_ptr_array_index (rows, 0))->len);
  remove_tree (dir);
  return rows;
}

static void
test_csv_speedup (void)
{
  WsSession *session = sample ("vector-add-sizes");
  g_autoptr (GPtrArray) rows = export_csv (session, WS_CHART_SPEEDUP);
  GPtrArray *header = g_ptr_array_index (rows, 0);
  int c_run = column (header, "run"), c_median = column (header, "kernel_median_ns");
  int c_e2e_all = column (header, "speedup_e2e_vs_all_cores");

  /* Both transfer modes, every size: each run of the recording once. */
  g_assert_cmpuint (rows->len - 1, ==, g_list_model_get_n_items (ws_session_get_runs (session)));
  for (guint i = 1; i < rows->len; i++)
    {
      GPtrArray *row = g_ptr_array_index (rows, i);
      WsRun *run = ws_session_find_run (session, (int) number (row, c_run));
      double s = ws_run_get_speedup (run, TRUE, TRUE);

      g_assert_nonnull (run);
      g_assert_cmpfloat (number (row, c_median), ==, ws_run_get_timing (run)->kernel.median);
      g_assert_cmpfloat_with_epsilon (number (row, c_e2e_all), s, s * 1e-12);
    }
}

static void
test_csv_blocks (void)
{
  WsSession *session = sample ("vector-add-blocks");
  g_autoptr (GPtrArray) rows = export_csv (session, WS_CHART_BLOCKS);
  GPtrArray *header = g_ptr_array_index (rows, 0);
  int c_best = column (header, "best"), c_tied = column (header, "tied_with_best");
  int c_occ = column (header, "occupancy"), c_run = column (header, "run");
  guint bests = 0, tied = 0;

  g_assert_cmpuint (rows->len - 1, ==, 32);
  for (guint i = 1; i < rows->len; i++)
    {
      GPtrArray *row = g_ptr_array_index (rows, i);
      WsRun *run = ws_session_find_run (session, (int) number (row, c_run));

      bests += number (row, c_best) == 1;
      tied += number (row, c_tied) == 1;
      g_assert_cmpfloat (number (row, c_occ), ==, ws_run_get_launch (run)->occupancy);
    }
  g_assert_cmpuint (bests, ==, 1);
  g_assert_cmpuint (tied, >=, 1);
}

static void
test_csv_others (void)
{
  for (guint s = 0; s < samples->len; s++)
    {
      WsSession *session = g_ptr_array_index (samples, s);
      g_autoptr (GPtrArray) breakdown = export_csv (session, WS_CHART_BREAKDOWN);
      g_autoptr (GPtrArray) roofline = export_csv (session, WS_CHART_ROOFLINE);
      g_autoptr (GPtrArray) timeline = export_csv (session, WS_CHART_TIMELINE);
      g_autoptr (GPtrArray) occupancy = export_csv (session, WS_CHART_OCCUPANCY);
      guint n_runs = g_list_model_get_n_items (ws_session_get_runs (session));
      GPtrArray *h = g_ptr_array_index (roofline, 0);
      int c_int = column (h, "flop_per_byte"), c_flops = column (h, "flops");
      int c_bytes = column (h, "bytes");
      guint current = 0;

      g_assert_cmpuint (breakdown->len - 1, ==, n_runs);
      g_assert_cmpuint (roofline->len - 1, ==, n_runs);
      g_assert_cmpuint (timeline->len - 1, ==, n_runs);
      for (guint i = 1; i < roofline->len; i++)
        {
          GPtrArray *row = g_ptr_array_index (roofline, i);

          g_assert_cmpfloat_with_epsilon (number (row, c_int),
                                          number (row, c_flops) / number (row, c_bytes), 1e-9);
        }
      /* Three curves, the configuration marked once on each. */
      for (guint i = 1; i < occupancy->len; i++)
        {
          GPtrArray *row = g_ptr_array_index (occupancy, i);

          current += number (row, column (g_ptr_array_index (occupancy, 0), "current")) == 1;
          g_assert_cmpfloat (number (row, 3), >=, 0);
          g_assert_cmpfloat (number (row, 3), <=, 1);
        }
      g_assert_cmpuint (current, ==, 3);
    }
}

/* ---- trace ------------------------------------------------------------------------------ */

typedef struct
{
  double start, end;
} Span;

static int
compare_span (gconstpointer a, gconstpointer b)
{
  const Span *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  /* At one start the longer encloses the shorter. */
  return x->end > y->end ? -1 : x->end < y->end;
}

static gint64
micro_to_ns (JsonObject *o, const char *member)
{
  double us = json_object_get_double_member (o, member);

  return llround (us * 1000);
}

static void
check_trace (WsSession *session, const char *path)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) tracks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                         (GDestroyNotify) g_array_unref);
  g_autoptr (GHashTable) thread_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                               NULL);
  g_autoptr (GHashTable) process_names = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) pids = g_hash_table_new (NULL, NULL);
  g_autofree char *text = NULL;
  JsonObject *root;
  JsonArray *events;
  guint n_spans = 0, n_activities = 0;
  GListModel *runs = ws_session_get_runs (session);
  GHashTableIter iter;
  gpointer key, value;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  /* Numbers JSON can read: no NaN, no "1e-08.0". */
  g_assert_null (strstr (text, "nan"));
  g_assert_null (strstr (text, "inf"));
  g_assert_null (strstr (text, "e-08.0"));
  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "displayTimeUnit"), ==, "ns");
  events = json_object_get_array_member (root, "traceEvents");
  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);
      guint n;

      ws_run_get_activities (run, &n);
      n_activities += n;
    }

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      const char *ph = json_object_get_string_member (e, "ph");
      int pid = (int) json_object_get_int_member (e, "pid");

      if (g_str_equal (ph, "M"))
        {
          const char *what = json_object_get_string_member (e, "name");
          JsonObject *args = json_object_get_object_member (e, "args");

          if (g_str_equal (what, "process_name"))
            {
              g_assert_cmpuint (strlen (json_object_get_string_member (args, "name")), >, 0);
              g_hash_table_add (process_names, GINT_TO_POINTER (pid));
            }
          else if (g_str_equal (what, "thread_name"))
            g_hash_table_add (thread_names,
                              g_strdup_printf ("%d/%" G_GINT64_FORMAT, pid,
                                               json_object_get_int_member (e, "tid")));
          continue;
        }
      g_assert_cmpstr (ph, ==, "X");
      {
        JsonObject *args = json_object_get_object_member (e, "args");
        const char *cat = json_object_get_string_member (e, "cat");
        gint64 start = json_object_get_int_member (args, "start_ns");
        gint64 end = json_object_get_int_member (args, "end_ns");
        g_autofree char *track = g_strdup_printf ("%d/%" G_GINT64_FORMAT, pid,
                                                  json_object_get_int_member (e, "tid"));
        GArray *spans = g_hash_table_lookup (tracks, track);
        Span span;

        n_spans++;
        g_hash_table_add (pids, GINT_TO_POINTER (pid));
        g_assert_cmpuint (strlen (json_object_get_string_member (e, "name")), >, 0);
        /* µs, with every ns kept in the fraction. */
        g_assert_cmpint (micro_to_ns (e, "ts"), ==, start);
        g_assert_cmpint (micro_to_ns (e, "dur"), ==, end - start);
        if (g_str_equal (cat, "memcpy"))
          {
            double bytes = (double) json_object_get_int_member (args, "bytes");
            double gbs = json_object_get_double_member (args, "GB/s");

            g_assert_cmpfloat (bytes, >, 0);
            g_assert_cmpfloat_with_epsilon (gbs, bytes / (double) (end - start), gbs * 1e-9);
            g_assert_true (json_object_has_member (args, "direction"));
          }
        else if (g_str_equal (cat, "kernel"))
          {
            JsonArray *grid = json_object_get_array_member (args, "grid");
            JsonArray *block = json_object_get_array_member (args, "block");
            WsRun *run = ws_session_find_run (session, json_object_get_int_member (args, "run"));

            g_assert_cmpuint (json_array_get_length (grid), ==, 3);
            g_assert_cmpuint (json_array_get_length (block), ==, 3);
            g_assert_cmpint (json_array_get_int_element (block, 0), >, 0);
            /* Occupancy where the runner measured it (not for library kernels like cuBLAS). */
            g_assert_true (json_object_has_member (args, "occupancy")
                           == (ws_run_get_launch (run) != NULL));
            if (ws_run_get_launch (run) != NULL)
              {
                double occ = json_object_get_double_member (args, "occupancy");

                g_assert_cmpfloat (occ, ==, ws_run_get_launch (run)->occupancy);
              }
          }
        if (spans == NULL)
          {
            spans = g_array_new (FALSE, FALSE, sizeof (Span));
            g_hash_table_insert (tracks, g_steal_pointer (&track), spans);
          }
        span = (Span) { (double) start, (double) end };
        g_array_append_val (spans, span);
      }
    }
  g_assert_cmpuint (n_spans, ==, n_activities);
  g_assert_cmpuint (n_spans, ==, ws_session_get_n_activities (session));

  /* Every process and thread is named; no two spans of a track overlap partially (they
   * follow each other, or one holds the other). */
  g_hash_table_iter_init (&iter, pids);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_assert_true (g_hash_table_contains (process_names, key));
  g_hash_table_iter_init (&iter, tracks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *spans = value;
      g_autoptr (GArray) open = g_array_new (FALSE, FALSE, sizeof (double));

      g_assert_true (g_hash_table_contains (thread_names, key));
      g_array_sort (spans, compare_span);
      for (guint i = 0; i < spans->len; i++)
        {
          const Span *s = &g_array_index (spans, Span, i);

          while (open->len > 0 && g_array_index (open, double, open->len - 1) <= s->start)
            g_array_set_size (open, open->len - 1);
          if (open->len > 0 && s->end > g_array_index (open, double, open->len - 1))
            g_error ("track %s: a span from %.0f to %.0f overlaps one that ends at %.0f",
                     (char *) key, s->start, s->end, g_array_index (open, double, open->len - 1));
          g_array_append_val (open, s->end);
        }
    }
}

static void
test_trace (gconstpointer data)
{
  WsSession *session = g_ptr_array_index (samples, GPOINTER_TO_UINT (data));
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "trace.json", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;

  g_assert_true (ws_export_trace (session, file, &error));
  g_assert_no_error (error);
  assert_only (dir, "trace.json");
  check_trace (session, path);
  remove_tree (dir);
}

/* Spans on one stream that CUPTI timed as overlapping go to a second track of that stream. */
static void
test_trace_overlap (void)
{
  g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_RECORDING);
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "trace.json", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  const char *lines[] = {
    "{\"type\":\"hello\",\"protocol\":1}",
    "{\"type\":\"device\",\"index\":0,\"name\":\"Test GPU\"}",
    "{\"type\":\"run\",\"id\":1,\"kernel\":\"k\",\"shape\":[10],\"size\":10,\"block\":[32,1,1],"
    "\"grid\":[1,1,1],\"threads_per_block\":32}",
    "{\"type\":\"launch\",\"run\":1,\"occupancy\":0.5,\"limiter\":\"blocks_per_sm\"}",
    "{\"type\":\"activity\",\"run\":1,\"phase\":\"kernels\",\"rep\":0,\"kind\":\"kernel\","
    "\"name\":\"k\",\"stream\":7,\"start\":1000,\"end\":2001,\"grid\":[1,1,1],\"block\":[32,1,1]}",
    "{\"type\":\"activity\",\"run\":1,\"phase\":\"kernels\",\"rep\":1,\"kind\":\"kernel\","
    "\"name\":\"k\",\"stream\":7,\"start\":2000,\"end\":3000,\"grid\":[1,1,1],\"block\":[32,1,1]}",
    "{\"type\":\"activity\",\"run\":1,\"phase\":\"kernels\",\"rep\":1,\"kind\":\"sync\","
    "\"sync\":\"stream_synchronize\",\"stream\":7,\"start\":1500,\"end\":3100}",
    "{\"type\":\"activity\",\"run\":1,\"phase\":\"sequence\",\"rep\":0,\"kind\":\"memcpy\","
    "\"direction\":\"htod\",\"bytes\":4096,\"stream\":7,\"start\":3200,\"end\":3300}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    g_assert_true (ws_session_feed_line (session, lines[i], -1, NULL));
  ws_session_end (session);
  g_assert_true (ws_export_trace (session, file, &error));
  g_assert_no_error (error);
  check_trace (session, path);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "Stream 7 · kernels (2)"));
  g_assert_nonnull (strstr (text, "\"ts\":1.5,"));
  g_assert_nonnull (strstr (text, "\"dur\":1.001,"));
  remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  load_samples ();

  g_test_add_func ("/export/formats", test_formats);
  g_test_add_func ("/export/chart/files", test_chart_files);
  g_test_add_func ("/export/chart/errors", test_chart_errors);
  g_test_add_func ("/export/chart/size-bound", test_chart_size_bound);
  g_test_add_func ("/export/csv/speedup", test_csv_speedup);
  g_test_add_func ("/export/csv/blocks", test_csv_blocks);
  g_test_add_func ("/export/csv/others", test_csv_others);
  for (guint s = 0; s < samples->len; s++)
    {
      g_autofree char *path = g_strdup_printf ("/export/trace/%s",
                                               (char *) g_ptr_array_index (sample_names, s));

      g_test_add_data_func (path, GUINT_TO_POINTER (s), test_trace);
    }
  g_test_add_func ("/export/trace/overlap", test_trace_overlap);
  return g_test_run ();
}

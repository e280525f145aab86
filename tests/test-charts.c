/* test-charts.c: every chart drawn from every bundled recording onto image, SVG and PDF
 * surfaces and read back; empty, one-run and all-equal sessions; the timeline's ruler, labels,
 * geometry and picking; ticks that never collide; themes that stay apart for colour-blind eyes.
 * With WS_CHARTS_OUTPUT_DIR set, the PNGs are also written there (docs/charts).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <cairo.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "ws-analysis.h"
#include "ws-chart-private.h"
#include "ws-export.h"
#include "ws-trace.h"
#include "test-util.h"

#if __has_include(<librsvg/rsvg.h>)
#include <librsvg/rsvg.h>
#define HAVE_RSVG 1
#endif
#if __has_include(<poppler.h>)
#include <poppler.h>
#define HAVE_POPPLER 1
#endif

static GPtrArray *samples; /* WsSession */
static GPtrArray *sample_names;

static WsSession *
load_path (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  WsSession *session = ws_session_load (file, NULL, &error);

  g_assert_no_error (error);
  return session;
}

static void
load_samples (void)
{
  const char *dir_name = g_getenv ("WS_SAMPLES_DIR");
  g_autoptr (GPtrArray) names = ws_test_list_dir (dir_name, ".jsonl");

  g_assert_nonnull (names);
  g_assert_cmpuint (names->len, >=, 4);
  samples = g_ptr_array_new_with_free_func (g_object_unref);
  sample_names = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir_name, g_ptr_array_index (names, i), NULL);
      WsSession *session = load_path (path);

      /* Traced programs have no runs to chart yet (tests/test-cli-trace.c exports them). */
      if (ws_session_get_trace (session) != NULL)
        {
          g_object_unref (session);
          continue;
        }
      g_ptr_array_add (samples, session);
      g_ptr_array_add (sample_names, g_strndup (g_ptr_array_index (names, i),
                                                strlen (g_ptr_array_index (names, i))
                                                  - strlen (".jsonl")));
    }
}

/* ---- reading back what was drawn -------------------------------------------------------- */

typedef struct
{
  const guint8 *data;
  gsize size, at;
} Reader;

static cairo_status_t
read_cb (void *closure, unsigned char *data, unsigned int length)
{
  Reader *r = closure;

  if (r->at + length > r->size)
    return CAIRO_STATUS_READ_ERROR;
  memcpy (data, r->data + r->at, length);
  r->at += length;
  return CAIRO_STATUS_SUCCESS;
}

static cairo_surface_t *
decode_png (GBytes *bytes)
{
  Reader r = { g_bytes_get_data (bytes, &r.size), 0, 0 };

  r.size = g_bytes_get_size (bytes);
  return cairo_image_surface_create_from_png_stream (read_cb, &r);
}

/* The share of pixels that differ from the background, and how many distinct colours there
 * are (up to 64): a blank or one-colour image is not a chart. */
static void
inspect (cairo_surface_t *image, const WsColor *background, double *ink, guint *colours)
{
  int w = cairo_image_surface_get_width (image), h = cairo_image_surface_get_height (image);
  int stride = cairo_image_surface_get_stride (image);
  const guint8 *data = cairo_image_surface_get_data (image);
  guint32 bg = 0xff000000u | (guint32) lround (background->r * 255) << 16
               | (guint32) lround (background->g * 255) << 8
               | (guint32) lround (background->b * 255);
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  guint64 differ = 0;

  cairo_surface_flush (image);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        guint32 p = *(const guint32 *) (data + y * stride + 4 * x);

        if (p != bg)
          differ++;
        if (g_hash_table_size (seen) < 64)
          g_hash_table_add (seen, GUINT_TO_POINTER (p));
      }
  *ink = (double) differ / ((double) w * h);
  *colours = g_hash_table_size (seen);
}

static GPtrArray *
one (WsSession *session)
{
  GPtrArray *sessions = g_ptr_array_new ();

  if (session)
    g_ptr_array_add (sessions, session);
  return sessions;
}

static GBytes *
render (GPtrArray *sessions, const WsChartOptions *options, WsExportFormat format, double scale)
{
  g_autoptr (GError) error = NULL;
  GBytes *bytes = ws_export_chart_to_bytes (sessions, options, format, scale, &error);

  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  return bytes;
}

static void
check_png (GBytes *bytes, int width, int height, const WsTheme *theme, double min_ink)
{
  cairo_surface_t *image = decode_png (bytes);
  double ink;
  guint colours;

  g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (image), ==, width);
  g_assert_cmpint (cairo_image_surface_get_height (image), ==, height);
  inspect (image, &theme->background, &ink, &colours);
  g_assert_cmpfloat (ink, >=, min_ink);
  g_assert_cmpfloat (ink, <, 0.9);
  g_assert_cmpuint (colours, >=, 3);
  cairo_surface_destroy (image);
}

static char *
svg_text_content (GBytes *bytes)
{
  gsize n;
  const char *data = g_bytes_get_data (bytes, &n);

  return g_strndup (data, n);
}

static void
check_svg (GBytes *bytes, double width, double height, const char *const *expect)
{
  g_autofree char *svg = svg_text_content (bytes);

  /* Text as text: the strings are in the file, in <text> elements, not only as glyph paths. */
  g_assert_nonnull (strstr (svg, "<text "));
  for (guint i = 0; expect[i]; i++)
    {
      g_autofree char *escaped = g_markup_escape_text (expect[i], -1);

      if (strstr (svg, escaped) == NULL)
        g_error ("SVG lacks “%s”", expect[i]);
    }
#ifdef HAVE_RSVG
  {
    g_autoptr (GError) error = NULL;
    /* librsvg 2.54 and poppler 22 declare no autoptr cleanups. */
    RsvgHandle *handle = rsvg_handle_new_from_data (g_bytes_get_data (bytes, NULL),
                                                    g_bytes_get_size (bytes), &error);
    double w = 0, h = 0;

    g_assert_no_error (error);
    g_assert_true (rsvg_handle_get_intrinsic_size_in_pixels (handle, &w, &h));
    g_assert_cmpfloat_with_epsilon (w, width, 0.5);
    g_assert_cmpfloat_with_epsilon (h, height, 0.5);
    g_object_unref (handle);
  }
#endif
}

static void
check_pdf (GBytes *bytes, double width, double height, const char *const *expect)
{
  gsize n;
  const char *data = g_bytes_get_data (bytes, &n);

  g_assert_cmpuint (n, >, 100);
  g_assert_true (g_str_has_prefix (data, "%PDF-"));
#ifdef HAVE_POPPLER
  {
    g_autoptr (GError) error = NULL;
    PopplerDocument *doc = poppler_document_new_from_bytes (bytes, NULL, &error);
    PopplerPage *page;
    g_autofree char *text = NULL;
    double w, h;

    g_assert_no_error (error);
    g_assert_cmpint (poppler_document_get_n_pages (doc), ==, 1);
    page = poppler_document_get_page (doc, 0);
    poppler_page_get_size (page, &w, &h);
    g_assert_cmpfloat_with_epsilon (w, width, 0.5);
    g_assert_cmpfloat_with_epsilon (h, height, 0.5);
    /* Text as text: the PDF's fonts map back to the strings. */
    text = poppler_page_get_text (page);
    for (guint i = 0; expect[i]; i++)
      if (strstr (text, expect[i]) == NULL)
        g_error ("PDF text lacks “%s”", expect[i]);
    g_object_unref (page);
    g_object_unref (doc);
  }
#endif
}

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
  static const char *const *all[] = { timeline, speedup, blocks, occupancy, breakdown,
                                      roofline };

  return all[kind];
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
  const char *const *expect = expected_text (c->kind);
  const char *const titles_only[] = { expect[0], NULL };
  const char *out_dir = g_getenv ("WS_CHARTS_OUTPUT_DIR");

  ws_chart_options_init (&options, c->kind, theme, 1600, 900);
  png = render (sessions, &options, WS_EXPORT_PNG, 1);
  check_png (png, 1600, 900, theme, 0.02);
  png2 = render (sessions, &options, WS_EXPORT_PNG, 2);
  check_png (png2, 3200, 1800, theme, 0.02);
  svg = render (sessions, &options, WS_EXPORT_SVG, 1);
  /* A size sweep has no block sweep and the other way round: such a chart says so in a
   * sentence, and only its title is certain. */
  check_svg (svg, 1600, 900, expect);
  pdf = render (sessions, &options, WS_EXPORT_PDF, 1);
  check_pdf (pdf, 1600, 900, titles_only);

  if (out_dir != NULL)
    {
      g_autofree char *name = g_strdup_printf ("%s-%s.png",
                                               (char *) g_ptr_array_index (sample_names, c->sample),
                                               ws_chart_kind_to_string (c->kind));
      g_autofree char *path = g_build_filename (out_dir, name, NULL);
      g_autoptr (GError) error = NULL;

      /* Without the "-h200" of the recordings' names: the device is named on the chart. */
      if (strstr (name, "-h200-"))
        {
          char *at = strstr (name, "-h200-");

          memmove (at, at + 5, strlen (at + 5) + 1);
          g_free (path);
          path = g_build_filename (out_dir, name, NULL);
        }
      g_file_set_contents (path, g_bytes_get_data (png, NULL), g_bytes_get_size (png), &error);
      g_assert_no_error (error);
    }
}

/* Some charts have nothing to show for some recordings (no block sweep in a size sweep):
 * they must still say which chart it is and why it is empty. */
static gboolean
chart_applies (WsSession *session, WsChartKind kind)
{
  if (kind == WS_CHART_SPEEDUP)
    {
      /* A size sweep, with a CPU baseline to compare with. */
      g_autoptr (GPtrArray) s = ws_session_get_series (session, WS_SERIES_BY_SIZE, 2);

      for (guint i = 0; i < s->len; i++)
        {
          WsSeries *series = g_ptr_array_index (s, i);

          for (guint r = 0; r < series->runs->len; r++)
            if (ws_run_get_speedup (g_ptr_array_index (series->runs, r), TRUE, FALSE) > 0)
              return TRUE;
        }
      return FALSE;
    }
  if (kind == WS_CHART_BLOCKS)
    {
      g_autoptr (GPtrArray) s = ws_session_get_series (session, WS_SERIES_BY_BLOCK, 2);

      return s->len > 0;
    }
  return TRUE;
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
              check_png (png, 800, 500, theme, 0.01);
            }
        }
    }
}

/* ---- sessions at the edges -------------------------------------------------------------- */

static WsSession *
session_from_lines (GPtrArray *lines)
{
  WsSession *session = ws_session_new (WS_SESSION_SOURCE_RECORDING);

  for (guint i = 0; i < lines->len; i++)
    {
      const char *line = g_ptr_array_index (lines, i);

      ws_session_feed_line (session, line, -1, NULL);
    }
  ws_session_end (session);
  return session;
}

/* The lines of a recording, filtered and rewritten by `edit` (NULL: dropped). */
static GPtrArray *
sample_lines (const char *name, char *(*edit) (JsonObject *record, gpointer data), gpointer data)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_SAMPLES_DIR"), name, NULL);
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      char *kept;

      if (!*lines[i] || !json_parser_load_from_data (parser, lines[i], -1, NULL))
        continue;
      kept = edit (json_node_get_object (json_parser_get_root (parser)), data);
      if (kept)
        g_ptr_array_add (out, kept);
    }
  return out;
}

static char *
to_line (JsonObject *o)
{
  g_autoptr (JsonNode) node = json_node_init_object (json_node_alloc (), o);

  return json_to_string (node, FALSE);
}

static char *
keep_hello_only (JsonObject *o, gpointer data)
{
  return g_str_equal (json_object_get_string_member (o, "type"), "hello") ? to_line (o) : NULL;
}

static char *
keep_first_run (JsonObject *o, gpointer data)
{
  if (json_object_has_member (o, "run") && json_object_get_int_member (o, "run") != 1)
    return NULL;
  if (g_str_equal (json_object_get_string_member (o, "type"), "run")
      && json_object_get_int_member (o, "id") != 1)
    return NULL;
  return to_line (o);
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
                     ws_theme_get (WS_THEME_LIGHT), 0.002);
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

/* ---- the timeline ----------------------------------------------------------------------- */

static WsSession *
sample (const char *prefix)
{
  for (guint i = 0; i < samples->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (sample_names, i), prefix))
      return g_ptr_array_index (samples, i);
  g_assert_not_reached ();
}

static const WsActivity *
first_kernel (WsRun *run, WsActivityPhase phase, guint *index)
{
  guint n;
  const WsActivity *a = ws_run_get_activities (run, &n);

  for (guint i = 0; i < n; i++)
    if (a[i].kind == WS_ACTIVITY_KERNEL && a[i].phase == phase)
      {
        *index = i;
        return &a[i];
      }
  g_assert_not_reached ();
}

static void
test_timeline_zoom (void)
{
  WsSession *session = sample ("vector-add-sizes");
  g_autoptr (GPtrArray) sessions = one (session);
  WsRun *run = ws_session_find_run (session, 5);
  guint index;
  const WsActivity *k = first_kernel (run, WS_PHASE_SEQUENCE, &index);
  g_autofree char *dur = _ws_format_duration ((double) ws_activity_duration (k));
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
  const WsActivity *k = first_kernel (run, WS_PHASE_KERNELS, &index);
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
  const WsActivity *a = ws_run_get_activities (run, &n);

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
  const WsActivity *k = first_kernel (pinned, WS_PHASE_SEQUENCE, &index);
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
  check_png (png, 1000, 400, ws_theme_get (WS_THEME_LIGHT), 0.05);
  g_object_unref (session);
}

/* ---- text, numbers, ticks, themes ------------------------------------------------------- */

static void
test_format (void)
{
  struct
  {
    char *(*f) (double);
    double v;
    const char *expect;
  } cases[] = {
    { _ws_format_duration, 2400, "2.40 µs" },
    { _ws_format_duration, 999999, "1.00 ms" },
    { _ws_format_duration, 15.4, "15.4 ns" },
    { _ws_format_duration, 1.92e9, "1.92 s" },
    { _ws_format_duration, NAN, "–" },
    { _ws_format_bytes, 4000, "4.00 kB" },
    { _ws_format_bytes, 80e6, "80.0 MB" },
    { _ws_format_bytes, 999.9e3, "1.00 MB" },
    { _ws_format_count, 1e3, "1 K" },
    { _ws_format_count, 1e7, "10 M" },
    { _ws_format_count, 2048, "2048" },
    { _ws_format_count, 1.5e6, "1.50 M" },
    { _ws_format_percent, 0.97, "97%" },
    { _ws_format_percent, 0.004, "0.4%" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *s = cases[i].f (cases[i].v);

      g_assert_cmpstr (s, ==, cases[i].expect);
    }
  {
    g_autofree char *a = _ws_format_tick (0.5, 0.5), *b = _ws_format_tick (12000, 2000);
    g_autofree char *c = _ws_format_tick (-1e-17, 0.1), *d = _ws_format_log_tick (0.02);

    g_assert_cmpstr (a, ==, "0.5");
    g_assert_cmpstr (b, ==, "12,000");
    g_assert_cmpstr (c, ==, "0.0");
    g_assert_cmpstr (d, ==, "0.02");
  }
}

static void
test_ticks (void)
{
  const struct
  {
    WsScaleKind kind;
    double lo, hi, pixels;
    WsAxisSide side;
  } cases[] = {
    { WS_SCALE_LINEAR, 0, 1, 800, WS_AXIS_BOTTOM },
    { WS_SCALE_LINEAR, 0, 123456789, 300, WS_AXIS_BOTTOM },
    { WS_SCALE_LINEAR, 5, 5, 400, WS_AXIS_LEFT },              /* all equal */
    { WS_SCALE_LINEAR, -3e-9, 7e-9, 120, WS_AXIS_BOTTOM },
    { WS_SCALE_LOG, 1000, 1e8, 900, WS_AXIS_BOTTOM },
    { WS_SCALE_LOG, 1000, 1e8, 60, WS_AXIS_BOTTOM },           /* very little room */
    { WS_SCALE_LOG, 256, 4096, 700, WS_AXIS_BOTTOM },
    { WS_SCALE_LOG, 0.013, 2200, 400, WS_AXIS_LEFT },
    { WS_SCALE_LOG, 3, 3, 400, WS_AXIS_LEFT },                  /* one point */
    { WS_SCALE_LOG, 0, -4, 400, WS_AXIS_LEFT },                 /* nothing positive */
    { WS_SCALE_LINEAR, NAN, INFINITY, 400, WS_AXIS_BOTTOM },
  };
  WsChartOptions options;
  WsChartContext ctx;

  ws_chart_options_init (&options, WS_CHART_SPEEDUP, NULL, 1000, 1000);
  _ws_chart_context_init (&ctx, NULL, &options);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      WsAxis axis;
      double prev_hi = -G_MAXDOUBLE;

      _ws_axis_init (&axis, cases[i].side, cases[i].kind, cases[i].lo, cases[i].hi, NULL);
      axis.scale.p0 = cases[i].side == WS_AXIS_BOTTOM ? 10 : 10 + cases[i].pixels;
      axis.scale.p1 = cases[i].side == WS_AXIS_BOTTOM ? 10 + cases[i].pixels : 10;
      _ws_axis_compute_ticks (&ctx, &axis);
      g_assert_true (axis.scale.lo < axis.scale.hi);
      g_assert_true (isfinite (axis.scale.lo) && isfinite (axis.scale.hi));
      if (axis.ticks->len < (cases[i].pixels >= 100 ? 2u : 1u))
        g_error ("case %u: %u ticks", i, axis.ticks->len);
      /* Labels, measured, keep clear of each other. */
      for (guint t = 0; t < axis.ticks->len; t++)
        {
          double p = _ws_scale_map (&axis.scale, g_array_index (axis.ticks, double, t)), w, h;
          double lo, hi;

          _ws_text_extent (&ctx, WS_FONT_SMALL, g_ptr_array_index (axis.labels, t), &w, &h);
          if (cases[i].side == WS_AXIS_BOTTOM)
            lo = p - w / 2, hi = p + w / 2;
          else
            lo = -p - h / 2, hi = -p + h / 2;
          g_assert_true (isfinite (p));
          g_assert_cmpfloat (lo, >=, prev_hi);
          prev_hi = hi;
        }
      _ws_axis_clear (&axis);
    }
  _ws_chart_context_clear (&ctx);
}

static void
test_kinds (void)
{
  for (int k = 0; k < WS_N_CHARTS; k++)
    {
      WsChartKind back;

      g_assert_true (ws_chart_kind_from_string (ws_chart_kind_to_string ((WsChartKind) k), &back));
      g_assert_cmpint (back, ==, k);
      g_assert_cmpuint (strlen (ws_chart_kind_title ((WsChartKind) k)), >, 3);
    }
  g_assert_false (ws_chart_kind_from_string ("pie", NULL));
  for (int t = WS_THEME_LIGHT; t <= WS_THEME_PRINT; t++)
    {
      WsThemeKind back;

      g_assert_true (ws_theme_kind_from_string (ws_theme_kind_to_string ((WsThemeKind) t), &back));
      g_assert_cmpint (back, ==, t);
    }
  g_assert_false (ws_theme_kind_from_string ("sepia", NULL));
  {
    g_autofree WsTheme *big = ws_theme_scaled (ws_theme_get (WS_THEME_LIGHT), 1.5);

    g_assert_cmpfloat (big->font_size, ==, ws_theme_get (WS_THEME_LIGHT)->font_size * 1.5);
    g_assert_cmpfloat (big->text_scale, ==, 1.5);
  }
}

static double
contrast (const WsColor *a, const WsColor *b)
{
  double la = _ws_color_luminance (a), lb = _ws_color_luminance (b);

  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

static double
lin (double c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

/* Machado, Oliveira and Fernandes (2009), severity 1.0, in linear RGB; then CIE L*a*b*. */
static void
simulate_lab (const WsColor *c, int deficiency, double lab[3])
{
  static const double m[3][3][3] = {
    { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } },
    { { 0.152286, 1.052583, -0.204868 }, { 0.114503, 0.786281, 0.099216 },
      { -0.003882, -0.048116, 1.051998 } }, /* protanopia */
    { { 0.367322, 0.860646, -0.227968 }, { 0.280085, 0.672501, 0.047413 },
      { -0.011820, 0.042940, 0.968881 } }, /* deuteranopia */
  };
  double rgb[3] = { lin (c->r), lin (c->g), lin (c->b) }, s[3], xyz[3], f[3];
  const double white[3] = { 0.95047, 1.0, 1.08883 };

  for (int i = 0; i < 3; i++)
    s[i] = CLAMP (m[deficiency][i][0] * rgb[0] + m[deficiency][i][1] * rgb[1]
                      + m[deficiency][i][2] * rgb[2],
                  0, 1);
  xyz[0] = 0.4124 * s[0] + 0.3576 * s[1] + 0.1805 * s[2];
  xyz[1] = 0.2126 * s[0] + 0.7152 * s[1] + 0.0722 * s[2];
  xyz[2] = 0.0193 * s[0] + 0.1192 * s[1] + 0.9505 * s[2];
  for (int i = 0; i < 3; i++)
    {
      double t = xyz[i] / white[i];

      f[i] = t > 0.008856 ? cbrt (t) : 7.787 * t + 16.0 / 116;
    }
  lab[0] = 116 * f[1] - 16;
  lab[1] = 500 * (f[0] - f[1]);
  lab[2] = 200 * (f[1] - f[2]);
}

static double
delta_e (const WsColor *a, const WsColor *b, int deficiency)
{
  double la[3], lb[3];

  simulate_lab (a, deficiency, la);
  simulate_lab (b, deficiency, lb);
  return sqrt ((la[0] - lb[0]) * (la[0] - lb[0]) + (la[1] - lb[1]) * (la[1] - lb[1])
               + (la[2] - lb[2]) * (la[2] - lb[2]));
}

static void
test_theme_colours (void)
{
  for (int t = WS_THEME_LIGHT; t <= WS_THEME_PRINT; t++)
    {
      const WsTheme *theme = ws_theme_get ((WsThemeKind) t);
      const WsColor *families[] = { &theme->h2d, &theme->d2h, &theme->kernel, &theme->cpu,
                                    &theme->memset };

      /* Text a projector can still show: WCAG AA for the muted text, AAA for the rest. */
      g_assert_cmpfloat (contrast (&theme->foreground, &theme->background), >=, 7);
      g_assert_cmpfloat (contrast (&theme->muted, &theme->background), >=, 4.5);
      /* Every pair of span colours stays apart for trichromats and with either red–green
       * deficiency: ΔE above 15 is a clear difference side by side. */
      for (int d = 0; d < 3; d++)
        for (guint i = 0; i < G_N_ELEMENTS (families); i++)
          for (guint j = i + 1; j < G_N_ELEMENTS (families); j++)
            {
              double e = delta_e (families[i], families[j], d);

              if (e < 15)
                g_error ("theme %d, deficiency %d: colours %u and %u are %.1f apart", t, d, i, j,
                         e);
            }
      /* Lines of the first four series too. */
      for (int d = 0; d < 3; d++)
        for (guint i = 0; i < 4; i++)
          for (guint j = i + 1; j < 4; j++)
            g_assert_cmpfloat (delta_e (&theme->series[i], &theme->series[j], d), >=, 15);
    }
}

/* Charts as the docs show them beyond one per recording: a zoom onto a run's sequences, a
 * dark and a print theme. Each is checked like the others; WS_CHARTS_OUTPUT_DIR keeps them. */
static void
save_example (GBytes *png, const char *name)
{
  const char *out_dir = g_getenv ("WS_CHARTS_OUTPUT_DIR");
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;

  if (out_dir == NULL)
    return;
  path = g_build_filename (out_dir, name, NULL);
  g_file_set_contents (path, g_bytes_get_data (png, NULL), g_bytes_get_size (png), &error);
  g_assert_no_error (error);
}

static void
test_examples (void)
{
  WsSession *sizes = sample ("vector-add-sizes");
  g_autoptr (GPtrArray) one_sizes = one (sizes);
  g_autoptr (GPtrArray) one_blocks = one (sample ("vector-add-blocks"));
  g_autoptr (GPtrArray) one_matmul = one (sample ("matmul-sizes"));
  WsRun *run = ws_session_find_run (sizes, 10);
  guint n, seen = 0;
  const WsActivity *a = ws_run_get_activities (run, &n);
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
  check_png (zoom, 1600, 900, options.theme, 0.05);
  save_example (zoom, "vector-add-sizes-timeline-run10.png");

  ws_chart_options_init (&options, WS_CHART_BLOCKS, ws_theme_get (WS_THEME_DARK), 1600, 900);
  dark = render (one_blocks, &options, WS_EXPORT_PNG, 1);
  check_png (dark, 1600, 900, options.theme, 0.02);
  save_example (dark, "vector-add-blocks-blocks-dark.png");

  ws_chart_options_init (&options, WS_CHART_SPEEDUP, ws_theme_get (WS_THEME_PRINT), 1600, 900);
  print = render (one_matmul, &options, WS_EXPORT_PNG, 1);
  check_png (print, 1600, 900, options.theme, 0.02);
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
          check_png (png, 1000, 600, ws_theme_get (WS_THEME_LIGHT), 0.005);
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
  check_png (png, 1000, 400, ws_theme_get (WS_THEME_LIGHT), 0.02);
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

  g_test_add_func ("/charts/kinds", test_kinds);
  g_test_add_func ("/charts/format", test_format);
  g_test_add_func ("/charts/ticks", test_ticks);
  g_test_add_func ("/charts/theme-colours", test_theme_colours);
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
  g_test_add_func ("/charts/timeline/zoom", test_timeline_zoom);
  g_test_add_func ("/charts/timeline/pick", test_timeline_pick);
  g_test_add_func ("/charts/timeline/highlight", test_timeline_highlight);
  g_test_add_func ("/charts/timeline/compare", test_timeline_compare);
  g_test_add_func ("/charts/timeline/squeezed", test_timeline_squeezed);
  g_test_add_func ("/charts/timeline/density", test_timeline_density);
  g_test_add_func ("/charts/cjk", test_cjk);
  g_test_add_func ("/charts/examples", test_examples);
  g_test_add_func ("/charts/annotate-and-pick", test_annotate_and_pick);
  g_test_add_func ("/charts/overlay", test_overlay);
  return g_test_run ();
}

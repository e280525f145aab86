/* test-charts-util.h: what the chart tests share (header only: each test is one program): the
 * bundled recordings, rendering through export and reading back what was drawn (PNG pixels, SVG
 * and PDF text), and sessions built from a recording's lines.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "ws-analysis.h"
#include "ws-chart-axes-private.h"
#include "ws-chart-format-private.h"
#include "ws-span-lanes.h"
#include "ws-chart-private.h"
#include "ws-chart-shapes-private.h"
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

static GPtrArray *samples G_GNUC_UNUSED; /* WsSession */
static GPtrArray *sample_names G_GNUC_UNUSED;

static inline WsSession *
load_path (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  WsSession *session = ws_session_load (file, NULL, &error);

  g_assert_no_error (error);
  return session;
}

/* A recording by its file name: the traced programs and the memory check too, which
 * load_samples leaves out of the charts' common samples. */
static inline WsSession *
load_recording (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_SAMPLES_DIR"), name, NULL);

  return load_path (path);
}

static inline void
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

      /* Traced programs have no runs to chart yet (tests/test-cli-trace.c exports them), and
       * a memory check has none at all (tests/test-charts-edges.c draws it). */
      if (ws_session_get_trace (session) != NULL
          || g_list_model_get_n_items (ws_session_get_runs (session)) == 0)
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

static inline cairo_status_t
read_cb (void *closure, unsigned char *data, unsigned int length)
{
  Reader *r = closure;

  if (r->at + length > r->size)
    return CAIRO_STATUS_READ_ERROR;
  memcpy (data, r->data + r->at, length);
  r->at += length;
  return CAIRO_STATUS_SUCCESS;
}

static inline cairo_surface_t *
decode_png (GBytes *bytes)
{
  Reader r = { g_bytes_get_data (bytes, &r.size), 0, 0 };

  r.size = g_bytes_get_size (bytes);
  return cairo_image_surface_create_from_png_stream (read_cb, &r);
}

/* Does any pixel differ from the background? What is drawn is checked against what was
 * collected (tests/test-charts-render.c); here only that something was. */
static inline gboolean
has_ink (cairo_surface_t *image, const WsColor *background)
{
  int w = cairo_image_surface_get_width (image), h = cairo_image_surface_get_height (image);
  int stride = cairo_image_surface_get_stride (image);
  const guint8 *data = cairo_image_surface_get_data (image);
  guint32 bg = 0xff000000u | (guint32) lround (background->r * 255) << 16
               | (guint32) lround (background->g * 255) << 8
               | (guint32) lround (background->b * 255);

  cairo_surface_flush (image);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      if (*(const guint32 *) (data + y * stride + 4 * x) != bg)
        return TRUE;
  return FALSE;
}

static inline GPtrArray *
one (WsSession *session)
{
  GPtrArray *sessions = g_ptr_array_new ();

  if (session)
    g_ptr_array_add (sessions, session);
  return sessions;
}

static inline GBytes *
render (GPtrArray *sessions, const WsChartOptions *options, WsExportFormat format, double scale)
{
  g_autoptr (GError) error = NULL;
  GBytes *bytes = ws_export_chart_to_bytes (sessions, options, format, scale, &error);

  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  return bytes;
}

/* Whether the pixel at (x, y) of an image of CAIRO_FORMAT_(A)RGB32 is `color`, give or take
 * rounding. */
static inline gboolean
pixel_is (cairo_surface_t *image, int x, int y, const WsColor *color)
{
  const guint8 *px = cairo_image_surface_get_data (image)
                     + y * cairo_image_surface_get_stride (image) + 4 * x;
  guint32 v = *(const guint32 *) px;

  return ABS ((int) (v >> 16 & 0xff) - (int) lround (color->r * 255)) <= 2
         && ABS ((int) (v >> 8 & 0xff) - (int) lround (color->g * 255)) <= 2
         && ABS ((int) (v & 0xff) - (int) lround (color->b * 255)) <= 2;
}

/* A PNG of this size with something drawn on it. */
static inline void
check_png (GBytes *bytes, int width, int height, const WsTheme *theme)
{
  cairo_surface_t *image = decode_png (bytes);

  g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (image), ==, width);
  g_assert_cmpint (cairo_image_surface_get_height (image), ==, height);
  g_assert_true (has_ink (image, &theme->background));
  cairo_surface_destroy (image);
}

static inline char *
svg_text_content (GBytes *bytes)
{
  gsize n;
  const char *data = g_bytes_get_data (bytes, &n);

  return g_strndup (data, n);
}

static inline void
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

static inline void
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

/* ---- sessions built in the test --------------------------------------------------------- */

static inline WsSession *
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
static inline GPtrArray *
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

static inline char *
to_line (JsonObject *o)
{
  g_autoptr (JsonNode) node = json_node_init_object (json_node_alloc (), o);

  return json_to_string (node, FALSE);
}

/* For sample_lines: the records of run 1 alone. */
static inline char *
keep_first_run (JsonObject *o, gpointer data)
{
  if (json_object_has_member (o, "run") && json_object_get_int_member (o, "run") != 1)
    return NULL;
  if (g_str_equal (json_object_get_string_member (o, "type"), "run")
      && json_object_get_int_member (o, "id") != 1)
    return NULL;
  return to_line (o);
}

/* ---- the recordings --------------------------------------------------------------------- */

static inline WsSession *
sample (const char *prefix)
{
  for (guint i = 0; i < samples->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (sample_names, i), prefix))
      return g_ptr_array_index (samples, i);
  g_assert_not_reached ();
}

static inline const WsSpan *
first_kernel (WsRun *run, WsActivityPhase phase, guint *index)
{
  guint n;
  const WsSpan *a = ws_run_get_activities (run, &n);

  for (guint i = 0; i < n; i++)
    if (a[i].kind == WS_ACTIVITY_KERNEL && a[i].phase == phase)
      {
        *index = i;
        return &a[i];
      }
  g_assert_not_reached ();
}

/* Some charts have nothing to show for some recordings (no block sweep in a size sweep):
 * they must still say which chart it is and why it is empty. */
static inline gboolean
chart_applies (WsSession *session, WsChartKind kind)
{
  return _ws_chart_needs_met (kind, session);
}

/* With WS_CHARTS_OUTPUT_DIR set, a chart the test drew is kept there under `name`. */
static inline void
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


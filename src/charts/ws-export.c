/* ws-export.c: charts to PNG (at 1×, 2×, 3×), SVG and PDF through the same drawing call the
 * widgets use, and the atomic write every export goes through.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ws-chart-private.h"
#include "ws-export-private.h"
#include "ws-export-svg-private.h"
#include "ws-format.h"
#include "ws-export-private.h"

static const struct
{
  const char *name;
  const char *extension;
} formats[] = {
  [WS_EXPORT_PNG] = { "png", ".png" },
  [WS_EXPORT_SVG] = { "svg", ".svg" },
  [WS_EXPORT_PDF] = { "pdf", ".pdf" },
  [WS_EXPORT_CSV] = { "csv", ".csv" },
  [WS_EXPORT_TRACE] = { "trace", ".json" },
};

const char *
ws_export_format_to_string (WsExportFormat format)
{
  g_return_val_if_fail ((guint) format < G_N_ELEMENTS (formats), NULL);
  return formats[format].name;
}

gboolean
ws_export_format_from_string (const char *name, WsExportFormat *format)
{
  g_return_val_if_fail (name != NULL, FALSE);
  if (*name == '.')
    name++;
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (g_ascii_strcasecmp (name, formats[i].name) == 0
        || g_ascii_strcasecmp (name, formats[i].extension + 1) == 0)
      {
        if (format)
          *format = (WsExportFormat) i;
        return TRUE;
      }
  return FALSE;
}

const char *
ws_export_format_extension (WsExportFormat format)
{
  g_return_val_if_fail ((guint) format < G_N_ELEMENTS (formats), NULL);
  return formats[format].extension;
}

void
_ws_export_append_number (GString *out, double value)
{
  ws_format_append_csv_number (out, value);
}

/* ---- charts ----------------------------------------------------------------------------- */

static cairo_status_t
append_bytes (void *closure, const unsigned char *data, unsigned int length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

static char *
document_title (GPtrArray *sessions, const WsChartOptions *options)
{
  WsSession *session = sessions && sessions->len ? g_ptr_array_index (sessions, 0) : NULL;
  WsDevice *device = session ? ws_session_get_device (session) : NULL;

  if (device)
    return g_strdup_printf ("%s · %s", ws_chart_kind_title (options->kind),
                            ws_device_get_name (device));
  return g_strdup (ws_chart_kind_title (options->kind));
}

static gboolean
check_status (cairo_status_t status, GError **error)
{
  if (status == CAIRO_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot draw the chart: %s"),
               cairo_status_to_string (status));
  return FALSE;
}

static gboolean
png_bytes (GPtrArray *sessions, const WsChartOptions *options, double scale, GByteArray *data,
           GError **error)
{
  cairo_surface_t *surface;
  cairo_t *cr;
  double w, h;
  gboolean ok;

  if (!(scale > 0))
    scale = 1;
  w = ceil (options->width * scale);
  h = ceil (options->height * scale);
  /* cairo's image surfaces stop at 32,767 pixels a side. */
  if (w > 32767 || h > 32767)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("A PNG of %.0f × %.0f pixels is too large: the most is 32,767 a side. Use "
                     "a smaller scale, or SVG or PDF."),
                   w, h);
      return FALSE;
    }
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) w, (int) h);
  cr = cairo_create (surface);
  cairo_scale (cr, scale, scale);
  ws_chart_draw (cr, sessions, options);
  ok = check_status (cairo_status (cr), error);
  cairo_destroy (cr);
  if (ok)
    ok = check_status (cairo_surface_write_to_png_stream (surface, append_bytes, data), error);
  cairo_surface_destroy (surface);
  return ok;
}

/* cairo's SVG with the text recorded as <text> and a <title>. */
static gboolean
svg_bytes (GPtrArray *sessions, const WsChartOptions *options, const char *title,
           GByteArray *data, GError **error)
{
  cairo_surface_t *surface = cairo_svg_surface_create_for_stream (append_bytes, data,
                                                                   options->width,
                                                                   options->height);
  WsTextSink *sink = _ws_text_sink_new ();
  g_autoptr (GString) svg = NULL;
  g_autofree char *escaped = g_markup_escape_text (title, -1);
  const char *open_end;
  cairo_t *cr;
  gboolean ok;

  /* Unitless, as pixels: an SVG of 1600 × 900 shows at the PNG's size. */
  cairo_svg_surface_set_document_unit (surface, CAIRO_SVG_UNIT_USER);
  _ws_text_sink_attach (sink, surface);
  cr = cairo_create (surface);
  ws_chart_draw (cr, sessions, options);
  ok = check_status (cairo_status (cr), error);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  if (ok)
    ok = check_status (cairo_surface_status (surface), error);
  cairo_surface_destroy (surface);
  if (ok)
    {
      svg = g_string_new_len ((const char *) data->data, data->len);
      _ws_text_sink_write (sink, svg);
      open_end = strstr (svg->str, "<svg");
      open_end = open_end ? strchr (open_end, '>') : NULL;
      if (open_end)
        {
          g_autofree char *t = g_strdup_printf ("\n<title>%s</title>", escaped);

          g_string_insert (svg, open_end - svg->str + 1, t);
        }
      g_byte_array_set_size (data, 0);
      g_byte_array_append (data, (const guint8 *) svg->str, svg->len);
    }
  _ws_text_sink_free (sink);
  return ok;
}

static gboolean
pdf_bytes (GPtrArray *sessions, const WsChartOptions *options, const char *title,
           GByteArray *data, GError **error)
{
  cairo_surface_t *surface = cairo_pdf_surface_create_for_stream (append_bytes, data,
                                                                   options->width,
                                                                   options->height);
  cairo_t *cr;
  gboolean ok;

  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, title);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Warpscope " WS_VERSION);
  cr = cairo_create (surface);
  ws_chart_draw (cr, sessions, options);
  ok = check_status (cairo_status (cr), error);
  cairo_show_page (cr);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  if (ok)
    ok = check_status (cairo_surface_status (surface), error);
  cairo_surface_destroy (surface);
  return ok;
}

GBytes *
ws_export_chart_to_bytes (GPtrArray *sessions, const WsChartOptions *options,
                          WsExportFormat format, double scale, GError **error)
{
  g_autoptr (GByteArray) data = g_byte_array_new ();
  g_autofree char *title = NULL;
  gboolean ok;

  g_return_val_if_fail (options != NULL, NULL);
  if (!(options->width >= 1 && options->height >= 1 && options->width <= 100000
        && options->height <= 100000))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("A chart must be at least 1 × 1 and at most 100,000 × 100,000 (asked "
                     "for %g × %g)."),
                   options->width, options->height);
      return NULL;
    }
  title = document_title (sessions, options);
  switch (format)
    {
    case WS_EXPORT_PNG:
      ok = png_bytes (sessions, options, scale, data, error);
      break;
    case WS_EXPORT_SVG:
      ok = svg_bytes (sessions, options, title, data, error);
      break;
    case WS_EXPORT_PDF:
      ok = pdf_bytes (sessions, options, title, data, error);
      break;
    case WS_EXPORT_CSV:
    case WS_EXPORT_TRACE:
    default:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("A chart is exported as PNG, SVG or PDF, not as %s."),
                   ws_export_format_to_string (format));
      return NULL;
    }
  if (!ok)
    return NULL;
  return g_byte_array_free_to_bytes (g_steal_pointer (&data));
}

static gboolean
write_bytes_cb (GOutputStream *stream, gpointer user_data, GError **error)
{
  GBytes *bytes = user_data;
  gsize written;

  return g_output_stream_write_all (stream, g_bytes_get_data (bytes, NULL),
                                    g_bytes_get_size (bytes), &written, NULL, error);
}

gboolean
ws_export_chart (GPtrArray *sessions, const WsChartOptions *options, WsExportFormat format,
                 double scale, GFile *file, GError **error)
{
  g_autoptr (GBytes) bytes = NULL;

  g_return_val_if_fail (options != NULL, FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  bytes = ws_export_chart_to_bytes (sessions, options, format, scale, error);
  if (bytes == NULL)
    return FALSE;
  return ws_file_write_atomic (file, write_bytes_cb, bytes, error);
}

/* ---- for print -------------------------------------------------------------------------- */

/* cairo writes the SVG's size in its user unit; a figure says it in points. The viewBox keeps
 * the drawing's coordinates, so only the root element's width and height change. */
static GBytes *
svg_in_points (GBytes *svg)
{
  gsize size;
  const char *data = g_bytes_get_data (svg, &size);
  g_autoptr (GString) out = g_string_new_len (data, size);
  const char *attrs[] = { " width=\"", " height=\"" };

  for (guint i = 0; i < G_N_ELEMENTS (attrs); i++)
    {
      const char *root = strstr (out->str, "<svg");
      const char *end = root ? strchr (root, '>') : NULL;
      const char *at = end ? g_strstr_len (root, end - root, attrs[i]) : NULL;
      const char *value = at ? at + strlen (attrs[i]) : NULL;
      const char *close = value ? strchr (value, '"') : NULL;

      if (close == NULL || close > end || !g_strstr_len (root, end - root, "viewBox")
          || close == value || !g_ascii_isdigit (close[-1]))
        return g_bytes_ref (svg);
      g_string_insert (out, close - out->str, "pt");
    }
  return g_string_free_to_bytes (g_steal_pointer (&out));
}

GBytes *
ws_export_chart_to_bytes_for_print (GPtrArray *sessions, const WsChartOptions *options,
                                    WsExportFormat format, double dpi, GError **error)
{
  g_autoptr (GBytes) bytes = NULL;

  g_return_val_if_fail (options != NULL, NULL);
  if (format == WS_EXPORT_PNG && !(dpi >= 10 && dpi <= 2400))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("A resolution of %g dpi is out of range: choose between 10 and 2400."), dpi);
      return NULL;
    }
  bytes = ws_export_chart_to_bytes (sessions, options, format,
                                    format == WS_EXPORT_PNG ? dpi / 72.0 : 1, error);
  if (bytes == NULL || format != WS_EXPORT_SVG)
    return g_steal_pointer (&bytes);
  return svg_in_points (bytes);
}

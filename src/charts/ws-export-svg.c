/* ws-export-svg.c: text in exported SVG as <text> elements, not glyph outlines: cairo's SVG
 * surface draws glyphs as paths, which a reader can neither search, select nor edit. While
 * an SVG is drawn the charts record each line of text here instead, and the elements are
 * added to cairo's document afterwards.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-export-svg-private.h"

#include <math.h>
#include <string.h>

struct _WsTextSink
{
  GString *elements;
};

static const cairo_user_data_key_t sink_key;

WsTextSink *
_ws_text_sink_new (void)
{
  WsTextSink *sink = g_new0 (WsTextSink, 1);

  sink->elements = g_string_new (NULL);
  return sink;
}

void
_ws_text_sink_free (WsTextSink *sink)
{
  if (sink == NULL)
    return;
  g_string_free (sink->elements, TRUE);
  g_free (sink);
}

void
_ws_text_sink_attach (WsTextSink *sink, cairo_surface_t *surface)
{
  cairo_surface_set_user_data (surface, &sink_key, sink, NULL);
}

WsTextSink *
_ws_text_sink_from_surface (cairo_surface_t *surface)
{
  return surface ? cairo_surface_get_user_data (surface, &sink_key) : NULL;
}

static void
append_number (GString *out, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  /* Hundredths of a user unit are finer than any screen or printer. */
  g_ascii_formatd (buf, sizeof buf, "%.2f", fabs (v) < 0.005 ? 0.0 : v);
  g_string_append (out, buf);
}

void
_ws_text_sink_record (WsTextSink *sink, cairo_t *cr, const char *text, gssize length, double x,
                      double y, double ax, const PangoFontDescription *font,
                      const WsColor *color)
{
  cairo_matrix_t m;
  GString *e = sink->elements;
  g_autofree char *escaped = NULL;
  const char *family = pango_font_description_get_family (font);
  double size = (double) pango_font_description_get_size (font) / PANGO_SCALE;

  if (length < 0)
    length = strlen (text);
  /* Trailing newlines and spaces of a wrapped line are layout, not text. */
  while (length > 0 && (text[length - 1] == '\n' || text[length - 1] == ' '))
    length--;
  if (length == 0)
    return;
  if (!pango_font_description_get_size_is_absolute (font))
    size *= 96.0 / 72.0; /* points at the charts' 96 dpi */
  escaped = g_markup_escape_text (text, length);
  cairo_get_matrix (cr, &m);

  g_string_append (e, "<text x=\"");
  if (m.xx == 1 && m.yy == 1 && m.xy == 0 && m.yx == 0)
    {
      append_number (e, x + m.x0);
      g_string_append (e, "\" y=\"");
      append_number (e, y + m.y0);
      g_string_append_c (e, '"');
    }
  else
    {
      append_number (e, x);
      g_string_append (e, "\" y=\"");
      append_number (e, y);
      g_string_append (e, "\" transform=\"matrix(");
      append_number (e, m.xx);
      g_string_append_c (e, ' ');
      append_number (e, m.yx);
      g_string_append_c (e, ' ');
      append_number (e, m.xy);
      g_string_append_c (e, ' ');
      append_number (e, m.yy);
      g_string_append_c (e, ' ');
      append_number (e, m.x0);
      g_string_append_c (e, ' ');
      append_number (e, m.y0);
      g_string_append (e, ")\"");
    }
  {
    g_autofree char *fam = g_markup_escape_text (family ? family : "sans-serif", -1);

    g_string_append_printf (e, " font-family=\"%s\" font-size=\"", fam);
  }
  append_number (e, size);
  g_string_append_c (e, '"');
  if (pango_font_description_get_weight (font) >= PANGO_WEIGHT_SEMIBOLD)
    g_string_append (e, " font-weight=\"bold\"");
  if (ax > 0.25)
    g_string_append (e, ax > 0.75 ? " text-anchor=\"end\"" : " text-anchor=\"middle\"");
  g_string_append_printf (e, " fill=\"rgb(%d,%d,%d)\"", (int) round (color->r * 255),
                          (int) round (color->g * 255), (int) round (color->b * 255));
  if (color->a < 1)
    {
      g_string_append (e, " fill-opacity=\"");
      append_number (e, color->a);
      g_string_append_c (e, '"');
    }
  g_string_append_printf (e, " xml:space=\"preserve\">%s</text>\n", escaped);
}

void
_ws_text_sink_write (WsTextSink *sink, GString *svg)
{
  const char *end = g_strrstr (svg->str, "</svg>");
  gsize at = end ? (gsize) (end - svg->str) : svg->len;
  g_autoptr (GString) block = g_string_new ("<g id=\"warpscope-text\">\n");

  g_string_append_len (block, sink->elements->str, sink->elements->len);
  g_string_append (block, "</g>\n");
  g_string_insert_len (svg, at, block->str, block->len);
}

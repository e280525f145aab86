/* ws-chart-text.c: the drawing context and all text: pango layouts measured and drawn the same
 * way on every surface, or recorded as SVG <text> when exporting SVG.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-chart-text-private.h"
#include "ws-chart-private.h"
#include "ws-chart-shapes-private.h"
#include "ws-export-svg-private.h"
#include "ws-format.h"

#include <math.h>
#include <string.h>

/* Text sizes are in points at 96 dpi on every surface, so that one user-space unit is one
 * pixel at scale 1 and a chart keeps its proportions from widget to PNG to PDF. */
#define WS_TEXT_DPI 96.0

static void
set_font (PangoLayout *layout, const WsTheme *theme, WsFontRole role, double fit)
{
  g_autoptr (PangoFontDescription) desc = pango_font_description_new ();
  double size = theme->font_size;

  pango_font_description_set_family (desc, theme->font_family ? theme->font_family
                                                              : "sans-serif");
  switch (role)
    {
    case WS_FONT_SMALL:
      size *= 0.88;
      break;
    case WS_FONT_BOLD:
      pango_font_description_set_weight (desc, PANGO_WEIGHT_BOLD);
      break;
    case WS_FONT_TITLE:
      size = theme->title_size;
      pango_font_description_set_weight (desc, PANGO_WEIGHT_BOLD);
      break;
    case WS_FONT_NORMAL:
    case WS_N_FONTS:
    default:
      break;
    }
  pango_font_description_set_size (desc, (int) (MAX (size * fit, 1.0) * PANGO_SCALE));
  pango_layout_set_font_description (layout, desc);
}

void
_ws_chart_context_init (WsChartContext *ctx, cairo_t *cr, const WsChartBase *base)
{
  cairo_font_options_t *font_options;

  memset (ctx, 0, sizeof *ctx);
  ctx->base = base;
  ctx->theme = base->theme ? base->theme : ws_theme_get (WS_THEME_LIGHT);
  ctx->area = (WsRect) { 0, 0, MAX (base->width, 0), MAX (base->height, 0) };
  if (cr == NULL)
    {
      ctx->scratch = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
      cr = cairo_create (ctx->scratch);
    }
  else
    cairo_reference (cr);
  ctx->cr = cr;
  ctx->sink = _ws_text_sink_from_surface (cairo_get_target (cr));

  ctx->pango = pango_cairo_create_context (cr);
  pango_cairo_context_set_resolution (ctx->pango, WS_TEXT_DPI);
  /* Unhinted metrics: text measures the same on screen, in a PNG and in a PDF, so a label
   * that fits in one fits in all. */
  font_options = cairo_font_options_create ();
  cairo_font_options_set_hint_metrics (font_options, CAIRO_HINT_METRICS_OFF);
  pango_cairo_context_set_font_options (ctx->pango, font_options);
  cairo_font_options_destroy (font_options);
  for (int i = 0; i < WS_N_FONTS; i++)
    {
      ctx->layouts[i] = pango_layout_new (ctx->pango);
      set_font (ctx->layouts[i], ctx->theme, (WsFontRole) i, 1.0);
    }
  ctx->fit = 1.0;
  ctx->unit = ctx->theme->text_scale > 0 ? ctx->theme->text_scale : 1.0;
  _ws_text_extent (ctx, WS_FONT_NORMAL, "Ag", NULL, &ctx->line_height);
  _ws_text_extent (ctx, WS_FONT_SMALL, "Ag", NULL, &ctx->small_height);
}

/* A chart needs about 24 lines of its text in height and 40 in width for a title, a legend,
 * a plot of at least half the figure and axes with three labels each; a smaller figure (one
 * column of a paper, a short window) gets smaller text, down to half. */
#define WS_FIT_LINES_HIGH 24.0
#define WS_FIT_LINES_WIDE 40.0
#define WS_FIT_MIN 0.5

void
_ws_chart_context_fit (WsChartContext *ctx)
{
  double fit = MIN (ctx->area.height / (WS_FIT_LINES_HIGH * ctx->line_height),
                    ctx->area.width / (WS_FIT_LINES_WIDE * ctx->line_height));

  /* A theme scaled for its figure (presentation mode, a figure's chosen font size) keeps the
   * size it was given. */
  if (!(fit < 1) || ctx->theme->text_scale != 1.0)
    return;
  ctx->fit = MAX (fit, WS_FIT_MIN);
  for (int i = 0; i < WS_N_FONTS; i++)
    set_font (ctx->layouts[i], ctx->theme, (WsFontRole) i, ctx->fit);
  ctx->unit *= ctx->fit;
  _ws_text_extent (ctx, WS_FONT_NORMAL, "Ag", NULL, &ctx->line_height);
  _ws_text_extent (ctx, WS_FONT_SMALL, "Ag", NULL, &ctx->small_height);
}

/* Lines of text a figure needs in height before it is short. */
#define WS_SHORT_LINES 18.0

gboolean
_ws_chart_is_short (const WsChartContext *ctx)
{
  return ctx->area.height < WS_SHORT_LINES * ctx->line_height || ctx->fit <= WS_FIT_MIN;
}

double
_ws_font_size (WsChartContext *ctx, WsFontRole role)
{
  const PangoFontDescription *desc = pango_layout_get_font_description (ctx->layouts[role]);

  return (double) pango_font_description_get_size (desc) / PANGO_SCALE;
}

void
_ws_chart_context_clear (WsChartContext *ctx)
{
  for (int i = 0; i < WS_N_FONTS; i++)
    g_clear_object (&ctx->layouts[i]);
  g_clear_object (&ctx->pango);
  g_clear_pointer (&ctx->cr, cairo_destroy);
  g_clear_pointer (&ctx->scratch, cairo_surface_destroy);
}

static PangoLayout *
layout_for (WsChartContext *ctx, WsFontRole role, const char *text)
{
  PangoLayout *layout = ctx->layouts[role];

  g_autofree char *escaped = NULL;

  /* A kernel's name or a label from a file: its controls shown, not obeyed (a bidirectional
   * override would reverse the rest of the label in the image). */
  if (text != NULL && ws_format_may_need_escape (text))
    text = escaped = ws_format_escape_controls (text, WS_ESCAPE_KEEP_NEWLINE
                                                        | WS_ESCAPE_KEEP_TAB);
  pango_layout_set_width (layout, -1);
  pango_layout_set_alignment (layout, PANGO_ALIGN_LEFT);
  pango_layout_set_text (layout, text ? text : "", -1);
  return layout;
}

static void
layout_size (PangoLayout *layout, double *width, double *height)
{
  PangoRectangle logical;

  pango_layout_get_extents (layout, NULL, &logical);
  if (width)
    *width = (double) logical.width / PANGO_SCALE;
  if (height)
    *height = (double) logical.height / PANGO_SCALE;
}

void
_ws_text_extent (WsChartContext *ctx, WsFontRole role, const char *text, double *width,
                 double *height)
{
  layout_size (layout_for (ctx, role, text), width, height);
}

double
_ws_text_width (WsChartContext *ctx, WsFontRole role, const char *text)
{
  double width;

  _ws_text_extent (ctx, role, text, &width, NULL);
  return width;
}

/* Draws every line of the layout with its box's top-left corner at (x, y) in user space. */
static void
show_layout (WsChartContext *ctx, PangoLayout *layout, double x, double y, double ax,
             const WsColor *color)
{
  if (ctx->sink != NULL)
    {
      const char *text = pango_layout_get_text (layout);
      const PangoFontDescription *font = pango_layout_get_font_description (layout);
      PangoLayoutIter *iter = pango_layout_get_iter (layout);
      double width;

      layout_size (layout, &width, NULL);
      do
        {
          PangoLayoutLine *line = pango_layout_iter_get_line_readonly (iter);
          PangoRectangle logical;
          double baseline = y + (double) pango_layout_iter_get_baseline (iter) / PANGO_SCALE;
          double lx;

          pango_layout_iter_get_line_extents (iter, NULL, &logical);
          /* One-line labels keep their anchor, so that a viewer with other fonts still
           * centres or right-aligns them; wrapped paragraphs start where pango put them. */
          if (pango_layout_get_line_count (layout) == 1)
            lx = x + ax * width;
          else
            {
              lx = x + (double) logical.x / PANGO_SCALE;
              ax = 0;
            }
          _ws_text_sink_record (ctx->sink, ctx->cr, text + line->start_index, line->length, lx,
                                baseline, ax, font, color);
        }
      while (pango_layout_iter_next_line (iter));
      pango_layout_iter_free (iter);
      return;
    }
  _ws_set_color (ctx->cr, color);
  cairo_move_to (ctx->cr, x, y);
  pango_cairo_show_layout (ctx->cr, layout);
}

void
_ws_text_show (WsChartContext *ctx, WsFontRole role, const char *text, double x, double y,
               double ax, double ay, const WsColor *color)
{
  PangoLayout *layout;
  double w, h;

  g_return_if_fail (isfinite (x) && isfinite (y));
  if (text == NULL || *text == '\0')
    return;
  layout = layout_for (ctx, role, text);
  layout_size (layout, &w, &h);
  show_layout (ctx, layout, x - ax * w, y - ay * h, ax, color ? color : &ctx->theme->foreground);
}

void
_ws_text_show_rotated (WsChartContext *ctx, WsFontRole role, const char *text, double x,
                       double y, double angle, double ax, double ay, const WsColor *color)
{
  g_return_if_fail (isfinite (x) && isfinite (y) && isfinite (angle));
  cairo_save (ctx->cr);
  cairo_translate (ctx->cr, x, y);
  cairo_rotate (ctx->cr, angle);
  _ws_text_show (ctx, role, text, 0, 0, ax, ay, color);
  cairo_restore (ctx->cr);
}

void
_ws_text_show_vertical (WsChartContext *ctx, WsFontRole role, const char *text, double x,
                        double y, double ax, double ay, const WsColor *color)
{
  _ws_text_show_rotated (ctx, role, text, x, y, -G_PI / 2, ax, ay, color);
}

double
_ws_text_show_wrapped (WsChartContext *ctx, WsFontRole role, const char *text, double x,
                       double y, double width, PangoAlignment align, const WsColor *color,
                       gboolean draw)
{
  PangoLayout *layout = layout_for (ctx, role, text);
  double h;

  g_return_val_if_fail (isfinite (x) && isfinite (y), 0);
  if (width < 1)
    return 0;
  pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_alignment (layout, align);
  layout_size (layout, NULL, &h);
  if (draw)
    show_layout (ctx, layout, x, y, 0, color ? color : &ctx->theme->foreground);
  pango_layout_set_width (layout, -1);
  return h;
}

const char *
_ws_text_fit (WsChartContext *ctx, WsFontRole role, const char *const *candidates,
              double max_width)
{
  /* A cheap test first: no glyph is narrower than a quarter of the font's size, so a label
   * with more characters than that allows cannot fit, and shaping (the expensive part of a
   * label) is skipped. */
  double em = (role == WS_FONT_TITLE ? ctx->theme->title_size : ctx->theme->font_size)
              * WS_TEXT_DPI / 72.0;

  for (guint i = 0; candidates[i] != NULL; i++)
    {
      glong chars = g_utf8_strlen (candidates[i], -1);

      if (chars * em * 0.25 > max_width)
        continue;
      if (_ws_text_width (ctx, role, candidates[i]) <= max_width)
        return candidates[i];
    }
  return NULL;
}

char *
_ws_text_dup_fitting (WsChartContext *ctx, WsFontRole role, const char *text, double max_width)
{
  glong lo = 0, hi = g_utf8_strlen (text, -1);

  if (_ws_text_width (ctx, role, text) <= max_width)
    return g_strdup (text);
  /* The longest start that fits with the ellipsis, by bisection over characters. */
  while (lo < hi)
    {
      glong mid = (lo + hi + 1) / 2;
      g_autofree char *start = g_utf8_substring (text, 0, mid);
      g_autofree char *candidate = g_strconcat (g_strchomp (start), "…", NULL);

      if (_ws_text_width (ctx, role, candidate) <= max_width)
        lo = mid;
      else
        hi = mid - 1;
    }
  {
    g_autofree char *start = g_utf8_substring (text, 0, lo);

    return g_strconcat (g_strchomp (start), "…", NULL);
  }
}

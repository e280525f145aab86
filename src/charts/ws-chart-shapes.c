/* ws-chart-shapes.c: colours, markers, hatching, legends, and a placer that keeps labels
 * from landing on each other.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-chart-shapes-private.h"

#include <math.h>

void
_ws_set_color (cairo_t *cr, const WsColor *color)
{
  cairo_set_source_rgba (cr, color->r, color->g, color->b, color->a);
}

void
_ws_set_color_alpha (cairo_t *cr, const WsColor *color, double alpha)
{
  cairo_set_source_rgba (cr, color->r, color->g, color->b, color->a * alpha);
}

WsColor
_ws_color_mix (const WsColor *a, const WsColor *b, double t)
{
  return (WsColor) {
    a->r + (b->r - a->r) * t,
    a->g + (b->g - a->g) * t,
    a->b + (b->b - a->b) * t,
    a->a + (b->a - a->a) * t,
  };
}

static double
linear_channel (double c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

/* WCAG relative luminance. */
double
_ws_color_luminance (const WsColor *color)
{
  return 0.2126 * linear_channel (color->r) + 0.7152 * linear_channel (color->g)
         + 0.0722 * linear_channel (color->b);
}

WsColor
_ws_color_text_on (const WsColor *fill)
{
  /* The crossing point where black and white have equal contrast (WCAG): about 0.18. */
  if (_ws_color_luminance (fill) > 0.18)
    return (WsColor) { 0.08, 0.08, 0.08, 1 };
  return (WsColor) { 1, 1, 1, 1 };
}

static double
contrast (const WsColor *a, const WsColor *b)
{
  double la = _ws_color_luminance (a), lb = _ws_color_luminance (b);

  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

WsColor
_ws_color_readable (const WsTheme *theme, const WsColor *color)
{
  WsColor c = *color;

  /* Towards the text colour in tenths, keeping the hue as long as possible. */
  for (int i = 1; i <= 10 && contrast (&c, &theme->background) < 4.5; i++)
    c = _ws_color_mix (color, &theme->foreground, i * 0.1);
  return c;
}

void
_ws_fill_shape (WsChartContext *ctx, const WsColor *color)
{
  cairo_t *cr = ctx->cr;

  _ws_set_color (cr, color);
  if (ctx->theme->kind != WS_THEME_PRINT)
    {
      cairo_fill (cr);
      return;
    }
  cairo_fill_preserve (cr);
  {
    WsColor black = { 0, 0, 0, 1 };
    WsColor edge = _ws_color_mix (color, &black, 0.55);

    _ws_set_color (cr, &edge);
    cairo_set_line_width (cr, 0.75 * ctx->unit);
    cairo_stroke (cr);
  }
}

static void
marker_path (cairo_t *cr, WsMarker marker, double x, double y, double size)
{
  double r = size / 2;

  switch (marker)
    {
    case WS_MARKER_SQUARE:
      r *= 0.88;
      cairo_rectangle (cr, x - r, y - r, 2 * r, 2 * r);
      break;
    case WS_MARKER_TRIANGLE:
      r *= 1.15;
      cairo_move_to (cr, x, y - r);
      cairo_line_to (cr, x + r * 0.866, y + r * 0.5);
      cairo_line_to (cr, x - r * 0.866, y + r * 0.5);
      cairo_close_path (cr);
      break;
    case WS_MARKER_DIAMOND:
      r *= 1.2;
      cairo_move_to (cr, x, y - r);
      cairo_line_to (cr, x + r, y);
      cairo_line_to (cr, x, y + r);
      cairo_line_to (cr, x - r, y);
      cairo_close_path (cr);
      break;
    case WS_MARKER_STAR:
      r *= 1.45;
      for (int i = 0; i < 10; i++)
        {
          double a = -G_PI / 2 + i * G_PI / 5;
          double rr = i % 2 ? r * 0.45 : r;

          if (i == 0)
            cairo_move_to (cr, x + rr * cos (a), y + rr * sin (a));
          else
            cairo_line_to (cr, x + rr * cos (a), y + rr * sin (a));
        }
      cairo_close_path (cr);
      break;
    case WS_MARKER_CIRCLE:
    case WS_N_MARKERS:
    default:
      cairo_new_sub_path (cr);
      cairo_arc (cr, x, y, r, 0, 2 * G_PI);
      break;
    }
}

void
_ws_draw_marker (WsChartContext *ctx, WsMarker marker, double x, double y, double size,
                 const WsColor *fill, const WsColor *stroke)
{
  cairo_t *cr = ctx->cr;

  g_return_if_fail (isfinite (x) && isfinite (y));
  cairo_save (cr);
  cairo_new_path (cr);
  marker_path (cr, marker, x, y, size);
  if (fill)
    {
      _ws_set_color (cr, fill);
      if (stroke)
        cairo_fill_preserve (cr);
      else
        cairo_fill (cr);
    }
  if (stroke)
    {
      _ws_set_color (cr, stroke);
      cairo_set_line_width (cr, MAX (1.0, ctx->theme->line_width * 0.8));
      cairo_stroke (cr);
    }
  cairo_restore (cr);
}

void
_ws_draw_whisker (WsChartContext *ctx, double x, double y0, double y1, const WsColor *color)
{
  cairo_t *cr = ctx->cr;
  double cap = 3 * ctx->unit;

  _ws_set_color (cr, color);
  cairo_set_line_width (cr, 1.2 * ctx->unit);
  cairo_move_to (cr, x, y0);
  cairo_line_to (cr, x, y1);
  cairo_move_to (cr, x - cap, y0);
  cairo_line_to (cr, x + cap, y0);
  cairo_move_to (cr, x - cap, y1);
  cairo_line_to (cr, x + cap, y1);
  cairo_stroke (cr);
}

void
_ws_draw_halo (WsChartContext *ctx, double x, double y, double width, double height,
               double alpha)
{
  WsColor halo = ctx->theme->background;

  halo.a = alpha;
  _ws_set_color (ctx->cr, &halo);
  cairo_rectangle (ctx->cr, x, y, width, height);
  cairo_fill (ctx->cr);
}

void
_ws_draw_hatch (WsChartContext *ctx, const WsRect *rect, const WsColor *color)
{
  cairo_t *cr = ctx->cr;
  double spacing = 7 * ctx->unit;

  cairo_save (cr);
  cairo_rectangle (cr, rect->x, rect->y, rect->width, rect->height);
  cairo_clip (cr);
  _ws_set_color_alpha (cr, color, 0.55);
  cairo_set_line_width (cr, 1.0 * ctx->unit);
  for (double d = -rect->height; d < rect->width; d += spacing)
    {
      cairo_move_to (cr, rect->x + d, rect->y + rect->height);
      cairo_line_to (cr, rect->x + d + rect->height, rect->y);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* ---- legends ---------------------------------------------------------------------------- */

static double
swatch_width (WsChartContext *ctx, const WsLegendItem *item)
{
  switch (item->style)
    {
    case WS_LEGEND_LINE:
    case WS_LEGEND_DASHED:
      return 2.2 * ctx->line_height;
    case WS_LEGEND_BOX:
    case WS_LEGEND_MARKER:
    case WS_LEGEND_HATCH:
    case WS_LEGEND_OUTLINE:
    case WS_LEGEND_BAND:
    default:
      return 0.9 * ctx->line_height;
    }
}

static void
draw_swatch (WsChartContext *ctx, const WsLegendItem *item, double x, double cy, double w)
{
  cairo_t *cr = ctx->cr;
  double s = 0.75 * ctx->line_height;
  WsRect box = { x, cy - s / 2, w, s };

  cairo_save (cr);
  switch (item->style)
    {
    case WS_LEGEND_LINE:
    case WS_LEGEND_DASHED:
      _ws_set_color (cr, &item->color);
      cairo_set_line_width (cr, ctx->theme->line_width * 1.3);
      if (item->style == WS_LEGEND_DASHED)
        {
          double dash[] = { 5 * ctx->unit, 3.5 * ctx->unit };

          cairo_set_dash (cr, dash, 2, 0);
        }
      cairo_move_to (cr, x, cy);
      cairo_line_to (cr, x + w, cy);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      if (item->marker >= 0)
        _ws_draw_marker (ctx, (WsMarker) item->marker, x + w / 2, cy, 0.55 * ctx->line_height,
                         &item->color, NULL);
      break;
    case WS_LEGEND_MARKER:
      _ws_draw_marker (ctx, item->marker >= 0 ? (WsMarker) item->marker : WS_MARKER_CIRCLE,
                       x + w / 2, cy, 0.6 * ctx->line_height, &item->color, NULL);
      break;
    case WS_LEGEND_HATCH:
      _ws_draw_hatch (ctx, &box, &item->color);
      _ws_set_color (cr, &item->color);
      cairo_set_line_width (cr, 1 * ctx->unit);
      cairo_rectangle (cr, box.x + 0.5, box.y + 0.5, box.width - 1, box.height - 1);
      cairo_stroke (cr);
      break;
    case WS_LEGEND_OUTLINE:
      _ws_set_color (cr, &item->color);
      cairo_set_line_width (cr, 2 * ctx->unit);
      cairo_rectangle (cr, box.x + 1, box.y + 1, box.width - 2, box.height - 2);
      cairo_stroke (cr);
      break;
    case WS_LEGEND_BAND:
      _ws_set_color (cr, &item->color);
      cairo_rectangle (cr, box.x, box.y, box.width, box.height);
      cairo_fill (cr);
      break;
    case WS_LEGEND_BOX:
    default:
      cairo_rectangle (cr, box.x, box.y, box.width, box.height);
      _ws_fill_shape (ctx, &item->color);
      break;
    }
  cairo_restore (cr);
}

/* The rows of a legend; compact: in the tick labels' size, closer together, with short
 * swatches. */
static double
legend_rows (WsChartContext *ctx, const WsLegendItem *items, guint n, double x, double y,
             double max_width, gboolean compact, gboolean draw)
{
  WsFontRole role = compact ? WS_FONT_SMALL : WS_FONT_NORMAL;
  double row_height = compact ? ctx->small_height * 1.1 : ctx->line_height * 1.25;
  double gap = 0.4 * ctx->line_height;
  double spacing = (compact ? 0.8 : 1.3) * ctx->line_height;
  double cx = x, cy = y;
  guint in_row = 0;

  if (n == 0)
    return 0;
  for (guint i = 0; i < n; i++)
    {
      gboolean line = items[i].style == WS_LEGEND_LINE || items[i].style == WS_LEGEND_DASHED;
      double sw = swatch_width (ctx, &items[i]) * (compact && line ? 0.6 : 1);
      double tw = _ws_text_width (ctx, role, items[i].label);
      double w = sw + gap + tw;

      if (in_row > 0 && cx + w > x + max_width)
        {
          cx = x;
          cy += row_height;
          in_row = 0;
        }
      if (draw)
        {
          draw_swatch (ctx, &items[i], cx, cy + row_height / 2, sw);
          _ws_text_show (ctx, role, items[i].label, cx + sw + gap, cy + row_height / 2, 0, 0.5,
                         &ctx->theme->foreground);
        }
      cx += w + spacing;
      in_row++;
    }
  return cy + row_height - y;
}

double
_ws_legend_draw (WsChartContext *ctx, const WsLegendItem *items, guint n, double x, double y,
                 double max_width, gboolean draw)
{
  return legend_rows (ctx, items, n, x, y, max_width, FALSE, draw);
}

void
_ws_legend_init (WsLegend *legend)
{
  legend->items = g_array_new (FALSE, FALSE, sizeof (WsLegendItem));
  legend->labels = g_ptr_array_new_with_free_func (g_free);
}

void
_ws_legend_clear (WsLegend *legend)
{
  g_clear_pointer (&legend->items, g_array_unref);
  g_clear_pointer (&legend->labels, g_ptr_array_unref);
}

void
_ws_legend_add (WsLegend *legend, const char *label, const WsColor *color, WsLegendStyle style,
                int marker)
{
  char *copy = g_strdup (label);
  WsLegendItem item = { copy, *color, style, marker };

  g_ptr_array_add (legend->labels, copy);
  g_array_append_val (legend->items, item);
}

void
_ws_legend_draw_above (WsChartContext *ctx, const WsLegend *legend, WsRect *content)
{
  const WsLegendItem *items = (const WsLegendItem *) legend->items->data;
  guint n = legend->items->len;
  double h = legend_rows (ctx, items, n, content->x, content->y, content->width, FALSE, FALSE);
  /* Past a sixth of a short figure the legend folds, so that the plot keeps half of it. */
  gboolean compact = h > ctx->area.height / 6 && _ws_chart_is_short (ctx);

  h = legend_rows (ctx, items, n, content->x, content->y, content->width, compact, TRUE);
  if (ctx->drawn && n > 0)
    {
      ctx->drawn->legend = (WsRect) { content->x, content->y, content->width, h };
      ctx->drawn->legend_compact = compact;
    }

  content->y += h + 0.4 * ctx->line_height;
  content->height -= h + 0.4 * ctx->line_height;
}

/* ---- label placement -------------------------------------------------------------------- */

void
_ws_placer_init (WsPlacer *placer)
{
  placer->rects = g_array_new (FALSE, FALSE, sizeof (WsRect));
}

void
_ws_placer_clear (WsPlacer *placer)
{
  g_clear_pointer (&placer->rects, g_array_unref);
}

gboolean
_ws_placer_try (WsPlacer *placer, const WsRect *rect)
{
  for (guint i = 0; i < placer->rects->len; i++)
    {
      const WsRect *r = &g_array_index (placer->rects, WsRect, i);

      if (rect->x < r->x + r->width && r->x < rect->x + rect->width
          && rect->y < r->y + r->height && r->y < rect->y + rect->height)
        return FALSE;
    }
  g_array_append_val (placer->rects, *rect);
  return TRUE;
}

/* ---- marks drawn once ------------------------------------------------------------------- */

void
_ws_mark_set_init (WsMarkSet *set)
{
  set->seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
}

void
_ws_mark_set_clear (WsMarkSet *set)
{
  g_clear_pointer (&set->seen, g_hash_table_unref);
}

gboolean
_ws_mark_set_add (WsMarkSet *set, double x, double y, guint tag)
{
  /* Half units, within the ±10⁶ that pixel coordinates are kept to: 22 bits each. */
  gint64 hx = (gint64) round (CLAMP (x, -1e6, 1e6) * 2) + (1 << 21);
  gint64 hy = (gint64) round (CLAMP (y, -1e6, 1e6) * 2) + (1 << 21);
  gint64 key = (gint64) (tag & 0xfffff) << 44 | (hx & 0x3fffff) << 22 | (hy & 0x3fffff);

  if (g_hash_table_contains (set->seen, &key))
    return FALSE;
  g_hash_table_add (set->seen, g_memdup2 (&key, sizeof key));
  return TRUE;
}

/* ws-chart-text-private.h: the drawing context every chart draws through, and
 * all text: pango layouts measured and drawn the same way on every surface (ws-chart-text.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <pango/pangocairo.h>

#include "ws-chart.h"

G_BEGIN_DECLS

typedef struct
{
  double x, y, width, height;
} WsRect;

typedef enum
{
  WS_FONT_NORMAL,
  WS_FONT_SMALL,
  WS_FONT_BOLD,
  WS_FONT_TITLE,
  WS_N_FONTS
} WsFontRole;

/* SVG export records text here instead of drawing glyphs, so that the SVG holds <text>. */
typedef struct _WsTextSink WsTextSink;
typedef struct _WsChartBase WsChartBase;

/* What a chart drew, as the floors of its layout see it: the plot, the legend and each axis's
 * labels and title. Filled in only when a test asks (_ws_chart_draw_recorded). */
typedef struct
{
  int side;           /* WsAxisSide */
  guint labels;       /* labelled ticks */
  double label_size;  /* points */
  double title_size;  /* points, as drawn (after any shrinking); 0: no title */
  gboolean title_cut; /* the title was shortened with "…" to fit */
} WsDrawnAxis;

typedef struct
{
  WsRect plot;         /* of the last axes drawn */
  WsRect legend;       /* height 0: none drawn */
  gboolean legend_compact;
  WsDrawnAxis axes[3]; /* one per side, in the order drawn */
  guint n_axes;
  double fit;          /* the text's scale for the figure's size (_ws_chart_context_fit) */
} WsChartDrawn;

typedef struct
{
  cairo_t *cr;
  const WsTheme *theme;
  const WsChartBase *base;
  WsRect area;
  PangoContext *pango;
  PangoLayout *layouts[WS_N_FONTS];
  WsTextSink *sink;
  double unit;        /* spacing unit: 1 at the theme's normal size, larger when scaled */
  double line_height; /* of WS_FONT_NORMAL */
  double small_height;
  cairo_surface_t *scratch; /* when measuring without a target (geometry queries) */
  double fit;               /* the text's scale for the figure's size: 1, or less when small */
  WsChartDrawn *drawn;      /* NULL unless a test records the layout */
} WsChartContext;

/* cr may be NULL: the context then measures text on a scratch surface and draws nothing. The
 * context borrows `base`. */
void _ws_chart_context_init (WsChartContext *ctx, cairo_t *cr, const WsChartBase *base);
void _ws_chart_context_clear (WsChartContext *ctx);
/* Scales the text down (to half at the least) for a figure too small for it at full size. */
void _ws_chart_context_fit (WsChartContext *ctx);
/* Whether the figure is short even so: its title is then set smaller, its subtitle left out
 * and its legend folded, so that the plot keeps half its height. */
gboolean _ws_chart_is_short (const WsChartContext *ctx);
/* The size in points that `role` is drawn at. */
double _ws_font_size (WsChartContext *ctx, WsFontRole role);

void _ws_text_extent (WsChartContext *ctx, WsFontRole role, const char *text, double *width,
                      double *height);
double _ws_text_width (WsChartContext *ctx, WsFontRole role, const char *text);
/* Draws `text` so that the point (ax, ay) of its box (0..1 each) lies at (x, y). */
void _ws_text_show (WsChartContext *ctx, WsFontRole role, const char *text, double x, double y,
                    double ax, double ay, const WsColor *color);
/* The same, turned by `angle` radians (clockwise on screen) about (x, y). */
void _ws_text_show_rotated (WsChartContext *ctx, WsFontRole role, const char *text, double x,
                            double y, double angle, double ax, double ay, const WsColor *color);
/* The same, turned by a quarter anticlockwise (vertical axis titles). */
void _ws_text_show_vertical (WsChartContext *ctx, WsFontRole role, const char *text, double x,
                             double y, double ax, double ay, const WsColor *color);
/* Wrapped to `width`, from (x, y) down; returns the height used. draw FALSE only measures. */
double _ws_text_show_wrapped (WsChartContext *ctx, WsFontRole role, const char *text, double x,
                              double y, double width, PangoAlignment align,
                              const WsColor *color, gboolean draw);
/* The first of `candidates` (NULL-terminated) that fits in max_width, or NULL. */
const char *_ws_text_fit (WsChartContext *ctx, WsFontRole role, const char *const *candidates,
                          double max_width);
/* `text`, or as much of it as fits in max_width followed by "…" (at least the ellipsis). */
char *_ws_text_dup_fitting (WsChartContext *ctx, WsFontRole role, const char *text,
                            double max_width);

G_END_DECLS

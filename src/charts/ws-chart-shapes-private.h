/* ws-chart-shapes-private.h: colours, markers, hatching, legends, and a placer that
 * keeps labels from landing on each other (ws-chart-shapes.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-chart-text-private.h"

G_BEGIN_DECLS

void _ws_set_color (cairo_t *cr, const WsColor *color);
void _ws_set_color_alpha (cairo_t *cr, const WsColor *color, double alpha);
WsColor _ws_color_mix (const WsColor *a, const WsColor *b, double t);
double _ws_color_luminance (const WsColor *color);
/* `color` moved towards the theme's text colour until text in it reads on the background
 * (WCAG AA, 4.5:1): labels in a series' colour. */
WsColor _ws_color_readable (const WsTheme *theme, const WsColor *color);
/* Black or white, whichever reads better on `fill`. */
WsColor _ws_color_text_on (const WsColor *fill);
/* Fills the current path; in print also outlines it in a darker shade of the fill. */
void _ws_fill_shape (WsChartContext *ctx, const WsColor *color);

typedef enum
{
  WS_MARKER_CIRCLE,
  WS_MARKER_SQUARE,
  WS_MARKER_TRIANGLE,
  WS_MARKER_DIAMOND,
  WS_MARKER_STAR,
  WS_N_MARKERS
} WsMarker;

void _ws_draw_marker (WsChartContext *ctx, WsMarker marker, double x, double y, double size,
                      const WsColor *fill, const WsColor *stroke);
/* A spread at x from y0 to y1: a vertical line with a short cap at each end. */
void _ws_draw_whisker (WsChartContext *ctx, double x, double y0, double y1, const WsColor *color);
/* Diagonal hatching over `rect` (invalid configurations). */
void _ws_draw_hatch (WsChartContext *ctx, const WsRect *rect, const WsColor *color);
/* A box of the background colour, `alpha` opaque, so that a label stays readable over lines
 * and marks drawn before it. */
void _ws_draw_halo (WsChartContext *ctx, double x, double y, double width, double height,
                    double alpha);

/* ---- legends ---------------------------------------------------------------------------- */

typedef enum
{
  WS_LEGEND_BOX,      /* a filled square */
  WS_LEGEND_LINE,     /* a line with the marker on it */
  WS_LEGEND_DASHED,   /* a dashed line with the marker */
  WS_LEGEND_MARKER,   /* the marker alone */
  WS_LEGEND_HATCH,    /* hatched square */
  WS_LEGEND_OUTLINE,  /* an outlined square */
  WS_LEGEND_BAND,     /* a light band */
} WsLegendStyle;

typedef struct
{
  const char *label;
  WsColor color;
  WsLegendStyle style;
  int marker; /* WsMarker, or -1 */
} WsLegendItem;

/* A legend a chart collects: items whose labels it owns. */
typedef struct
{
  GArray *items;     /* WsLegendItem */
  GPtrArray *labels; /* char *, what the items point at */
} WsLegend;

void _ws_legend_init (WsLegend *legend);
void _ws_legend_clear (WsLegend *legend);
void _ws_legend_add (WsLegend *legend, const char *label, const WsColor *color,
                     WsLegendStyle style, int marker);
/* Draws the legend at the top of `content`, which shrinks below it. */
void _ws_legend_draw_above (WsChartContext *ctx, const WsLegend *legend, WsRect *content);

/* Lays the items out in rows from (x, y) within max_width; returns the height used. */
double _ws_legend_draw (WsChartContext *ctx, const WsLegendItem *items, guint n, double x,
                        double y, double max_width, gboolean draw);

/* ---- label placement -------------------------------------------------------------------- */

/* Places labels without overlaps: FALSE when `rect` collides with one already placed. */
typedef struct
{
  GArray *rects;
} WsPlacer;

void _ws_placer_init (WsPlacer *placer);
void _ws_placer_clear (WsPlacer *placer);
gboolean _ws_placer_try (WsPlacer *placer, const WsRect *rect);

/* Marks already drawn, so that points which coincide on the chart (13,000 runs at twelve
 * sizes) are drawn once: a mark is the same when it falls within half a unit of another of the
 * same tag. */
typedef struct
{
  GHashTable *seen;
} WsMarkSet;

void _ws_mark_set_init (WsMarkSet *set);
void _ws_mark_set_clear (WsMarkSet *set);
/* TRUE the first time a mark of `tag` falls here; FALSE when one already has. */
gboolean _ws_mark_set_add (WsMarkSet *set, double x, double y, guint tag);

G_END_DECLS

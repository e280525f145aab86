/* ws-chart-axes-private.h: linear and log scales (plain arithmetic, which the
 * charts' collect steps use), ticks whose labels never collide, axes and the layout of a plot
 * between them (ws-chart-axes.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-chart-shapes-private.h"
#include "ws-chart-text-private.h"

G_BEGIN_DECLS

typedef enum
{
  WS_SCALE_LINEAR,
  WS_SCALE_LOG,
} WsScaleKind;

typedef struct
{
  WsScaleKind kind;
  double lo, hi; /* domain */
  double p0, p1; /* pixels that lo and hi map to */
} WsScale;

/* Sets a domain that can be drawn: finite, lo < hi, positive on a log scale. */
void _ws_scale_set_domain (WsScale *scale, WsScaleKind kind, double lo, double hi);
/* Widens the domain by `fraction` of its span (log: of its decades) on each side. */
void _ws_scale_pad (WsScale *scale, double fraction);
double _ws_scale_map (const WsScale *scale, double value);
double _ws_nice_step (double raw);
/* Min and max of the finite (and, for log, positive) values; FALSE when there are none. */
gboolean _ws_range_update (double value, gboolean log, double *lo, double *hi);

typedef enum
{
  WS_AXIS_BOTTOM,
  WS_AXIS_LEFT,
  WS_AXIS_RIGHT,
} WsAxisSide;

typedef char *(*WsTickFormat) (double value, double step, gpointer user_data);

typedef struct
{
  WsAxisSide side;
  WsScale scale;
  const char *title;
  const char *brief;    /* the title where it does not fit ("Speedup (×, log scale)"); NULL */
  WsTickFormat format;  /* NULL: _ws_format_tick */
  gpointer format_data;
  GArray *fixed;        /* double: ticks only at these values (thinned when they collide) */
  gboolean no_grid;
  const WsColor *color; /* labels and title; NULL: the theme's */

  /* filled in by _ws_axis_compute_ticks */
  GArray *ticks;      /* double */
  GPtrArray *labels;  /* char * */
  double step;
  double label_extent; /* widest label (vertical axes) */
} WsAxis;

void _ws_axis_init (WsAxis *axis, WsAxisSide side, WsScaleKind kind, double lo, double hi,
                    const char *title);
void _ws_axis_clear (WsAxis *axis);
void _ws_axis_compute_ticks (WsChartContext *ctx, WsAxis *axis);
/* Lays out a plot in `area` with room for the axes (any may be NULL) and sets their pixels
 * and ticks. */
void _ws_plot_layout (WsChartContext *ctx, const WsRect *area, WsAxis *bottom, WsAxis *left,
                      WsAxis *right, WsRect *plot);
/* A plot between two axes, or three with one on the right, where labels keep off the marks
 * and each other and marks that coincide (repeated runs) are drawn once: what the speedup,
 * block-size and roofline charts draw into. */
typedef struct
{
  WsRect plot;
  WsAxis x, y, right; /* right: only with_right */
  gboolean with_right;
  WsPlacer placer;
  WsMarkSet marks;
} WsPlot;

/* Once its axes are set up: the plot laid out in `area`, nothing placed on it yet. */
void _ws_plot_begin (WsChartContext *ctx, const WsRect *area, gboolean with_right, WsPlot *p);
void _ws_plot_end (WsPlot *p);
void _ws_axis_draw_grid (WsChartContext *ctx, const WsAxis *axis, const WsRect *plot);
void _ws_axis_draw (WsChartContext *ctx, const WsAxis *axis, const WsRect *plot);

G_END_DECLS

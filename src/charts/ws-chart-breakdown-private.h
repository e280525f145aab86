/* ws-chart-breakdown-private.h: the time breakdown's data, a row per run of the shares of its
 * whole (a sweep's copy-and-kernel sequences, a traced program's wall time), and the steps that
 * collect it (ws-chart-breakdown.c) and draw it (ws-chart-breakdown-draw.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-chart-frame-private.h"
#include "ws-chart-private.h"
#include "ws-chart-shapes-private.h"

G_BEGIN_DECLS

typedef enum
{
  WS_SEGMENT_H2D,
  WS_SEGMENT_KERNEL,
  WS_SEGMENT_D2H,
  WS_SEGMENT_OTHER, /* memsets and what else kept the GPU busy */
  WS_SEGMENT_IDLE,
  WS_N_SEGMENTS
} WsSegment;

/* No chart shows more rows than this (the rest are counted): a screen has room for fewer. */
#define WS_BREAKDOWN_MAX_ROWS 400

typedef struct
{
  int run;
  char *label;                  /* what tells it from the other rows: "run 5 · n = 10 M" */
  double share[WS_N_SEGMENTS];  /* of the bar's whole (data->whole), summing to 1 */
  double copies;                /* share of the H2D and D2H copies */
  double overlap;               /* share of the span with copies and kernels at once */
  gint64 span_ns;
  char *right;                  /* "1.20 ms · copies 62%" */
} WsBreakdownRow;

typedef struct
{
  WsChartFrame frame;
  WsLegend legend;  /* the segments, in WsSegment order */
  char *common;     /* what every run shares, "every run: n = 10 M · pinned", or NULL */
  GArray *rows;     /* WsBreakdownRow, in run order */
  guint n_runs;     /* the rows and those left out */
  char *widest;     /* the widest right-hand text could be this */
  /* What a bar is the whole of, over the right-hand column and in the axis's title:
   * "all sequences, summed" for runs, "wall time" for a traced program (translated, not owned). */
  const char *whole;
  const char *whole_short; /* the same in one word, over a column too narrow for it */
  const char *axis_title;
} WsBreakdownData;

WsBreakdownData *_ws_breakdown_collect (WsSession *session, const WsChartBase *base);
void _ws_breakdown_draw (WsChartContext *ctx, const WsBreakdownData *data);
void _ws_breakdown_data_free (WsBreakdownData *data);

G_END_DECLS

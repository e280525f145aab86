/* ws-chart-speedup-private.h: the speedup chart's data, its series of points over problem
 * size with their spreads, crossovers and axis domains, and the steps that collect and draw it
 * (ws-chart-speedup.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-chart-axes-private.h"
#include "ws-chart-frame-private.h"
#include "ws-chart-private.h"
#include "ws-chart-series-private.h"
#include "ws-chart-shapes-private.h"

G_BEGIN_DECLS

/* Against one CPU thread or every core, the kernel alone or end to end with the copies. */
#define WS_SPEEDUP_ALL_CORES 1
#define WS_SPEEDUP_END_TO_END 2
#define WS_SPEEDUP_N_COMBOS 4

typedef struct
{
  int run;
  double size;
  double value;  /* the speedup, × */
  double lo, hi; /* its spread: the slowest CPU over the fastest GPU and the other way round */
} WsSpeedupPoint;

typedef struct
{
  double size, value; /* the median of the points at that size */
} WsSpeedupVertex;

typedef struct
{
  char *label;                          /* "vector_add 256, pinned"; with the GPU comparing */
  char *kernel;
  guint session;                        /* which of the sessions */
  WsColor color;
  GArray *points[WS_SPEEDUP_N_COMBOS];  /* WsSpeedupPoint, by size */
  GArray *curve[WS_SPEEDUP_N_COMBOS];   /* WsSpeedupVertex: the line, one vertex per size */
  double crossover[WS_SPEEDUP_N_COMBOS]; /* where the GPU starts to win; 0: nowhere */
  char *crossover_text[WS_SPEEDUP_N_COMBOS];
  gboolean pale;                        /* a run is picked, and it is not in this series */
} WsSpeedupSeries;

typedef struct
{
  WsChartFrame frame;
  WsLegend legend;
  GPtrArray *series; /* WsSpeedupSeries */
  int cpu_threads;   /* of "every core"; 0: not measured */
  WsScale x, y;      /* log domains, padded */
  GArray *x_ticks;   /* double: the sizes, when there are few; else NULL */
  const char *x_title, *y_title;
  gboolean any;      /* a point to draw; else the plot says why */
  WsAudience audience;
} WsSpeedupData;

WsSpeedupData *_ws_speedup_collect (GPtrArray *sessions, const WsChartBase *base);
/* What the chart says of sessions without a size sweep, and what to run instead. */
const char *_ws_speedup_no_sweep_message (WsSession *session, WsAudience audience);
/* What the chart says of a size sweep run without a CPU baseline (no point to draw). */
const char *_ws_speedup_no_baseline_message (WsAudience audience);
void _ws_speedup_draw (WsChartContext *ctx, const WsSpeedupData *data);
void _ws_speedup_data_free (WsSpeedupData *data);

G_END_DECLS

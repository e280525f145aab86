/* ws-chart-occupancy-private.h: the occupancy chart's data, the calculator's three curves with
 * the configuration marked on each, and the steps that collect and draw it
 * (ws-chart-occupancy.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-chart-axes-private.h"
#include "ws-chart-frame-private.h"
#include "ws-chart-private.h"
#include "ws-occupancy.h"

G_BEGIN_DECLS

typedef enum
{
  WS_PANEL_BLOCK,
  WS_PANEL_REGISTERS,
  WS_PANEL_SMEM,
  WS_N_PANELS
} WsOccupancyPanel;

typedef struct
{
  GArray *points;     /* WsOccupancyPoint, x ascending */
  double current;     /* the configuration's x */
  gboolean limiting;  /* this resource is the limit */
  char *heading;      /* "Registers per thread: the limit" */
  char *x_title;
  GArray *x_ticks;    /* double */
  WsScale x;          /* 0 .. the largest x */
  char *current_text; /* "256 → 100%" */
} WsOccupancyCurve;

typedef struct
{
  WsChartFrame frame;
  int run;                 /* whose launch it shows; 0: the options' or a common kernel's */
  WsOccupancyInput input;
  WsOccupancy result;
  const WsArchLimits *arch;
  WsOccupancyCurve curves[WS_N_PANELS];
} WsOccupancyData;

/* The configuration the chart shows: the options', else the run's launch, else a common
 * kernel's; returns the architecture's name ("sm_90"). `run` may be NULL. */
const char *_ws_occupancy_chart_input (WsSession *session, const WsChartBase *base,
                                       const WsOccupancyOptions *options, WsRun **run,
                                       WsOccupancyInput *input);
WsOccupancyData *_ws_occupancy_collect (WsSession *session, const WsChartBase *base,
                                        const WsOccupancyOptions *options);
void _ws_occupancy_draw (WsChartContext *ctx, const WsOccupancyData *data);
void _ws_occupancy_data_free (WsOccupancyData *data);

G_END_DECLS

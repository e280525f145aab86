/* ws-chart-roofline-private.h: the roofline's data, kernels by arithmetic intensity and rate
 * under the device's ceilings (or, for kernels without arithmetic, bars against the memory
 * bandwidth), and the steps that collect and draw it (ws-chart-roofline.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-chart-axes-private.h"
#include "ws-chart-frame-private.h"
#include "ws-chart-private.h"
#include "ws-chart-shapes-private.h"

G_BEGIN_DECLS

typedef struct
{
  int run;
  double intensity; /* FLOP per byte of the least traffic */
  double gflops;
  guint kernel;     /* into WsRooflineData.kernels: the colour */
  guint session;    /* the marker */
  char *size;       /* written beside it (where sizes share an intensity); else NULL */
} WsRooflinePoint;

/* A kernel's fastest point, ringed and named in a box. */
typedef struct
{
  guint point; /* into points */
  char *text;  /* "fastest sgemm: 43.5 GFLOP/s at 4096³, 65% of its roof" */
  char *brief; /* the same without the share, where the box of texts does not fit */
  WsColor ink;
} WsRooflineBest;

/* A kernel without arithmetic: a bar of its bandwidth. */
typedef struct
{
  int run;
  char *label; /* "transpose_naive, 8192²" */
  double gbs;
  char *value; /* "1,020 GB/s, 24% of the copy bandwidth" */
  WsColor color;
} WsRooflineBar;

typedef struct
{
  WsChartFrame frame;
  WsLegend legend;
  GPtrArray *kernels;  /* char *: kernel names, in the order met */
  double bandwidth;    /* GB/s: measured copy, else theoretical; 0: unknown */
  double peak;         /* FP32 GFLOP/s; 0: unknown */
  double cublas;       /* the session's cuBLAS SGEMM rate; 0: not measured */
  GArray *points;      /* WsRooflinePoint */
  GArray *best;        /* WsRooflineBest */
  WsScale x, y;        /* log domains, padded */
  char *memory_text, *peak_text, *cublas_text;

  GArray *bars;        /* WsRooflineBar: set when no kernel has arithmetic; then drawn alone */
  WsScale bar_x;       /* GB/s */
  char *bandwidth_text;
} WsRooflineData;

WsRooflineData *_ws_roofline_collect (GPtrArray *sessions, const WsChartBase *base);
void _ws_roofline_draw (WsChartContext *ctx, const WsRooflineData *data);
void _ws_roofline_data_free (WsRooflineData *data);

/* Kernels without arithmetic (ws-chart-roofline-bars.c): `runs` are the session's runs with
 * bytes and a kernel time but no FLOP. */
void _ws_roofline_collect_bars (WsRooflineData *data, WsSession *session, GPtrArray *runs,
                                const WsChartBase *base);
void _ws_roofline_draw_bars (WsChartContext *ctx, const WsRooflineData *data,
                             const WsRect *content);

G_END_DECLS

/* ws-chart-blocks-private.h: the block-size chart's data, kernel time and occupancy against
 * threads per block with the fastest configuration and its ties, or for 2D shapes a heatmap,
 * and the steps that collect and draw them (ws-chart-blocks.c, ws-chart-blocks-draw.c,
 * ws-chart-heatmap.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-chart-axes-private.h"
#include "ws-chart-frame-private.h"
#include "ws-chart-private.h"
#include "ws-chart-series-private.h"
#include "ws-chart-shapes-private.h"

G_BEGIN_DECLS

typedef struct
{
  int run;
  double tpb;       /* threads per block */
  double value;     /* kernel time, ns (the median of its launches) */
  double lo, hi;    /* the launches' min and max; the value when unmeasured */
  gboolean whisker; /* several launches: a spread to draw */
  double occupancy; /* theoretical; NAN without a launch record */
  double achieved;  /* measured by the GPU's counters (0–1); NAN where they were not read */
  gboolean best, tied;
} WsBlocksPoint;

/* One per threads-per-block value: what the line, the band and the shading go through. */
typedef struct
{
  double tpb, value, lo, hi, occupancy, achieved;
} WsBlocksVertex;

typedef struct
{
  char *kernel;
  guint session;     /* which of the sessions */
  WsColor color;
  GArray *points;    /* WsBlocksPoint, by threads per block */
  GArray *curve;     /* WsBlocksVertex */
  gboolean band;     /* many configurations: the spread as a band, not whiskers */
  int best;          /* the fastest run; 0: none */
  guint n_tied;      /* runs within the best one's spread, the best included */
  char *best_text;   /* "fastest: 256 threads, 2.40 µs (3 more within its spread)" */
} WsBlocksSeries;

typedef enum
{
  WS_CELL_MEASURED,
  WS_CELL_TOO_BIG,      /* more threads than a block may have */
  WS_CELL_NOT_MEASURED,
} WsCellState;

typedef struct
{
  guint bx, by;
  WsCellState state;
  int run;          /* 0: none */
  double value;     /* ns */
  double shade;     /* 0 (the fastest) to 1 (the slowest), on a log scale */
  char *time;       /* "2.40 µs" */
  char *occupancy;  /* "occupancy 50%", or NULL */
  char *why;        /* "2048 threads > 1024" */
  gboolean best, tied;
} WsHeatmapCell;

typedef struct
{
  GArray *xs, *ys;  /* guint: block widths and heights, ascending */
  GArray *cells;    /* WsHeatmapCell: (i, j) at i × ys->len + j, j = 0 the lowest row */
  double lo, hi;    /* the fastest and the slowest time */
  char *fast, *slow;
  WsLegend legend;
} WsHeatmapData;

/* An own kernel's tunable parameters on the axes (ws-chart-params.c): kernel time against one
 * parameter's values, a line per configuration of the rest; two parameters: a heatmap of the
 * fastest run at each pair of values. */
typedef struct
{
  double x;        /* the parameter's value */
  double value;    /* kernel time, ns */
  double lo, hi;   /* the launches' min and max */
  int run;
  gboolean best;
} WsParamsPoint;

typedef struct
{
  char *label;     /* "matmul_tiled 2048³, pageable" */
  WsColor color;
  GArray *points;  /* WsParamsPoint, by x */
} WsParamsSeries;

typedef struct
{
  int run;         /* 0: not measured */
  double value;    /* ns */
  double shade;    /* 0 (the fastest) to 1 (the slowest), on a log scale */
  char *time;      /* "2.40 µs" */
  gboolean best;
} WsParamsCell;

typedef struct
{
  char *x_name, *y_name; /* y_name: the heatmap's second parameter, else NULL */
  GArray *xs, *ys;       /* double: the values, ascending */
  GPtrArray *series;     /* WsParamsSeries (lines) */
  GArray *cells;         /* WsParamsCell (heatmap): (i, j) at i × ys->len + j */
  double lo, hi;         /* the fastest and the slowest time drawn (points or cells) */
  int best;              /* the fastest run */
  char *best_text;       /* "fastest: TILE = 16, 2.40 µs (run 2)" */
  WsLegend legend;
} WsParamsData;

/* NULL when no tunable parameter takes two values among the session's measured runs. */
WsParamsData *_ws_params_collect (WsSession *session, const WsChartBase *base);
void _ws_params_draw (WsChartContext *ctx, const WsParamsData *data, const WsRect *content);
void _ws_params_data_free (WsParamsData *data);
/* "TILE=16, UNROLL=2" as name → value; FALSE for text that is not that. */
gboolean _ws_params_parse (const char *text, GHashTable *values);

typedef struct
{
  WsChartFrame frame;
  WsLegend legend;
  WsParamsData *params;   /* an own kernel's parameters swept without a block sweep: drawn
                           * instead; else NULL */
  WsHeatmapData *heatmap; /* 2D shapes on a grid: drawn instead of lines; else NULL */
  GPtrArray *series;      /* WsBlocksSeries: the session's, then the other sessions' */
  guint n_main;           /* how many are the first session's */
  double threshold;       /* occupancy below this is shaded */
  gboolean measured;      /* some configuration's achieved occupancy was read (counters) */
  WsScale x, y, right;    /* threads per block, kernel time, occupancy */
  GArray *x_ticks;        /* double */
  GHashTable *shapes;     /* threads per block → "16×16", for 2D blocks; else NULL */
  const char *x_title;
  char *y_title;
  const char *time_unit;  /* of the y axis */
  double ns_per_unit;
} WsBlocksData;

WsBlocksData *_ws_blocks_collect (GPtrArray *sessions, const WsChartBase *base);
void _ws_blocks_series_free (WsBlocksSeries *series);
/* The words by the fastest configuration's star: "fastest: 256 threads, 2.40 µs (3 more
 * within its spread)", after "kernel: " where several kernels share the chart (else NULL). */
char *_ws_blocks_best_text (const char *kernel, const char *shape, double ns, guint n_tied);
/* Whether a traced session has a kernel run at two block sizes or more (trace --sweep). */
gboolean _ws_blocks_trace_has_sweep (WsSession *session);
/* What the chart says of a session without a block sweep, and what to run instead. */
const char *_ws_blocks_no_sweep_message (WsSession *session, WsAudience audience);
/* The parameter chart on its own (WS_CHART_PARAMS): the block chart's data holding only its
 * parameters, or the sentence saying what to sweep when the session has none. */
WsBlocksData *_ws_params_chart_collect (WsSession *session, const WsChartBase *base);
const char *_ws_params_no_sweep_message (WsAudience audience);
void _ws_blocks_draw (WsChartContext *ctx, const WsBlocksData *data);
void _ws_blocks_data_free (WsBlocksData *data);
/* The shade behind a configuration under the occupancy threshold: darker, the lower. */
WsColor _ws_blocks_shade (const WsTheme *theme, double occupancy);

WsHeatmapData *_ws_heatmap_collect (WsSession *session, WsSeries *series, const WsTheme *theme);
/* Draws into `content`, below the blocks chart's frame. */
void _ws_heatmap_draw (WsChartContext *ctx, const WsChartFrame *frame, const WsHeatmapData *data,
                       const WsRect *content);
void _ws_heatmap_data_free (WsHeatmapData *data);
/* Viridis from 0 (fast: light) to 1 (slow: dark). */
WsColor _ws_heatmap_ramp (double t);

G_END_DECLS

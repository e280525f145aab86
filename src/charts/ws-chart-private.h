/* ws-chart-private.h: a chart request split into what every chart reads (the base) and what one
 * kind reads, and the table of chart kinds that ws_chart_draw goes through: each kind collects
 * a plain data struct from the sessions (no cairo), then draws it (ws-chart.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-chart-text-private.h"

G_BEGIN_DECLS

/* What every chart reads. */
typedef struct _WsChartBase
{
  const WsTheme *theme;
  double width, height; /* user-space units: pixels at scale 1, points for PDF and SVG */
  double scale;         /* device pixels per unit: 2 for a PNG at 2×, 1 on vector surfaces */
  int run;              /* 0: every run (or the chart's natural choice); else this one */
  int compare_run;      /* a second run beside it; 0: none */
  gboolean annotate;    /* presentation mode: the findings written on the chart */
  WsAudience audience;  /* the app's controls or the CLI's flags, in messages and notes */
} WsChartBase;

/* What the timeline reads besides. */
typedef struct
{
  gint64 window_start, window_end;       /* start == end: the whole session */
  gint64 selection_start, selection_end; /* start == end: none */
  GArray *highlight;                     /* WsActivityRef to outline, or NULL */
} WsTimelineOptions;

/* What the occupancy chart reads besides: 0 or NULL is "the run's own". */
typedef struct
{
  const char *arch;
  int block_size;
  int registers;
  int smem_bytes;
} WsOccupancyOptions;

typedef struct
{
  GPtrArray *sessions; /* WsSession, borrowed; never NULL */
  WsChartKind kind;
  WsChartBase base;
  WsTimelineOptions timeline;
  WsOccupancyOptions occupancy;
} WsChartRequest;

/* Splits the flat WsChartOptions that the app and the CLI fill in. `sessions` may be NULL. */
void _ws_chart_request_init (WsChartRequest *request, GPtrArray *sessions,
                             const WsChartOptions *options);
/* The first session, or NULL. */
WsSession *_ws_chart_request_session (const WsChartRequest *request);

/* What a chart needs from a session to show more than its sentence. */
typedef enum
{
  WS_CHART_NEEDS_NOTHING = 0,          /* the occupancy chart: a configuration will do */
  WS_CHART_NEEDS_ACTIVITIES = 1 << 0,  /* traced copies and kernels */
  WS_CHART_NEEDS_SIZE_SWEEP = 1 << 1,  /* a size series with a CPU baseline */
  WS_CHART_NEEDS_BLOCK_SWEEP = 1 << 2, /* a series over block sizes */
  WS_CHART_NEEDS_SEQUENCES = 1 << 3,   /* runs with copy-and-kernel sequences */
  WS_CHART_NEEDS_COUNTS = 1 << 4,      /* runs with a kernel time and their bytes */
  WS_CHART_NEEDS_PARAM_SWEEP = 1 << 5, /* an own kernel's runs over a tunable parameter */
} WsChartNeeds;

typedef gpointer (*WsChartCollectFunc) (const WsChartRequest *request);
typedef void (*WsChartDrawFunc) (WsChartContext *ctx, gconstpointer data);

/* What a row of a kind's CSV marks among the runs: the fastest, and those tied with it. */
typedef struct
{
  GPtrArray *tied; /* WsRun, referenced; NULL: none */
  WsRun *best;     /* referenced; NULL: none */
} WsChartCsvMarks;

/* The runs of `session` that the chart draws (WsRun, referenced), and their marks. */
typedef GPtrArray *(*WsChartCsvRunsFunc) (WsSession *session, const WsChartOptions *options,
                                          WsChartCsvMarks *marks);
/* The kind's own cells of a run's row, each after a comma. */
typedef void (*WsChartCsvRowFunc) (GString *out, WsSession *session, WsRun *run,
                                   const WsChartOptions *options, const WsChartCsvMarks *marks);
/* A whole CSV of the kind's own, where it has one for these sessions; it leaves `out` empty
 * where the rows of runs are its CSV after all. */
typedef gboolean (*WsChartCsvTextFunc) (GString *out, GPtrArray *sessions,
                                        const WsChartOptions *options, GError **error);

/* What a kind's CSV holds (ws-export-csv.c): a row per run the chart draws, the columns every
 * chart's CSV has, then `columns`, then `header`'s, which `row` writes; or its own `text`. */
typedef struct
{
  const char *const *columns; /* the export names of ws-run-columns.h, or NULL */
  const char *header;         /* ",best": the columns `row` writes, or NULL */
  WsChartCsvRunsFunc runs;
  WsChartCsvRowFunc row;      /* NULL: `columns` only */
  WsChartCsvTextFunc text;    /* NULL: rows of runs */
} WsChartCsv;

/* One chart kind. The data `collect` returns starts with a WsChartFrame. */
typedef struct
{
  const char *name;  /* "timeline": the CLI's and the settings' word */
  const char *title; /* N_(): "Timeline" */
  WsChartNeeds needs;
  gboolean compares; /* draws every session given (one curve each); the others the first */
  WsChartCollectFunc collect;
  WsChartDrawFunc draw;
  GDestroyNotify free;
  WsChartCsv csv;
} WsChartClass;

const WsChartClass *_ws_chart_class (WsChartKind kind);
/* ws_chart_draw, filling in `drawn` (may be NULL) with the layout it drew: for tests. */
void _ws_chart_draw_recorded (cairo_t *cr, GPtrArray *sessions, const WsChartOptions *options,
                              WsChartDrawn *drawn);
/* Whether `session` has what the kind needs (WsChartClass.needs). */
gboolean _ws_chart_needs_met (WsChartKind kind, WsSession *session);
/* The kind's data for `request`: free it with _ws_chart_class (kind)->free. */
gpointer _ws_chart_collect (const WsChartRequest *request);

G_END_DECLS

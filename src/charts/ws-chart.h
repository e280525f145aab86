/* ws-chart.h: every chart is drawn by one call onto any cairo_t at any size: the app's widgets
 * call it through gtk_snapshot_append_cairo, export calls it on image, SVG and PDF surfaces.
 * Each chart first collects what it shows from the sessions, then draws that (nothing analyses
 * while painting). cairo and pango only: nothing here knows GTK.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>

#include "ws-analysis.h"
#include "ws-session.h"
#include "ws-theme.h"

G_BEGIN_DECLS

typedef enum
{
  WS_CHART_TIMELINE,  /* lanes: CPU, H2D, kernels per stream, D2H, memset/sync; time ruler */
  WS_CHART_SPEEDUP,   /* speedup against problem size, log–log, 1× line, crossover */
  WS_CHART_BLOCKS,    /* kernel time and occupancy against block size; 2D: a heatmap */
  WS_CHART_OCCUPANCY, /* the calculator's curves with the current configuration marked */
  WS_CHART_BREAKDOWN, /* a stacked bar per run: H2D, kernel, D2H, idle */
  WS_CHART_ROOFLINE,  /* kernels by arithmetic intensity against the device's ceilings */
  WS_CHART_PARAMS,    /* an own kernel's kernel time against a tunable parameter; 2: a heatmap */
} WsChartKind;

#define WS_N_CHARTS 7

const char *ws_chart_kind_to_string (WsChartKind kind);   /* "timeline", "speedup", … */
gboolean ws_chart_kind_from_string (const char *name, WsChartKind *kind);
const char *ws_chart_kind_title (WsChartKind kind);       /* for people: "Timeline" */

/* An activity a chart should outline (a finding points at it). */
typedef struct
{
  int run;
  guint index; /* into ws_run_get_activities (run) */
} WsActivityRef;

/* What the app and the CLI ask for. ws_chart_draw splits it into what every chart reads (kind,
 * theme, size, run, compare_run, annotate) and what one kind reads besides: the timeline its
 * window, selection and highlight, the occupancy chart its configuration. */
typedef struct
{
  WsChartKind kind;
  const WsTheme *theme;
  double width, height;     /* in user-space units: pixels at scale 1, points for PDF/SVG */

  /* Which runs: 0 = every run of the session (or the chart's natural choice); else one. */
  int run;
  int compare_run;          /* a second run shown beside it, 0 = none */

  /* Timeline: the visible window in ns since the session origin; start == end = all. */
  gint64 window_start, window_end;
  /* Timeline: a selected range to shade (start == end = none). */
  gint64 selection_start, selection_end;
  GArray *highlight;        /* WsActivityRef, or NULL */

  /* Occupancy chart: the configuration; arch NULL = the session's device (else sm_90). */
  const char *arch;
  int block_size;
  int registers;
  int smem_bytes;

  /* Presentation mode: findings written on the chart as annotations. */
  gboolean annotate;

  /* Whose words a chart with nothing to show and the findings on it use: the CLI's flags
   * (the default) or the app's controls. */
  WsAudience audience;
} WsChartOptions;

void ws_chart_options_init (WsChartOptions *options, WsChartKind kind, const WsTheme *theme,
                            double width, double height);

/* Draws one chart. `sessions` holds WsSession; the first is the main one, the others are
 * overlaid where the chart can compare (speedup: one curve per session, named by device). A
 * chart with nothing to show draws its frame and a sentence saying why. */
void ws_chart_draw (cairo_t *cr, GPtrArray *sessions, const WsChartOptions *options);

/* Before an export: FALSE, with a message saying what to change, when the chart would draw
 * nothing of `sessions` but the sentence saying why (a block-size chart of a session without a
 * block sweep, a speedup chart without a size sweep or without a CPU baseline, a roofline of a
 * traced program's kernels) or would mislead (speedup curves of vector sizes and of matrix
 * sizes on one size axis). */
gboolean ws_chart_check (GPtrArray *sessions, const WsChartOptions *options, GError **error);

/* ---- timeline geometry, for the widget (zoom, pan, hover, click) ---- */

typedef struct
{
  double plot_x, plot_y, plot_width, plot_height; /* the area spans are drawn in */
  gint64 start, end;                               /* the window shown */
} WsTimelineGeometry;

void ws_timeline_get_geometry (WsSession *session, const WsChartOptions *options,
                               WsTimelineGeometry *geometry);
/* The range the window may show: the session's, or, when two runs are compared side by side
 * (run and compare_run), ns from 0 to the longer run's length: each run's lanes then count
 * from that run's start, and window_start/window_end are offsets from it. */
gboolean ws_timeline_get_full_range (WsSession *session, const WsChartOptions *options,
                                     gint64 *start, gint64 *end);
/* The activity under (x, y), if any, within a few pixels: `run` is borrowed from the
 * session, `index` is into ws_run_get_activities (run). */
gboolean ws_timeline_pick (WsSession *session, const WsChartOptions *options, double x,
                           double y, WsRun **run, guint *index);

/* A traced program's span under (x, y), within a few pixels: `span` is an index into
 * ws_trace_get_spans (). FALSE when the session is no trace or no span is there (nothing, or
 * a wait for a compile: ws_timeline_dup_trace_tooltip tells of that). */
gboolean ws_timeline_pick_trace (WsSession *session, const WsChartOptions *options, double x,
                                 double y, guint *span);
/* What the hover over a traced program's timeline says at (x, y): the span there, or the wait
 * for a compile drawn in the JIT lane (plain text, with the program's names unescaped); NULL
 * when nothing is there. */
char *ws_timeline_dup_trace_tooltip (WsSession *session, const WsChartOptions *options, double x,
                                     double y);

G_END_DECLS

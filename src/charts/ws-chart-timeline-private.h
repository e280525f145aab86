/* ws-chart-timeline-private.h: the timeline's data (groups of runs with their lanes, or a
 * traced program's spans; the rows, the window, the spans to outline) and its layout, shared by
 * its collect step (ws-chart-timeline.c), the widget's queries (ws-chart-timeline-pick.c), its
 * frame and rows (ws-chart-timeline-layout.c), its ruler and band (ws-chart-timeline-ruler.c)
 * and its spans (ws-chart-timeline-spans.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <math.h>

#include "ws-analysis.h"
#include "ws-chart-axes-private.h"
#include "ws-chart-format-private.h"
#include "ws-chart-frame-private.h"
#include "ws-span-lanes.h"
#include "ws-chart-private.h"
#include "ws-chart-shapes-private.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/* ---- collected -------------------------------------------------------------------------- */

typedef struct
{
  guint64 key;             /* WS_LANE_KEY */
  char *label;             /* "Kernels · stream 14" */
  guint kernel_ordinal;    /* the how-manieth kernel lane: they alternate colours */
} WsTimelineRow;

/* A group of lanes on one time scale: the whole session, or one of two runs compared. */
typedef struct
{
  WsLaneIndex *index;  /* the runs' lanes; NULL for a traced program's group */
  WsTrace *trace;      /* a traced program's: its spans and program runs; else NULL */
  GArray *waits;       /* a traced program's: WsCodeWait, its kernels' first launches'
                        * waits for their code, drawn in the JIT lane; else NULL */
  GArray *rows;   /* WsTimelineRow: every lane its runs have (and the compared run's) */
  gint64 origin;  /* the ruler's zero: the first activity (comparing: the run's) */
  gint64 start, end; /* the window, in session time */
  char *caption;  /* what the ruler counts from; NULL: "since start" */
} WsTimelineGroup;

/* A span to outline: a finding points at it, or the options do. */
typedef struct
{
  WsRun *run; /* referenced */
  guint index;
} WsTimelineOutline;

typedef struct
{
  WsChartFrame frame;
  WsSession *session;          /* referenced */
  WsTrace *trace;              /* a traced program's session: the session's trace, its one
                                * group's source */
  WsTimelineGroup groups[2];
  guint n_groups;
  gint64 window_start, window_end; /* as the widget counts: comparing, since each run's start */
  gboolean has_selection;
  gint64 selection_start, selection_end; /* in the window's count */
  GArray *outlines;            /* WsTimelineOutline */
  gboolean outline_legend;     /* the legend says what an outline means */
  double notes_keep;           /* line heights the lanes keep under the notes */
} WsTimelineData;

WsTimelineData *_ws_timeline_collect (WsSession *session, const WsChartBase *base,
                                      const WsTimelineOptions *options);
void _ws_timeline_draw (WsChartContext *ctx, const WsTimelineData *data);
void _ws_timeline_data_free (WsTimelineData *data);
/* The two runs picked to compare side by side, when both have activities to draw. */
gboolean _ws_timeline_compare_runs (WsSession *session, const WsChartBase *base, WsRun **a,
                                    WsRun **b);
WsLaneCategory _ws_timeline_row_category (const WsTimelineRow *row);
/* What a lane is called where both timelines name it alike: copies, memsets, the host's waits,
 * the CPU reference, CUPTI's own work; kernels, by stream when `by_stream`. */
char *_ws_timeline_lane_label (guint64 key, gboolean by_stream);
/* A lane's own name for a timeline that names some lanes its own way; NULL: the common one. */
typedef char *(*WsTimelineLabelFunc) (guint64 key, gpointer data);
/* The rows of lane keys, in their order: each named by `label` (NULL, or where it returns
 * NULL: by _ws_timeline_lane_label, kernels by stream when there are several kernel lanes),
 * the kernel lanes counted for their alternating colours. */
GArray *_ws_timeline_rows_new (GArray *keys, WsTimelineLabelFunc label, gpointer data);

/* ---- laid out --------------------------------------------------------------------------- */

typedef struct
{
  const WsTimelineGroup *group;
  GArray *rows;     /* WsTimelineRow, borrowed from the group: those that fit, in order */
  gint64 start, end, origin;
  double ppn;       /* pixels per nanosecond */
  gboolean together; /* runs a few pixels wide are drawn together, not span by span */
  WsRect content, plot, band;
  double legend_y, ruler_y, label_width, row_height;
} WsTimelineLayout;

typedef struct
{
  WsTimelineLayout group[2];
  guint n_groups;
} WsTimelineFrame;

/* Lays out the frame, the notes, the legend and each group's ruler, band and rows; draw FALSE
 * only measures (the widget's geometry and picking). */
void _ws_timeline_layout (WsChartContext *ctx, const WsTimelineData *data, gboolean draw,
                          WsTimelineFrame *frame);
void _ws_timeline_frame_clear (WsTimelineFrame *frame);

/* Where t falls, in doubles (no overflow for any int64): spans far outside the window are
 * drawn to just beyond its edges. */
static inline double
_ws_timeline_x (const WsTimelineLayout *l, gint64 t)
{
  double x = l->plot.x + ((double) t - (double) l->start) * l->ppn;

  return CLAMP (x, l->plot.x - 8, l->plot.x + l->plot.width + 8);
}

/* The left edge of a mark a pixel wide at x, on a whole pixel and inside the plot: a copy of
 * 3 µs that ends a 127 ms trace rounds to the plot's right edge, a pixel past what it shows. */
static inline double
_ws_timeline_column (const WsTimelineLayout *l, double x)
{
  return CLAMP (round (x), ceil (l->plot.x), floor (l->plot.x + l->plot.width) - 1);
}

/* The row of a lane key, or -1 when it is not shown. */
int _ws_timeline_row_of (const WsTimelineLayout *l, guint64 key);
WsColor _ws_timeline_row_color (const WsTheme *theme, const WsTimelineRow *row);

/* Whether the JIT lane draws a first launch's wait for its code: a compile, Numba's or the
 * driver's; a module load alone shows as its calls on the API lane. */
gboolean _ws_timeline_draws_wait (const WsCodeWait *wait);
gboolean _ws_timeline_group_draws_waits (const WsTimelineGroup *group);
/* The pale colour of such a wait, under the JIT records it holds. */
WsColor _ws_timeline_wait_color (const WsTheme *theme);

void _ws_timeline_draw_ruler (WsChartContext *ctx, const WsTimelineLayout *l);
/* The band and the lanes of a group, whichever its source: a sweep's runs from their index, a
 * traced program's spans and program runs from the trace. */
void _ws_timeline_draw_band (WsChartContext *ctx, const WsTimelineLayout *l);
/* Returns whether any column of narrow spans or runs became a density bar. */
gboolean _ws_timeline_draw_lanes (WsChartContext *ctx, const WsTimelineLayout *l);
void _ws_timeline_draw_outlines (WsChartContext *ctx, const WsTimelineData *data,
                                 const WsTimelineLayout *l);

/* Runs narrower than this many units are drawn together, as density bars of their busy time,
 * once there are more of them than the plot has room for at this width each (a long session
 * seen whole): fewer are drawn span by span like the others. */
#define WS_TIMELINE_NARROW_RUN 3.0

G_END_DECLS

/* ws-chart-timeline-private.h: the timeline's layout, shared by its frame (ws-chart-timeline.c),
 * its ruler and phase band (ws-chart-timeline-ruler.c) and its spans (ws-chart-timeline-spans.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-chart-axes-private.h"
#include "ws-chart-format-private.h"
#include "ws-chart-frame-private.h"
#include "ws-chart-lanes-private.h"
#include "ws-chart-private.h"
#include "ws-chart-shapes-private.h"

G_BEGIN_DECLS

typedef struct
{
  guint64 key;
  char *label;
  WsColor color;
} WsTimelineRow;

typedef struct
{
  WsSession *session;
  GPtrArray *runs;  /* WsRun, every run with activities */
  GPtrArray *lanes; /* WsRunLanes, beside runs */
  GArray *rows;     /* WsTimelineRow, in lane order */
  gint64 origin;    /* the session's first activity (the run's, comparing two): the ruler's zero */
  char *caption;    /* what the ruler counts from, when not "since start" */
  gint64 start, end;
  double ppn;       /* pixels per nanosecond */
  WsRect content, plot, band;
  double legend_y, ruler_y, label_width, row_height;
} WsTimelineLayout;

static inline double
_ws_timeline_x (const WsTimelineLayout *l, gint64 t)
{
  double x = l->plot.x + (double) (t - l->start) * l->ppn;

  /* Spans far outside the window are drawn to just beyond its edges. */
  return CLAMP (x, l->plot.x - 8, l->plot.x + l->plot.width + 8);
}

void _ws_timeline_draw_ruler (WsChartContext *ctx, const WsTimelineLayout *l);
void _ws_timeline_draw_band (WsChartContext *ctx, const WsTimelineLayout *l);
/* Returns whether any column of narrow spans became a density bar. */
gboolean _ws_timeline_draw_lanes (WsChartContext *ctx, const WsTimelineLayout *l);
void _ws_timeline_draw_highlights (WsChartContext *ctx, const WsTimelineLayout *l);
const WsLane *_ws_timeline_find_lane (const WsRunLanes *lanes, guint64 key);

G_END_DECLS

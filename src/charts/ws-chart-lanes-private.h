/* ws-chart-lanes-private.h: a run's activities sorted into the timeline's lanes,
 * with running sums for density bars (ws-chart-lanes.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-session.h"

G_BEGIN_DECLS

typedef enum
{
  WS_LANE_CPU,
  WS_LANE_H2D,
  WS_LANE_KERNEL, /* one per stream */
  WS_LANE_D2H,
  WS_LANE_OTHER_COPY,
  WS_LANE_MEMSET,
  WS_LANE_SYNC,       /* the host waiting: it overlaps the GPU work it waits for */
  WS_LANE_OVERHEAD,
  /* A traced program's (ws-chart-timeline-trace.c): a host thread's API calls, its NVTX
   * ranges, the driver's JIT work. */
  WS_LANE_API,
  WS_LANE_NVTX,
  WS_LANE_JIT,
  WS_N_LANE_CATEGORIES
} WsLaneCategory;

#define WS_LANE_KEY(category, stream) (((guint64) (category) << 32) | (guint32) (stream))
#define WS_LANE_KEY_CATEGORY(key) ((WsLaneCategory) ((key) >> 32))
#define WS_LANE_KEY_STREAM(key) ((guint32) ((key) & 0xffffffff))

typedef struct
{
  gint64 start, end;
  guint32 index; /* into ws_run_get_activities () */
  guint32 kind;  /* WsActivityKind */
} WsLaneSpan;

typedef struct
{
  guint64 key;
  guint n;
  WsLaneSpan *spans; /* sorted by start */
  gint64 *busy;      /* busy[i]: summed durations of spans[0 .. i) */
  gint64 *reach;     /* reach[i]: the latest end among spans[0 .. i]; never decreases */
} WsLane;

typedef struct
{
  guint n_activities; /* what it was built from */
  gboolean has_range;
  gint64 start, end;
  WsLane *lanes;
  guint n_lanes;
  gint64 phase_start[3], phase_end[3]; /* WS_PHASE_SEQUENCE .. WS_PHASE_CPU; start > end: none */
} WsRunLanes;

/* The run's activities sorted into lanes, built once and kept with the run until its
 * activities change. Release with _ws_run_lanes_unref. */
WsRunLanes *_ws_run_lanes_get (WsRun *run);
void _ws_run_lanes_unref (WsRunLanes *lanes);
WsLaneCategory _ws_lane_category (const WsSpan *activity);
/* The first span that may still be visible at t (reach > t). */
guint _ws_lane_first_reaching (const WsLane *lane, gint64 t);
/* The first span at or after `from` that starts at or after t. */
guint _ws_lane_first_starting (const WsLane *lane, guint from, gint64 t);
/* The lane of `key` in a run's lanes, or NULL. */
const WsLane *_ws_run_lanes_find (const WsRunLanes *lanes, guint64 key);

/* Runs with activities in the order they start, with their lanes, so that a frame finds the
 * runs in its window by a binary search: the cost of a timeline follows the runs in view, not
 * the runs in the session. */
typedef struct
{
  GPtrArray *runs;   /* WsRun, referenced, by start */
  GPtrArray *lanes;  /* WsRunLanes beside them, referenced */
  gint64 *reach;     /* reach[i]: the latest end of runs[0 .. i]; never decreases */
  GArray *keys;      /* guint64: every lane key of these runs, ascending */
  /* The same, flat, for a frame that reads every run of a long session: runs' starts and
   * ends, and busy[i × keys->len + k], run i's summed span durations in lane keys[k]. */
  gint64 *starts, *ends;
  double *busy;
  gint64 start, end; /* of every activity; start > end: none */
  char *kernels;     /* "a, b, c and 2 more": their kernels in order */
  guint n_runs, n_activities; /* the session's when built: a change means a rebuild */
} WsLaneIndex;

/* The index of every run of the session, kept with the session until its runs or their
 * activities change. Release with _ws_lane_index_unref. */
WsLaneIndex *_ws_lane_index_get (WsSession *session);
/* The index of these runs alone (two compared). */
WsLaneIndex *_ws_lane_index_new (WsRun *const *runs, guint n_runs);
void _ws_lane_index_unref (WsLaneIndex *index);
/* The first run that may still be visible at t (its reach is past t). */
guint _ws_lane_index_first_reaching (const WsLaneIndex *index, gint64 t);
/* end − start without overflow, saturating at G_MAXINT64; 0 when end <= start. */
gint64 _ws_span_duration (gint64 start, gint64 end);

G_END_DECLS

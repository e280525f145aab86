/* ws-span-lanes.h: the lanes spans go in on a timeline, whoever recorded them; a run's spans
 * sorted into them with running sums for density bars; the session's runs by start; the
 * session's time range (ws-span-lanes.c). The model keeps them: the timeline's chart, the
 * app's workspace and an export in a thread read the same.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-run.h"

typedef struct _WsSession WsSession;
typedef struct _WsTrace WsTrace;

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
  /* A traced program's: a host thread's API calls, its NVTX ranges, the driver's JIT work. */
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
 * activities change. Release with ws_run_lanes_unref. */
WsRunLanes *ws_run_lanes_get (WsRun *run);
void ws_run_lanes_unref (WsRunLanes *lanes);
WsLaneCategory ws_lane_category (const WsSpan *span);
/* The lane a span goes in: kernels one per stream, API calls and NVTX ranges one per host
 * thread of `trace` (NULL for a sweep's span), the rest one per kind. FALSE for what a
 * traced program's timeline leaves out (CUPTI's own work, kinds of a later protocol). */
gboolean ws_span_lane_key (WsTrace *trace, const WsSpan *span, guint64 *key);
/* The first span that may still be visible at t (reach > t). */
guint ws_lane_first_reaching (const WsLane *lane, gint64 t);
/* The first span at or after `from` that starts at or after t. */
guint ws_lane_first_starting (const WsLane *lane, guint from, gint64 t);
/* The lane of `key` in a run's lanes, or NULL. */
const WsLane *ws_run_lanes_find (const WsRunLanes *lanes, guint64 key);

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

/* The index of every run of the session, kept by the session until its runs or their
 * activities change. Release with ws_lane_index_unref. */
WsLaneIndex *ws_session_get_lane_index (WsSession *session);
/* Builds what the first frame of a session's timeline would: each run's spans sorted into
 * lanes and the session's runs by start, about half a second at a million records. Safe in a
 * thread, so that the app does it before it paints; the session must not be fed meanwhile. */
void ws_session_prepare_lanes (WsSession *session);
/* Where the session's spans lie on its axis: every span of every run, or a traced program's
 * that its timeline draws; FALSE when there are none (start or end may be NULL). Comparing two runs, each counts from its own start instead
 * (ws_runs_compared_length). */
gboolean ws_session_get_time_range (WsSession *session, gint64 *start, gint64 *end);
/* The index of these runs alone (two compared). */
WsLaneIndex *ws_lane_index_new (WsRun *const *runs, guint n_runs);
void ws_lane_index_unref (WsLaneIndex *index);
/* The first run that may still be visible at t (its reach is past t). */
guint ws_lane_index_first_reaching (const WsLaneIndex *index, gint64 t);

G_END_DECLS

/* ws-span-lanes.c: the lanes spans go in on a timeline (one per kind of work, per stream for
 * kernels, per host thread for API calls and NVTX ranges), whoever recorded them; a run's
 * spans sorted into its lanes, with running sums that let the timeline draw a column of a
 * thousand short spans as one density bar after two binary searches; the session's runs by
 * start, so that a frame finds those in its window by another: the cost of a frame follows
 * the pixels, not the records. And the session's time range.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-session-private.h"
#include "ws-span-lanes.h"
#include "ws-trace.h"

#include <stdlib.h>
#include <string.h>

/* The index is kept on the run itself (object data), built on first use and rebuilt when the
 * run's activities change (a live session appends them). The lock makes building safe when
 * an export runs in a thread while the widget draws; the index is reference-counted so that
 * a rebuild never frees one that a drawing still holds. */
static GMutex lanes_lock;
#define LANES_KEY "ws-chart-run-lanes"

WsLaneCategory
ws_lane_category (const WsSpan *activity)
{
  switch ((WsActivityKind) activity->kind)
    {
    case WS_ACTIVITY_CPU:
      return WS_LANE_CPU;
    case WS_ACTIVITY_MEMCPY:
      if (activity->direction == WS_COPY_HTOD)
        return WS_LANE_H2D;
      if (activity->direction == WS_COPY_DTOH)
        return WS_LANE_D2H;
      return WS_LANE_OTHER_COPY;
    case WS_ACTIVITY_KERNEL:
      return WS_LANE_KERNEL;
    case WS_ACTIVITY_MEMSET:
      return WS_LANE_MEMSET;
    case WS_ACTIVITY_SYNC:
      return WS_LANE_SYNC;
    case WS_ACTIVITY_API:
      return WS_LANE_API;
    case WS_ACTIVITY_NVTX:
      return WS_LANE_NVTX;
    case WS_ACTIVITY_JIT:
      return WS_LANE_JIT;
    case WS_ACTIVITY_OVERHEAD:
    case WS_ACTIVITY_OTHER:
    default:
      return WS_LANE_OVERHEAD;
    }
}

/* A host thread's lane: 0 for a process's main thread (its id is the process's), so that the
 * program runs of a sweep, one process each, share one lane; else the thread's id. */
static guint32
thread_lane (WsTrace *trace, const WsSpan *s)
{
  GPtrArray *processes = trace != NULL ? ws_trace_get_processes (trace) : NULL;

  if (processes == NULL
      || (s->process < processes->len
          && (gint64) s->thread
               == ((WsTraceProcess *) g_ptr_array_index (processes, s->process))->pid))
    return 0;
  return s->thread;
}

gboolean
ws_span_lane_key (WsTrace *trace, const WsSpan *s, guint64 *key)
{
  WsLaneCategory category = ws_lane_category (s);

  /* CUPTI's own work shows what tracing a sweep's run costs; in a traced program it is
   * noise, as are kinds of a later protocol. */
  if (trace != NULL && category == WS_LANE_OVERHEAD)
    return FALSE;
  /* Kernels get a lane per stream, API calls and NVTX ranges one per host thread; everything
   * else shares one lane per kind, since the runner's copies and memsets of a run go to one
   * stream anyway. */
  if (category == WS_LANE_KERNEL)
    *key = WS_LANE_KEY (category, s->stream);
  else if (category == WS_LANE_API || category == WS_LANE_NVTX)
    *key = WS_LANE_KEY (category, thread_lane (trace, s));
  else
    *key = WS_LANE_KEY (category, 0);
  return TRUE;
}

static guint64
lane_key (const WsSpan *activity)
{
  guint64 key;

  ws_span_lane_key (NULL, activity, &key);
  return key;
}

static void
run_lanes_clear (WsRunLanes *lanes)
{
  for (guint i = 0; i < lanes->n_lanes; i++)
    {
      g_free (lanes->lanes[i].spans);
      g_free (lanes->lanes[i].busy);
      g_free (lanes->lanes[i].reach);
    }
  g_free (lanes->lanes);
}

void
ws_run_lanes_unref (WsRunLanes *lanes)
{
  if (lanes)
    g_atomic_rc_box_release_full (lanes, (GDestroyNotify) run_lanes_clear);
}

static int
compare_key (gconstpointer a, gconstpointer b)
{
  guint64 x = ((const WsLane *) a)->key, y = ((const WsLane *) b)->key;

  return x < y ? -1 : x > y;
}

static gint64
add_saturated (gint64 a, gint64 b)
{
  return a > G_MAXINT64 - b ? G_MAXINT64 : a + b;
}

static WsRunLanes *
build (WsRun *run)
{
  guint n;
  const WsSpan *a = ws_run_get_activities (run, &n);
  WsRunLanes *lanes = g_atomic_rc_box_new0 (WsRunLanes);
  g_autoptr (GArray) keys = g_array_new (FALSE, TRUE, sizeof (WsLane));
  g_autofree guint8 *lane_of = g_new (guint8, MAX (n, 1));
  guint last = 0;

  lanes->n_activities = n;
  for (guint p = 0; p < 3; p++)
    {
      lanes->phase_start[p] = G_MAXINT64;
      lanes->phase_end[p] = G_MININT64;
    }
  lanes->start = G_MAXINT64;
  lanes->end = G_MININT64;

  /* First pass: which lane each activity goes to, and how many each lane gets. There are
   * a handful of lanes and runs of activities share one, so the last lane is tried first. */
  for (guint i = 0; i < n; i++)
    {
      guint64 key = lane_key (&a[i]);
      guint j;

      if (keys->len > 0 && g_array_index (keys, WsLane, last).key == key)
        j = last;
      else
        {
          for (j = 0; j < keys->len; j++)
            if (g_array_index (keys, WsLane, j).key == key)
              break;
          if (j == keys->len)
            {
              WsLane lane = { .key = key };

              /* More than 256 lanes in one run would be thousands of streams: fold them. */
              if (keys->len == 255)
                j = 254;
              else
                g_array_append_val (keys, lane);
            }
          last = j;
        }
      lane_of[i] = (guint8) j;
      g_array_index (keys, WsLane, j).n++;
      lanes->start = MIN (lanes->start, a[i].start);
      lanes->end = MAX (lanes->end, a[i].end);
      if (a[i].phase <= WS_PHASE_CPU)
        {
          lanes->phase_start[a[i].phase] = MIN (lanes->phase_start[a[i].phase], a[i].start);
          lanes->phase_end[a[i].phase] = MAX (lanes->phase_end[a[i].phase], a[i].end);
        }
    }
  lanes->has_range = n > 0;
  lanes->n_lanes = keys->len;
  lanes->lanes = (WsLane *) g_array_steal (keys, NULL);
  for (guint j = 0; j < lanes->n_lanes; j++)
    {
      WsLane *lane = &lanes->lanes[j];

      lane->spans = g_new (WsLaneSpan, MAX (lane->n, 1));
      lane->busy = g_new (gint64, lane->n + 1);
      lane->reach = g_new (gint64, MAX (lane->n, 1));
      lane->busy[0] = 0;
      lane->n = 0;
    }

  /* Second pass: activities are sorted by start, so each lane's spans come out sorted. */
  for (guint i = 0; i < n; i++)
    {
      WsLane *lane = &lanes->lanes[lane_of[i]];
      guint k = lane->n++;

      lane->spans[k] = (WsLaneSpan) { a[i].start, MAX (a[i].end, a[i].start), i, a[i].kind };
      lane->busy[k + 1] = add_saturated (lane->busy[k],
                                         ws_time_length (lane->spans[k].start, lane->spans[k].end));
      lane->reach[k] = k ? MAX (lane->reach[k - 1], lane->spans[k].end) : lane->spans[k].end;
    }
  /* A run without activities has no lanes, and qsort must not see their NULL array. */
  if (lanes->n_lanes > 1)
    qsort (lanes->lanes, lanes->n_lanes, sizeof (WsLane), compare_key);
  return lanes;
}

WsRunLanes *
ws_run_lanes_get (WsRun *run)
{
  WsRunLanes *lanes, *result;
  guint n;

  g_return_val_if_fail (WS_IS_RUN (run), NULL);
  g_mutex_lock (&lanes_lock);
  ws_run_get_activities (run, &n);
  lanes = g_object_get_data (G_OBJECT (run), LANES_KEY);
  if (lanes == NULL || lanes->n_activities != n)
    {
      lanes = build (run);
      g_object_set_data_full (G_OBJECT (run), LANES_KEY, lanes,
                              (GDestroyNotify) ws_run_lanes_unref);
    }
  result = g_atomic_rc_box_acquire (lanes);
  g_mutex_unlock (&lanes_lock);
  return result;
}

/* The first of n entries whose reach (never decreasing) is past t; n when none. */
static guint
first_reaching (const gint64 *reach, guint n, gint64 t)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (reach[mid] > t)
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

guint
ws_lane_first_reaching (const WsLane *lane, gint64 t)
{
  return first_reaching (lane->reach, lane->n, t);
}

guint
ws_lane_first_starting (const WsLane *lane, guint from, gint64 t)
{
  guint lo, hi, step = 1;

  if (from >= lane->n || lane->spans[from].start >= t)
    return from;
  /* Galloping: the answer is usually near, and the search costs the log of the distance. */
  lo = from;
  hi = from + 1;
  while (hi < lane->n && lane->spans[hi].start < t)
    {
      lo = hi;
      step *= 2;
      hi = MIN (from + step, lane->n);
    }
  /* spans[lo].start < t; the answer lies in (lo, hi]. */
  lo++;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (lane->spans[mid].start < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

const WsLane *
ws_run_lanes_find (const WsRunLanes *lanes, guint64 key)
{
  for (guint j = 0; j < lanes->n_lanes; j++)
    if (lanes->lanes[j].key == key)
      return &lanes->lanes[j];
  return NULL;
}

/* ---- a session's runs by start ---------------------------------------------------------- */


static void
index_clear (WsLaneIndex *index)
{
  g_clear_pointer (&index->runs, g_ptr_array_unref);
  g_clear_pointer (&index->lanes, g_ptr_array_unref);
  g_clear_pointer (&index->keys, g_array_unref);
  g_free (index->reach);
  g_free (index->starts);
  g_free (index->ends);
  g_free (index->busy);
  g_free (index->kernels);
}

void
ws_lane_index_unref (WsLaneIndex *index)
{
  if (index)
    g_atomic_rc_box_release_full (index, (GDestroyNotify) index_clear);
}

typedef struct
{
  WsRun *run;
  WsRunLanes *lanes;
} Entry;

static int
compare_entries (gconstpointer a, gconstpointer b)
{
  const Entry *x = a, *y = b;

  return x->lanes->start < y->lanes->start ? -1 : x->lanes->start > y->lanes->start;
}

static int
compare_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

static void
index_flatten (WsLaneIndex *index)
{
  guint n = index->runs->len, n_keys = index->keys->len;

  index->starts = g_new (gint64, MAX (n, 1));
  index->ends = g_new (gint64, MAX (n, 1));
  index->busy = g_new0 (double, MAX ((gsize) n * n_keys, 1));
  for (guint i = 0; i < n; i++)
    {
      const WsRunLanes *lanes = g_ptr_array_index (index->lanes, i);
      guint k = 0;

      index->starts[i] = lanes->start;
      index->ends[i] = lanes->end;
      /* Both sorted by key. */
      for (guint j = 0; j < lanes->n_lanes; j++)
        {
          const WsLane *lane = &lanes->lanes[j];

          while (k < n_keys && g_array_index (index->keys, guint64, k) < lane->key)
            k++;
          if (k < n_keys)
            index->busy[(gsize) i * n_keys + k] = (double) lane->busy[lane->n];
        }
    }
}

static WsLaneIndex *
index_build (GArray *entries)
{
  WsLaneIndex *index = g_atomic_rc_box_new0 (WsLaneIndex);
  g_autoptr (GHashTable) keys = g_hash_table_new (g_int64_hash, g_int64_equal);
  gint64 reach = G_MININT64;

  /* Runs of a sweep start one after the other already: the sort is stable and cheap. */
  g_array_sort (entries, compare_entries);
  index->runs = g_ptr_array_new_full (entries->len, g_object_unref);
  index->lanes = g_ptr_array_new_full (entries->len, (GDestroyNotify) ws_run_lanes_unref);
  index->reach = g_new (gint64, MAX (entries->len, 1));
  index->keys = g_array_new (FALSE, FALSE, sizeof (guint64));
  index->start = G_MAXINT64;
  index->end = G_MININT64;
  for (guint i = 0; i < entries->len; i++)
    {
      Entry *e = &g_array_index (entries, Entry, i);

      g_ptr_array_add (index->runs, e->run);
      g_ptr_array_add (index->lanes, e->lanes);
      reach = MAX (reach, e->lanes->end);
      index->reach[i] = reach;
      index->start = MIN (index->start, e->lanes->start);
      index->end = MAX (index->end, e->lanes->end);
      for (guint j = 0; j < e->lanes->n_lanes; j++)
        if (g_hash_table_add (keys, &e->lanes->lanes[j].key))
          g_array_append_val (index->keys, e->lanes->lanes[j].key);
    }
  g_array_sort (index->keys, compare_u64);
  index_flatten (index);
  index->kernels = ws_runs_dup_kernels_label (index->runs);
  return index;
}

/* `run` (referenced) with its lanes, when it has activities. */
static gboolean
add_entry (GArray *entries, WsRun *run)
{
  Entry e = { run, ws_run_lanes_get (run) };

  if (!e.lanes->has_range)
    {
      ws_run_lanes_unref (e.lanes);
      g_object_unref (run);
      return FALSE;
    }
  g_array_append_val (entries, e);
  return TRUE;
}

WsLaneIndex *
ws_lane_index_new (WsRun *const *runs, guint n_runs)
{
  g_autoptr (GArray) entries = g_array_new (FALSE, FALSE, sizeof (Entry));

  for (guint i = 0; i < n_runs; i++)
    add_entry (entries, g_object_ref (runs[i]));
  return index_build (entries);
}

WsLaneIndex *
ws_session_get_lane_index (WsSession *session)
{
  GListModel *model = ws_session_get_runs (session);
  guint n_runs = g_list_model_get_n_items (model);
  guint n_activities = ws_session_get_n_activities (session);
  WsLaneIndex *index, *result;

  g_return_val_if_fail (WS_IS_SESSION (session), NULL);
  g_mutex_lock (&session->lane_lock);
  index = session->lane_index;
  if (index == NULL || index->n_runs != n_runs || index->n_activities != n_activities)
    {
      g_autoptr (GArray) entries = g_array_new (FALSE, FALSE, sizeof (Entry));

      for (guint i = 0; i < n_runs; i++)
        add_entry (entries, g_list_model_get_item (model, i));
      index = index_build (entries);
      index->n_runs = n_runs;
      index->n_activities = n_activities;
      g_clear_pointer (&session->lane_index, ws_lane_index_unref);
      session->lane_index = index;
    }
  result = g_atomic_rc_box_acquire (index);
  g_mutex_unlock (&session->lane_lock);
  return result;
}

guint
ws_lane_index_first_reaching (const WsLaneIndex *index, gint64 t)
{
  return first_reaching (index->reach, index->runs->len, t);
}

void
ws_session_prepare_lanes (WsSession *session)
{
  g_return_if_fail (WS_IS_SESSION (session));
  ws_lane_index_unref (ws_session_get_lane_index (session));
}

/* ---- a session's time -------------------------------------------------------------------- */

gboolean
ws_session_get_time_range (WsSession *session, gint64 *start, gint64 *end)
{
  WsTrace *trace;
  WsLaneIndex *index;
  gboolean any;

  g_return_val_if_fail (WS_IS_SESSION (session), FALSE);
  if ((trace = ws_session_get_trace (session)) != NULL)
    {
      guint n_spans;
      const WsSpan *spans = ws_trace_get_spans (trace, &n_spans);
      gint64 lo = G_MAXINT64, hi = G_MININT64;

      for (guint i = 0; i < n_spans; i++)
        {
          guint64 key;

          if (!ws_span_lane_key (trace, &spans[i], &key))
            continue;
          lo = MIN (lo, spans[i].start);
          hi = MAX (hi, spans[i].end);
        }
      if (start != NULL)
        *start = lo;
      if (end != NULL)
        *end = hi;
      return hi > lo;
    }
  index = ws_session_get_lane_index (session);
  any = index->runs->len > 0;
  if (start != NULL)
    *start = index->start;
  if (end != NULL)
    *end = index->end;
  ws_lane_index_unref (index);
  return any;
}

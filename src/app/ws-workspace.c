/* ws-workspace.c: the state a window's views share. The arithmetic of comparing two runs
 * (each counted from its own start, on one time scale) lives here once; the views only ask.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-workspace.h"

#include "ws-background.h"
#include "ws-trace.h"
#include "ws-span-lanes.h"

struct _WsWorkspace
{
  GObject parent_instance;

  WsSession *session;
  GPtrArray *sessions;
  int run, compare_run;
  WsTimeSpan window, range;
  GArray *highlight;
  WsActivityRef activity;
  gboolean presentation;
  WsSessionAnalysis *analysis; /* the session's */
  gboolean prepared;            /* what the timeline draws first is built (ws_session_prepare_lanes) */
};

G_DEFINE_FINAL_TYPE (WsWorkspace, ws_workspace, G_TYPE_OBJECT)

static WsTimeSpan *
time_span_copy (const WsTimeSpan *span)
{
  return g_memdup2 (span, sizeof *span);
}

G_DEFINE_BOXED_TYPE (WsTimeSpan, ws_time_span, time_span_copy, g_free)

static WsActivityRef *
activity_ref_copy (const WsActivityRef *ref)
{
  return g_memdup2 (ref, sizeof *ref);
}

#define WS_TYPE_ACTIVITY_REF (ws_activity_ref_get_type ())
static GType ws_activity_ref_get_type (void);
G_DEFINE_BOXED_TYPE (WsActivityRef, ws_activity_ref, activity_ref_copy, g_free)

enum
{
  PROP_0,
  PROP_SESSION,
  PROP_RUN,
  PROP_COMPARE_RUN,
  PROP_VISIBLE_WINDOW,
  PROP_SELECTED_RANGE,
  PROP_HIGHLIGHT,
  PROP_SELECTED_ACTIVITY,
  PROP_PRESENTATION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  RUN_ADDED,
  RUN_UPDATED,
  SESSION_UPDATED,
  ANALYSIS_READY,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
notify (WsWorkspace *self, guint prop)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

/* ---- the session ------------------------------------------------------------------------ */

WsSession *
ws_workspace_get_session (WsWorkspace *self)
{
  g_return_val_if_fail (WS_IS_WORKSPACE (self), NULL);
  return self->session;
}

GPtrArray *
ws_workspace_get_sessions (WsWorkspace *self)
{
  g_return_val_if_fail (WS_IS_WORKSPACE (self), NULL);
  return self->sessions;
}

gboolean
ws_workspace_has_runs (WsWorkspace *self)
{
  g_return_val_if_fail (WS_IS_WORKSPACE (self), FALSE);
  return self->session != NULL && g_list_model_get_n_items (ws_session_get_runs (self->session)) > 0;
}

gboolean
ws_workspace_has_trace (WsWorkspace *self)
{
  WsTrace *trace;

  g_return_val_if_fail (WS_IS_WORKSPACE (self), FALSE);
  trace = self->session != NULL ? ws_session_get_trace (self->session) : NULL;
  return trace != NULL && ws_trace_get_processes (trace)->len > 0;
}

static void follow_selection (WsWorkspace *self);

static void
run_added_cb (WsSession *session, WsRun *run, WsWorkspace *self)
{
  g_signal_emit (self, signals[RUN_ADDED], 0, run);
}

static void
run_updated_cb (WsSession *session, WsRun *run, WsWorkspace *self)
{
  /* The session's analysis has heard of it first (ws_workspace_set_session). */
  if (ws_run_get_id (run) == self->run)
    follow_selection (self);
  g_signal_emit (self, signals[RUN_UPDATED], 0, run);
}

static void
session_changed_cb (WsSession *session, WsWorkspace *self)
{
  g_signal_emit (self, signals[SESSION_UPDATED], 0);
}

static void
analysis_ready_cb (WsSessionAnalysis *analysis, GParamSpec *pspec, WsWorkspace *self)
{
  if (ws_workspace_is_analysed (self))
    g_signal_emit (self, signals[ANALYSIS_READY], 0);
}

static void
prepare_thread (GTask *task, gpointer source, gpointer session, GCancellable *cancellable)
{
  ws_session_prepare_lanes (session);
  g_task_return_boolean (task, TRUE);
}

static void
prepared_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  WsWorkspace *self = WS_WORKSPACE (source);

  /* Another session may have come meanwhile. */
  if (g_task_get_task_data (G_TASK (result)) != self->session || self->prepared)
    return;
  self->prepared = TRUE;
  if (ws_workspace_is_analysed (self))
    g_signal_emit (self, signals[ANALYSIS_READY], 0);
}

/* A loaded session is analysed, and its timeline's lanes are built, in threads, so that a
 * session of thousands of runs does not hold the window; a live one grows from nothing, run by
 * run, so is analysed and drawn as it comes. */
static void
analyse (WsWorkspace *self)
{
  if (ws_session_get_source (self->session) == WS_SESSION_SOURCE_RECORDING)
    {
      g_autoptr (GTask) task = g_task_new (self, NULL, prepared_cb, NULL);

      self->prepared = FALSE;
      g_task_set_source_tag (task, analyse);
      g_task_set_task_data (task, g_object_ref (self->session), g_object_unref);
      ws_task_run_in_background (task, prepare_thread);
      ws_session_analysis_start (self->analysis);
    }
  else
    {
      self->prepared = TRUE;
      ws_session_analysis_ensure (self->analysis);
    }
}

void
ws_workspace_set_session (WsWorkspace *self, WsSession *session)
{
  g_return_if_fail (WS_IS_WORKSPACE (self));
  g_return_if_fail (session == NULL || WS_IS_SESSION (session));
  if (self->session == session)
    return;
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  if (self->analysis != NULL)
    g_signal_handlers_disconnect_by_data (self->analysis, self);
  g_set_object (&self->session, session);
  g_ptr_array_set_size (self->sessions, 0);
  g_clear_object (&self->analysis);
  if (session != NULL)
    {
      g_ptr_array_add (self->sessions, g_object_ref (session));
      /* Asked for before the session's signals are relayed: the analysis follows its runs
       * first, so that a view told of a run finds its findings up to date. */
      self->analysis = g_object_ref (ws_session_get_analysis (session));
      g_signal_connect (self->analysis, "notify::ready", G_CALLBACK (analysis_ready_cb), self);
      analyse (self);
      g_signal_connect (session, "run-added", G_CALLBACK (run_added_cb), self);
      g_signal_connect (session, "run-updated", G_CALLBACK (run_updated_cb), self);
      g_signal_connect (session, "changed", G_CALLBACK (session_changed_cb), self);
    }
  /* A new session: nothing selected, all of it in view. */
  g_object_freeze_notify (G_OBJECT (self));
  self->run = self->compare_run = 0;
  self->window = (WsTimeSpan) { 0, 0 };
  self->range = (WsTimeSpan) { 0, 0 };
  self->activity = (WsActivityRef) { 0, 0 };
  g_clear_pointer (&self->highlight, g_array_unref);
  for (guint p = PROP_SESSION; p <= PROP_SELECTED_ACTIVITY; p++)
    notify (self, p);
  g_object_thaw_notify (G_OBJECT (self));
}

/* ---- the selection ---------------------------------------------------------------------- */

int
ws_workspace_get_run (WsWorkspace *self)
{
  g_return_val_if_fail (WS_IS_WORKSPACE (self), 0);
  return self->run;
}

int
ws_workspace_get_compare_run (WsWorkspace *self)
{
  g_return_val_if_fail (WS_IS_WORKSPACE (self), 0);
  return self->compare_run;
}

WsRun *
ws_workspace_get_selected_run (WsWorkspace *self)
{
  g_return_val_if_fail (WS_IS_WORKSPACE (self), NULL);
  return self->session && self->run ? ws_session_find_run (self->session, self->run) : NULL;
}

WsRun *
ws_workspace_get_compared_run (WsWorkspace *self)
{
  g_return_val_if_fail (WS_IS_WORKSPACE (self), NULL);
  return self->session && self->compare_run ? ws_session_find_run (self->session, self->compare_run)
                                            : NULL;
}

gboolean
ws_workspace_is_comparing (WsWorkspace *self)
{
  g_return_val_if_fail (WS_IS_WORKSPACE (self), FALSE);
  return ws_workspace_get_selected_run (self) != NULL && ws_workspace_get_compared_run (self) != NULL;
}

gint64
ws_workspace_get_origin (WsWorkspace *self, int run)
{
  gint64 start = 0;
  WsRun *r;

  g_return_val_if_fail (WS_IS_WORKSPACE (self), 0);
  if (!ws_workspace_is_comparing (self) || (r = ws_session_find_run (self->session, run)) == NULL
      || !ws_run_get_time_range (r, &start, NULL))
    return 0;
  return start;
}

/* The timeline follows the selection: a run's spans with a little room, or two runs from
 * their own starts to the end of the longer one. */
static void
follow_selection (WsWorkspace *self)
{
  WsRun *run = ws_workspace_get_selected_run (self);
  WsRun *other = ws_workspace_get_compared_run (self);
  gint64 start, end, s2, e2;

  if (run == NULL || !ws_run_get_time_range (run, &start, &end))
    return;
  if (other != NULL)
    {
      gint64 span;

      if (!ws_run_get_time_range (other, &s2, &e2))
        return;
      span = MAX (end - start, e2 - s2);
      ws_workspace_set_visible_window (self, -span / 20, span + span / 20);
      return;
    }
  ws_workspace_set_visible_window (self, start - (end - start) / 20, end + (end - start) / 20);
}

void
ws_workspace_select_runs (WsWorkspace *self, int run, int compare_run)
{
  gboolean was_comparing;

  g_return_if_fail (WS_IS_WORKSPACE (self));
  if (compare_run == run || run == 0)
    compare_run = 0;
  if (run == self->run && compare_run == self->compare_run)
    return;
  was_comparing = ws_workspace_is_comparing (self);
  g_object_freeze_notify (G_OBJECT (self));
  if (run != self->run)
    {
      self->run = run;
      notify (self, PROP_RUN);
    }
  if (compare_run != self->compare_run)
    {
      self->compare_run = compare_run;
      notify (self, PROP_COMPARE_RUN);
    }
  ws_workspace_set_highlight (self, NULL);
  /* A range means another time once the runs count from their own starts. */
  if (was_comparing != ws_workspace_is_comparing (self))
    ws_workspace_set_selected_range (self, 0, 0);
  follow_selection (self);
  g_object_thaw_notify (G_OBJECT (self));
}

gboolean
ws_workspace_step_run (WsWorkspace *self, int delta)
{
  GListModel *runs;
  guint n, at = G_MAXUINT;
  g_autoptr (WsRun) next = NULL;

  g_return_val_if_fail (WS_IS_WORKSPACE (self), FALSE);
  g_return_val_if_fail (delta == 1 || delta == -1, FALSE);
  if (self->session == NULL)
    return FALSE;
  runs = ws_session_get_runs (self->session);
  n = g_list_model_get_n_items (runs);
  for (guint i = 0; i < n && self->run != 0 && at == G_MAXUINT; i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);

      if (ws_run_get_id (run) == self->run)
        at = i;
    }
  if (at == G_MAXUINT)
    at = delta > 0 ? 0 : n - 1;
  else if ((delta < 0 && at == 0) || (delta > 0 && at + 1 >= n))
    return FALSE;
  else
    at += delta;
  if (at >= n)
    return FALSE;
  next = g_list_model_get_item (runs, at);
  ws_workspace_select_runs (self, ws_run_get_id (next), 0);
  return TRUE;
}

/* ---- time ------------------------------------------------------------------------------- */

gboolean
ws_workspace_get_full_range (WsWorkspace *self, gint64 *start, gint64 *end)
{
  gint64 length;

  g_return_val_if_fail (WS_IS_WORKSPACE (self), FALSE);
  if (self->session == NULL)
    return FALSE;
  /* Two runs compared: each from its own start (ws_workspace_get_origin). */
  if (ws_workspace_is_comparing (self)
      && ws_workspace_get_selected_run (self) != ws_workspace_get_compared_run (self)
      && (length = ws_runs_compared_length (ws_workspace_get_selected_run (self),
                                            ws_workspace_get_compared_run (self)))
           > 0)
    {
      *start = 0;
      *end = length;
      return TRUE;
    }
  return ws_session_get_time_range (self->session, start, end) && *end > *start;
}

void
ws_workspace_get_visible_window (WsWorkspace *self, gint64 *start, gint64 *end)
{
  g_return_if_fail (WS_IS_WORKSPACE (self));
  *start = self->window.start;
  *end = self->window.end;
}

void
ws_workspace_set_visible_window (WsWorkspace *self, gint64 start, gint64 end)
{
  gint64 fs, fe;

  g_return_if_fail (WS_IS_WORKSPACE (self));
  if (end > start && ws_workspace_get_full_range (self, &fs, &fe))
    {
      /* Keep at least 100 ns visible and never wander far off the data. */
      if (end - start < 100)
        {
          gint64 mid = start / 2 + end / 2;

          start = mid - 50, end = mid + 50;
        }
      if (start < fs - (fe - fs) / 10)
        end += (fs - (fe - fs) / 10) - start, start = fs - (fe - fs) / 10;
      if (end > fe + (fe - fs) / 10)
        start -= end - (fe + (fe - fs) / 10), end = fe + (fe - fs) / 10;
      if (start <= fs && end >= fe)
        start = end = 0;
    }
  else
    start = end = 0;
  if (start == self->window.start && end == self->window.end)
    return;
  self->window = (WsTimeSpan) { start, end };
  notify (self, PROP_VISIBLE_WINDOW);
}

gboolean
ws_workspace_get_selected_range (WsWorkspace *self, gint64 *start, gint64 *end)
{
  g_return_val_if_fail (WS_IS_WORKSPACE (self), FALSE);
  *start = self->range.start;
  *end = self->range.end;
  return self->range.end > self->range.start;
}

void
ws_workspace_set_selected_range (WsWorkspace *self, gint64 start, gint64 end)
{
  g_return_if_fail (WS_IS_WORKSPACE (self));
  if (end <= start)
    start = end = 0;
  if (start == self->range.start && end == self->range.end)
    return;
  self->range = (WsTimeSpan) { start, end };
  notify (self, PROP_SELECTED_RANGE);
}

void
ws_workspace_get_range_totals (WsWorkspace *self, int run, WsTotals *totals)
{
  gint64 origin;

  g_return_if_fail (WS_IS_WORKSPACE (self));
  g_return_if_fail (self->session != NULL);
  origin = ws_workspace_get_origin (self, run);
  ws_session_get_window_totals (self->session, origin + self->range.start,
                                origin + self->range.end, totals);
}

/* ---- highlights ------------------------------------------------------------------------- */

GArray *
ws_workspace_get_highlight (WsWorkspace *self)
{
  g_return_val_if_fail (WS_IS_WORKSPACE (self), NULL);
  return self->highlight;
}

void
ws_workspace_set_highlight (WsWorkspace *self, GArray *refs)
{
  g_return_if_fail (WS_IS_WORKSPACE (self));
  if (refs == NULL && self->highlight == NULL)
    return;
  g_clear_pointer (&self->highlight, g_array_unref);
  self->highlight = refs ? g_array_ref (refs) : NULL;
  notify (self, PROP_HIGHLIGHT);
}

void
ws_workspace_highlight_finding (WsWorkspace *self, int run_id, GArray *indices)
{
  g_autoptr (GArray) refs = g_array_new (FALSE, FALSE, sizeof (WsActivityRef));
  WsRun *run;
  gint64 start = G_MAXINT64, end = G_MININT64, origin;
  guint n;
  const WsSpan *a;

  g_return_if_fail (WS_IS_WORKSPACE (self));
  run = self->session ? ws_session_find_run (self->session, run_id) : NULL;
  if (run == NULL || indices == NULL || indices->len == 0)
    return;
  a = ws_run_get_activities (run, &n);
  for (guint i = 0; i < indices->len; i++)
    {
      WsActivityRef ref = { run_id, g_array_index (indices, guint, i) };

      if (ref.index >= n)
        continue;
      g_array_append_val (refs, ref);
      start = MIN (start, a[ref.index].start);
      end = MAX (end, a[ref.index].end);
    }
  if (refs->len == 0)
    return;
  g_object_freeze_notify (G_OBJECT (self));
  ws_workspace_set_highlight (self, refs);
  origin = ws_workspace_get_origin (self, run_id);
  start -= origin, end -= origin;
  ws_workspace_set_visible_window (self, start - (end - start) / 10, end + (end - start) / 10);
  g_object_thaw_notify (G_OBJECT (self));
}

void
ws_workspace_select_activity (WsWorkspace *self, int run_id, guint index)
{
  g_autoptr (GArray) refs = g_array_new (FALSE, FALSE, sizeof (WsActivityRef));
  WsActivityRef ref = { run_id, index };
  WsRun *run;
  guint n = 0;

  g_return_if_fail (WS_IS_WORKSPACE (self));
  run = self->session ? ws_session_find_run (self->session, run_id) : NULL;
  if (run == NULL || (ws_run_get_activities (run, &n), index >= n))
    return;
  g_array_append_val (refs, ref);
  g_object_freeze_notify (G_OBJECT (self));
  ws_workspace_set_highlight (self, refs);
  self->activity = ref;
  /* Picking the same span again says it again. */
  notify (self, PROP_SELECTED_ACTIVITY);
  g_object_thaw_notify (G_OBJECT (self));
}

gboolean
ws_workspace_get_selected_activity (WsWorkspace *self, WsActivityRef *ref)
{
  g_return_val_if_fail (WS_IS_WORKSPACE (self), FALSE);
  *ref = self->activity;
  return self->activity.run != 0;
}

gboolean
ws_workspace_get_presentation (WsWorkspace *self)
{
  g_return_val_if_fail (WS_IS_WORKSPACE (self), FALSE);
  return self->presentation;
}

void
ws_workspace_set_presentation (WsWorkspace *self, gboolean presentation)
{
  g_return_if_fail (WS_IS_WORKSPACE (self));
  presentation = !!presentation;
  if (presentation == self->presentation)
    return;
  self->presentation = presentation;
  notify (self, PROP_PRESENTATION);
}

/* ---- findings --------------------------------------------------------------------------- */

GPtrArray *
ws_workspace_get_findings (WsWorkspace *self, WsRun *run)
{
  g_return_val_if_fail (WS_IS_WORKSPACE (self), NULL);
  if (self->analysis == NULL || run == NULL)
    return NULL;
  return ws_session_analysis_get_run_findings (self->analysis, run);
}

WsSessionAnalysis *
ws_workspace_get_analysis (WsWorkspace *self)
{
  g_return_val_if_fail (WS_IS_WORKSPACE (self), NULL);
  return self->analysis;
}

gboolean
ws_workspace_is_analysed (WsWorkspace *self)
{
  g_return_val_if_fail (WS_IS_WORKSPACE (self), FALSE);
  return self->analysis == NULL || (self->prepared && ws_session_analysis_is_ready (self->analysis));
}

/* ---- boilerplate ------------------------------------------------------------------------ */

static void
ws_workspace_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  WsWorkspace *self = WS_WORKSPACE (object);

  switch (prop)
    {
    case PROP_SESSION: g_value_set_object (value, self->session); break;
    case PROP_RUN: g_value_set_int (value, self->run); break;
    case PROP_COMPARE_RUN: g_value_set_int (value, self->compare_run); break;
    case PROP_VISIBLE_WINDOW: g_value_set_boxed (value, &self->window); break;
    case PROP_SELECTED_RANGE: g_value_set_boxed (value, &self->range); break;
    case PROP_HIGHLIGHT: g_value_set_boxed (value, self->highlight); break;
    case PROP_SELECTED_ACTIVITY: g_value_set_boxed (value, &self->activity); break;
    case PROP_PRESENTATION: g_value_set_boolean (value, self->presentation); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_workspace_set_property (GObject *object, guint prop, const GValue *value, GParamSpec *pspec)
{
  WsWorkspace *self = WS_WORKSPACE (object);
  const WsTimeSpan *span;

  switch (prop)
    {
    case PROP_SESSION: ws_workspace_set_session (self, g_value_get_object (value)); break;
    case PROP_RUN: ws_workspace_select_runs (self, g_value_get_int (value), self->compare_run); break;
    case PROP_COMPARE_RUN: ws_workspace_select_runs (self, self->run, g_value_get_int (value)); break;
    case PROP_VISIBLE_WINDOW:
      span = g_value_get_boxed (value);
      ws_workspace_set_visible_window (self, span ? span->start : 0, span ? span->end : 0);
      break;
    case PROP_SELECTED_RANGE:
      span = g_value_get_boxed (value);
      ws_workspace_set_selected_range (self, span ? span->start : 0, span ? span->end : 0);
      break;
    case PROP_HIGHLIGHT: ws_workspace_set_highlight (self, g_value_get_boxed (value)); break;
    case PROP_PRESENTATION: ws_workspace_set_presentation (self, g_value_get_boolean (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_workspace_dispose (GObject *object)
{
  WsWorkspace *self = WS_WORKSPACE (object);

  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  if (self->analysis != NULL)
    g_signal_handlers_disconnect_by_data (self->analysis, self);
  g_clear_object (&self->session);
  g_clear_object (&self->analysis);
  g_clear_pointer (&self->sessions, g_ptr_array_unref);
  g_clear_pointer (&self->highlight, g_array_unref);
  G_OBJECT_CLASS (ws_workspace_parent_class)->dispose (object);
}

static void
ws_workspace_class_init (WsWorkspaceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = ws_workspace_get_property;
  object_class->set_property = ws_workspace_set_property;
  object_class->dispose = ws_workspace_dispose;

  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, WS_TYPE_SESSION, rw);
  properties[PROP_RUN] = g_param_spec_int ("run", NULL, NULL, 0, G_MAXINT, 0, rw);
  properties[PROP_COMPARE_RUN] = g_param_spec_int ("compare-run", NULL, NULL, 0, G_MAXINT, 0, rw);
  properties[PROP_VISIBLE_WINDOW] = g_param_spec_boxed ("visible-window", NULL, NULL,
                                                        WS_TYPE_TIME_SPAN, rw);
  properties[PROP_SELECTED_RANGE] = g_param_spec_boxed ("selected-range", NULL, NULL,
                                                        WS_TYPE_TIME_SPAN, rw);
  properties[PROP_HIGHLIGHT] = g_param_spec_boxed ("highlight", NULL, NULL, G_TYPE_ARRAY, rw);
  properties[PROP_SELECTED_ACTIVITY]
    = g_param_spec_boxed ("selected-activity", NULL, NULL, WS_TYPE_ACTIVITY_REF,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PRESENTATION] = g_param_spec_boolean ("presentation", NULL, NULL, FALSE, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[RUN_ADDED] = g_signal_new ("run-added", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                     NULL, NULL, NULL, G_TYPE_NONE, 1, WS_TYPE_RUN);
  signals[RUN_UPDATED] = g_signal_new ("run-updated", G_TYPE_FROM_CLASS (klass),
                                       G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                       WS_TYPE_RUN);
  signals[SESSION_UPDATED] = g_signal_new ("session-updated", G_TYPE_FROM_CLASS (klass),
                                           G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[ANALYSIS_READY] = g_signal_new ("analysis-ready", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
ws_workspace_init (WsWorkspace *self)
{
  self->sessions = g_ptr_array_new_with_free_func (g_object_unref);
}

WsWorkspace *
ws_workspace_new (void)
{
  return g_object_new (WS_TYPE_WORKSPACE, NULL);
}

/* ws-session-analysis.c: the session's one analysis: every run's findings, the series, their
 * crossovers and rankings, the fastest configurations; whole once, then run by run.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-analysis-private.h"
#include "ws-analysis-trace-private.h"
#include "ws-background.h"
#include "ws-session-analysis-private.h"
#include "ws-session-private.h"

/* One series, with the lowest id of its runs: series come in the order of their first run. */
typedef struct
{
  WsSeries *series;
  int first;
} Entry;

typedef struct
{
  GHashTable *by_key; /* series key → Entry (owned) */
  GHashTable *of_run; /* WsRun → Entry (borrowed) */
  GPtrArray *order;   /* Entry, by first run */
  GPtrArray *shown;   /* WsSeries of at least 2 runs, in order (borrowed) */
} Series;

/* The completed, timed runs that solve one problem, in run order, and the fastest of them. */
typedef struct
{
  GPtrArray *runs;
  int first;
  WsFastest *fastest;
} Group;

/* Everything found, as a whole: made in a thread for a loaded session, then kept up to date
 * on the main thread. */
typedef struct
{
  WsAnalysis ctx;           /* its series maps are Series.of_run's, for ≥ 2 runs */
  Series series[2];         /* WS_SERIES_BY_SIZE, WS_SERIES_BY_BLOCK */
  GHashTable *findings;     /* run id → GPtrArray of WsFinding */
  GPtrArray *session_findings;
  guint n_devices, n_errors;
  GHashTable *groups;       /* problem key → Group (owned) */
  GHashTable *group_of;     /* WsRun → Group (borrowed) */
  GPtrArray *group_order;   /* Group, by first run */
  GPtrArray *fastest;       /* WsFastest (borrowed from the groups); NULL: to gather */
  GPtrArray *crossovers;    /* WsCrossover; NULL: to gather */
  gboolean building;        /* a whole analysis: series sorted and ranked once at the end */
  WsTraceFindings *trace;   /* a traced program's findings; NULL for a sweep's session */
} State;

struct _WsSessionAnalysis
{
  GObject parent_instance;

  WsSession *session; /* borrowed: the session owns its analysis */
  State *state;       /* NULL until ready */
  gboolean pending;   /* a thread is analysing */
  GPtrArray *queued;  /* WsRun changed while it did */
};

G_DEFINE_FINAL_TYPE (WsSessionAnalysis, ws_session_analysis, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_READY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ---- the state ------------------------------------------------------------------------- */

static void
entry_free (Entry *e)
{
  ws_series_free (e->series);
  g_free (e);
}

static void
group_free (Group *g)
{
  g_ptr_array_unref (g->runs);
  _ws_fastest_free (g->fastest);
  g_free (g);
}

static State *
state_new (WsSession *session)
{
  State *s = g_new0 (State, 1);

  s->ctx.session = session;
  for (int k = 0; k < 2; k++)
    {
      s->series[k].by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                   (GDestroyNotify) entry_free);
      s->series[k].of_run = g_hash_table_new (NULL, NULL);
      s->series[k].order = g_ptr_array_new ();
      s->series[k].shown = g_ptr_array_new ();
    }
  s->ctx.size_series = s->series[WS_SERIES_BY_SIZE].shown;
  s->ctx.block_series = s->series[WS_SERIES_BY_BLOCK].shown;
  s->ctx.size_series_of = g_hash_table_new (NULL, NULL);
  s->ctx.block_series_of = g_hash_table_new (NULL, NULL);
  s->findings = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);
  s->session_findings = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_finding_free);
  s->groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                     (GDestroyNotify) group_free);
  s->group_of = g_hash_table_new (NULL, NULL);
  s->group_order = g_ptr_array_new ();
  return s;
}

static void
state_free (State *s)
{
  for (int k = 0; k < 2; k++)
    {
      g_ptr_array_unref (s->series[k].shown);
      g_ptr_array_unref (s->series[k].order);
      g_hash_table_unref (s->series[k].of_run);
      g_hash_table_unref (s->series[k].by_key);
    }
  g_clear_pointer (&s->ctx.size_series_of, g_hash_table_unref);
  g_clear_pointer (&s->ctx.block_series_of, g_hash_table_unref);
  g_clear_pointer (&s->ctx.cublas, g_hash_table_unref);
  g_clear_pointer (&s->ctx.pinned, g_hash_table_unref);
  g_clear_pointer (&s->ctx.crossovers, g_hash_table_unref);
  g_clear_pointer (&s->ctx.rankings, g_hash_table_unref);
  g_hash_table_unref (s->findings);
  g_ptr_array_unref (s->session_findings);
  g_ptr_array_unref (s->group_order);
  g_hash_table_unref (s->group_of);
  g_hash_table_unref (s->groups);
  g_clear_pointer (&s->fastest, g_ptr_array_unref);
  g_clear_pointer (&s->crossovers, g_ptr_array_unref);
  _ws_trace_findings_free (s->trace);
  g_free (s);
}

static GHashTable *
series_map (State *s, WsSeriesKind kind)
{
  return kind == WS_SERIES_BY_SIZE ? s->ctx.size_series_of : s->ctx.block_series_of;
}

static int
compare_first (gconstpointer a, gconstpointer b)
{
  const Entry *x = *(Entry **) a, *y = *(Entry **) b;

  return x->first < y->first ? -1 : x->first > y->first;
}

static int
compare_group_first (gconstpointer a, gconstpointer b)
{
  const Group *x = *(Group **) a, *y = *(Group **) b;

  return x->first < y->first ? -1 : x->first > y->first;
}

static int
lowest_id (GPtrArray *runs)
{
  int first = G_MAXINT;

  for (guint i = 0; i < runs->len; i++)
    first = MIN (first, ws_run_get_id (g_ptr_array_index (runs, i)));
  return first;
}

/* An entry's runs changed: its order, what the findings look it up by, what was found of it. */
static void
entry_changed (State *s, WsSeriesKind kind, Entry *e)
{
  GHashTable *map = series_map (s, kind);

  g_ptr_array_sort (e->series->runs, kind == WS_SERIES_BY_SIZE ? _ws_series_compare_by_size
                                                                : _ws_series_compare_by_block);
  e->first = lowest_id (e->series->runs);
  for (guint i = 0; i < e->series->runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (e->series->runs, i);

      if (e->series->runs->len >= 2)
        g_hash_table_insert (map, run, e->series);
      else
        g_hash_table_remove (map, run);
    }
  if (s->ctx.crossovers != NULL)
    g_hash_table_remove (s->ctx.crossovers, e->series);
  if (s->ctx.rankings != NULL)
    g_hash_table_remove (s->ctx.rankings, e->series);
}

static void
series_gather (State *s, WsSeriesKind kind)
{
  Series *series = &s->series[kind];

  g_ptr_array_sort (series->order, compare_first);
  g_ptr_array_set_size (series->shown, 0);
  for (guint i = 0; i < series->order->len; i++)
    {
      Entry *e = g_ptr_array_index (series->order, i);

      if (e->series->runs->len >= 2)
        g_ptr_array_add (series->shown, e->series);
    }
  g_clear_pointer (&s->crossovers, g_ptr_array_unref);
}

/* Puts a run into its series of `kind` (a completed or failed run) or out of it; returns the
 * entry it is in or was in, NULL when neither. */
static Entry *
series_place (State *s, WsSeriesKind kind, WsRun *run)
{
  Series *series = &s->series[kind];
  Entry *e = g_hash_table_lookup (series->of_run, run);
  WsRunState state = ws_run_get_state (run);
  gboolean member = state == WS_RUN_STATE_COMPLETE || state == WS_RUN_STATE_FAILED;
  g_autofree char *label = NULL;
  char *key;

  if (e != NULL && member)
    return e; /* its configuration, and so its place, does not change */
  if (e != NULL)
    {
      g_hash_table_remove (series->of_run, run);
      g_hash_table_remove (series_map (s, kind), run);
      g_ptr_array_remove (e->series->runs, run);
      if (!s->building)
        entry_changed (s, kind, e);
      return e;
    }
  if (!member)
    return NULL;
  key = _ws_series_key (run, kind, &label);
  if ((e = g_hash_table_lookup (series->by_key, key)) == NULL)
    {
      const WsRunConfig *c = ws_run_get_config (run);

      e = g_new0 (Entry, 1);
      e->series = g_new0 (WsSeries, 1);
      e->series->kind = kind;
      e->series->label = g_steal_pointer (&label);
      e->series->kernel = g_strdup (c->kernel);
      e->series->transfer = g_strdup (c->transfer);
      e->series->runs = g_ptr_array_new_with_free_func (g_object_unref);
      e->first = G_MAXINT;
      g_hash_table_insert (series->by_key, key, e);
      g_ptr_array_add (series->order, e);
    }
  else
    g_free (key);
  g_ptr_array_add (e->series->runs, g_object_ref (run));
  g_hash_table_insert (series->of_run, run, e);
  if (!s->building)
    entry_changed (s, kind, e);
  return e;
}

static void
group_rank (State *s, Group *g)
{
  _ws_fastest_free (g->fastest);
  g->fastest = _ws_fastest_rank (g->runs, s->ctx.session);
  g->first = g->runs->len > 0 ? ws_run_get_id (g_ptr_array_index (g->runs, 0)) : G_MAXINT;
  g_clear_pointer (&s->fastest, g_ptr_array_unref);
}

/* Puts a run into the problem it solves, in run order, or out of it once it is not ranked. */
static void
group_place (State *s, WsRun *run)
{
  Group *g = g_hash_table_lookup (s->group_of, run);
  char *key = _ws_fastest_problem_key (run);
  guint at;

  if (g != NULL || key == NULL)
    {
      if (g != NULL && key == NULL)
        {
          g_ptr_array_remove (g->runs, run);
          g_hash_table_remove (s->group_of, run);
        }
      g_free (key);
      if (g != NULL && !s->building)
        group_rank (s, g);
      return;
    }
  if ((g = g_hash_table_lookup (s->groups, key)) == NULL)
    {
      g = g_new0 (Group, 1);
      g->runs = g_ptr_array_new ();
      g->first = ws_run_get_id (run);
      g_hash_table_insert (s->groups, key, g);
      g_ptr_array_add (s->group_order, g);
    }
  else
    g_free (key);
  for (at = g->runs->len; at > 0; at--)
    if (ws_run_get_id (g_ptr_array_index (g->runs, at - 1)) < ws_run_get_id (run))
      break;
  g_ptr_array_insert (g->runs, at, run);
  g_hash_table_insert (s->group_of, run, g);
  if (!s->building)
    {
      group_rank (s, g);
      g_ptr_array_sort (s->group_order, compare_group_first);
    }
}

static void
analyse_run (State *s, WsRun *run)
{
  GPtrArray *found = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_finding_free);

  _ws_analysis_run (&s->ctx, run, found);
  g_hash_table_insert (s->findings, GINT_TO_POINTER (ws_run_get_id (run)), found);
}

static void
analyse_session_errors (State *s)
{
  GPtrArray *errors = ws_session_get_errors (s->ctx.session);

  g_ptr_array_set_size (s->session_findings, 0);
  for (guint i = 0; i < errors->len; i++)
    g_ptr_array_add (s->session_findings,
                     _ws_finding_for_session_error (g_ptr_array_index (errors, i)));
  s->n_errors = errors->len;
}

/* The whole session: what ws_analyze_session finds, and the rest. */
static State *
state_build (WsSession *session)
{
  State *s = state_new (session);
  GListModel *runs = ws_session_get_runs (session);
  guint n = g_list_model_get_n_items (runs);

  s->n_devices = g_list_model_get_n_items (ws_session_get_devices (session));
  s->building = TRUE;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);

      series_place (s, WS_SERIES_BY_SIZE, run);
      series_place (s, WS_SERIES_BY_BLOCK, run);
      group_place (s, run);
    }
  s->building = FALSE;
  for (int k = 0; k < 2; k++)
    {
      for (guint i = 0; i < s->series[k].order->len; i++)
        entry_changed (s, k, g_ptr_array_index (s->series[k].order, i));
      series_gather (s, k);
    }
  for (guint i = 0; i < s->group_order->len; i++)
    group_rank (s, g_ptr_array_index (s->group_order, i));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);

      analyse_run (s, run);
    }
  analyse_session_errors (s);
  if (ws_session_get_trace (session) != NULL)
    {
      s->trace = _ws_trace_findings_new ();
      _ws_trace_findings_update (s->trace, ws_session_get_trace (session));
    }
  return s;
}

static gboolean
same_shape (const WsRunConfig *a, const WsRunConfig *b)
{
  return a->shape_rank == b->shape_rank && a->shape[0] == b->shape[0]
         && a->shape[1] == b->shape[1] && a->shape[2] == b->shape[2];
}

/* Runs whose findings lean on `run` beyond its series: a cuBLAS run is the ceiling of the
 * other kernels of its shape, a pinned one the twin of the same configuration's pageable runs.
 * Those caches are gathered again when next asked. */
static void
add_dependents (State *s, WsRun *run, GHashTable *affected)
{
  const WsRunConfig *c = ws_run_get_config (run);
  gboolean cublas = g_str_equal (c->kernel, "matmul_cublas");
  gboolean pinned = c->transfer_kind == WS_TRANSFER_PINNED;
  GListModel *runs;

  if (!cublas && !pinned)
    return;
  if (cublas)
    g_clear_pointer (&s->ctx.cublas, g_hash_table_unref);
  if (pinned)
    g_clear_pointer (&s->ctx.pinned, g_hash_table_unref);
  runs = ws_session_get_runs (s->ctx.session);
  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) other = g_list_model_get_item (runs, i);
      const WsRunConfig *o = ws_run_get_config (other);

      if (!same_shape (c, o))
        continue;
      if (cublas
          || (g_str_equal (o->kernel, c->kernel) && o->block[0] == c->block[0]
              && o->block[1] == c->block[1] && o->block[2] == c->block[2]))
        g_hash_table_add (affected, other);
    }
}

/* One run changed: it, the series it is in and the runs that lean on it are analysed again. */
static void
state_update (State *s, WsRun *run)
{
  g_autoptr (GHashTable) affected = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer key;

  g_hash_table_add (affected, run);
  for (int k = 0; k < 2; k++)
    {
      Entry *e = series_place (s, k, run);

      if (e == NULL)
        continue;
      for (guint i = 0; i < e->series->runs->len; i++)
        g_hash_table_add (affected, g_ptr_array_index (e->series->runs, i));
      series_gather (s, k);
    }
  group_place (s, run);
  add_dependents (s, run, affected);
  g_hash_table_iter_init (&iter, affected);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    analyse_run (s, key);
}

/* ---- the object ------------------------------------------------------------------------ */

static void
set_state (WsSessionAnalysis *self, State *state)
{
  gboolean was_ready = self->state != NULL;

  g_clear_pointer (&self->state, state_free);
  self->state = state;
  if (!was_ready)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
run_changed_cb (WsSession *session, WsRun *run, WsSessionAnalysis *self)
{
  if (self->pending)
    {
      if (!g_ptr_array_find (self->queued, run, NULL))
        g_ptr_array_add (self->queued, g_object_ref (run));
      return;
    }
  if (self->state == NULL)
    return; /* the whole analysis, when asked for, sees it */
  state_update (self->state, run);
  g_signal_emit (self, signals[CHANGED], 0);
}

/* A device record changes every run's ceilings; an error record, the session's findings. */
static void
session_changed_cb (WsSession *session, WsSessionAnalysis *self)
{
  State *s = self->state;

  if (s == NULL || self->pending)
    return;
  gboolean changed = FALSE;

  if (g_list_model_get_n_items (ws_session_get_devices (session)) != s->n_devices)
    {
      set_state (self, state_build (session));
      return;
    }
  if (ws_session_get_errors (session)->len != s->n_errors)
    {
      analyse_session_errors (s);
      changed = TRUE;
    }
  /* A traced program's records: the program runs they changed are analysed again. */
  if (ws_session_get_trace (session) != NULL)
    {
      if (s->trace == NULL)
        s->trace = _ws_trace_findings_new ();
      changed |= _ws_trace_findings_update (s->trace, ws_session_get_trace (session));
    }
  if (changed)
    g_signal_emit (self, signals[CHANGED], 0);
}

static void
analyse_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  g_task_return_pointer (task, state_build (data), (GDestroyNotify) state_free);
}

static void
analysed_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  WsSessionAnalysis *self = WS_SESSION_ANALYSIS (source);
  State *state = g_task_propagate_pointer (G_TASK (result), NULL);

  self->pending = FALSE;
  /* What changed while the thread read the session is applied now, run by run. */
  for (guint i = 0; i < self->queued->len; i++)
    state_update (state, g_ptr_array_index (self->queued, i));
  g_ptr_array_set_size (self->queued, 0);
  set_state (self, state);
}

void
ws_session_analysis_start (WsSessionAnalysis *self)
{
  g_autoptr (GTask) task = NULL;

  g_return_if_fail (WS_IS_SESSION_ANALYSIS (self));
  if (self->state != NULL || self->pending)
    return;
  self->pending = TRUE;
  task = g_task_new (self, NULL, analysed_cb, NULL);
  g_task_set_source_tag (task, ws_session_analysis_start);
  /* The task holds the session while the thread reads it. */
  g_task_set_task_data (task, g_object_ref (self->session), g_object_unref);
  ws_task_run_in_background (task, analyse_thread);
}

void
ws_session_analysis_ensure (WsSessionAnalysis *self)
{
  g_return_if_fail (WS_IS_SESSION_ANALYSIS (self));
  if (self->state == NULL && !self->pending)
    set_state (self, state_build (self->session));
}

gboolean
ws_session_analysis_is_ready (WsSessionAnalysis *self)
{
  g_return_val_if_fail (WS_IS_SESSION_ANALYSIS (self), FALSE);
  return self->state != NULL;
}

gboolean
ws_session_analysis_is_pending (WsSessionAnalysis *self)
{
  g_return_val_if_fail (WS_IS_SESSION_ANALYSIS (self), FALSE);
  return self->pending;
}

WsSession *
ws_session_analysis_get_session (WsSessionAnalysis *self)
{
  g_return_val_if_fail (WS_IS_SESSION_ANALYSIS (self), NULL);
  return self->session;
}

/* ---- what was found -------------------------------------------------------------------- */

static GPtrArray *
empty (void)
{
  static GPtrArray *none;

  if (g_once_init_enter (&none))
    g_once_init_leave (&none, g_ptr_array_new ());
  return none;
}

GPtrArray *
ws_session_analysis_get_run_findings (WsSessionAnalysis *self, WsRun *run)
{
  GPtrArray *found;

  g_return_val_if_fail (WS_IS_SESSION_ANALYSIS (self), NULL);
  g_return_val_if_fail (WS_IS_RUN (run), NULL);
  if (self->state == NULL)
    return NULL;
  found = g_hash_table_lookup (self->state->findings, GINT_TO_POINTER (ws_run_get_id (run)));
  return found != NULL ? found : empty ();
}

GPtrArray *
ws_session_analysis_get_session_findings (WsSessionAnalysis *self)
{
  g_return_val_if_fail (WS_IS_SESSION_ANALYSIS (self), NULL);
  return self->state != NULL ? self->state->session_findings : empty ();
}

GPtrArray *
ws_session_analysis_dup_trace_findings (WsSessionAnalysis *self)
{
  g_return_val_if_fail (WS_IS_SESSION_ANALYSIS (self), NULL);
  return _ws_trace_findings_dup (self->state != NULL ? self->state->trace : NULL);
}

GArray *
ws_session_analysis_dup_code_waits (WsSessionAnalysis *self)
{
  g_return_val_if_fail (WS_IS_SESSION_ANALYSIS (self), NULL);
  return _ws_trace_findings_dup_code_waits (self->state != NULL ? self->state->trace : NULL);
}

GPtrArray *
ws_session_analysis_dup_findings (WsSessionAnalysis *self)
{
  GPtrArray *all = g_ptr_array_new ();
  GListModel *runs;

  g_return_val_if_fail (WS_IS_SESSION_ANALYSIS (self), all);
  if (self->state == NULL)
    return all;
  runs = ws_session_get_runs (self->session);
  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);
      GPtrArray *found = ws_session_analysis_get_run_findings (self, run);

      for (guint k = 0; k < found->len; k++)
        g_ptr_array_add (all, g_ptr_array_index (found, k));
    }
  for (guint k = 0; k < self->state->session_findings->len; k++)
    g_ptr_array_add (all, g_ptr_array_index (self->state->session_findings, k));
  return all;
}

GPtrArray *
ws_session_analysis_get_series (WsSessionAnalysis *self, WsSeriesKind kind)
{
  g_return_val_if_fail (WS_IS_SESSION_ANALYSIS (self), NULL);
  g_return_val_if_fail (kind == WS_SERIES_BY_SIZE || kind == WS_SERIES_BY_BLOCK, NULL);
  return self->state != NULL ? self->state->series[kind].shown : empty ();
}

gboolean
ws_session_analysis_get_crossover (WsSessionAnalysis *self, WsSeries *series,
                                   gboolean all_cores, gboolean end_to_end, double *size)
{
  double at;
  gboolean rising;

  g_return_val_if_fail (WS_IS_SESSION_ANALYSIS (self), FALSE);
  g_return_val_if_fail (series != NULL, FALSE);
  if (self->state == NULL
      || !_ws_analysis_crossover (&self->state->ctx, series, all_cores, end_to_end, &at,
                                  &rising))
    return FALSE;
  if (size != NULL)
    *size = at;
  return TRUE;
}

WsRun *
ws_session_analysis_get_ranking (WsSessionAnalysis *self, WsSeries *series, GPtrArray **tied)
{
  g_return_val_if_fail (WS_IS_SESSION_ANALYSIS (self), NULL);
  g_return_val_if_fail (series != NULL, NULL);
  if (tied != NULL)
    *tied = NULL;
  if (self->state == NULL)
    return NULL;
  return _ws_analysis_ranking (&self->state->ctx, series, tied);
}

GPtrArray *
ws_session_analysis_get_crossovers (WsSessionAnalysis *self)
{
  State *s;

  g_return_val_if_fail (WS_IS_SESSION_ANALYSIS (self), NULL);
  if ((s = self->state) == NULL)
    return empty ();
  if (s->crossovers == NULL)
    {
      GPtrArray *shown = s->series[WS_SERIES_BY_SIZE].shown;

      s->crossovers = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; i < shown->len; i++)
        g_ptr_array_add (s->crossovers, _ws_crossover_new (g_ptr_array_index (shown, i)));
    }
  return s->crossovers;
}

GPtrArray *
ws_session_analysis_get_fastest (WsSessionAnalysis *self)
{
  State *s;

  g_return_val_if_fail (WS_IS_SESSION_ANALYSIS (self), NULL);
  if ((s = self->state) == NULL)
    return empty ();
  if (s->fastest == NULL)
    {
      s->fastest = g_ptr_array_new ();
      for (guint i = 0; i < s->group_order->len; i++)
        {
          Group *g = g_ptr_array_index (s->group_order, i);

          if (g->fastest != NULL)
            g_ptr_array_add (s->fastest, g->fastest);
        }
    }
  return s->fastest;
}

/* ---- boilerplate ----------------------------------------------------------------------- */

static void
ws_session_analysis_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  WsSessionAnalysis *self = WS_SESSION_ANALYSIS (object);

  switch (prop)
    {
    case PROP_READY: g_value_set_boolean (value, self->state != NULL); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_session_analysis_finalize (GObject *object)
{
  WsSessionAnalysis *self = WS_SESSION_ANALYSIS (object);

  g_clear_pointer (&self->state, state_free);
  g_ptr_array_unref (self->queued);
  G_OBJECT_CLASS (ws_session_analysis_parent_class)->finalize (object);
}

static void
ws_session_analysis_class_init (WsSessionAnalysisClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = ws_session_analysis_get_property;
  object_class->finalize = ws_session_analysis_finalize;
  properties[PROP_READY] = g_param_spec_boolean ("ready", NULL, NULL, FALSE,
                                                 G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY
                                                 | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                   NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
ws_session_analysis_init (WsSessionAnalysis *self)
{
  self->queued = g_ptr_array_new_with_free_func (g_object_unref);
}

G_DEFINE_QUARK (ws-session-analysis, ws_session_analysis)

WsSessionAnalysis *
ws_session_get_analysis (WsSession *session)
{
  WsSessionAnalysis *self;

  g_return_val_if_fail (WS_IS_SESSION (session), NULL);
  self = g_object_get_qdata (G_OBJECT (session), ws_session_analysis_quark ());
  if (self != NULL)
    return self;
  self = g_object_new (WS_TYPE_SESSION_ANALYSIS, NULL);
  self->session = session;
  /* Whoever relays the session's signals asks for its analysis first, so that its views find
   * a run analysed again when they hear of it. */
  g_signal_connect (session, "run-added", G_CALLBACK (run_changed_cb), self);
  g_signal_connect (session, "run-updated", G_CALLBACK (run_changed_cb), self);
  g_signal_connect (session, "changed", G_CALLBACK (session_changed_cb), self);
  g_object_set_qdata_full (G_OBJECT (session), ws_session_analysis_quark (), self,
                           g_object_unref);
  return self;
}

/* ws-session.c: the session object, its accessors and the queries the views need.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-session-private.h"
#include "ws-trace-private.h"

#include <glib/gi18n-lib.h>

G_DEFINE_QUARK (ws-session-error-quark, ws_session_error)
G_DEFINE_FINAL_TYPE (WsSession, ws_session, G_TYPE_OBJECT)

guint _ws_session_signals[WS_SESSION_N_SIGNALS];

void
_ws_stored_record_free (WsStoredRecord *record)
{
  if (record == NULL)
    return;
  g_free (record->text);
  g_free (record);
}

void
_ws_problem_free (WsProblem *problem)
{
  if (problem == NULL)
    return;
  g_free (problem->message);
  g_free (problem);
}

static void
ws_session_finalize (GObject *object)
{
  WsSession *self = WS_SESSION (object);

  g_clear_object (&self->file);
  g_clear_pointer (&self->lane_index, ws_lane_index_unref);
  g_mutex_clear (&self->lane_lock);
  g_clear_pointer (&self->hello, ws_hello_unref);
  g_clear_object (&self->devices);
  g_clear_pointer (&self->runs_by_id, g_hash_table_unref);
  g_clear_pointer (&self->announced_twice, g_hash_table_unref);
  g_clear_object (&self->runs);
  g_clear_pointer (&self->kernels_by_name, g_hash_table_unref);
  g_clear_object (&self->kernels);
  g_clear_pointer (&self->errors, g_ptr_array_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_clear_pointer (&self->records, g_ptr_array_unref);
  g_clear_pointer (&self->trace, _ws_trace_free);
  g_clear_error (&self->fatal);
  _ws_session_finalize_own (self);
  G_OBJECT_CLASS (ws_session_parent_class)->finalize (object);
}

static void
ws_session_class_init (WsSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ws_session_finalize;

  /* A run was announced (its config is known; results follow). */
  _ws_session_signals[WS_SESSION_SIGNAL_RUN_ADDED]
    = g_signal_new ("run-added", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                    NULL, G_TYPE_NONE, 1, WS_TYPE_RUN);
  /* A run's launch facts, results or errors arrived. */
  _ws_session_signals[WS_SESSION_SIGNAL_RUN_UPDATED]
    = g_signal_new ("run-updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                    NULL, G_TYPE_NONE, 1, WS_TYPE_RUN);
  /* Anything else: hello, device, progress, errors, the end. */
  _ws_session_signals[WS_SESSION_SIGNAL_CHANGED]
    = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                    NULL, G_TYPE_NONE, 0);
}

static void
ws_session_init (WsSession *self)
{
  self->devices = g_list_store_new (WS_TYPE_DEVICE);
  self->runs = g_list_store_new (WS_TYPE_RUN);
  self->runs_by_id = g_hash_table_new (g_direct_hash, g_direct_equal);
  self->kernels = g_list_store_new (WS_TYPE_KERNEL_ENTRY);
  self->kernels_by_name = g_hash_table_new (g_str_hash, g_str_equal);
  self->errors = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_runner_error_free);
  self->problems = g_ptr_array_new_with_free_func ((GDestroyNotify) _ws_problem_free);
  self->records = g_ptr_array_new_with_free_func ((GDestroyNotify) _ws_stored_record_free);
  _ws_session_init_own (self);
  g_mutex_init (&self->lane_lock);
}

WsSession *
ws_session_new (WsSessionSource source)
{
  WsSession *self = g_object_new (WS_TYPE_SESSION, NULL);

  self->source = source;
  return self;
}

WsSessionSource
ws_session_get_source (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), WS_SESSION_SOURCE_RECORDING);
  return self->source;
}

void
ws_session_set_source (WsSession *self, WsSessionSource source)
{
  g_return_if_fail (WS_IS_SESSION (self));
  self->source = source;
  g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_CHANGED], 0);
}

GFile *
ws_session_get_file (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->file;
}

void
ws_session_set_file (WsSession *self, GFile *file)
{
  g_return_if_fail (WS_IS_SESSION (self));
  g_set_object (&self->file, file);
}

const WsHello *
ws_session_get_hello (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->hello;
}

char *
ws_session_dup_date (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->hello ? ws_hello_dup_date (self->hello) : NULL;
}

GListModel *
ws_session_get_devices (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->devices);
}

WsDevice *
ws_session_get_device (WsSession *self)
{
  g_autoptr (WsDevice) device = NULL;

  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  device = g_list_model_get_item (G_LIST_MODEL (self->devices), 0);
  return device; /* borrowed: the store keeps it */
}

WsDevice *
ws_session_get_run_device (WsSession *self, WsRun *run)
{
  const WsRunConfig *c;
  guint n;

  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  g_return_val_if_fail (WS_IS_RUN (run), NULL);
  c = ws_run_get_config (run);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->devices));
  for (int pass = 0; c->device >= 0 && pass < 2; pass++)
    for (guint i = 0; i < n; i++)
      {
        g_autoptr (WsDevice) device = g_list_model_get_item (G_LIST_MODEL (self->devices), i);
        const WsDeviceInfo *info = ws_device_get_info (device);

        if (pass == 0 ? c->device_uuid != NULL && g_strcmp0 (info->uuid, c->device_uuid) == 0
                      : c->device_uuid == NULL && info->index == c->device)
          return device; /* borrowed: the store keeps it */
      }
  return ws_session_get_device (self);
}

GListModel *
ws_session_get_runs (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->runs);
}

WsRun *
ws_session_find_run (WsSession *self, int id)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return g_hash_table_lookup (self->runs_by_id, GINT_TO_POINTER (id));
}

GListModel *
ws_session_get_kernels (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->kernels);
}

WsKernelEntry *
ws_session_find_kernel (WsSession *self, const char *name)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return name ? g_hash_table_lookup (self->kernels_by_name, name) : NULL;
}

GPtrArray *
ws_session_get_errors (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->errors;
}

GPtrArray *
ws_session_get_problems (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->problems;
}

guint
ws_session_get_n_bad_lines (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), 0);
  return self->n_bad_lines;
}

guint
ws_session_get_n_activities (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), 0);
  return self->n_activities;
}

gboolean
ws_session_get_progress (WsSession *self, int *done, int *total)
{
  g_return_val_if_fail (WS_IS_SESSION (self), FALSE);
  if (done)
    *done = self->progress_done;
  if (total)
    *total = self->progress_total;
  return self->has_progress;
}

gboolean
ws_session_is_done (WsSession *self, int *exit_code, gint64 *dropped_records)
{
  g_return_val_if_fail (WS_IS_SESSION (self), FALSE);
  if (exit_code)
    *exit_code = self->exit_code;
  if (dropped_records)
    *dropped_records = self->dropped_records;
  return self->done;
}

gboolean
ws_session_notice_trace_growth (WsSession *self)
{
  guint n_spans = 0;

  g_return_val_if_fail (WS_IS_SESSION (self), FALSE);
  if (self->trace == NULL)
    return FALSE;
  ws_trace_get_spans (self->trace, &n_spans);
  if (n_spans == self->trace_spans_told)
    return FALSE;
  self->trace_spans_told = n_spans;
  g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_CHANGED], 0);
  return TRUE;
}

/* ---- series ------------------------------------------------------------------------------ */

void
ws_series_free (WsSeries *series)
{
  if (series == NULL)
    return;
  g_free (series->label);
  g_free (series->kernel);
  g_free (series->transfer);
  g_clear_pointer (&series->runs, g_ptr_array_unref);
  g_free (series);
}

int
_ws_series_compare_by_size (gconstpointer a, gconstpointer b)
{
  const WsRunConfig *x = ws_run_get_config (*(WsRun **) a);
  const WsRunConfig *y = ws_run_get_config (*(WsRun **) b);

  return x->size < y->size ? -1 : x->size > y->size ? 1 : x->id - y->id;
}

int
_ws_series_compare_by_block (gconstpointer a, gconstpointer b)
{
  const WsRunConfig *x = ws_run_get_config (*(WsRun **) a);
  const WsRunConfig *y = ws_run_get_config (*(WsRun **) b);

  if (x->threads_per_block != y->threads_per_block)
    return x->threads_per_block < y->threads_per_block ? -1 : 1;
  if (x->block[0] != y->block[0])
    return x->block[0] < y->block[0] ? -1 : 1;
  return x->id - y->id;
}

char *
_ws_series_key (WsRun *run, WsSeriesKind kind, char **label)
{
  const WsRunConfig *c = ws_run_get_config (run);
  g_autofree char *block = ws_run_dup_block_label (run);
  g_autofree char *size = ws_run_dup_size_label (run);
  /* An own kernel's tunable parameters make a series of their own: TILE=8 and TILE=16 are
   * different kernels over the same sizes or blocks. */
  g_autofree char *kernel = ws_run_dup_kernel_label (run);
  const char *params = c->params ? c->params : "";

  if (kind == WS_SERIES_BY_SIZE)
    {
      *label = *block ? g_strdup_printf ("%s %s, %s", kernel, block,
                                         ws_transfer_label (c->transfer))
                      : g_strdup_printf ("%s, %s", kernel, ws_transfer_label (c->transfer));
      return g_strdup_printf ("%s|%u|%u|%u|%s|%s", c->kernel, c->block[0], c->block[1],
                              c->block[2], c->transfer, params);
    }
  *label = g_strdup_printf ("%s %s, %s", kernel, size, ws_transfer_label (c->transfer));
  return g_strdup_printf ("%s|%" G_GUINT64_FORMAT "|%" G_GUINT64_FORMAT "|%" G_GUINT64_FORMAT
                          "|%s|%s",
                          c->kernel, c->shape[0], c->shape[1], c->shape[2], c->transfer, params);
}

GPtrArray *
ws_session_get_series (WsSession *self, WsSeriesKind kind, guint min_runs)
{
  g_autoptr (GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *result = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_series_free);
  g_autoptr (GPtrArray) ordered = g_ptr_array_new ();
  guint n;

  g_return_val_if_fail (WS_IS_SESSION (self), result);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->runs));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (G_LIST_MODEL (self->runs), i);
      g_autofree char *label = NULL;
      char *key;
      WsSeries *series;

      if (ws_run_get_state (run) != WS_RUN_STATE_COMPLETE
          && ws_run_get_state (run) != WS_RUN_STATE_FAILED)
        continue;
      key = _ws_series_key (run, kind, &label);
      series = g_hash_table_lookup (by_key, key);
      if (series == NULL)
        {
          const WsRunConfig *c = ws_run_get_config (run);

          series = g_new0 (WsSeries, 1);
          series->kind = kind;
          series->label = g_steal_pointer (&label);
          series->kernel = g_strdup (c->kernel);
          series->transfer = g_strdup (c->transfer);
          series->runs = g_ptr_array_new_with_free_func (g_object_unref);
          g_hash_table_insert (by_key, key, series);
          g_ptr_array_add (ordered, series);
        }
      else
        g_free (key);
      g_ptr_array_add (series->runs, g_object_ref (run));
    }
  for (guint i = 0; i < ordered->len; i++)
    {
      WsSeries *series = g_ptr_array_index (ordered, i);

      if (series->runs->len < min_runs)
        {
          ws_series_free (series);
          continue;
        }
      g_ptr_array_sort (series->runs, kind == WS_SERIES_BY_SIZE ? _ws_series_compare_by_size
                                                                 : _ws_series_compare_by_block);
      g_ptr_array_add (result, series);
    }
  return result;
}

/* ---- time windows ------------------------------------------------------------------------ */

void
ws_session_foreach_in_window (WsSession *self, gint64 start, gint64 end, WsActivityFunc func,
                              gpointer user_data)
{
  guint n;

  g_return_if_fail (WS_IS_SESSION (self));
  n = g_list_model_get_n_items (G_LIST_MODEL (self->runs));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (G_LIST_MODEL (self->runs), i);
      guint count, first;
      const WsSpan *a = ws_run_get_activities (run, &count);
      gint64 rs, re;

      if (!ws_run_get_time_range (run, &rs, &re) || re <= start || rs >= end)
        continue;
      first = ws_run_find_activity (run, start);
      for (guint j = first; j < count && a[j].start < end; j++)
        if (a[j].end > start)
          func (run, &a[j], user_data);
    }
}

static void
collect_cb (WsRun *run, const WsSpan *activity, gpointer user_data)
{
  g_array_append_val ((GArray *) user_data, *activity);
}

void
ws_session_get_window_totals (WsSession *self, gint64 start, gint64 end, WsTotals *totals)
{
  g_autoptr (GArray) in_window = g_array_new (FALSE, FALSE, sizeof (WsSpan));

  g_return_if_fail (WS_IS_SESSION (self));
  ws_session_foreach_in_window (self, start, end, collect_cb, in_window);
  ws_totals_for_window ((const WsSpan *) (gpointer) in_window->data, in_window->len, start,
                        end, totals);
}

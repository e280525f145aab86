/* ws-sweep-split.c: one runner per GPU, their streams merged into one session.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-sweep-split.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ws-runner-job-private.h"
#include "ws-sweep-merge.h"

/* ---- --devices --------------------------------------------------------------------------- */

static gboolean
parse_index (const char *text, int *out)
{
  char *end;
  guint64 v;

  if (!g_ascii_isdigit (*text))
    return FALSE;
  v = g_ascii_strtoull (text, &end, 10);
  if (*end != '\0' || v > 1023)
    return FALSE;
  *out = (int) v;
  return TRUE;
}

gboolean
ws_devices_parse (const char *text, GArray **devices, gboolean *all, GError **error)
{
  g_autoptr (GArray) list = g_array_new (FALSE, FALSE, sizeof (int));
  g_auto (GStrv) items = NULL;

  *all = FALSE;
  *devices = NULL;
  if (g_strcmp0 (text, "all") == 0)
    {
      *all = TRUE;
      return TRUE;
    }
  items = g_strsplit (text != NULL ? text : "", ",", -1);
  for (guint i = 0; items[i] != NULL; i++)
    {
      char *dash = strchr (items[i], '-');
      int first, last;

      if (dash != NULL)
        *dash = '\0';
      if (!parse_index (items[i], &first) || (dash != NULL && !parse_index (dash + 1, &last))
          || (dash != NULL && last < first))
        goto bad;
      if (dash == NULL)
        last = first;
      for (int d = first; d <= last; d++)
        {
          for (guint j = 0; j < list->len; j++)
            if (g_array_index (list, int, j) == d)
              {
                g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                             _("--devices names GPU %d twice: give each GPU once"), d);
                return FALSE;
              }
          g_array_append_val (list, d);
        }
    }
  if (list->len == 0)
    goto bad;
  *devices = g_steal_pointer (&list);
  return TRUE;

bad:
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("--devices takes all, or GPU indices such as 0,1,3 or 0-3, not “%s”"),
               text != NULL ? text : "");
  return FALSE;
}

/* ---- the split --------------------------------------------------------------------------- */

typedef struct
{
  WsSweepSplit *split;
  guint index;
  int device;
  char *label;
  WsSession *session;   /* its own stream, read by its runner client */
  WsTargetJob *job;
  gboolean finished;
  GError *error;        /* why it did not finish its share; NULL when it did */
} Runner;

struct _WsSweepSplit
{
  WsRunnerJob parent_instance;
  WsTarget *target;     /* the base's, kept at hand */
  WsSession *session;
  GArray *devices;      /* int: CUDA indices, one per runner */
  GPtrArray *runners;   /* Runner */
  WsSweepMerge *merge;
  gboolean cancelled;
  guint n_failed;
  GError *error;        /* the first runner's reason, until the end */
};

G_DEFINE_FINAL_TYPE (WsSweepSplit, ws_sweep_split, WS_TYPE_RUNNER_JOB)

static void
runner_free (Runner *r)
{
  if (r->job != NULL)
    {
      g_signal_handlers_disconnect_by_data (r->job, r);
      if (ws_target_job_get_client (r->job) != NULL)
        g_signal_handlers_disconnect_by_data (ws_target_job_get_client (r->job), r);
      ws_runner_job_kill (WS_RUNNER_JOB (r->job));
    }
  g_clear_object (&r->job);
  g_clear_object (&r->session);
  g_clear_error (&r->error);
  g_free (r->label);
  g_free (r);
}

static void
ws_sweep_split_dispose (GObject *object)
{
  WsSweepSplit *self = WS_SWEEP_SPLIT (object);

  g_clear_pointer (&self->runners, g_ptr_array_unref);
  g_clear_pointer (&self->merge, ws_sweep_merge_free);
  self->session = NULL;
  self->target = NULL;
  G_OBJECT_CLASS (ws_sweep_split_parent_class)->dispose (object);
}

static void
ws_sweep_split_finalize (GObject *object)
{
  WsSweepSplit *self = WS_SWEEP_SPLIT (object);

  g_array_unref (self->devices);
  g_clear_error (&self->error);
  G_OBJECT_CLASS (ws_sweep_split_parent_class)->finalize (object);
}

static gboolean split_start (WsRunnerJob *job, const char *const *args, GError **error);
static void split_cancel (WsRunnerJob *job);
static void split_kill (WsRunnerJob *job);
static int split_get_exit_status (WsRunnerJob *job);

static guint
split_get_n_clients (WsRunnerJob *job)
{
  return ws_sweep_split_get_n_runners (WS_SWEEP_SPLIT (job));
}

static WsRunnerClient *
split_get_client (WsRunnerJob *job, guint i)
{
  return ws_target_job_get_client (ws_sweep_split_get_job (WS_SWEEP_SPLIT (job), i));
}

static void
ws_sweep_split_class_init (WsSweepSplitClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  WsRunnerJobClass *job_class = WS_RUNNER_JOB_CLASS (klass);

  object_class->dispose = ws_sweep_split_dispose;
  object_class->finalize = ws_sweep_split_finalize;
  job_class->start = split_start;
  job_class->cancel = split_cancel;
  job_class->kill = split_kill;
  job_class->get_exit_status = split_get_exit_status;
  job_class->get_n_clients = split_get_n_clients;
  job_class->get_client = split_get_client;
}

static void
ws_sweep_split_init (WsSweepSplit *self)
{
  self->runners = g_ptr_array_new_with_free_func ((GDestroyNotify) runner_free);
  self->devices = g_array_new (FALSE, FALSE, sizeof (int));
}

WsSweepSplit *
ws_sweep_split_new (WsTarget *target, WsSession *session)
{
  WsSweepSplit *self = _ws_runner_job_new (WS_TYPE_SWEEP_SPLIT, target, session);

  if (self != NULL)
    {
      self->target = target;
      self->session = session;
    }
  return self;
}

void
ws_sweep_split_set_devices (WsSweepSplit *self, const int *devices, guint n_devices)
{
  g_return_if_fail (WS_IS_SWEEP_SPLIT (self));
  g_return_if_fail (self->merge == NULL);
  g_array_set_size (self->devices, 0);
  g_array_append_vals (self->devices, devices, n_devices);
}

static void
line_cb (WsRunnerClient *client, const char *line, gpointer data)
{
  Runner *r = data;

  ws_sweep_merge_feed (r->split->merge, r->index, line, strlen (line));
}

/* Which GPU failed, and, when others did not, that their runs are kept. */
static GError *
final_error (WsSweepSplit *self)
{
  GError *error = g_steal_pointer (&self->error);
  GError *told;

  if (error == NULL || self->n_failed >= self->runners->len)
    return error;
  told = g_error_new (error->domain, error->code,
                      /* Translators: which GPU failed and why ("GPU 1: …"). */
                      g_dngettext (GETTEXT_PACKAGE, "%s. The runs of the other GPU are kept.",
                                   "%s. The runs of the other GPUs are kept.",
                                   self->runners->len - self->n_failed),
                      error->message);
  g_error_free (error);
  return told;
}

static void
runner_ended (Runner *r, const GError *error)
{
  WsSweepSplit *self = r->split;
  gboolean all = TRUE;

  r->finished = TRUE;
  if (error != NULL && !(self->cancelled && g_error_matches (error, G_IO_ERROR,
                                                             G_IO_ERROR_CANCELLED)))
    {
      self->n_failed++;
      r->error = g_error_copy (error);
      if (self->error == NULL)
        /* Translators: the runner ("GPU 1"), then why it stopped. */
        self->error = g_error_new (error->domain, error->code, _("%s: %s"), r->label,
                                   error->message);
    }
  ws_sweep_merge_end_stream (self->merge, r->index,
                             self->cancelled && error != NULL ? NULL : error);
  for (guint i = 0; i < self->runners->len; i++)
    all = all && ((Runner *) g_ptr_array_index (self->runners, i))->finished;
  if (!all || !ws_runner_job_is_running (WS_RUNNER_JOB (self)))
    return;
  /* The runs still in progress when the runners were stopped stay incomplete. */
  ws_session_end (self->session);
  _ws_runner_job_finish (WS_RUNNER_JOB (self), final_error (self));
}

static void
job_finished_cb (WsTargetJob *job, gpointer data)
{
  runner_ended (data, ws_target_job_get_error (job));
}

/* A runner's news (a Slurm job waiting for resources) is the split's. */
static void
job_status_cb (WsTargetJob *job, GParamSpec *pspec, gpointer data)
{
  Runner *r = data;

  _ws_runner_job_set_status (WS_RUNNER_JOB (r->split), ws_target_job_get_status (job));
}

static char *
label_for (WsSweepSplit *self, guint i, int device)
{
  if (ws_target_is_slurm (self->target))
    /* Translators: one of the Slurm jobs a sweep is spread over: its number and how many. */
    return g_strdup_printf (_("Slurm job %u of %u"), i + 1, self->runners->len);
  /* Translators: a GPU by its CUDA index. */
  return g_strdup_printf (_("GPU %d"), device);
}

gboolean
ws_sweep_split_start (WsSweepSplit *self, const char *const *args, const int *devices,
                      guint n_devices, GError **error)
{
  g_return_val_if_fail (WS_IS_SWEEP_SPLIT (self), FALSE);
  ws_sweep_split_set_devices (self, devices, n_devices);
  return ws_runner_job_start (WS_RUNNER_JOB (self), args, error);
}

static gboolean
split_start (WsRunnerJob *job, const char *const *args, GError **error)
{
  WsSweepSplit *self = WS_SWEEP_SPLIT (job);
  const int *devices = (const int *) self->devices->data;
  guint n_devices = self->devices->len;
  guint started = 0;
  g_autoptr (GError) first = NULL;

  g_return_val_if_fail (n_devices > 0, FALSE);
  self->merge = ws_sweep_merge_new (self->session, n_devices, TRUE);
  for (guint i = 0; i < n_devices; i++)
    {
      Runner *r = g_new0 (Runner, 1);

      r->split = self;
      r->index = i;
      r->device = devices[i];
      r->session = ws_session_new (WS_SESSION_SOURCE_LIVE);
      r->job = ws_target_job_new (self->target, r->session);
      ws_runner_job_set_timeout (WS_RUNNER_JOB (r->job), ws_runner_job_get_timeout (job));
      g_ptr_array_add (self->runners, r);
    }
  for (guint i = 0; i < n_devices; i++)
    {
      Runner *r = g_ptr_array_index (self->runners, i);
      g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
      g_autoptr (GError) local = NULL;

      r->label = label_for (self, i, r->device);
      ws_sweep_merge_set_stream (self->merge, i, r->label,
                                 ws_target_is_slurm (self->target) ? -1 : r->device);
      for (guint a = 0; args[a] != NULL; a++)
        g_ptr_array_add (argv, g_strdup (args[a]));
      g_ptr_array_add (argv, g_strdup ("--device"));
      g_ptr_array_add (argv, g_strdup_printf ("%d", ws_target_is_slurm (self->target)
                                                      ? 0 : r->device));
      g_ptr_array_add (argv, g_strdup ("--shard"));
      g_ptr_array_add (argv, g_strdup_printf ("%u/%u", i, n_devices));
      g_ptr_array_add (argv, NULL);
      if (!ws_runner_job_start (WS_RUNNER_JOB (r->job), (const char *const *) argv->pdata,
                                &local))
        {
          r->finished = TRUE;
          self->n_failed++;
          r->error = g_error_copy (local);
          ws_sweep_merge_end_stream (self->merge, i, local);
          if (first == NULL)
            first = g_error_new (local->domain, local->code, _("%s: %s"), r->label,
                                 local->message);
          continue;
        }
      started++;
      g_signal_connect (ws_target_job_get_client (r->job), "line", G_CALLBACK (line_cb), r);
      g_signal_connect (r->job, "finished", G_CALLBACK (job_finished_cb), r);
      g_signal_connect (r->job, "notify::status", G_CALLBACK (job_status_cb), r);
    }
  if (started == 0)
    {
      g_propagate_error (error, g_steal_pointer (&first));
      return FALSE;
    }
  if (first != NULL)
    self->error = g_steal_pointer (&first);
  return TRUE;
}

static void
split_stop (WsSweepSplit *self, void (*stop) (WsRunnerJob *job))
{
  self->cancelled = TRUE;
  ws_sweep_merge_set_cancelled (self->merge);
  for (guint i = 0; i < self->runners->len; i++)
    stop (WS_RUNNER_JOB (((Runner *) g_ptr_array_index (self->runners, i))->job));
}

static void
split_cancel (WsRunnerJob *job)
{
  split_stop (WS_SWEEP_SPLIT (job), ws_runner_job_cancel);
}

static void
split_kill (WsRunnerJob *job)
{
  split_stop (WS_SWEEP_SPLIT (job), ws_runner_job_kill);
}

guint
ws_sweep_split_get_n_runners (WsSweepSplit *self)
{
  g_return_val_if_fail (WS_IS_SWEEP_SPLIT (self), 0);
  return self->runners->len;
}

static Runner *
runner_at (WsSweepSplit *self, guint i)
{
  g_return_val_if_fail (WS_IS_SWEEP_SPLIT (self), NULL);
  g_return_val_if_fail (i < self->runners->len, NULL);
  return g_ptr_array_index (self->runners, i);
}

WsTargetJob *
ws_sweep_split_get_job (WsSweepSplit *self, guint i)
{
  Runner *r = runner_at (self, i);

  return r != NULL ? r->job : NULL;
}

int
ws_sweep_split_get_device (WsSweepSplit *self, guint i)
{
  Runner *r = runner_at (self, i);

  return r != NULL ? r->device : -1;
}

const char *
ws_sweep_split_get_label (WsSweepSplit *self, guint i)
{
  Runner *r = runner_at (self, i);

  return r != NULL ? r->label : NULL;
}

const GError *
ws_sweep_split_get_runner_error (WsSweepSplit *self, guint i)
{
  Runner *r = runner_at (self, i);

  return r != NULL ? r->error : NULL;
}

guint
ws_sweep_split_get_n_failed (WsSweepSplit *self)
{
  g_return_val_if_fail (WS_IS_SWEEP_SPLIT (self), 0);
  return self->n_failed;
}

static int
split_get_exit_status (WsRunnerJob *job)
{
  WsSweepSplit *self = WS_SWEEP_SPLIT (job);
  int status = 0;

  for (guint i = 0; i < self->runners->len; i++)
    {
      Runner *r = g_ptr_array_index (self->runners, i);
      int code = 0;

      if (ws_session_is_done (r->session, &code, NULL))
        status = MAX (status, code);
      else if (ws_runner_job_get_exit_status (WS_RUNNER_JOB (r->job)) >= 0)
        status = MAX (status, MIN (ws_runner_job_get_exit_status (WS_RUNNER_JOB (r->job)), 5));
    }
  return status;
}

guint
ws_sweep_split_get_n_bad_lines (WsSweepSplit *self)
{
  guint n = 0;

  g_return_val_if_fail (WS_IS_SWEEP_SPLIT (self), 0);
  for (guint i = 0; i < self->runners->len; i++)
    {
      WsTargetJob *job = ((Runner *) g_ptr_array_index (self->runners, i))->job;

      if (ws_target_job_get_client (job) != NULL)
        n += ws_runner_client_get_n_bad_lines (ws_target_job_get_client (job));
    }
  return n;
}

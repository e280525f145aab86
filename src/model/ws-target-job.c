/* ws-target-job.c: the runner on a target, watched for what its launcher says.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-target-job.h"

#include "ws-runner-job-private.h"

#include <string.h>

#include <glib/gi18n-lib.h>

/* Through ssh, Stop first closes the connection's stdin (the far side stops its runner, which
 * flushes its last records), and stops the local end this long after. */
#define REMOTE_GRACE_MS 1500
/* squeue is asked why a job waits; an answer that takes longer is not waited for. */
#define SQUEUE_TIMEOUT_MS 15000

struct _WsTargetJob
{
  WsRunnerJob parent_instance;
  WsTarget *target;        /* the base's, kept at hand */
  WsSession *session;
  WsRunnerClient *client;
  WsRunnerClientOutputFunc stderr_func;
  gpointer stderr_data;

  GString *err_line;       /* stderr since its last newline */
  char *slurm_job;
  guint pending_id;        /* the pending timeout */
  guint grace_id;
  GCancellable *squeue;    /* the question to squeue, while it is asked */
  gboolean hello_checked, cancelled, waiting;
  GError *own_error;       /* the target's reason to stop the runner */
};

G_DEFINE_FINAL_TYPE (WsTargetJob, ws_target_job, WS_TYPE_RUNNER_JOB)

static void
ws_target_job_dispose (GObject *object)
{
  WsTargetJob *self = WS_TARGET_JOB (object);

  g_clear_handle_id (&self->pending_id, g_source_remove);
  g_clear_handle_id (&self->grace_id, g_source_remove);
  if (self->squeue != NULL)
    g_cancellable_cancel (self->squeue);
  g_clear_object (&self->squeue);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  if (self->client != NULL)
    g_signal_handlers_disconnect_by_data (self->client, self);
  g_clear_object (&self->client);
  self->session = NULL;
  self->target = NULL;
  G_OBJECT_CLASS (ws_target_job_parent_class)->dispose (object);
}

static void
ws_target_job_finalize (GObject *object)
{
  WsTargetJob *self = WS_TARGET_JOB (object);

  g_string_free (self->err_line, TRUE);
  g_free (self->slurm_job);
  g_clear_error (&self->own_error);
  G_OBJECT_CLASS (ws_target_job_parent_class)->finalize (object);
}

static gboolean target_job_start (WsRunnerJob *job, const char *const *args, GError **error);
static void target_job_cancel (WsRunnerJob *job);
static void target_job_kill (WsRunnerJob *job);

static void
target_job_timeout_changed (WsRunnerJob *job)
{
  WsTargetJob *self = WS_TARGET_JOB (job);

  if (self->client != NULL)
    ws_runner_client_set_timeout (self->client, ws_runner_job_get_timeout (job));
}

static int
target_job_get_exit_status (WsRunnerJob *job)
{
  WsTargetJob *self = WS_TARGET_JOB (job);

  return self->client != NULL ? ws_runner_client_get_exit_status (self->client) : -1;
}

static guint
target_job_get_n_clients (WsRunnerJob *job)
{
  return 1;
}

static WsRunnerClient *
target_job_get_client (WsRunnerJob *job, guint i)
{
  return WS_TARGET_JOB (job)->client;
}

static void
ws_target_job_class_init (WsTargetJobClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  WsRunnerJobClass *job_class = WS_RUNNER_JOB_CLASS (klass);

  object_class->dispose = ws_target_job_dispose;
  object_class->finalize = ws_target_job_finalize;
  job_class->start = target_job_start;
  job_class->cancel = target_job_cancel;
  job_class->kill = target_job_kill;
  job_class->timeout_changed = target_job_timeout_changed;
  job_class->get_exit_status = target_job_get_exit_status;
  job_class->get_n_clients = target_job_get_n_clients;
  job_class->get_client = target_job_get_client;
}

static void
ws_target_job_init (WsTargetJob *self)
{
  self->err_line = g_string_new (NULL);
}

WsTargetJob *
ws_target_job_new (WsTarget *target, WsSession *session)
{
  WsTargetJob *self = _ws_runner_job_new (WS_TYPE_TARGET_JOB, target, session);

  if (self != NULL)
    {
      self->target = target;
      self->session = session;
    }
  return self;
}

void
ws_target_job_set_stderr_func (WsTargetJob *self, WsRunnerClientOutputFunc func,
                               gpointer user_data)
{
  g_return_if_fail (WS_IS_TARGET_JOB (self));
  self->stderr_func = func;
  self->stderr_data = user_data;
  if (self->client != NULL)
    ws_runner_client_set_stderr_func (self->client, func, user_data);
}

static void
set_status (WsTargetJob *self, char *status)
{
  _ws_runner_job_set_status (WS_RUNNER_JOB (self), status);
  g_free (status);
}

static void
stop_for (WsTargetJob *self, GError *error)
{
  if (self->own_error == NULL)
    self->own_error = error;
  else
    g_error_free (error);
  if (self->client != NULL)
    ws_runner_client_cancel (self->client);
}

/* ---- a Slurm job waiting for resources --------------------------------------------------- */

static void
squeue_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  WsTargetJob *self = data;
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;

  g_subprocess_communicate_utf8_finish (G_SUBPROCESS (source), result, &out, NULL, &error);
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && self->waiting)
    stop_for (self, ws_target_pending_error (self->target, self->slurm_job,
                                             ws_target_get_pending_timeout (self->target), out));
  g_clear_object (&self->squeue);
  g_object_unref (self);
}

static gboolean
squeue_timeout_cb (gpointer data)
{
  GCancellable *cancellable = data;

  g_cancellable_cancel (cancellable);
  return G_SOURCE_REMOVE;
}

static gboolean
pending_cb (gpointer data)
{
  WsTargetJob *self = data;
  g_auto (GStrv) argv = ws_target_build_squeue_argv (self->target, self->slurm_job);
  g_autoptr (GSubprocess) squeue = NULL;

  self->pending_id = 0;
  squeue = argv != NULL ? g_subprocess_newv ((const char *const *) argv,
                                             G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                               | G_SUBPROCESS_FLAGS_STDERR_SILENCE,
                                             NULL)
                        : NULL;
  if (squeue == NULL)
    {
      stop_for (self, ws_target_pending_error (self->target, self->slurm_job,
                                               ws_target_get_pending_timeout (self->target),
                                               NULL));
      return G_SOURCE_REMOVE;
    }
  self->squeue = g_cancellable_new ();
  g_timeout_add_full (G_PRIORITY_DEFAULT, SQUEUE_TIMEOUT_MS, squeue_timeout_cb,
                      g_object_ref (self->squeue), g_object_unref);
  g_subprocess_communicate_utf8_async (squeue, NULL, self->squeue, squeue_done_cb,
                                       g_object_ref (self));
  return G_SOURCE_REMOVE;
}

static void
end_waiting (WsTargetJob *self)
{
  if (!self->waiting)
    return;
  self->waiting = FALSE;
  g_clear_handle_id (&self->pending_id, g_source_remove);
  if (self->squeue != NULL)
    g_cancellable_cancel (self->squeue);
  ws_runner_client_set_waiting (self->client, FALSE);
  set_status (self, NULL);
}

static void
handle_stderr_line (WsTargetJob *self, const char *line)
{
  g_autofree char *job = ws_target_parse_pending (line);

  if (job != NULL && !self->waiting)
    {
      guint seconds = ws_target_get_pending_timeout (self->target);

      g_free (self->slurm_job);
      self->slurm_job = g_steal_pointer (&job);
      self->waiting = TRUE;
      ws_runner_client_set_waiting (self->client, TRUE);
      set_status (self, g_strdup_printf (_("Slurm job %s is waiting for resources…"),
                                         self->slurm_job));
      if (seconds > 0)
        self->pending_id = g_timeout_add_seconds (seconds, pending_cb, self);
    }
  else if (ws_target_parse_allocated (line))
    end_waiting (self);
}

static void
stderr_cb (WsRunnerClient *client, const char *text, gpointer data)
{
  WsTargetJob *self = data;
  const char *newline;

  g_string_append (self->err_line, text);
  while ((newline = strchr (self->err_line->str, '\n')) != NULL)
    {
      g_autofree char *line = g_strndup (self->err_line->str,
                                         (gsize) (newline - self->err_line->str));

      g_string_erase (self->err_line, 0, newline - self->err_line->str + 1);
      handle_stderr_line (self, line);
    }
  /* A launcher's news fits on a line; what has no end is not news. */
  if (self->err_line->len > 4096)
    g_string_truncate (self->err_line, 0);
}

/* ---- the runner's hello and its end ------------------------------------------------------ */

static void
session_changed_cb (WsSession *session, gpointer data)
{
  WsTargetJob *self = data;
  const WsHello *hello = ws_session_get_hello (session);
  GError *error = NULL;

  if (self->hello_checked || hello == NULL)
    return;
  self->hello_checked = TRUE;
  /* The runner speaks: its job has its resources, whether Slurm said so or not. */
  end_waiting (self);
  if (!ws_target_check_hello (self->target, hello, &error))
    stop_for (self, error);
}

/* The error the runs end with: the target's own reason first; a client's error after the
 * done record arrived is no error (the runner finished its work; the rest was its exit);
 * the launcher's words put plainly when it failed before the runner finished. */
static GError *
final_error (WsTargetJob *self)
{
  const GError *client_error = ws_runner_client_get_error (self->client);
  int status = ws_runner_client_get_exit_status (self->client);
  GError *explained;

  if (self->own_error != NULL)
    return g_error_copy (self->own_error);
  if (self->cancelled)
    return g_error_matches (client_error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
             ? g_error_copy (client_error)
             : g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                    _("Stopped. The runs that completed are kept."));
  if (client_error == NULL || (ws_session_is_done (self->session, NULL, NULL) && status < 128))
    return NULL;
  if (g_error_matches (client_error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    return g_error_copy (client_error);
  explained = ws_target_explain_failure (self->target, status,
                                         ws_runner_client_get_stderr (self->client));
  return explained != NULL ? explained : g_error_copy (client_error);
}

static void
client_finished_cb (WsRunnerClient *client, gpointer data)
{
  WsTargetJob *self = data;
  GError *error;

  g_clear_handle_id (&self->pending_id, g_source_remove);
  g_clear_handle_id (&self->grace_id, g_source_remove);
  if (self->squeue != NULL)
    g_cancellable_cancel (self->squeue);
  if (self->err_line->len > 0)
    {
      g_autofree char *last = g_strdup (self->err_line->str);

      g_string_truncate (self->err_line, 0);
      handle_stderr_line (self, last);
    }
  self->waiting = FALSE;
  error = final_error (self);
  if (ws_runner_job_get_status (WS_RUNNER_JOB (self)) != NULL)
    set_status (self, NULL);
  _ws_runner_job_finish (WS_RUNNER_JOB (self), error);
}

/* ---- starting and stopping --------------------------------------------------------------- */

static GError *
spawn_error (WsTargetJob *self, const char *program, const GError *error)
{
  g_autofree char *base = g_path_get_basename (program);

  if (g_error_matches (error, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT)
      && (g_str_equal (base, "srun") || g_str_equal (base, "sh")))
    return g_error_new (WS_TARGET_ERROR, WS_TARGET_ERROR_NO_RUNNER,
                        _("Slurm's commands are not installed on this computer (%s): install "
                          "Slurm's client, or give the target the login node to reach by "
                          "ssh."),
                        error->message);
  if (g_error_matches (error, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT) && g_str_equal (base, "ssh"))
    return g_error_new (WS_TARGET_ERROR, WS_TARGET_ERROR_UNREACHABLE,
                        _("ssh is not installed on this computer (%s): install OpenSSH's "
                          "client."),
                        error->message);
  /* Translators: the program, then why it could not be started. */
  return g_error_new (WS_TARGET_ERROR, WS_TARGET_ERROR_NO_RUNNER, _("could not start %s: %s"),
                      program, error->message);
}

static gboolean
target_job_start (WsRunnerJob *job, const char *const *args, GError **error)
{
  WsTargetJob *self = WS_TARGET_JOB (job);
  g_auto (GStrv) argv = NULL;
  g_autoptr (GError) local = NULL;

  if ((argv = ws_target_build_argv (self->target, args, error)) == NULL)
    return FALSE;
  self->client = ws_runner_client_new (self->session);
  ws_runner_client_set_timeout (self->client, ws_runner_job_get_timeout (job));
  if (self->stderr_func != NULL)
    ws_runner_client_set_stderr_func (self->client, self->stderr_func, self->stderr_data);
  ws_runner_client_set_launcher_kind (self->client, WS_LAUNCHER_DIRECT);
  ws_runner_client_set_keep_stdin (self->client, ws_target_needs_stdin (self->target));
  g_signal_connect (self->client, "stderr", G_CALLBACK (stderr_cb), self);
  g_signal_connect (self->client, "finished", G_CALLBACK (client_finished_cb), self);
  g_signal_connect (self->session, "changed", G_CALLBACK (session_changed_cb), self);
  if (!ws_runner_client_start (self->client, NULL, (const char *const *) argv, &local))
    {
      g_propagate_error (error, spawn_error (self, argv[0], local));
      g_signal_handlers_disconnect_by_data (self->session, self);
      g_signal_handlers_disconnect_by_data (self->client, self);
      g_clear_object (&self->client);
      return FALSE;
    }
  return TRUE;
}

static gboolean
grace_cb (gpointer data)
{
  WsTargetJob *self = data;

  self->grace_id = 0;
  ws_runner_client_cancel (self->client);
  return G_SOURCE_REMOVE;
}

static void
target_job_cancel (WsRunnerJob *job)
{
  WsTargetJob *self = WS_TARGET_JOB (job);

  if (self->cancelled)
    return;
  self->cancelled = TRUE;
  if (ws_target_needs_stdin (self->target) && !self->waiting)
    {
      ws_runner_client_close_stdin (self->client);
      self->grace_id = g_timeout_add (REMOTE_GRACE_MS, grace_cb, self);
      return;
    }
  ws_runner_client_cancel (self->client);
}

static void
target_job_kill (WsRunnerJob *job)
{
  WsTargetJob *self = WS_TARGET_JOB (job);

  self->cancelled = TRUE;
  g_clear_handle_id (&self->grace_id, g_source_remove);
  ws_runner_client_close_stdin (self->client);
  ws_runner_client_kill (self->client);
}

WsRunnerClient *
ws_target_job_get_client (WsTargetJob *self)
{
  g_return_val_if_fail (WS_IS_TARGET_JOB (self), NULL);
  return self->client;
}

const char *
ws_target_job_get_slurm_job (WsTargetJob *self)
{
  g_return_val_if_fail (WS_IS_TARGET_JOB (self), NULL);
  return self->slurm_job;
}

/* ws-program-job.c: a program on this computer, started as given and read as the runner.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-program-job.h"

#include "ws-runner-job-private.h"

struct _WsProgramJob
{
  WsRunnerJob parent_instance;
  WsRunnerClient *client;
};

G_DEFINE_FINAL_TYPE (WsProgramJob, ws_program_job, WS_TYPE_RUNNER_JOB)

static void
ws_program_job_dispose (GObject *object)
{
  WsProgramJob *self = WS_PROGRAM_JOB (object);

  /* A client still running goes on to its end (it holds itself until then), unheard. */
  if (self->client != NULL)
    g_signal_handlers_disconnect_by_data (self->client, self);
  g_clear_object (&self->client);
  G_OBJECT_CLASS (ws_program_job_parent_class)->dispose (object);
}

static void
client_finished_cb (WsRunnerClient *client, gpointer data)
{
  const GError *error = ws_runner_client_get_error (client);

  _ws_runner_job_finish (WS_RUNNER_JOB (data), error != NULL ? g_error_copy (error) : NULL);
}

static gboolean
program_job_start (WsRunnerJob *job, const char *const *args, GError **error)
{
  WsProgramJob *self = WS_PROGRAM_JOB (job);
  g_auto (GStrv) argv = NULL;
  g_autoptr (GError) local = NULL;

  if ((argv = ws_target_build_argv (ws_runner_job_get_target (job), args, error)) == NULL)
    return FALSE;
  self->client = ws_runner_client_new (ws_runner_job_get_session (job));
  ws_runner_client_set_timeout (self->client, ws_runner_job_get_timeout (job));
  g_signal_connect (self->client, "finished", G_CALLBACK (client_finished_cb), self);
  if (!ws_runner_client_start (self->client, NULL, (const char *const *) argv, &local))
    {
      /* The spawn's own words, which name the program; the code says what it means. */
      g_set_error_literal (error, WS_TARGET_ERROR, WS_TARGET_ERROR_NO_RUNNER, local->message);
      g_signal_handlers_disconnect_by_data (self->client, self);
      g_clear_object (&self->client);
      return FALSE;
    }
  return TRUE;
}

static void
program_job_cancel (WsRunnerJob *job)
{
  ws_runner_client_cancel (WS_PROGRAM_JOB (job)->client);
}

static void
program_job_kill (WsRunnerJob *job)
{
  ws_runner_client_kill (WS_PROGRAM_JOB (job)->client);
}

static void
program_job_timeout_changed (WsRunnerJob *job)
{
  WsProgramJob *self = WS_PROGRAM_JOB (job);

  if (self->client != NULL)
    ws_runner_client_set_timeout (self->client, ws_runner_job_get_timeout (job));
}

static int
program_job_get_exit_status (WsRunnerJob *job)
{
  WsProgramJob *self = WS_PROGRAM_JOB (job);

  return self->client != NULL ? ws_runner_client_get_exit_status (self->client) : -1;
}

static guint
program_job_get_n_clients (WsRunnerJob *job)
{
  return 1;
}

static WsRunnerClient *
program_job_get_client (WsRunnerJob *job, guint i)
{
  return WS_PROGRAM_JOB (job)->client;
}

static void
ws_program_job_class_init (WsProgramJobClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  WsRunnerJobClass *job_class = WS_RUNNER_JOB_CLASS (klass);

  object_class->dispose = ws_program_job_dispose;
  job_class->start = program_job_start;
  job_class->cancel = program_job_cancel;
  job_class->kill = program_job_kill;
  job_class->timeout_changed = program_job_timeout_changed;
  job_class->get_exit_status = program_job_get_exit_status;
  job_class->get_n_clients = program_job_get_n_clients;
  job_class->get_client = program_job_get_client;
}

static void
ws_program_job_init (WsProgramJob *self)
{
}

WsProgramJob *
ws_program_job_new (WsTarget *target, WsSession *session)
{
  g_return_val_if_fail (WS_IS_TARGET (target), NULL);
  g_return_val_if_fail (ws_target_get_kind (target) == WS_TARGET_LOCAL, NULL);
  return _ws_runner_job_new (WS_TYPE_PROGRAM_JOB, target, session);
}

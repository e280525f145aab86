/* ws-runner-client.c: the runner as a child process whose stdout feeds a session.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-runner-client.h"

#include <signal.h>

#include "ws-config.h"

#include <glib/gi18n-lib.h>

#include "ws-i18n.h"

struct _WsRunnerClient
{
  GObject parent_instance;
  WsSession *session;
  GSubprocess *process;
  GDataInputStream *out;
  GCancellable *cancellable;
  GString *err;
  GError *error;
  guint timeout_seconds;
  guint timeout_id;
  guint kill_id;
  int exit_status;
  int term_signal; /* 0 unless killed by a signal */
  gboolean stdout_done, process_done, running, cancelled;
};

G_DEFINE_FINAL_TYPE (WsRunnerClient, ws_runner_client, G_TYPE_OBJECT)

enum
{
  FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
ws_runner_client_dispose (GObject *object)
{
  WsRunnerClient *self = WS_RUNNER_CLIENT (object);

  if (self->running && self->process != NULL)
    g_subprocess_force_exit (self->process);
  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  g_clear_handle_id (&self->kill_id, g_source_remove);
  g_clear_object (&self->out);
  g_clear_object (&self->process);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (ws_runner_client_parent_class)->dispose (object);
}

static void
ws_runner_client_finalize (GObject *object)
{
  WsRunnerClient *self = WS_RUNNER_CLIENT (object);

  g_clear_object (&self->cancellable);
  g_string_free (self->err, TRUE);
  g_clear_error (&self->error);
  G_OBJECT_CLASS (ws_runner_client_parent_class)->finalize (object);
}

static void
ws_runner_client_class_init (WsRunnerClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ws_runner_client_dispose;
  object_class->finalize = ws_runner_client_finalize;
  /* The runner has ended and all its output has been read. */
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
ws_runner_client_init (WsRunnerClient *self)
{
  self->cancellable = g_cancellable_new ();
  self->err = g_string_new (NULL);
  self->timeout_seconds = 120;
}

WsRunnerClient *
ws_runner_client_new (WsSession *session)
{
  WsRunnerClient *self;

  g_return_val_if_fail (WS_IS_SESSION (session), NULL);
  self = g_object_new (WS_TYPE_RUNNER_CLIENT, NULL);
  self->session = g_object_ref (session);
  return self;
}

void
ws_runner_client_set_timeout (WsRunnerClient *self, guint seconds)
{
  g_return_if_fail (WS_IS_RUNNER_CLIENT (self));
  self->timeout_seconds = seconds;
}

static void
set_error (WsRunnerClient *self, GError *error)
{
  if (self->error == NULL)
    self->error = error;
  else
    g_error_free (error);
}

/* Judged only once both the process has ended and all its output has been read: the done
 * record may still be in the pipe when the process is gone. */
static void
judge_ending (WsRunnerClient *self)
{
  gboolean ended_by_done = ws_session_is_done (self->session, NULL, NULL);

  if (self->term_signal != 0)
    {
      if (self->cancelled)
        set_error (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                              _("Stopped. The runs that completed are kept.")));
      else if (!ended_by_done)
        set_error (self, g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED,
                                      _("The runner crashed (%s) before it finished; the runs "
                                        "that completed are kept."),
                                      g_strsignal (self->term_signal)));
    }
  else if (!ended_by_done && self->err->len > 0)
    /* Translators: the exit status, then what the runner printed on stderr. */
    set_error (self, g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED,
                                  _("The runner exited (status %d) before it finished; the runs "
                                    "that completed are kept. It said: %s"),
                                  self->exit_status, self->err->str));
  else if (!ended_by_done)
    set_error (self, g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED,
                                  _("The runner exited (status %d) before it finished; the runs "
                                    "that completed are kept."),
                                  self->exit_status));
}

static void
maybe_finish (WsRunnerClient *self)
{
  if (!self->stdout_done || !self->process_done || !self->running)
    return;
  judge_ending (self);
  self->running = FALSE;
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  g_clear_handle_id (&self->kill_id, g_source_remove);
  ws_session_end (self->session);
  g_signal_emit (self, signals[FINISHED], 0);
  g_object_unref (self); /* the reference held while running */
}

static gboolean
timeout_cb (gpointer data)
{
  WsRunnerClient *self = data;

  self->timeout_id = 0;
  set_error (self, g_error_new (G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                                _("The runner printed nothing for %u seconds and was stopped. "
                                  "A kernel may hang, or the GPU may be stuck; the runs that "
                                  "completed are kept."),
                                self->timeout_seconds));
  g_subprocess_force_exit (self->process);
  return G_SOURCE_REMOVE;
}

static void
rearm_timeout (WsRunnerClient *self)
{
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  if (self->timeout_seconds > 0 && self->running)
    self->timeout_id = g_timeout_add_seconds (self->timeout_seconds, timeout_cb, self);
}

static void read_line_cb (GObject *source, GAsyncResult *result, gpointer data);

static void
read_next (WsRunnerClient *self)
{
  g_data_input_stream_read_line_async (self->out, G_PRIORITY_DEFAULT, self->cancellable,
                                       read_line_cb, self);
}

static void
read_line_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  WsRunnerClient *self = data;
  g_autoptr (GError) error = NULL;
  gsize len;
  g_autofree char *line = g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (source),
                                                                result, &len, &error);

  if (line == NULL)
    {
      if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        set_error (self, g_steal_pointer (&error));
      self->stdout_done = TRUE;
      maybe_finish (self);
      return;
    }
  rearm_timeout (self);
  /* A malformed line is kept as a problem in the session; the stream goes on. */
  ws_session_feed_line (self->session, line, (gssize) len, NULL);
  read_next (self);
}

static void
read_stderr_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  WsRunnerClient *self = data;
  g_autoptr (GBytes) bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result,
                                                               NULL);

  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      g_object_unref (self);
      return;
    }
  g_string_append_len (self->err, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes));
  g_input_stream_read_bytes_async (G_INPUT_STREAM (source), 4096, G_PRIORITY_DEFAULT,
                                   self->cancellable, read_stderr_cb, self);
}

static void
wait_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  WsRunnerClient *self = data;
  GSubprocess *process = G_SUBPROCESS (source);
  g_autoptr (GError) error = NULL;

  g_subprocess_wait_finish (process, result, &error);
  self->process_done = TRUE;
  if (g_subprocess_get_if_signaled (process))
    {
      self->term_signal = g_subprocess_get_term_sig (process);
      self->exit_status = 128 + self->term_signal;
    }
  else
    self->exit_status = g_subprocess_get_exit_status (process);
  maybe_finish (self);
}

gboolean
ws_runner_client_start (WsRunnerClient *self, const char *const *launcher,
                        const char *const *argv, GError **error)
{
  g_autoptr (GPtrArray) full = g_ptr_array_new ();
  g_autoptr (GSubprocessLauncher) spawner = NULL;
  GInputStream *err_stream;

  g_return_val_if_fail (WS_IS_RUNNER_CLIENT (self), FALSE);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, FALSE);
  g_return_val_if_fail (!self->running, FALSE);

  for (guint i = 0; launcher != NULL && launcher[i] != NULL; i++)
    g_ptr_array_add (full, (gpointer) launcher[i]);
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (full, (gpointer) argv[i]);
  g_ptr_array_add (full, NULL);

  spawner = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                       | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  self->process = g_subprocess_launcher_spawnv (spawner, (const char *const *) full->pdata, error);
  if (self->process == NULL)
    return FALSE;
  self->running = TRUE;
  self->stdout_done = self->process_done = FALSE;
  g_object_ref (self); /* until finished */
  self->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (self->process));
  g_data_input_stream_set_newline_type (self->out, G_DATA_STREAM_NEWLINE_TYPE_LF);
  err_stream = g_subprocess_get_stderr_pipe (self->process);
  g_input_stream_read_bytes_async (err_stream, 4096, G_PRIORITY_DEFAULT, self->cancellable,
                                   read_stderr_cb, g_object_ref (self));
  g_subprocess_wait_async (self->process, NULL, wait_cb, self);
  rearm_timeout (self);
  read_next (self);
  return TRUE;
}

static gboolean
kill_cb (gpointer data)
{
  WsRunnerClient *self = data;

  self->kill_id = 0;
  if (self->running)
    g_subprocess_force_exit (self->process);
  return G_SOURCE_REMOVE;
}

void
ws_runner_client_cancel (WsRunnerClient *self)
{
  g_return_if_fail (WS_IS_RUNNER_CLIENT (self));
  if (!self->running || self->cancelled)
    return;
  self->cancelled = TRUE;
  g_subprocess_send_signal (self->process, SIGTERM);
  self->kill_id = g_timeout_add (2000, kill_cb, self);
}

gboolean
ws_runner_client_is_running (WsRunnerClient *self)
{
  g_return_val_if_fail (WS_IS_RUNNER_CLIENT (self), FALSE);
  return self->running;
}

WsSession *
ws_runner_client_get_session (WsRunnerClient *self)
{
  g_return_val_if_fail (WS_IS_RUNNER_CLIENT (self), NULL);
  return self->session;
}

const char *
ws_runner_client_get_stderr (WsRunnerClient *self)
{
  g_return_val_if_fail (WS_IS_RUNNER_CLIENT (self), NULL);
  return self->err->str;
}

const GError *
ws_runner_client_get_error (WsRunnerClient *self)
{
  g_return_val_if_fail (WS_IS_RUNNER_CLIENT (self), NULL);
  return self->error;
}

int
ws_runner_client_get_exit_status (WsRunnerClient *self)
{
  g_return_val_if_fail (WS_IS_RUNNER_CLIENT (self), -1);
  return self->exit_status;
}

static char *
find_program (const char *env, const char *build_path, const char *install_path)
{
  const char *override = g_getenv (env);

  if (override != NULL && *override != '\0')
    return g_strdup (override);
  /* Running from the build tree (./dev run, the tests): use what was just built. */
  if (ws_running_from_build_tree () && g_file_test (build_path, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (build_path);
  if (install_path != NULL && g_file_test (install_path, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (install_path);
  return NULL;
}

char *
ws_runner_find (void)
{
  return find_program ("WARPSCOPE_RUNNER", WS_RUNNER_BUILD_PATH, WS_RUNNER_INSTALL_PATH);
}

char *
ws_cli_find (void)
{
  return find_program ("WARPSCOPE_CLI", WS_CLI_BUILD_PATH, WS_CLI_INSTALL_PATH);
}

/* ws-runner-client.c: the runner as a child process in a process group of its own: started,
 * watched, stopped (TERM then KILL, the inactivity timeout, the drain) and judged at its end;
 * its stdout feeds a session through ws-runner-client-lines.c.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-runner-client.h"

#include <gio/gunixinputstream.h>

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "ws-config.h"

#include <glib/gi18n-lib.h>

#include "ws-i18n.h"
#include "ws-runner-client-private.h"

/* Of stderr, at most this much of the end goes into a message. */
#define STDERR_IN_MESSAGE 4096
/* SIGTERM first; SIGKILL this long after. */
#define GRACE_MS 2000
/* Once the runner has exited, its pipes may stay silent this long before what still holds
 * them open (a process it left behind) is stopped. */
#define DRAIN_MS 2000
/* After SIGKILL, what is already in the pipes is read for this long; then our ends close. */
#define CLOSE_MS 500

G_DEFINE_FINAL_TYPE (WsRunnerClient, ws_runner_client, G_TYPE_OBJECT)

enum
{
  FINISHED,
  LINE,
  STDERR,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
signal_group (WsRunnerClient *self, int signum)
{
  if (self->pid > 0 && kill (-self->pid, signum) != 0 && errno != ESRCH)
    g_debug ("kill (-%d, %d): %s", (int) self->pid, signum, g_strerror (errno));
}

static void
close_stdin (WsRunnerClient *self)
{
  if (self->in_fd >= 0)
    close (self->in_fd);
  self->in_fd = -1;
}

static void
ws_runner_client_dispose (GObject *object)
{
  WsRunnerClient *self = WS_RUNNER_CLIENT (object);

  close_stdin (self);
  if (self->running)
    signal_group (self, SIGKILL);
  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  g_clear_handle_id (&self->kill_id, g_source_remove);
  g_clear_handle_id (&self->drain_id, g_source_remove);
  g_clear_handle_id (&self->close_id, g_source_remove);
  g_clear_object (&self->out);
  g_clear_object (&self->err_in);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (ws_runner_client_parent_class)->dispose (object);
}

static void
ws_runner_client_finalize (GObject *object)
{
  WsRunnerClient *self = WS_RUNNER_CLIENT (object);

  g_clear_object (&self->cancellable);
  g_free (self->chunk);
  g_free (self->err_chunk);
  g_byte_array_unref (self->partial);
  _ws_kept_text_clear (&self->err);
  g_clear_error (&self->fatal);
  g_clear_error (&self->error);
  g_free (self->banner_first);
  g_free (self->warning);
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
  /* Each line of stdout, without its newline, after the session has read it (a runner per
   * GPU merged into one session reads them again). */
  signals[LINE] = g_signal_new ("line", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                NULL, NULL, G_TYPE_NONE, 1,
                                G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  /* What arrived on stderr, as it came (not cut at lines): a launcher's news, such as a
   * Slurm job waiting for resources. */
  signals[STDERR] = g_signal_new ("stderr", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
ws_runner_client_init (WsRunnerClient *self)
{
  self->cancellable = g_cancellable_new ();
  self->chunk = g_malloc (READ_CHUNK + 1);
  self->err_chunk = g_malloc (READ_CHUNK);
  self->partial = g_byte_array_new ();
  _ws_kept_text_init (&self->err);
  self->timeout_seconds = 120;
  self->in_fd = -1;
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

void
ws_runner_client_set_keep_stdin (WsRunnerClient *self, gboolean keep)
{
  g_return_if_fail (WS_IS_RUNNER_CLIENT (self));
  g_return_if_fail (!self->started);
  self->keep_stdin = keep;
}

void
ws_runner_client_close_stdin (WsRunnerClient *self)
{
  g_return_if_fail (WS_IS_RUNNER_CLIENT (self));
  close_stdin (self);
}

void
ws_runner_client_set_launcher_kind (WsRunnerClient *self, WsLauncherKind kind)
{
  g_return_if_fail (WS_IS_RUNNER_CLIENT (self));
  self->launcher_kind = kind;
}

void
ws_runner_client_set_stderr_func (WsRunnerClient *self, WsRunnerClientOutputFunc func,
                                  gpointer user_data)
{
  g_return_if_fail (WS_IS_RUNNER_CLIENT (self));
  self->err_func = func;
  self->err_func_data = user_data;
}

void
_ws_runner_client_set_error (WsRunnerClient *self, GError *error)
{
  if (self->error == NULL)
    self->error = error;
  else
    g_error_free (error);
}

/* ---- the end ----------------------------------------------------------------------------- */

/* Judged only once both the process has ended and all its output has been read: the done
 * record may still be in the pipe when the process is gone. */
static void
judge_ending (WsRunnerClient *self)
{
  gboolean ended_by_done = ws_session_is_done (self->session, NULL, NULL);
  GError *error = NULL;

  if (self->cancelled)
    {
      _ws_runner_client_set_error (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                              _("Stopped. The runs that "
                                                                "completed are kept.")));
      return;
    }
  if (self->fatal != NULL && !ended_by_done)
    {
      /* Translators: the model's reason, such as “line 1 is not JSON (…)”. */
      error = g_error_new (G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("What the runner printed cannot be read: %s"), self->fatal->message);
      _ws_runner_client_set_error (self, error);
    }
  if (ended_by_done)
    return;
  if (self->term_signal != 0)
    error = g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED,
                         _("The runner crashed (%s) before it finished; the runs that completed "
                           "are kept."),
                         g_strsignal (self->term_signal));
  else if (self->err.total > 0)
    {
      g_autofree char *said = _ws_kept_text_end (&self->err, STDERR_IN_MESSAGE);

      /* Translators: the exit status, then what the runner printed on stderr. */
      error = g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("The runner exited (status %d) before it finished; the runs that "
                             "completed are kept. It said: %s"),
                           self->exit_status, said);
    }
  else
    error = g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED,
                         _("The runner exited (status %d) before it finished; the runs that "
                           "completed are kept."),
                         self->exit_status);
  _ws_runner_client_set_error (self, error);
}

void
_ws_runner_client_maybe_finish (WsRunnerClient *self)
{
  if (!self->running || !self->stdout_done || !self->stderr_done
      || !(self->process_done || self->abandoned))
    return;
  if (!self->process_done)
    {
      /* Killed, but not reaped yet (a process stuck in the kernel, in a GPU driver): it is
       * as good as ended for the session. */
      self->term_signal = SIGKILL;
      self->exit_status = 128 + SIGKILL;
    }
  if (self->drained && (self->term_signal != 0 || self->exit_status >= 128))
    {
      int code = 0;

      /* Stopped by us after its done record, because it (or what it started) did not let
       * go of the pipes: the record's exit code is the runner's answer, also when a wrapper
       * exited 128 + N from a trap rather than being killed. */
      if (ws_session_is_done (self->session, &code, NULL))
        {
          self->term_signal = 0;
          self->exit_status = code;
        }
    }
  judge_ending (self);
  if (self->banner_lines > 0 && !self->banner_refused)
    /* Translators: how many lines a launcher (ssh, a login shell) printed before the runner's
     * first record, then the first of them, quoted. */
    self->warning = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                  "The launcher printed %u line before the "
                                                  "runner started: “%s” — ignored.",
                                                  "The launcher printed %u lines before the "
                                                  "runner started, the first: “%s” — ignored.",
                                                  self->banner_lines),
                                     self->banner_lines, self->banner_first);
  close_stdin (self);
  /* Counted before the session's end adds its own problem (no done record). */
  self->bad_lines = ws_session_get_problems (self->session)->len - self->problems_before;
  self->running = FALSE;
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  g_clear_handle_id (&self->kill_id, g_source_remove);
  g_clear_handle_id (&self->drain_id, g_source_remove);
  g_clear_handle_id (&self->close_id, g_source_remove);
  /* Nothing the runner started outlives it: a group asked to stop is killed, what a runner
   * that ended by itself left behind is asked to end. */
  signal_group (self, self->stopping && !self->killed ? SIGKILL : SIGTERM);
  ws_session_end (self->session);
  g_signal_emit (self, signals[FINISHED], 0);
  g_object_unref (self); /* the reference held while running */
}

static gboolean
close_cb (gpointer data)
{
  WsRunnerClient *self = data;

  /* The group is dead; a process outside it (one that left the group, or the far side of a
   * connection) may still hold the pipes: stop waiting for them. */
  self->close_id = 0;
  self->abandoned = TRUE;
  g_cancellable_cancel (self->cancellable);
  _ws_runner_client_maybe_finish (self);
  return G_SOURCE_REMOVE;
}

static void
kill_group (WsRunnerClient *self)
{
  g_clear_handle_id (&self->kill_id, g_source_remove);
  if (self->killed)
    return;
  self->stopping = self->killed = TRUE;
  signal_group (self, SIGKILL);
  self->close_id = g_timeout_add (CLOSE_MS, close_cb, self);
}

static gboolean
kill_cb (gpointer data)
{
  WsRunnerClient *self = data;

  self->kill_id = 0;
  kill_group (self);
  return G_SOURCE_REMOVE;
}

/* SIGTERM to every process of the group (and SIGCONT, so that a stopped one can act on it),
 * SIGKILL after the grace period. */
void
_ws_runner_client_stop_group (WsRunnerClient *self)
{
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  g_clear_handle_id (&self->drain_id, g_source_remove);
  if (self->stopping)
    return;
  self->stopping = TRUE;
  signal_group (self, SIGTERM);
  signal_group (self, SIGCONT);
  self->kill_id = g_timeout_add (GRACE_MS, kill_cb, self);
}

static gboolean
timeout_cb (gpointer data)
{
  WsRunnerClient *self = data;

  self->timeout_id = 0;
  _ws_runner_client_set_error (self,
                               g_error_new (G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                                            _("The runner printed nothing for %u seconds and was "
                                              "stopped. A kernel may hang, or the GPU may be "
                                              "stuck; the runs that completed are kept."),
                                            self->timeout_seconds));
  _ws_runner_client_stop_group (self);
  return G_SOURCE_REMOVE;
}

/* In milliseconds: g_timeout_add_seconds may fire up to a second early. */
static void
arm_timeout (WsRunnerClient *self)
{
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  if (self->timeout_seconds > 0 && !self->waiting)
    self->timeout_id = g_timeout_add (MIN (self->timeout_seconds, G_MAXUINT / 1000) * 1000,
                                      timeout_cb, self);
}

void
ws_runner_client_set_waiting (WsRunnerClient *self, gboolean waiting)
{
  g_return_if_fail (WS_IS_RUNNER_CLIENT (self));
  if (self->waiting == waiting)
    return;
  self->waiting = waiting;
  if (self->running && !self->stopping && !self->process_done && !self->done_seen)
    arm_timeout (self);
}

static gboolean
drain_cb (gpointer data)
{
  WsRunnerClient *self = data;

  self->drain_id = 0;
  self->drained = TRUE;
  _ws_runner_client_stop_group (self);
  return G_SOURCE_REMOVE;
}

/* Output arrived: the runner is alive. Once it has exited or sent its done record, the
 * inactivity timeout gives way to the drain: what still holds the pipes open and silent for
 * DRAIN_MS (a process it left behind, a wrapper that waits for one) is stopped. */
void
_ws_runner_client_note_activity (WsRunnerClient *self, gboolean from_stdout)
{
  gboolean ending = self->process_done || self->done_seen;

  if (self->stopping || !self->running)
    return;
  if (ending)
    {
      g_clear_handle_id (&self->timeout_id, g_source_remove);
      g_clear_handle_id (&self->drain_id, g_source_remove);
      self->drain_id = g_timeout_add (DRAIN_MS, drain_cb, self);
    }
  else if (from_stdout)
    arm_timeout (self);
}

static void
read_stderr_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  WsRunnerClient *self = data;
  gssize n = g_input_stream_read_finish (G_INPUT_STREAM (source), result, NULL);

  if (n <= 0)
    {
      self->stderr_done = TRUE;
      g_input_stream_close (self->err_in, NULL, NULL);
      _ws_runner_client_maybe_finish (self);
      g_object_unref (self);
      return;
    }
  _ws_runner_client_note_activity (self, FALSE);
  _ws_kept_text_add (&self->err, self->err_chunk, (gsize) n);
  if (self->err_func != NULL)
    self->err_func (self->err_chunk, (gsize) n, self->err_func_data);
  if (g_signal_has_handler_pending (self, signals[STDERR], 0, FALSE))
    {
      g_autofree char *text = g_strndup (self->err_chunk, (gsize) n);

      g_signal_emit (self, signals[STDERR], 0, text);
    }
  g_input_stream_read_async (self->err_in, self->err_chunk, READ_CHUNK, G_PRIORITY_DEFAULT,
                             self->cancellable, read_stderr_cb, self);
}

void
_ws_runner_client_emit_line (WsRunnerClient *self, const char *line)
{
  if (g_signal_has_handler_pending (self, signals[LINE], 0, FALSE))
    g_signal_emit (self, signals[LINE], 0, line);
}

static void
child_watch_cb (GPid pid, int wait_status, gpointer data)
{
  WsRunnerClient *self = data;

  g_spawn_close_pid (pid);
  if (self->abandoned)
    return;
  self->process_done = TRUE;
  if (WIFSIGNALED (wait_status))
    {
      self->term_signal = WTERMSIG (wait_status);
      self->exit_status = 128 + self->term_signal;
    }
  else
    self->exit_status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : 0;
  /* Its pipes should close now; if something it started keeps them open and silent, that is
   * stopped after a while (DRAIN_MS, not the inactivity timeout). */
  if (self->running && !(self->stdout_done && self->stderr_done))
    _ws_runner_client_note_activity (self, FALSE);
  _ws_runner_client_maybe_finish (self);
}

/* ---- starting ---------------------------------------------------------------------------- */

/* In the child, between fork and exec. A session of its own is a process group of its own,
 * so that the whole of it can be signalled, and no controlling terminal: a launcher that
 * asks for a password fails at once with its message rather than stopping in the
 * background. Ctrl+C reaches only us, and we stop the group. */
static void
child_setup (gpointer data)
{
  setsid ();
#ifdef __linux__
  /* If we are killed outright, the runner's first process is told to end too. */
  prctl (PR_SET_PDEATHSIG, SIGTERM);
#endif
}

/* Programs that join their arguments into a command line for a shell on another machine. */
static gboolean
is_ssh (const char *word)
{
  static const char *const remote_shells[] = { "ssh", "autossh", "rsh", "remsh", "slogin",
                                               "dbclient", NULL };
  g_autofree char *base = g_path_get_basename (word);

  return g_strv_contains (remote_shells, base);
}

/* Any word, wherever it stands: a word before it may be an option of the program in front
 * (nice -5 ssh, env -i ssh, timeout -s KILL 60 ssh), and taking a word that only looks like
 * ssh for one quotes the runner's words once too often, which the runner refuses, where
 * missing a real ssh lets the far side's shell run what they hold. */
gboolean
ws_launcher_is_ssh (const char *const *launcher)
{
  for (guint i = 0; launcher != NULL && launcher[i] != NULL; i++)
    if (is_ssh (launcher[i]))
      return TRUE;
  return FALSE;
}

static gboolean
launcher_is_remote_shell (WsRunnerClient *self, const char *const *launcher)
{
  if (self->launcher_kind != WS_LAUNCHER_AUTO)
    return self->launcher_kind == WS_LAUNCHER_REMOTE_SHELL;
  return ws_launcher_is_ssh (launcher);
}

gboolean
ws_runner_client_start (WsRunnerClient *self, const char *const *launcher,
                        const char *const *argv, GError **error)
{
  g_autoptr (GPtrArray) full = g_ptr_array_new_with_free_func (g_free);
  int out_fd = -1, err_fd = -1;
  gboolean remote;

  g_return_val_if_fail (WS_IS_RUNNER_CLIENT (self), FALSE);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, FALSE);
  g_return_val_if_fail (!self->started, FALSE);

  remote = launcher != NULL && launcher[0] != NULL && launcher_is_remote_shell (self, launcher);
  for (guint i = 0; launcher != NULL && launcher[i] != NULL; i++)
    g_ptr_array_add (full, g_strdup (launcher[i]));
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (full, remote ? g_shell_quote (argv[i]) : g_strdup (argv[i]));
  g_ptr_array_add (full, NULL);

  /* Not GSubprocess: it forgets the pid once the process has been reaped, which a runner
   * that fails at once may be before we ask; the group's id is the pid. stdin is /dev/null. */
  if (!g_spawn_async_with_pipes_and_fds (NULL, (const char *const *) full->pdata, NULL,
                                         G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                                         child_setup, NULL, -1, -1, -1, NULL, NULL, 0,
                                         &self->pid, self->keep_stdin ? &self->in_fd : NULL,
                                         &out_fd, &err_fd, error))
    return FALSE;
  self->started = self->running = TRUE;
  self->problems_before = ws_session_get_problems (self->session)->len;
  g_object_ref (self); /* until finished */
  self->out = g_unix_input_stream_new (out_fd, TRUE);
  self->err_in = g_unix_input_stream_new (err_fd, TRUE);
  g_input_stream_read_async (self->err_in, self->err_chunk, READ_CHUNK, G_PRIORITY_DEFAULT,
                             self->cancellable, read_stderr_cb, g_object_ref (self));
  g_child_watch_add_full (G_PRIORITY_DEFAULT, self->pid, child_watch_cb, g_object_ref (self),
                          g_object_unref);
  arm_timeout (self);
  g_object_ref (self); /* until stdout has ended */
  _ws_runner_client_read_stdout (self);
  return TRUE;
}

void
ws_runner_client_cancel (WsRunnerClient *self)
{
  g_return_if_fail (WS_IS_RUNNER_CLIENT (self));
  if (!self->running || self->cancelled)
    return;
  self->cancelled = TRUE;
  _ws_runner_client_stop_group (self);
}

void
ws_runner_client_kill (WsRunnerClient *self)
{
  g_return_if_fail (WS_IS_RUNNER_CLIENT (self));
  if (!self->running)
    return;
  self->cancelled = TRUE;
  kill_group (self);
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
  return _ws_kept_text_get (&self->err);
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

guint
ws_runner_client_get_n_bad_lines (WsRunnerClient *self)
{
  g_return_val_if_fail (WS_IS_RUNNER_CLIENT (self), 0);
  return self->bad_lines;
}

const char *
ws_runner_client_get_warning (WsRunnerClient *self)
{
  g_return_val_if_fail (WS_IS_RUNNER_CLIENT (self), NULL);
  return self->warning;
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

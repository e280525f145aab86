/* ws-run-controller.c: the live run. The runner's records arrive line by line through a
 * runner job, driven alike whichever it is (a target job: the runner on the chosen target; a
 * sweep split: one runner per GPU, merged; a program job: a replay or stand-in started as
 * given); the session is written to the cache two seconds after a change, and once more at
 * the end, so a crash of the app loses nothing that had arrived.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-run-controller.h"

#include <glib/gi18n.h>

#include "ws-program-job.h"
#include "ws-runner-client.h"
#include "ws-sweep-split.h"
#include "ws-target-job.h"
#include "ws-trace-command.h"

struct _WsRunController
{
  GObject parent_instance;

  WsWorkspace *workspace;
  WsTarget *target;
  guint timeout;
  /* The live session, and what feeds it. */
  WsSession *session;
  WsRunnerJob *job;
  guint autosave_id;
  guint grew_id;          /* a live trace: says twice a second that it grew */
  guint grew_spans;
};

G_DEFINE_FINAL_TYPE (WsRunController, ws_run_controller, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_WORKSPACE,
  PROP_TARGET,
  PROP_TIMEOUT,
  PROP_RUNNING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  MESSAGE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

char *
ws_run_controller_dup_autosave_path (void)
{
  return g_build_filename (g_get_user_cache_dir (), "warpscope", "last-live-session.jsonl", NULL);
}

static WsSession *
live_session (WsRunController *self)
{
  return self->session;
}

/* ---- keeping the session ------------------------------------------------------------------ */

static void
autosave (WsRunController *self)
{
  WsSession *session = live_session (self);
  g_autofree char *path = ws_run_controller_dup_autosave_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFile) keep = NULL;
  g_autoptr (GError) error = NULL;

  g_clear_handle_id (&self->autosave_id, g_source_remove);
  if (session == NULL || ws_session_get_source (session) != WS_SESSION_SOURCE_LIVE)
    return;
  g_mkdir_with_parents (dir, 0700);
  /* Saving sets the session's file; keep the one a person chose. */
  keep = ws_session_get_file (session) ? g_object_ref (ws_session_get_file (session)) : NULL;
  if (!ws_session_save (session, file, NULL, &error))
    g_warning ("Could not keep the live session in %s: %s", path, error->message);
  ws_session_set_file (session, keep);
}

static gboolean
autosave_cb (gpointer data)
{
  WsRunController *self = data;

  self->autosave_id = 0;
  autosave (self);
  return G_SOURCE_REMOVE;
}

static void
run_updated_cb (WsSession *session, WsRun *run, WsRunController *self)
{
  if (self->autosave_id == 0)
    self->autosave_id = g_timeout_add_seconds (2, autosave_cb, self);
}

/* A traced program's activity records (its kernels, copies, API calls) arrive without a signal
 * each: while it runs, the session is asked twice a second whether its trace grew, and says
 * so with its "changed", which the views follow. */
static gboolean
trace_grew_cb (gpointer data)
{
  WsRunController *self = data;
  WsSession *session = live_session (self);

  if (session != NULL && ws_session_notice_trace_growth (session) && self->autosave_id == 0)
    self->autosave_id = g_timeout_add_seconds (2, autosave_cb, self);
  return G_SOURCE_CONTINUE;
}

/* ---- how it ended ------------------------------------------------------------------------- */

static void
say (WsRunController *self, const char *text)
{
  g_signal_emit (self, signals[MESSAGE], 0, text);
}

/* A traced program: what went wrong in plain words, else how its last run ended. */
static void
say_trace_end (WsRunController *self, WsSession *session)
{
  WsTrace *trace = ws_session_get_trace (session);
  GPtrArray *programs = ws_trace_get_programs (trace);
  g_autofree char *problem = ws_trace_describe_session_error (session);
  const WsTraceProgram *last;
  g_autofree char *command = NULL, *ending = NULL, *text = NULL;

  if (problem != NULL)
    {
      say (self, problem);
      return;
    }
  if (programs->len == 0)
    return;
  last = g_ptr_array_index (programs, programs->len - 1);
  command = ws_trace_describe_command (trace, last);
  ending = ws_trace_describe_ending (trace, last, NULL);
  /* Translators: the program's command line, then how it ended ("exited with status 0…"). */
  text = g_strdup_printf (_("%s %s"), command, ending ? ending : _("ended"));
  say (self, text);
}

/* A launcher's banner that the client skipped (ws_runner_client_get_warning): runners behind
 * one launcher print it alike, so it is said once. */
static const char *
launcher_warning (WsRunController *self)
{
  WsRunnerClient *client = NULL;

  for (guint i = 0; client == NULL && i < ws_runner_job_get_n_clients (self->job); i++)
    {
      WsRunnerClient *c = ws_runner_job_get_client (self->job, i);

      if (c != NULL && ws_runner_client_get_warning (c) != NULL)
        client = c;
    }
  return client != NULL ? ws_runner_client_get_warning (client) : NULL;
}

/* The runner's own words when it stopped or refused; else how many runs finished, then the
 * first run that went wrong (a size too large, a fault: the table and findings tell more). */
static void
report (WsRunController *self, const GError *error)
{
  WsSession *session = self->session;
  GPtrArray *errors = ws_session_get_errors (session);
  GListModel *runs = ws_session_get_runs (session);
  guint n = g_list_model_get_n_items (runs);
  const char *warning = launcher_warning (self);

  if (warning != NULL)
    say (self, warning);
  if (error != NULL)
    say (self, error->message);
  else if (ws_session_get_trace (session) != NULL)
    say_trace_end (self, session);
  else if (errors->len > 0)
    say (self, ((WsRunnerError *) g_ptr_array_index (errors, 0))->message);
  else
    {
      g_autofree char *text = g_strdup_printf (ngettext ("%u run finished", "%u runs finished", n), n);

      say (self, text);
      for (guint i = 0; i < n; i++)
        {
          g_autoptr (WsRun) run = g_list_model_get_item (runs, i);
          GPtrArray *run_errors = ws_run_get_errors (run);

          if (run_errors->len > 0)
            {
              say (self, ((WsRunnerError *) g_ptr_array_index (run_errors, 0))->message);
              break;
            }
        }
    }
  g_clear_handle_id (&self->grew_id, g_source_remove);
  if (self->autosave_id != 0 || ws_session_get_trace (session) != NULL)
    autosave (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

/* A split's error names the GPU that failed, and says that the others' runs are kept. */
static void
job_finished_cb (WsRunnerJob *job, WsRunController *self)
{
  report (self, ws_runner_job_get_error (job));
}

/* A Slurm job that waits for resources says so. */
static void
job_status_cb (WsRunnerJob *job, GParamSpec *pspec, WsRunController *self)
{
  if (ws_runner_job_get_status (job) != NULL)
    say (self, ws_runner_job_get_status (job));
}

/* ---- starting and stopping --------------------------------------------------------------- */

static void
forget_runner (WsRunController *self)
{
  g_clear_handle_id (&self->autosave_id, g_source_remove);
  g_clear_handle_id (&self->grew_id, g_source_remove);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  if (self->job != NULL)
    g_signal_handlers_disconnect_by_data (self->job, self);
  g_clear_object (&self->job);
  g_clear_object (&self->session);
}

/* A new live session for the workspace, before anything is started into it. */
static gboolean
begin (WsRunController *self, GError **error)
{
  if (ws_run_controller_is_running (self))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY, _("A run is still going: stop it first."));
      return FALSE;
    }
  forget_runner (self);
  self->session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  if (self->workspace != NULL)
    ws_workspace_set_session (self->workspace, self->session);
  g_signal_connect (self->session, "run-updated", G_CALLBACK (run_updated_cb), self);
  return TRUE;
}

static gboolean
started (WsRunController *self, gboolean ok)
{
  if (!ok)
    forget_runner (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
  return ok;
}

/* The job fed into the live session, started with `args`. */
static gboolean
start_job (WsRunController *self, WsRunnerJob *job, guint timeout, const char *const *args,
           GError **error)
{
  self->job = job;
  ws_runner_job_set_timeout (job, timeout);
  g_signal_connect (job, "finished", G_CALLBACK (job_finished_cb), self);
  g_signal_connect (job, "notify::status", G_CALLBACK (job_status_cb), self);
  return started (self, ws_runner_job_start (job, args, error));
}

/* The program stands in for the runner here: argv[0] is a local target's runner, the rest
 * of `argv` its options. */
gboolean
ws_run_controller_start (WsRunController *self, const char *const *argv, GError **error)
{
  g_autoptr (WsTarget) here = NULL;

  g_return_val_if_fail (WS_IS_RUN_CONTROLLER (self), FALSE);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, FALSE);
  if (!begin (self, error))
    return FALSE;
  here = ws_target_new_local ();
  ws_target_set_runner (here, argv[0]);
  return start_job (self, WS_RUNNER_JOB (ws_program_job_new (here, self->session)),
                    self->timeout, argv + 1, error);
}

gboolean
ws_run_controller_start_on_target (WsRunController *self, const char *const *args,
                                   const int *devices, guint n_devices, GError **error)
{
  g_autoptr (WsTarget) local = NULL;
  WsTarget *target = self->target;
  g_autoptr (GStrvBuilder) argv = g_strv_builder_new ();
  g_auto (GStrv) full = NULL;
  g_autofree char *device = n_devices == 1 ? g_strdup_printf ("%d", devices[0]) : NULL;

  g_return_val_if_fail (WS_IS_RUN_CONTROLLER (self), FALSE);
  g_return_val_if_fail (args != NULL, FALSE);
  if (target == NULL)
    target = local = ws_target_new_local ();
  if (!begin (self, error))
    return FALSE;
  if (n_devices > 1)
    {
      WsSweepSplit *split = ws_sweep_split_new (target, self->session);

      ws_sweep_split_set_devices (split, devices, n_devices);
      return start_job (self, WS_RUNNER_JOB (split), self->timeout, args, error);
    }
  g_strv_builder_addv (argv, (const char **) args);
  if (device != NULL)
    {
      g_strv_builder_add (argv, "--device");
      g_strv_builder_add (argv, ws_target_is_slurm (target) ? "0" : device);
    }
  full = g_strv_builder_end (argv);
  return start_job (self, WS_RUNNER_JOB (ws_target_job_new (target, self->session)),
                    self->timeout, (const char *const *) full, error);
}

gboolean
ws_run_controller_start_trace (WsRunController *self, const char *const *args, GError **error)
{
  g_autoptr (WsTarget) local = NULL;
  WsTarget *target = self->target;

  g_return_val_if_fail (WS_IS_RUN_CONTROLLER (self), FALSE);
  g_return_val_if_fail (args != NULL, FALSE);
  if (target == NULL)
    target = local = ws_target_new_local ();
  if (!begin (self, error))
    return FALSE;
  /* A program may compute for minutes without a record: no silence limit. */
  if (!start_job (self, WS_RUNNER_JOB (ws_target_job_new (target, self->session)), 0, args,
                  error))
    return FALSE;
  self->grew_id = g_timeout_add (500, trace_grew_cb, self);
  return TRUE;
}

gboolean
ws_run_controller_replay (WsRunController *self, GFile *recording, GError **error)
{
  g_autofree char *cli = ws_cli_find ();
  g_autofree char *path = g_file_get_path (recording);

  g_return_val_if_fail (WS_IS_RUN_CONTROLLER (self), FALSE);
  if (cli == NULL || path == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("warpscope-cli is not installed, so recordings cannot be replayed live."));
      return FALSE;
    }
  return ws_run_controller_start (self, (const char *[]) { cli, "replay", path, "--speed", "1", NULL },
                                  error);
}

void
ws_run_controller_cancel (WsRunController *self)
{
  g_return_if_fail (WS_IS_RUN_CONTROLLER (self));
  /* A split: every GPU's runner. */
  if (self->job != NULL)
    ws_runner_job_cancel (self->job);
}

gboolean
ws_run_controller_is_running (WsRunController *self)
{
  g_return_val_if_fail (WS_IS_RUN_CONTROLLER (self), FALSE);
  return self->job != NULL && ws_runner_job_is_running (self->job);
}

WsTarget *
ws_run_controller_get_target (WsRunController *self)
{
  g_return_val_if_fail (WS_IS_RUN_CONTROLLER (self), NULL);
  return self->target;
}

WsSweepSplit *
ws_run_controller_get_split (WsRunController *self)
{
  g_return_val_if_fail (WS_IS_RUN_CONTROLLER (self), NULL);
  return self->job != NULL && WS_IS_SWEEP_SPLIT (self->job) ? WS_SWEEP_SPLIT (self->job) : NULL;
}

/* ---- boilerplate ------------------------------------------------------------------------ */

static void
ws_run_controller_set_property (GObject *object, guint prop, const GValue *value,
                                GParamSpec *pspec)
{
  WsRunController *self = WS_RUN_CONTROLLER (object);

  switch (prop)
    {
    case PROP_WORKSPACE:
      g_set_object (&self->workspace, g_value_get_object (value));
      break;
    case PROP_TARGET:
      g_set_object (&self->target, g_value_get_object (value));
      break;
    case PROP_TIMEOUT:
      self->timeout = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_run_controller_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  WsRunController *self = WS_RUN_CONTROLLER (object);

  switch (prop)
    {
    case PROP_WORKSPACE: g_value_set_object (value, self->workspace); break;
    case PROP_TARGET: g_value_set_object (value, self->target); break;
    case PROP_TIMEOUT: g_value_set_uint (value, self->timeout); break;
    case PROP_RUNNING: g_value_set_boolean (value, ws_run_controller_is_running (self)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_run_controller_dispose (GObject *object)
{
  WsRunController *self = WS_RUN_CONTROLLER (object);

  /* A window that closes stops its run. */
  if (ws_run_controller_is_running (self))
    ws_run_controller_cancel (self);
  forget_runner (self);
  g_clear_object (&self->workspace);
  g_clear_object (&self->target);
  G_OBJECT_CLASS (ws_run_controller_parent_class)->dispose (object);
}

static void
ws_run_controller_class_init (WsRunControllerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  object_class->set_property = ws_run_controller_set_property;
  object_class->get_property = ws_run_controller_get_property;
  object_class->dispose = ws_run_controller_dispose;

  properties[PROP_WORKSPACE] = g_param_spec_object ("workspace", NULL, NULL, WS_TYPE_WORKSPACE, rw);
  properties[PROP_TARGET] = g_param_spec_object ("target", NULL, NULL, WS_TYPE_TARGET, rw);
  properties[PROP_TIMEOUT] = g_param_spec_uint ("timeout", NULL, NULL, 0, 86400, 120, rw);
  properties[PROP_RUNNING] = g_param_spec_boolean ("running", NULL, NULL, FALSE,
                                                   G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY
                                                     | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  signals[MESSAGE] = g_signal_new ("message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                   NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
ws_run_controller_init (WsRunController *self)
{
  self->timeout = 120;
}

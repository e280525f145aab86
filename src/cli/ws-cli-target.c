/* ws-cli-target.c: where `run`, `devices` and `kernels` start the runner (a saved target, a
 * launcher typed on the command line, or this computer), waiting for it with Ctrl+C handled,
 * and a sweep spread over several GPUs (run --devices).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli.h"

#include <glib-unix.h>
#include <signal.h>
#include <string.h>

#include "ws-sweep-split.h"
#include "ws-target-job.h"
#include "ws-target-list.h"

/* ---- the options that say where ----------------------------------------------------------- */

void
ws_cli_runner_args_clear (WsCliRunnerArgs *args)
{
  g_clear_pointer (&args->target, g_free);
  g_clear_pointer (&args->launcher, g_free);
  g_clear_pointer (&args->runner, g_free);
  args->remote_shell = FALSE;
}

GOptionContext *
ws_cli_runner_context_new (const char *command, const char *summary, const char *description,
                           WsCliRunnerArgs *args, const GOptionEntry *entries)
{
  const GOptionEntry runner_entries[] = {
    { "target", 't', 0, G_OPTION_ARG_STRING, &args->target,
      N_("Start the runner on this saved target (“warpscope-cli targets” lists them)"),
      "NAME" },
    { "launcher", 'l', 0, G_OPTION_ARG_STRING, &args->launcher,
      N_("Start the runner behind this command, e.g. \"ssh gpu-box\" (no shell)"), "COMMAND" },
    { "remote-shell", 0, 0, G_OPTION_ARG_NONE, &args->remote_shell,
      N_("The launcher hands the runner's command line to a shell on another machine, as ssh "
         "does: quote each argument for it (automatic when the launcher is ssh)"), NULL },
    { "runner", 0, 0, G_OPTION_ARG_FILENAME, &args->runner,
      N_("The runner's path (default $WARPSCOPE_RUNNER, else the built or installed one)"),
      "PATH" },
  };
  guint n = 0;
  g_autofree GOptionEntry *all = NULL;

  while (entries[n].long_name != NULL)
    n++;
  /* GOption copies the entries: they need not outlive the context. */
  all = g_new0 (GOptionEntry, G_N_ELEMENTS (runner_entries) + n + 1);
  memcpy (all, runner_entries, sizeof runner_entries);
  memcpy (all + G_N_ELEMENTS (runner_entries), entries, n * sizeof *entries);
  return ws_cli_context_new (command, NULL, summary, description, all);
}

void
ws_cli_runner_args_apply (const WsCliRunnerArgs *args, WsCliRunnerOptions *options)
{
  options->target = args->target;
  options->launcher = args->launcher;
  options->runner = args->runner;
  options->remote_shell = args->remote_shell;
}

/* ---- the target -------------------------------------------------------------------------- */

WsTarget *
ws_cli_resolve_target (const WsCliRunnerOptions *options, int *status)
{
  g_autoptr (WsTarget) target = NULL;
  g_autoptr (GError) error = NULL;

  *status = WS_CLI_EXIT_OK;
  if (options->target != NULL && options->launcher != NULL)
    {
      *status = ws_cli_usage_error (options->command,
                                    _("--target and --launcher both say where the runner "
                                      "runs: give one of them."));
      return NULL;
    }
  if (options->target != NULL)
    {
      g_autoptr (WsTargetList) list = ws_target_list_load (NULL, &error);
      WsTarget *found;

      if (list == NULL)
        {
          ws_cli_error (options->command, "%s", error->message);
          *status = WS_CLI_EXIT_FAILED;
          return NULL;
        }
      if ((found = ws_target_list_lookup (list, options->target, &error)) == NULL)
        {
          *status = ws_cli_usage_error (options->command, "--target: %s", error->message);
          return NULL;
        }
      target = g_object_ref (found);
    }
  else if (options->launcher != NULL)
    {
      g_autofree char *trimmed = g_strstrip (g_strdup (options->launcher));
      g_auto (GStrv) words = NULL;

      if (*trimmed != '\0' && !g_shell_parse_argv (trimmed, NULL, &words, &error))
        {
          *status = ws_cli_usage_error (options->command,
                                        _("--launcher “%s” cannot be split into words: %s"),
                                        options->launcher, error->message);
          return NULL;
        }
      if (words != NULL)
        {
          target = ws_target_new ("command", WS_TARGET_COMMAND);
          ws_target_set_launcher (target, (const char *const *) words);
          ws_target_set_remote_shell (target, options->remote_shell
                                                || ws_launcher_is_ssh ((const char *const *) words));
        }
    }
  if (target == NULL)
    target = ws_target_new_local ();
  if (options->runner != NULL)
    ws_target_set_runner (target, options->runner);
  return g_steal_pointer (&target);
}

/* ---- waiting, with Ctrl+C ---------------------------------------------------------------- */

typedef struct
{
  GMainLoop *loop;
  guint interrupts;
  WsRunnerJob *job;
  guint signal_ids[3];
} Wait;

static gboolean
interrupt_cb (gpointer data)
{
  Wait *wait = data;

  /* The runner flushes what it has; the runs that completed are saved. A second Ctrl+C does
   * not wait for it. */
  if (wait->interrupts++ == 0)
    ws_runner_job_cancel (wait->job);
  else
    ws_runner_job_kill (wait->job);
  return G_SOURCE_CONTINUE;
}

static void
quit_cb (gpointer object, gpointer data)
{
  g_main_loop_quit (((Wait *) data)->loop);
}

static void
status_cb (WsRunnerJob *job, GParamSpec *pspec, gpointer data)
{
  const char *command = data;

  if (ws_runner_job_get_status (job) != NULL)
    ws_cli_error (command, "%s", ws_runner_job_get_status (job));
}

/* Starts `job` with `args` and waits for its end; FALSE when it could not start. A launcher's
 * news is said as it comes. The runner is in a process group of its own: Ctrl+C, a kill or
 * the terminal closing reach only us, and we stop all of it. The signals are caught from
 * before the runner starts, so that one sent while it starts (a wrapper that interrupts at
 * once) is not the default death; they are handled once the loop runs. */
static gboolean
run_job (WsRunnerJob *job, const char *const *args, const char *command, guint *interrupts,
         GError **error)
{
  const int signums[3] = { SIGINT, SIGTERM, SIGHUP };
  g_autoptr (GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  Wait wait = { loop, 0, job, { 0 } };
  gboolean ok;

  g_signal_connect (job, "finished", G_CALLBACK (quit_cb), &wait);
  g_signal_connect (job, "notify::status", G_CALLBACK (status_cb), (gpointer) command);
  for (guint i = 0; i < 3; i++)
    wait.signal_ids[i] = g_unix_signal_add (signums[i], interrupt_cb, &wait);
  if ((ok = ws_runner_job_start (job, args, error)))
    g_main_loop_run (loop);
  for (guint i = 0; i < 3; i++)
    g_clear_handle_id (&wait.signal_ids[i], g_source_remove);
  g_signal_handlers_disconnect_by_data (job, &wait);
  *interrupts = wait.interrupts;
  return ok;
}

/* ---- one runner -------------------------------------------------------------------------- */

/* Lines of the runner's stdout that were not records: each named, and the run is not a
 * success even when the runner says so. */
#define MAX_BAD_LINES_SHOWN 5

static void
report_bad_lines (const char *command, WsRunnerClient *client, WsSession *session)
{
  GPtrArray *problems = ws_session_get_problems (session);
  guint n = MIN (ws_runner_client_get_n_bad_lines (client), problems->len);

  for (guint i = 0; i < MIN (n, MAX_BAD_LINES_SHOWN); i++)
    {
      WsProblem *p = g_ptr_array_index (problems, i);

      ws_cli_error (command, _("line %u of what the runner printed is not a record: %s"),
                    p->line, p->message);
    }
  if (n > MAX_BAD_LINES_SHOWN)
    ws_cli_error (command, g_dngettext (NULL, "%u more line of what the runner printed is not "
                                              "a record",
                                        "%u more lines of what the runner printed are not "
                                        "records",
                                        n - MAX_BAD_LINES_SHOWN),
                  n - MAX_BAD_LINES_SHOWN);
}

static int
start_error (const char *command, const GError *error)
{
  if (g_error_matches (error, WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID))
    return ws_cli_usage_error (command, "%s", error->message);
  ws_cli_error (command, "%s", error->message);
  return WS_CLI_EXIT_RUNNER;
}

int
ws_cli_run_runner (const WsCliRunnerOptions *options, const char *const *args,
                   WsSession *session)
{
  g_autoptr (WsTarget) target = NULL;
  g_autoptr (WsTargetJob) job = NULL;
  g_autoptr (GError) error = NULL;
  WsRunnerClient *client;
  guint interrupts;
  int status;

  if ((target = ws_cli_resolve_target (options, &status)) == NULL)
    return status;
  job = ws_target_job_new (target, session);
  ws_runner_job_set_timeout (WS_RUNNER_JOB (job), options->timeout);
  if (options->stderr_func != NULL)
    ws_target_job_set_stderr_func (job, options->stderr_func, options->stderr_data);
  if (!run_job (WS_RUNNER_JOB (job), args, options->command, &interrupts, &error))
    return start_error (options->command, error);
  client = ws_target_job_get_client (job);
  if (options->verbose && options->stderr_func == NULL
      && *ws_runner_client_get_stderr (client) != '\0')
    {
      fflush (stdout);
      ws_cli_write (stderr, ws_runner_client_get_stderr (client));
    }
  report_bad_lines (options->command, client, session);
  if (ws_runner_client_get_warning (client) != NULL)
    ws_cli_warning (options->command, "%s", ws_runner_client_get_warning (client));

  if (interrupts > 0)
    {
      ws_cli_error (options->command, _("interrupted; the runs that completed are kept"));
      return WS_CLI_EXIT_INTERRUPTED;
    }
  if (ws_runner_job_get_error (WS_RUNNER_JOB (job)) != NULL)
    {
      ws_cli_error (options->command, "%s",
                    ws_runner_job_get_error (WS_RUNNER_JOB (job))->message);
      return WS_CLI_EXIT_RUNNER;
    }
  status = ws_runner_job_get_exit_status (WS_RUNNER_JOB (job));
  if (status == WS_CLI_EXIT_OK && ws_runner_client_get_n_bad_lines (client) > 0)
    return WS_CLI_EXIT_RUNNER;
  return status;
}

/* ---- a sweep over several GPUs ----------------------------------------------------------- */

/* Every GPU the target has, from its runner's --device-info. */
static int
probe_devices (const WsCliRunnerOptions *options, GArray *devices)
{
  const char *const args[] = { "--device-info", NULL };
  g_autoptr (WsSession) info = ws_session_new (WS_SESSION_SOURCE_LIVE);
  GListModel *found;
  int status = ws_cli_run_runner (options, args, info);

  found = ws_session_get_devices (info);
  for (guint i = 0; i < g_list_model_get_n_items (found); i++)
    {
      g_autoptr (WsDevice) device = g_list_model_get_item (found, i);
      int index = ws_device_get_info (device)->index;

      g_array_append_val (devices, index);
    }
  if (devices->len == 0 && status == WS_CLI_EXIT_OK)
    status = WS_CLI_EXIT_NO_GPU;
  if (devices->len == 0)
    {
      ws_cli_print_session_errors (stderr, info, ws_cli_terminal_width (stderr));
      ws_cli_error (options->command, _("--devices all: the runner finds no GPU it can use."));
    }
  return devices->len > 0 ? WS_CLI_EXIT_OK : status;
}

static void
print_stderr (WsSweepSplit *split)
{
  for (guint i = 0; i < ws_sweep_split_get_n_runners (split); i++)
    {
      WsRunnerClient *client = ws_target_job_get_client (ws_sweep_split_get_job (split, i));
      g_autofree char *text = NULL;

      if (client == NULL || *ws_runner_client_get_stderr (client) == '\0')
        continue;
      /* Translators: whose stderr follows ("GPU 1"). */
      text = g_strdup_printf (_("— %s —\n%s"), ws_sweep_split_get_label (split, i),
                              ws_runner_client_get_stderr (client));
      fflush (stdout);
      ws_cli_write (stderr, text);
    }
}

static gboolean
cpu_none (const char *const *args)
{
  for (guint i = 0; args[i] != NULL && args[i + 1] != NULL; i++)
    if (g_str_equal (args[i], "--cpu") && g_str_equal (args[i + 1], "none"))
      return TRUE;
  return FALSE;
}

int
ws_cli_run_split (const WsCliRunnerOptions *options, const char *const *args,
                  const char *devices_text, WsSession *session)
{
  g_autoptr (WsTarget) target = NULL;
  g_autoptr (WsSweepSplit) split = NULL;
  g_autoptr (GArray) devices = NULL;
  g_autoptr (GError) error = NULL;
  guint interrupts;
  gboolean all;
  int status;

  if ((target = ws_cli_resolve_target (options, &status)) == NULL)
    return status;
  if (!ws_devices_parse (devices_text, &devices, &all, &error))
    return ws_cli_usage_error (options->command, "%s", error->message);
  if (all && ws_target_is_slurm (target))
    return ws_cli_usage_error (options->command,
                               _("--devices all: a Slurm cluster has more GPUs than one sweep "
                                 "should ask for. Give how many jobs to spread it over, each "
                                 "with a GPU of its own: --devices 0-7 for 8."));
  if (all)
    {
      devices = g_array_new (FALSE, FALSE, sizeof (int));
      if ((status = probe_devices (options, devices)) != WS_CLI_EXIT_OK)
        return status;
    }
  if (devices->len > 1 && !ws_target_is_slurm (target) && !cpu_none (args))
    ws_cli_warning (options->command,
                    _("the CPU baselines of runners that share a host run side by side and "
                      "share its cores, so their times (and the speedups against them) are not "
                      "what one runner alone measures. Give --cpu none, or time the baselines "
                      "in a run on one GPU."));
  split = ws_sweep_split_new (target, session);
  ws_runner_job_set_timeout (WS_RUNNER_JOB (split), options->timeout);
  ws_sweep_split_set_devices (split, (const int *) devices->data, devices->len);
  if (!run_job (WS_RUNNER_JOB (split), args, options->command, &interrupts, &error))
    return start_error (options->command, error);
  if (options->verbose)
    print_stderr (split);
  /* Runners behind one launcher print its banner alike: said once. */
  for (guint i = 0; i < ws_runner_job_get_n_clients (WS_RUNNER_JOB (split)); i++)
    {
      WsRunnerClient *client = ws_runner_job_get_client (WS_RUNNER_JOB (split), i);

      if (client != NULL && ws_runner_client_get_warning (client) != NULL)
        {
          ws_cli_warning (options->command, "%s", ws_runner_client_get_warning (client));
          break;
        }
    }
  if (ws_sweep_split_get_n_bad_lines (split) > 0)
    ws_cli_error (options->command,
                  g_dngettext (NULL, "%u line of what the runners printed is not a record",
                               "%u lines of what the runners printed are not records",
                               ws_sweep_split_get_n_bad_lines (split)),
                  ws_sweep_split_get_n_bad_lines (split));
  if (interrupts > 0)
    {
      ws_cli_error (options->command, _("interrupted; the runs that completed are kept"));
      return WS_CLI_EXIT_INTERRUPTED;
    }
  for (guint i = 0; i < ws_sweep_split_get_n_runners (split); i++)
    {
      const GError *e = ws_sweep_split_get_runner_error (split, i);

      if (e != NULL)
        ws_cli_error (options->command, _("%s: %s"), ws_sweep_split_get_label (split, i),
                      e->message);
    }
  if (ws_sweep_split_get_n_failed (split) > 0)
    return WS_CLI_EXIT_RUNNER;
  status = ws_runner_job_get_exit_status (WS_RUNNER_JOB (split));
  if (status == WS_CLI_EXIT_OK && ws_sweep_split_get_n_bad_lines (split) > 0)
    return WS_CLI_EXIT_RUNNER;
  return status;
}

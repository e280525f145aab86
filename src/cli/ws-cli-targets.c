/* ws-cli-targets.c: `warpscope-cli targets`: the saved targets (where the runner runs: an ssh
 * host, a Slurm cluster), listed, added and removed; `run`, `devices` and `kernels` take one
 * with --target NAME.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli.h"

#include <string.h>

#include "ws-cli-table.h"
#include "ws-runner-client.h"
#include "ws-target-list.h"

static int
list_targets (WsTargetList *list)
{
  g_autoptr (WsCliTable) table = ws_cli_table_new ();
  g_autoptr (GString) out = g_string_new (NULL);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (list));

  ws_cli_table_add_column (table, _("target"), WS_CLI_ALIGN_LEFT, -1);
  ws_cli_table_add_column (table, _("kind"), WS_CLI_ALIGN_LEFT, -1);
  ws_cli_table_add_column (table, _("starts the runner with"), WS_CLI_ALIGN_LEFT, -1);
  ws_cli_table_add_column (table, _("runner there"), WS_CLI_ALIGN_LEFT, -1);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsTarget) t = g_list_model_get_item (G_LIST_MODEL (list), i);
      const char *runner = ws_target_get_runner (t);

      ws_cli_table_add_row (table);
      ws_cli_table_set (table, 0, ws_target_get_name (t));
      ws_cli_table_set (table, 1, ws_target_kind_to_string (ws_target_get_kind (t)));
      ws_cli_table_take (table, 2, ws_target_dup_description (t));
      ws_cli_table_set (table, 3, runner != NULL ? runner
                                  : ws_target_is_remote (t) ? "warpscope-runner"
                                                            : _("the built or installed one"));
    }
  ws_cli_table_append_text (table, out, 2, 0);
  g_string_append_printf (out, _("\nSaved in %s.\n"), ws_target_list_get_path (list));
  ws_cli_write (stdout, out->str);
  return WS_CLI_EXIT_OK;
}

typedef struct
{
  char *ssh, *srun, *sbatch, *command, *host, *ssh_options, *runner, *job_dir;
  char **env;
  int port, pending_timeout;
  gboolean remote_shell;
} AddOptions;

static void
add_options_clear (AddOptions *o)
{
  g_free (o->ssh), g_free (o->srun), g_free (o->sbatch), g_free (o->command);
  g_free (o->host), g_free (o->ssh_options), g_free (o->runner), g_free (o->job_dir);
  g_strfreev (o->env);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (AddOptions, add_options_clear)

/* Words of an option's value split as a shell would (no shell runs them); FALSE after a usage
 * error. */
static gboolean
split_words (const char *option, const char *text, char ***words)
{
  g_autoptr (GError) error = NULL;

  *words = NULL;
  if (text == NULL || strspn (text, " \t") == strlen (text))
    return TRUE;
  if (g_shell_parse_argv (text, NULL, words, &error))
    return TRUE;
  ws_cli_usage_error ("targets", _("%s “%s” cannot be split into words: %s"), option, text,
                      error->message);
  return FALSE;
}

static WsTarget *
target_from (const char *name, AddOptions *o, int *status)
{
  g_autoptr (WsTarget) target = NULL;
  g_auto (GStrv) slurm = NULL, ssh_words = NULL, launcher = NULL;
  int kinds = (o->ssh != NULL) + (o->srun != NULL) + (o->sbatch != NULL) + (o->command != NULL);

  *status = WS_CLI_EXIT_USAGE;
  if (kinds != 1)
    {
      ws_cli_usage_error ("targets", _("say what the target is with one of --ssh HOST, --srun "
                                       "OPTIONS, --sbatch OPTIONS or --command LAUNCHER."));
      return NULL;
    }
  if (o->port < 0 || o->port > 65535)
    {
      ws_cli_usage_error ("targets", _("--port must be a number from 1 to 65535."));
      return NULL;
    }
  if (o->pending_timeout < -1)
    {
      ws_cli_usage_error ("targets", _("--pending-timeout must be 0 (wait as long as it "
                                       "takes) or more seconds."));
      return NULL;
    }
  if (!split_words ("--ssh-options", o->ssh_options, &ssh_words)
      || !split_words (o->srun != NULL ? "--srun" : "--sbatch",
                       o->srun != NULL ? o->srun : o->sbatch, &slurm)
      || !split_words ("--command", o->command, &launcher))
    return NULL;
  target = ws_target_new (name, o->ssh != NULL    ? WS_TARGET_SSH
                                : o->srun != NULL ? WS_TARGET_SLURM_SRUN
                                : o->sbatch != NULL ? WS_TARGET_SLURM_SBATCH
                                                    : WS_TARGET_COMMAND);
  ws_target_set_host (target, o->ssh != NULL ? o->ssh : o->host);
  ws_target_set_port (target, (guint) o->port);
  ws_target_set_ssh_options (target, (const char *const *) ssh_words);
  ws_target_set_slurm_options (target, (const char *const *) slurm);
  ws_target_set_launcher (target, (const char *const *) launcher);
  ws_target_set_remote_shell (target, o->remote_shell
                                        || ws_launcher_is_ssh ((const char *const *) launcher));
  ws_target_set_runner (target, o->runner);
  ws_target_set_environment (target, (const char *const *) o->env);
  ws_target_set_job_dir (target, o->job_dir);
  if (o->pending_timeout >= 0)
    ws_target_set_pending_timeout (target, (guint) o->pending_timeout);
  *status = WS_CLI_EXIT_OK;
  return g_steal_pointer (&target);
}

static int
add_target (WsTargetList *list, int argc, char **argv)
{
  g_auto (AddOptions) o = { .pending_timeout = -1 };
  GOptionEntry entries[] = {
    { "ssh", 0, 0, G_OPTION_ARG_STRING, &o.ssh,
      N_("A GPU server reached with ssh: the host as ssh takes it (an alias of ~/.ssh/config, "
         "user@host)"), "HOST" },
    { "srun", 0, 0, G_OPTION_ARG_STRING, &o.srun,
      N_("A Slurm job step for each run: srun's options, e.g. \"-p gpu --gres=gpu:1\""),
      "OPTIONS" },
    { "sbatch", 0, 0, G_OPTION_ARG_STRING, &o.sbatch,
      N_("A Slurm batch job for each run (sbatch --wait), its output followed as it grows: "
         "sbatch's options"), "OPTIONS" },
    { "command", 0, 0, G_OPTION_ARG_STRING, &o.command,
      N_("Any other launcher in front of the runner, e.g. \"env CUDA_VISIBLE_DEVICES=1\""),
      "LAUNCHER" },
    { "host", 0, 0, G_OPTION_ARG_STRING, &o.host,
      N_("With --srun or --sbatch: the login node to run them on, reached with ssh"), "HOST" },
    { "port", 'p', 0, G_OPTION_ARG_INT, &o.port, N_("ssh's port (default: ssh's own)"), "N" },
    { "ssh-options", 0, 0, G_OPTION_ARG_STRING, &o.ssh_options,
      N_("More options for ssh, e.g. \"-i ~/.ssh/gpu -J gateway\""), "OPTIONS" },
    { "runner", 0, 0, G_OPTION_ARG_STRING, &o.runner,
      N_("The runner's path there (default: warpscope-runner from the PATH there)"), "PATH" },
    { "env", 'e', 0, G_OPTION_ARG_STRING_ARRAY, &o.env,
      N_("A variable for the runner there (again for more)"), "NAME=VALUE" },
    { "pending-timeout", 0, 0, G_OPTION_ARG_INT, &o.pending_timeout,
      N_("Seconds a Slurm job may wait for resources before it is given up (default 120; 0: "
         "as long as it takes)"), "SECONDS" },
    { "job-dir", 0, 0, G_OPTION_ARG_STRING, &o.job_dir,
      N_("With --sbatch: where jobs write their output, on a file system the nodes share "
         "(default ~/.cache/warpscope/jobs there)"), "DIR" },
    { "remote-shell", 0, 0, G_OPTION_ARG_NONE, &o.remote_shell,
      N_("With --command: it hands a command line to a shell on another machine, as ssh does "
         "(automatic when it is ssh)"), NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (WsTarget) target = NULL;
  g_autoptr (GError) error = NULL;
  int status;

  context = ws_cli_context_new ("targets", _("add NAME"),
                                _("Saves a target: where run, devices and kernels start the "
                                  "runner when given --target NAME."),
                                NULL, entries);
  if (!ws_cli_parse (context, "targets", &argc, &argv))
    return WS_CLI_EXIT_USAGE;
  if (argc != 3)
    return ws_cli_usage_error ("targets", _("targets add takes the new target's name, then "
                                            "what it is: targets add gpu-box --ssh gpu-box"));
  if ((target = target_from (argv[2], &o, &status)) == NULL)
    return status;
  if (!ws_target_list_add (list, target, &error))
    return ws_cli_usage_error ("targets", "%s", error->message);
  if (!ws_target_list_save (list, &error))
    {
      ws_cli_error ("targets", "%s", error->message);
      return WS_CLI_EXIT_FAILED;
    }
  {
    g_autofree char *description = ws_target_dup_description (target);
    g_autofree char *text = g_strdup_printf (_("Saved the target “%s”: %s\n"), argv[2],
                                             description);

    ws_cli_write (stdout, text);
  }
  return WS_CLI_EXIT_OK;
}

int
ws_cli_targets (int argc, char **argv)
{
  g_autoptr (WsTargetList) list = NULL;
  g_autoptr (GError) error = NULL;
  const char *action = argc > 1 ? argv[1] : "list";

  if (g_str_equal (action, "--help") || g_str_equal (action, "-h"))
    {
      ws_cli_write_help (stdout,
                    _("Usage: warpscope-cli targets [list]\n"
                      "       warpscope-cli targets add NAME --ssh HOST | --srun OPTIONS | "
                      "--sbatch OPTIONS | --command LAUNCHER [OPTION…]\n"
                      "       warpscope-cli targets remove NAME\n\n"
                      "The saved targets: where run, devices and kernels start the runner with "
                      "--target NAME (a GPU server over ssh, a Slurm cluster). “targets add "
                      "--help” shows add's options. They are kept in "
                      "~/.config/warpscope/targets.conf, or the file $WARPSCOPE_TARGETS names.\n"
                      "Exit status: 0 done; 1 the file could not be read or written; 2 bad "
                      "arguments.\n"));
      return WS_CLI_EXIT_OK;
    }
  if ((list = ws_target_list_load (NULL, &error)) == NULL)
    {
      ws_cli_error ("targets", "%s", error->message);
      return WS_CLI_EXIT_FAILED;
    }
  if (g_str_equal (action, "list") && argc <= 2)
    return list_targets (list);
  if (g_str_equal (action, "add"))
    return add_target (list, argc, argv);
  if (g_str_equal (action, "remove") && argc == 3)
    {
      if (!ws_target_list_remove (list, argv[2], &error))
        return ws_cli_usage_error ("targets", "%s", error->message);
      if (!ws_target_list_save (list, &error))
        {
          ws_cli_error ("targets", "%s", error->message);
          return WS_CLI_EXIT_FAILED;
        }
      return WS_CLI_EXIT_OK;
    }
  return ws_cli_usage_error ("targets", _("“%s”: targets takes list, add NAME … or remove "
                                          "NAME."),
                             action);
}

/* ws-target-argv.c: the command lines a target stands for. Nothing here runs a shell on this
 * machine: where ssh joins words into a command line for the far side's shell, every word of
 * ours is quoted for it (g_shell_quote: 'it'\''s', the one quoting of the model, the runner
 * client's included), so that it arrives exactly as given.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-target.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ws-model-resources.h"
#include "ws-runner-client.h"

/* The far side's scripts (resources/jobs/, compiled into the model's resources), each its
 * file's text as it is:
 *
 * ssh-watchdog.sh, run by the far side's shell in front of the runner: the runner in the
 * background with nothing on its stdin, while a reader waits on ours, which is the connection.
 * When the connection ends (Stop here, a laptop that went to sleep, a network gone), the reader
 * sees the end and stops the runner (SIGTERM, SIGKILL 2 s later if it is still there): sshd
 * signals nothing to the runner of a command without a terminal, and a runner inside a hung
 * kernel writes nothing that could fail. A SIGHUP or SIGTERM to the shell goes to the runner.
 * The reader's output goes nowhere, so that the session ends as soon as the runner does.
 *
 * sbatch-wait.sh: sbatch --wait, and the job's output followed as it grows, as srun would
 * stream it. $1: the folder for the output (on a file system the nodes share), $2: the job's
 * command, already quoted for its shell; then sbatch's own options. The job id goes to stderr
 * in Slurm's words ("job N queued and waiting for resources", "job N has been allocated
 * resources"), so that a pending job is recognised as srun's is; Stop cancels the job. Once
 * the runner's done record is there the script stops following: sbatch --wait may take
 * seconds more to notice that the job ended, and the job's status is the done record's; when
 * sbatch ends first, the job's last lines may reach a shared file system a moment later, so it
 * waits for them up to 10 s. */
static char *
job_script (const char *name)
{
  g_autofree char *path = g_strconcat ("/org/warpscope/Warpscope/model/jobs/", name, NULL);
  g_autoptr (GBytes) bytes = g_resource_lookup_data (_ws_model_get_resource (), path,
                                                     G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  gsize length;
  const char *text;

  /* Compiled in: missing only in a broken build. */
  g_assert (bytes != NULL);
  text = g_bytes_get_data (bytes, &length);
  return g_strndup (text, length);
}

static void
add (GPtrArray *argv, const char *word)
{
  g_ptr_array_add (argv, g_strdup (word));
}

static void
add_all (GPtrArray *argv, const char *const *words)
{
  for (guint i = 0; words != NULL && words[i] != NULL; i++)
    add (argv, words[i]);
}

/* Words quoted for a shell, joined by spaces: one command line. */
static char *
join_quoted (GPtrArray *words)
{
  GString *line = g_string_new (NULL);

  for (guint i = 0; i < words->len; i++)
    {
      g_autofree char *quoted = g_shell_quote (g_ptr_array_index (words, i));

      if (i > 0)
        g_string_append_c (line, ' ');
      g_string_append (line, quoted);
    }
  return g_string_free (line, FALSE);
}

/* [env NAME=VALUE…] RUNNER ARGS… */
static GPtrArray *
runner_words (WsTarget *self, const char *const *args, GError **error)
{
  GPtrArray *words = g_ptr_array_new_with_free_func (g_free);
  const char *const *environment = ws_target_get_environment (self);
  const char *runner = ws_target_get_runner (self);
  g_autofree char *found = NULL;

  if (environment != NULL)
    {
      add (words, "env");
      add_all (words, environment);
    }
  if (runner == NULL && ws_target_is_remote (self))
    runner = "warpscope-runner";
  else if (runner == NULL)
    {
      found = ws_runner_find ();
      if (found == NULL)
        {
          g_set_error_literal (error, WS_TARGET_ERROR, WS_TARGET_ERROR_NO_RUNNER,
                               _("there is no warpscope-runner here: this Warpscope was built "
                                 "without the CUDA toolkit. Give the runner's path, set "
                                 "WARPSCOPE_RUNNER, or choose a target with a GPU; recordings "
                                 "need no runner."));
          g_ptr_array_unref (words);
          return NULL;
        }
      runner = found;
    }
  add (words, runner);
  add_all (words, args);
  return words;
}

/* ssh OPTIONS -- HOST 'exec sh -c WATCHDOG warpscope WORDS…' */
static void
add_ssh (WsTarget *self, GPtrArray *argv, GPtrArray *remote_words)
{
  g_autoptr (GPtrArray) wrapped = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *joined = NULL;
  g_autofree char *watchdog = job_script ("ssh-watchdog.sh");

  /* Keys only: a password prompt has no terminal to ask on. A host that does not answer is
   * given up after 20 s, a connection that went dead (a laptop asleep) within a minute. */
  add_all (argv, (const char *const[]) { "ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=20",
                                         "-o", "ServerAliveInterval=15", "-o",
                                         "ServerAliveCountMax=4", NULL });
  if (ws_target_get_port (self) != 0)
    {
      add (argv, "-p");
      g_ptr_array_add (argv, g_strdup_printf ("%u", ws_target_get_port (self)));
    }
  add_all (argv, ws_target_get_ssh_options (self));
  /* After "--", a host cannot be taken for an option (-oProxyCommand=…). */
  add (argv, "--");
  add (argv, ws_target_get_host (self));
  add_all (wrapped, (const char *const[]) { "sh", "-c", watchdog, "warpscope", NULL });
  for (guint i = 0; i < remote_words->len; i++)
    add (wrapped, g_ptr_array_index (remote_words, i));
  joined = join_quoted (wrapped);
  g_ptr_array_add (argv, g_strdup_printf ("exec %s", joined));
}

static GPtrArray *
slurm_words (WsTarget *self, GPtrArray *runner)
{
  GPtrArray *words = g_ptr_array_new_with_free_func (g_free);

  if (ws_target_get_kind (self) == WS_TARGET_SLURM_SRUN)
    {
      /* srun hands its argv to the job step as it is: no shell, no quoting. */
      add_all (words, (const char *const[]) { "srun", "--job-name=warpscope", "--ntasks=1", NULL });
      add_all (words, ws_target_get_slurm_options (self));
      for (guint i = 0; i < runner->len; i++)
        add (words, g_ptr_array_index (runner, i));
    }
  else
    {
      g_autofree char *script = job_script ("sbatch-wait.sh");

      /* sbatch --wrap writes its command into a /bin/sh script: quoted for that shell. */
      add_all (words, (const char *const[]) { "sh", "-c", script, "warpscope-sbatch", NULL });
      add (words, ws_target_get_job_dir (self) != NULL ? ws_target_get_job_dir (self) : "");
      g_ptr_array_add (words, join_quoted (runner));
      add_all (words, ws_target_get_slurm_options (self));
    }
  return words;
}

char **
ws_target_build_argv (WsTarget *self, const char *const *args, GError **error)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) runner = NULL;
  g_autoptr (GPtrArray) far = NULL;

  g_return_val_if_fail (WS_IS_TARGET (self), NULL);
  if (!ws_target_validate (self, error) || (runner = runner_words (self, args, error)) == NULL)
    return NULL;

  switch (ws_target_get_kind (self))
    {
    case WS_TARGET_LOCAL:
      far = g_steal_pointer (&runner);
      break;
    case WS_TARGET_SSH:
      add_ssh (self, argv, runner);
      break;
    case WS_TARGET_SLURM_SRUN:
    case WS_TARGET_SLURM_SBATCH:
      far = slurm_words (self, runner);
      if (ws_target_get_host (self) != NULL)
        {
          add_ssh (self, argv, far);
          g_clear_pointer (&far, g_ptr_array_unref);
        }
      break;
    case WS_TARGET_COMMAND:
      {
        /* Judged again here, not only when the target was made: a target saved by an
         * older Warpscope, or by hand, may say no remote shell for a launcher ending in ssh. */
        gboolean remote = ws_target_get_remote_shell (self)
                          || ws_launcher_is_ssh (ws_target_get_launcher (self));

        add_all (argv, ws_target_get_launcher (self));
        for (guint i = 0; i < runner->len; i++)
          g_ptr_array_add (argv, remote ? g_shell_quote (g_ptr_array_index (runner, i))
                                        : g_strdup (g_ptr_array_index (runner, i)));
      }
      break;
    }
  for (guint i = 0; far != NULL && i < far->len; i++)
    add (argv, g_ptr_array_index (far, i));
  g_ptr_array_add (argv, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&argv), FALSE);
}

char **
ws_target_build_squeue_argv (WsTarget *self, const char *job_id)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) words = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (WS_IS_TARGET (self), NULL);
  if (!ws_target_is_slurm (self))
    return NULL;
  add_all (words, (const char *const[]) { "squeue", "-h", "-j", job_id, "-o", "%r", NULL });
  if (ws_target_get_host (self) != NULL)
    add_ssh (self, argv, words);
  else
    for (guint i = 0; i < words->len; i++)
      add (argv, g_ptr_array_index (words, i));
  g_ptr_array_add (argv, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&argv), FALSE);
}

gboolean
ws_target_needs_stdin (WsTarget *self)
{
  g_return_val_if_fail (WS_IS_TARGET (self), FALSE);
  return ws_target_get_kind (self) == WS_TARGET_SSH
         || (ws_target_is_slurm (self) && ws_target_get_host (self) != NULL);
}

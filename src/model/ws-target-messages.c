/* ws-target-messages.c: what comes back from a target, in plain words: the far side's runner
 * checked against its hello, and what ssh, srun and sbatch say when they fail, recognised by
 * their own messages and quoted, so that a person reads both what happened and the words of
 * the program that said so.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-target.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ws-session.h"

/* ---- the hello --------------------------------------------------------------------------- */

/* "0.1.0" → {0, 1, 0}; FALSE when it does not start with numbers (a stand-in's "test"). */
static gboolean
parse_version (const char *text, guint64 parts[3])
{
  const char *p = text;

  for (int i = 0; i < 3; i++)
    {
      char *end;

      parts[i] = 0;
      if (p == NULL || !g_ascii_isdigit (*p))
        return i > 0;
      parts[i] = g_ascii_strtoull (p, &end, 10);
      p = *end == '.' ? end + 1 : NULL;
    }
  return TRUE;
}

static int
compare_versions (const guint64 a[3], const guint64 b[3])
{
  for (int i = 0; i < 3; i++)
    if (a[i] != b[i])
      return a[i] < b[i] ? -1 : 1;
  return 0;
}

gboolean
ws_target_check_hello (WsTarget *self, const WsHello *hello, GError **error)
{
  const char *version;
  gint64 protocol;
  guint64 have[3], need[3];
  g_autofree char *place = NULL;

  g_return_val_if_fail (WS_IS_TARGET (self), FALSE);
  g_return_val_if_fail (hello != NULL, FALSE);

  version = hello->runner;
  protocol = hello->protocol;
  place = ws_target_dup_place (self);
  if (protocol > WS_SESSION_PROTOCOL)
    {
      g_set_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_RUNNER_VERSION,
                   /* Translators: the runner's version, where it runs, its protocol, the
                    * newest protocol this Warpscope reads. */
                   _("warpscope-runner %1$s on %2$s speaks protocol %3$d; this Warpscope reads "
                     "protocol %4$d and older. Update Warpscope here, or install the runner of "
                     "this Warpscope's version there."),
                   version != NULL ? version : "?", place, (int) protocol, WS_SESSION_PROTOCOL);
      return FALSE;
    }
  if (version == NULL || !parse_version (version, have))
    return TRUE; /* a development build or a stand-in: nothing to compare */
  parse_version (WS_RUNNER_MIN_VERSION, need);
  if (compare_versions (have, need) < 0)
    {
      g_set_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_RUNNER_VERSION,
                   /* Translators: the runner's version, where it runs, its protocol, the
                    * oldest runner version this Warpscope drives. */
                   _("warpscope-runner %1$s on %2$s speaks protocol %3$d; this Warpscope needs "
                     "warpscope-runner %4$s or newer. Install a newer runner there (meson setup "
                     "-Dgui=disabled build && ninja -C build install), or give the target the "
                     "path of one."),
                   version, place, (int) protocol, WS_RUNNER_MIN_VERSION);
      return FALSE;
    }
  return TRUE;
}

/* ---- launchers' messages ----------------------------------------------------------------- */

/* The line of `text` that holds `needle`, trimmed; NULL when none does. */
static char *
line_with (const char *text, const char *needle)
{
  const char *hit = text != NULL ? strstr (text, needle) : NULL;
  const char *start, *end;

  if (hit == NULL)
    return NULL;
  for (start = hit; start > text && start[-1] != '\n'; start--)
    ;
  end = strchr (hit, '\n');
  return g_strstrip (g_strndup (start, end != NULL ? (gsize) (end - start) : strlen (start)));
}

/* The last line of `text` that is not empty, trimmed. */
static char *
last_line (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text != NULL ? text : "", "\n", -1);

  for (guint n = g_strv_length (lines); n > 0; n--)
    {
      char *line = g_strstrip (lines[n - 1]);

      if (*line != '\0')
        return g_strdup (line);
    }
  return NULL;
}

/* The partition a target's Slurm options name (-p X, --partition=X, --partition X). */
static char *
partition_of (WsTarget *self)
{
  const char *const *o = ws_target_get_slurm_options (self);

  for (guint i = 0; o != NULL && o[i] != NULL; i++)
    {
      if (g_str_has_prefix (o[i], "--partition="))
        return g_strdup (o[i] + strlen ("--partition="));
      if (g_str_has_prefix (o[i], "-p") && o[i][2] != '\0')
        return g_strdup (o[i] + 2);
      if ((g_str_equal (o[i], "-p") || g_str_equal (o[i], "--partition")) && o[i + 1] != NULL)
        return g_strdup (o[i + 1]);
    }
  return NULL;
}

static GError *
ssh_failure (WsTarget *self, const char *place, const char *text)
{
  g_autofree char *said = NULL;

  if ((said = line_with (text, "Could not resolve hostname")) != NULL)
    return g_error_new (WS_TARGET_ERROR, WS_TARGET_ERROR_UNREACHABLE,
                        _("%s cannot be found: ssh could not resolve the host name (%s). Check "
                          "the name, and the entry in ~/.ssh/config if it is an alias."),
                        place, said);
  if ((said = line_with (text, "Connection refused")) != NULL)
    return g_error_new (WS_TARGET_ERROR, WS_TARGET_ERROR_UNREACHABLE,
                        _("%s refused the connection (%s): no ssh server answers there on that "
                          "port. Check the host and the port."),
                        place, said);
  if ((said = line_with (text, "timed out")) != NULL
      || (said = line_with (text, "No route to host")) != NULL
      || (said = line_with (text, "Network is unreachable")) != NULL)
    return g_error_new (WS_TARGET_ERROR, WS_TARGET_ERROR_UNREACHABLE,
                        _("%s cannot be reached (%s): is it switched on, and is this computer on "
                          "its network (a VPN, a jump host with -J)?"),
                        place, said);
  if ((said = line_with (text, "Host key verification failed")) != NULL)
    return g_error_new (WS_TARGET_ERROR, WS_TARGET_ERROR_REFUSED,
                        _("the host key of %s is not known here, or it has changed (%s). Connect "
                          "once with ssh in a terminal to check it and accept it."),
                        place, said);
  if ((said = line_with (text, "Permission denied (")) != NULL)
    return g_error_new (WS_TARGET_ERROR, WS_TARGET_ERROR_REFUSED,
                        _("%s refused the login (%s). Warpscope logs in with keys, never a "
                          "password: add your public key there (ssh-copy-id), load it into your "
                          "ssh agent, or name it in the target's ssh options (-i KEY)."),
                        place, said);
  if ((said = last_line (text)) != NULL)
    return g_error_new (WS_TARGET_ERROR, WS_TARGET_ERROR_UNREACHABLE,
                        _("ssh could not connect to %s: %s"), place, said);
  return NULL;
}

static GError *
slurm_failure (WsTarget *self, const char *text)
{
  g_autofree char *said = NULL;
  g_autofree char *partition = partition_of (self);

  if ((said = line_with (text, "invalid partition specified")) != NULL
      || (said = line_with (text, "Invalid partition name specified")) != NULL)
    return g_error_new (WS_TARGET_ERROR, WS_TARGET_ERROR_REFUSED,
                        _("Slurm has no partition “%s” (%s). “sinfo -s” lists the partitions; "
                          "change the target's -p option."),
                        partition != NULL ? partition : "?", said);
  if ((said = line_with (text, "Requested node configuration is not available")) != NULL)
    return g_error_new (WS_TARGET_ERROR, WS_TARGET_ERROR_REFUSED,
                        _("no node of the cluster has what the job asks for (%s): check the "
                          "GPUs (--gres), CPUs and memory the target's options ask for against "
                          "“sinfo -o '%%P %%G %%c %%m'”."),
                        said);
  if ((said = line_with (text, "Unable to contact slurm controller")) != NULL
      || (said = line_with (text, "Unable to establish")) != NULL)
    return g_error_new (WS_TARGET_ERROR, WS_TARGET_ERROR_UNREACHABLE,
                        _("Slurm's controller does not answer (%s): the cluster may be down, or "
                          "this is not a machine that can submit jobs."),
                        said);
  if ((said = line_with (text, "Unable to allocate resources")) != NULL
      || (said = line_with (text, "Batch job submission failed")) != NULL)
    return g_error_new (WS_TARGET_ERROR, WS_TARGET_ERROR_REFUSED,
                        _("Slurm refused the job (%s): change the target's options."), said);
  return NULL;
}

/* A runner (or srun, or sbatch) that is not at the path given, in the words of the far
 * side's shell, or of slurmstepd. */
static GError *
missing_program (WsTarget *self, const char *place, int status, const char *text)
{
  g_autofree char *said = NULL;
  const char *runner = ws_target_get_runner (self);
  static const char *const no_slurm[] = { "srun: not found", "srun: command not found",
                                          "sbatch: not found", "sbatch: command not found",
                                          "squeue: not found", "squeue: command not found" };

  if (runner == NULL)
    runner = "warpscope-runner";
  if ((said = line_with (text, "execve()")) != NULL)
    return g_error_new (WS_TARGET_ERROR, WS_TARGET_ERROR_NO_RUNNER,
                        _("the job step could not start the runner “%s” (%s): install it where "
                          "the nodes see it (a shared file system), or give the target its "
                          "path."),
                        runner, said);
  if (status != 127 && status != 126)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (no_slurm); i++)
    if ((said = line_with (text, no_slurm[i])) != NULL)
      return g_error_new (WS_TARGET_ERROR, WS_TARGET_ERROR_NO_RUNNER,
                          _("Slurm's commands are not there on %s (%s): install Slurm's client, "
                            "or give the target the login node that has it."),
                          place, said);
  said = last_line (text);
  if (status == 126)
    return g_error_new (WS_TARGET_ERROR, WS_TARGET_ERROR_NO_RUNNER,
                        _("the runner “%s” on %s cannot be started (%s): check that it is a "
                          "warpscope-runner built for that machine, and executable."),
                        runner, place, said != NULL ? said : "");
  return g_error_new (WS_TARGET_ERROR, WS_TARGET_ERROR_NO_RUNNER,
                      _("there is no warpscope-runner at “%s” on %s (%s): install it there "
                        "(meson setup -Dgui=disabled build && ninja -C build install), or give "
                        "the target the runner's path."),
                      runner, place, said != NULL ? said : "");
}

GError *
ws_target_explain_failure (WsTarget *self, int status, const char *stderr_text)
{
  g_autofree char *place = NULL;
  GError *error = NULL;
  gboolean through_ssh;

  g_return_val_if_fail (WS_IS_TARGET (self), NULL);
  place = ws_target_dup_place (self);
  through_ssh = ws_target_needs_stdin (self);
  if (through_ssh && status == 255)
    {
      g_autofree char *host = g_strdup (ws_target_get_host (self));

      return ssh_failure (self, host, stderr_text);
    }
  if (ws_target_is_slurm (self) && (error = slurm_failure (self, stderr_text)) != NULL)
    return error;
  if (ws_target_get_kind (self) == WS_TARGET_COMMAND && status == 255
      && (error = ssh_failure (self, place, stderr_text)) != NULL)
    return error;
  return missing_program (self, place, status, stderr_text);
}

/* ---- pending jobs ------------------------------------------------------------------------ */

char *
ws_target_parse_pending (const char *line)
{
  const char *p = strstr (line, "job ");
  const char *tail = " queued and waiting for resources";
  const char *digits;

  for (; p != NULL; p = strstr (p + 1, "job "))
    {
      digits = p + 4;
      p = digits;
      while (g_ascii_isdigit (*p))
        p++;
      if (p > digits && g_str_has_prefix (p, tail))
        return g_strndup (digits, (gsize) (p - digits));
    }
  return NULL;
}

gboolean
ws_target_parse_allocated (const char *line)
{
  return strstr (line, " has been allocated resources") != NULL;
}

/* Slurm's reasons for a pending job (squeue %r) that a person meets most, in plain words. */
static const struct
{
  const char *reason;
  const char *meaning;
} reasons[] = {
  { "Resources", N_("the GPUs or other resources it asks for are all in use") },
  { "Priority", N_("jobs with a higher priority are ahead of it") },
  { "BeginTime", N_("it asked to start later (--begin)") },
  { "Dependency", N_("it waits for another job to end") },
  { "JobHeldUser", N_("it is held (scontrol release lets it go)") },
  { "JobHeldAdmin", N_("an administrator holds it") },
  { "ReqNodeNotAvail", N_("the nodes it asks for are down, drained or reserved") },
  { "PartitionDown", N_("its partition is down") },
  { "PartitionTimeLimit", N_("its time limit is longer than the partition allows") },
  { "QOSMaxGRESPerUser", N_("you already use as many GPUs as your QOS allows") },
  { "AssocGrpGRES", N_("your account already uses as many GPUs as it may") },
};

GError *
ws_target_pending_error (WsTarget *self, const char *job_id, guint seconds, const char *reason)
{
  g_autofree char *clean = g_strstrip (g_strdup (reason != NULL ? reason : ""));
  const char *meaning = NULL;

  g_return_val_if_fail (WS_IS_TARGET (self), NULL);
  for (guint i = 0; i < G_N_ELEMENTS (reasons); i++)
    if (g_str_has_prefix (clean, reasons[i].reason))
      meaning = _(reasons[i].meaning);
  if (*clean == '\0')
    return g_error_new (WS_TARGET_ERROR, WS_TARGET_ERROR_PENDING,
                        g_dngettext (GETTEXT_PACKAGE,
                                     "Slurm job %s was still waiting for resources after %u "
                                     "second and was cancelled.",
                                     "Slurm job %s was still waiting for resources after %u "
                                     "seconds and was cancelled.",
                                     seconds),
                        job_id, seconds);
  if (meaning != NULL)
    return g_error_new (WS_TARGET_ERROR, WS_TARGET_ERROR_PENDING,
                        /* Translators: the job id, the seconds it waited, squeue's reason
                         * (a Slurm word such as Resources), what the reason means. */
                        g_dngettext (GETTEXT_PACKAGE,
                                     "Slurm job %1$s was still waiting after %2$u second and was "
                                     "cancelled. squeue gives the reason %3$s: %4$s. Try again "
                                     "later, ask for less, or choose another partition.",
                                     "Slurm job %1$s was still waiting after %2$u seconds and was "
                                     "cancelled. squeue gives the reason %3$s: %4$s. Try again "
                                     "later, ask for less, or choose another partition.",
                                     seconds),
                        job_id, seconds, clean, meaning);
  return g_error_new (WS_TARGET_ERROR, WS_TARGET_ERROR_PENDING,
                      /* Translators: the job id, the seconds it waited, squeue's reason. */
                      g_dngettext (GETTEXT_PACKAGE,
                                   "Slurm job %1$s was still waiting after %2$u second and was "
                                   "cancelled. squeue gives the reason %3$s.",
                                   "Slurm job %1$s was still waiting after %2$u seconds and was "
                                   "cancelled. squeue gives the reason %3$s.",
                                   seconds),
                      job_id, seconds, clean);
}

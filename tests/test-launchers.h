/* test-launchers.h: the window's targets under test: stand-ins for ssh, srun and squeue on
 * PATH and a runner for the far side, which record the argv they are given; saved targets
 * through them; waiting for the window's probe and catalog; the set-up of such a test program
 * (header only: each test is one program, and each has its own folder).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib/gstdio.h>

#include "test-app-util.h"
#include "test-standin.h"
#include "ws-environment.h"
#include "ws-plan.h"
#include "ws-target-list.h"
#include "ws-target-picker.h"

static char *top; /* this run's folder */
static char *far_runner;

/* ---- the stand-ins ----------------------------------------------------------------------- */

/* ssh: records its argv (NUL-separated) and runs the command line it was given, as the far
 * side's shell would; fails as ssh does for the hosts "nowhere" and "locked". srun: fails for
 * the partition "nogpu", waits for resources for "busy", else runs its command. squeue:
 * gives the reason Resources. */
static inline void
write_launchers (void)
{
  g_autofree char *bin = g_build_filename (top, "bin", NULL);
  g_autofree char *ssh = g_build_filename (bin, "ssh", NULL);
  g_autofree char *srun = g_build_filename (bin, "srun", NULL);
  g_autofree char *squeue = g_build_filename (bin, "squeue", NULL);
  g_autofree char *ssh_text = g_strdup_printf (
    "#!/bin/sh\n"
    "printf '%%s\\0' \"$@\" > '%s/ssh-argv.'$$\n"
    "host=; prev=\n"
    "for a in \"$@\"; do [ \"$prev\" = -- ] && host=$a; prev=$a; last=$a; done\n"
    "case $host in\n"
    "  nowhere) echo 'ssh: Could not resolve hostname nowhere: Name or service not known' >&2;"
    " exit 255 ;;\n"
    "  locked) echo 'student@locked: Permission denied (publickey).' >&2; exit 255 ;;\n"
    "esac\n"
    "exec sh -c \"$last\"\n",
    top);
  const char *srun_text
    = "#!/bin/sh\n"
      "case \" $* \" in\n"
      "  *' -p nogpu '*) echo 'srun: error: Unable to allocate resources: Invalid partition "
      "name specified' >&2; exit 1 ;;\n"
      "  *' -p busy '*) echo 'srun: job 42 queued and waiting for resources' >&2; sleep 30;"
      " exit 1 ;;\n"
      "esac\n"
      "while [ $# -gt 0 ] && [ \"${1#-}\" != \"$1\" ]; do shift; done\n"
      "exec \"$@\"\n";
  g_autofree char *path = g_strdup_printf ("%s:%s", bin, g_getenv ("PATH"));

  g_mkdir_with_parents (bin, 0755);
  g_assert_true (g_file_set_contents (ssh, ssh_text, -1, NULL));
  g_assert_true (g_file_set_contents (srun, srun_text, -1, NULL));
  g_assert_true (g_file_set_contents (squeue, "#!/bin/sh\necho Resources\n", -1, NULL));
  g_chmod (ssh, 0755);
  g_chmod (srun, 0755);
  g_chmod (squeue, 0755);
  g_setenv ("PATH", path, TRUE);
}

/* The runner on the far side: records its argv, answers --list with a catalog of its own (a
 * kernel named far_add), the rest as the two-GPU stand-in does. */
static inline void
write_far_runner (const char *standin)
{
  g_autofree char *sample = standin_sample_path ();
  g_autofree char *text = g_strdup_printf (
    "#!/bin/sh\n"
    "printf '%%s\\0' \"$@\" > '%s/far-argv.'$$\n"
    "if [ \"$1\" = --list ]; then\n"
    "  grep -E '\"type\":\"(hello|kernel)\"' '%s' | sed 's/\"name\":\"vector_add\"/\"name\":\"far_add\"/'\n"
    "  exit 0\n"
    "fi\n"
    "exec '%s' \"$@\"\n",
    top, sample, standin);

  far_runner = g_build_filename (top, "far-runner", NULL);
  g_assert_true (g_file_set_contents (far_runner, text, -1, NULL));
  g_chmod (far_runner, 0755);
}

/* The argv files a stand-in wrote (prefix "ssh-argv." or "far-argv."), each as a GStrv, and
 * removes them. */
static inline GPtrArray *
take_argvs_in (const char *folder, const char *prefix)
{
  GPtrArray *found = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr (GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);
      g_autofree char *text = NULL;
      gsize length;
      g_autoptr (GStrvBuilder) words = g_strv_builder_new ();

      if (!g_str_has_prefix (name, prefix))
        continue;
      g_assert_true (g_file_get_contents (path, &text, &length, NULL));
      for (gsize at = 0; at < length; at += strlen (text + at) + 1)
        g_strv_builder_add (words, text + at);
      g_ptr_array_add (found, g_strv_builder_end (words));
      g_unlink (path);
    }
  return found;
}

static inline GPtrArray *
take_argvs (const char *prefix)
{
  return take_argvs_in (top, prefix);
}

/* How many of `argvs` hold the words `seq` one after the other, and how many of those also
 * hold `also` (NULL: any). */
static inline guint
count_with (GPtrArray *argvs, const char *const *seq, const char *also)
{
  guint n = 0;

  for (guint i = 0; i < argvs->len; i++)
    {
      char **argv = g_ptr_array_index (argvs, i);
      gboolean hit = FALSE;

      for (guint a = 0; argv[a] != NULL && !hit; a++)
        {
          guint k = 0;

          while (seq[k] != NULL && argv[a + k] != NULL && g_str_equal (argv[a + k], seq[k]))
            k++;
          hit = seq[k] == NULL;
        }
      n += hit && (also == NULL || g_strv_contains ((const char *const *) argv, also));
    }
  return n;
}

static inline gboolean
has_argv (GPtrArray *argvs, const char *const *want)
{
  for (guint i = 0; i < argvs->len; i++)
    if (g_strv_equal (g_ptr_array_index (argvs, i), want))
      return TRUE;
  return FALSE;
}

/* A fresh file of saved targets for each test, and the settings as they start. */
static inline WsTargetList *
new_targets (const char *test)
{
  g_autofree char *path = g_strdup_printf ("%s/targets-%s.conf", top, test);
  g_autoptr (GSettings) settings = g_settings_new ("org.warpscope.Warpscope");

  /* The last test's windows let go of the shared list, which is then read again. */
  ws_test_spin_for (200);
  g_unlink (path);
  g_setenv ("WARPSCOPE_TARGETS", path, TRUE);
  g_settings_reset (settings, "target");
  g_settings_reset (settings, "devices");
  g_settings_reset (settings, "launcher");
  return ws_target_list_new (path);
}

static inline void
add_target (WsTargetList *list, WsTarget *target)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (ws_target_list_add (list, target, &error));
  g_assert_no_error (error);
  g_assert_true (ws_target_list_save (list, &error));
  g_object_unref (target);
}

static inline WsTarget *
ssh_target (const char *name, const char *host)
{
  WsTarget *target = ws_target_new (name, WS_TARGET_SSH);

  ws_target_set_host (target, host);
  ws_target_set_runner (target, far_runner);
  return target;
}

static inline WsTarget *
srun_target (const char *name, const char *partition)
{
  WsTarget *target = ws_target_new (name, WS_TARGET_SLURM_SRUN);

  ws_target_set_slurm_options (target, (const char *const[]) { "-p", partition, NULL });
  ws_target_set_runner (target, far_runner);
  ws_target_set_pending_timeout (target, 1);
  return target;
}

/* ---- waiting ----------------------------------------------------------------------------- */

static inline WsEnvironment *
environment_of (WsWindow *window)
{
  return ws_test_view (window, "environment");
}

static inline gboolean
answered (gpointer window)
{
  return ws_environment_get_state (environment_of (window)) != WS_ENVIRONMENT_PROBING;
}

static inline void
pick (WsWindow *window, const char *name)
{
  ws_target_picker_set_selected (ws_test_view (window, "target_picker"), name);
  ws_test_spin_until (answered, window, 30000);
  g_assert_true (answered (window));
}

typedef struct
{
  WsPlan *plan;
  const char *kernel;
} KernelWait;

static inline gboolean
kernel_is (gpointer data)
{
  KernelWait *wait = data;

  return ws_plan_get_n_kernels (wait->plan) > 0
         && g_strcmp0 (ws_plan_get_kernel_name (wait->plan, 0), wait->kernel) == 0;
}

/* The catalog may come after the GPUs. */
static inline void
wait_for_kernel (WsWindow *window, const char *kernel)
{
  KernelWait wait = { ws_test_view (window, "plan"), kernel };

  ws_test_spin_until (kernel_is, &wait, 30000);
  g_assert_cmpuint (ws_plan_get_n_kernels (wait.plan), >, 0);
  g_assert_cmpstr (ws_plan_get_kernel_name (wait.plan, 0), ==, kernel);
}

static inline gboolean
not_running (gpointer data)
{
  return !ws_window_is_running (data);
}

static inline WsWindow *
window_ready (void)
{
  WsWindow *window = ws_test_new_window ();

  ws_test_spin_until (answered, window, 30000);
  g_assert_cmpint (ws_environment_get_state (environment_of (window)), ==, WS_ENVIRONMENT_READY);
  return window;
}

/* ---- the program ------------------------------------------------------------------------- */

/* This program's folder and cache; this computer's runner answers as two GPUs, and so does the
 * far side's, behind its own. */
static inline void
launchers_init (int *argc, char ***argv)
{
  g_autofree char *cache = NULL;
  g_autofree char *standin = NULL;

  top = g_dir_make_tmp ("ws-app-targets-XXXXXX", NULL);
  cache = g_build_filename (top, "cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  gtk_test_init (argc, argv, NULL);
  adw_init ();
  standin_write_shares (top, 2, FALSE);
  standin = standin_write_runner (top, 2, 0, NULL);
  g_setenv ("WARPSCOPE_RUNNER", standin, TRUE);
  write_far_runner (standin);
  write_launchers ();
}

/* Runs the tests; the folder is left for a look when one failed. */
static inline int
launchers_run (void)
{
  int status = g_test_run ();

  if (status == 0)
    {
      g_autofree char *command = g_strdup_printf ("rm -rf '%s'", top);

      g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL);
    }
  return status;
}

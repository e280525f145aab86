/* test-app-targets.c: the window and its targets, under Xvfb with no GPU: picking a target in
 * the header bar asks its runner again through its launcher (stand-ins for ssh, srun and
 * squeue that record the argv they are given), a launcher that fails is shown in its own
 * words, the old launcher prefix becomes a target, the targets dialog checks before it saves,
 * and a sweep split across two GPUs (a stand-in runner that answers as two devices) gives
 * one session in plan order with each run's GPU, stops both runners, and keeps one GPU's runs
 * when the other fails; a traced program runs on the chosen target.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>

#include "test-app-util.h"
#include "test-standin.h"
#include "ws-config-sidebar.h"
#include "ws-devices-group.h"
#include "ws-runs-view.h"
#include "ws-target-dialog.h"
#include "ws-target-picker.h"
#include "ws-trace-dialog.h"
#include "ws-trace.h"

static char *top;      /* this run's folder */
static char *far_runner;

/* ---- the stand-ins ----------------------------------------------------------------------- */

/* ssh: records its argv (NUL-separated) and runs the command line it was given, as the far
 * side's shell would; fails as ssh does for the hosts "nowhere" and "locked". srun: fails for
 * the partition "nogpu", waits for resources for "busy", else runs its command. squeue:
 * gives the reason Resources. */
static void
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
static void
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
static GPtrArray *
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

static GPtrArray *
take_argvs (const char *prefix)
{
  return take_argvs_in (top, prefix);
}

/* How many of `argvs` hold the words `seq` one after the other, and how many of those also
 * hold `also` (NULL: any). */
static guint
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

static gboolean
has_argv (GPtrArray *argvs, const char *const *want)
{
  for (guint i = 0; i < argvs->len; i++)
    if (g_strv_equal (g_ptr_array_index (argvs, i), want))
      return TRUE;
  return FALSE;
}

/* A fresh file of saved targets for each test, and the settings as they start. */
static WsTargetList *
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

static void
add_target (WsTargetList *list, WsTarget *target)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (ws_target_list_add (list, target, &error));
  g_assert_no_error (error);
  g_assert_true (ws_target_list_save (list, &error));
  g_object_unref (target);
}

static WsTarget *
ssh_target (const char *name, const char *host)
{
  WsTarget *target = ws_target_new (name, WS_TARGET_SSH);

  ws_target_set_host (target, host);
  ws_target_set_runner (target, far_runner);
  return target;
}

static WsTarget *
srun_target (const char *name, const char *partition)
{
  WsTarget *target = ws_target_new (name, WS_TARGET_SLURM_SRUN);

  ws_target_set_slurm_options (target, (const char *const[]) { "-p", partition, NULL });
  ws_target_set_runner (target, far_runner);
  ws_target_set_pending_timeout (target, 1);
  return target;
}

/* ---- waiting ----------------------------------------------------------------------------- */

static WsEnvironment *
environment_of (WsWindow *window)
{
  return ws_test_view (window, "environment");
}

static gboolean
answered (gpointer window)
{
  return ws_environment_get_state (environment_of (window)) != WS_ENVIRONMENT_PROBING;
}

static void
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

static gboolean
kernel_is (gpointer data)
{
  KernelWait *wait = data;

  return ws_plan_get_n_kernels (wait->plan) > 0
         && g_strcmp0 (ws_plan_get_kernel_name (wait->plan, 0), wait->kernel) == 0;
}

/* The catalog may come after the GPUs. */
static void
wait_for_kernel (WsWindow *window, const char *kernel)
{
  KernelWait wait = { ws_test_view (window, "plan"), kernel };

  ws_test_spin_until (kernel_is, &wait, 30000);
  g_assert_cmpuint (ws_plan_get_n_kernels (wait.plan), >, 0);
  g_assert_cmpstr (ws_plan_get_kernel_name (wait.plan, 0), ==, kernel);
}

static gboolean
not_running (gpointer data)
{
  return !ws_window_is_running (data);
}

static WsWindow *
window_ready (void)
{
  WsWindow *window = ws_test_new_window ();

  ws_test_spin_until (answered, window, 30000);
  g_assert_cmpint (ws_environment_get_state (environment_of (window)), ==, WS_ENVIRONMENT_READY);
  return window;
}

/* ---- picking a target -------------------------------------------------------------------- */

/* The probe, the GPUs and the kernels come from the target picked: through ssh with exactly
 * these words, the runner there given exactly --list and --device-info; the page names it. */
static void
test_pick_reprobes (void)
{
  g_autoptr (WsTargetList) list = new_targets ("pick");
  g_autoptr (GSettings) settings = g_settings_new ("org.warpscope.Warpscope");
  g_autoptr (GPtrArray) ssh = NULL, far = NULL;
  g_autofree char *chosen = NULL;
  WsWindow *window;
  WsEnvironment *environment;
  WsPlan *plan;

  add_target (list, ssh_target ("gpu-box", "gpu-box"));
  window = window_ready ();
  environment = environment_of (window);
  plan = ws_test_view (window, "plan");
  wait_for_kernel (window, "vector_add");
  g_ptr_array_unref (take_argvs ("far-argv."));

  pick (window, "gpu-box");
  g_assert_cmpint (ws_environment_get_state (environment), ==, WS_ENVIRONMENT_READY);
  wait_for_kernel (window, "far_add");
  ssh = take_argvs ("ssh-argv.");
  g_assert_cmpuint (ssh->len, ==, 2);
  for (guint i = 0; i < ssh->len; i++)
    {
      char **argv = g_ptr_array_index (ssh, i);
      const char *const head[] = { "-o", "BatchMode=yes", "-o", "ConnectTimeout=20", "-o",
                                   "ServerAliveInterval=15", "-o", "ServerAliveCountMax=4",
                                   "--", "gpu-box", NULL };
      g_autofree char *quoted = ws_target_quote_for_shell (far_runner);
      g_autofree char *tail_list = g_strdup_printf (" 'warpscope' %s '--list'", quoted);
      g_autofree char *tail_info = g_strdup_printf (" 'warpscope' %s '--device-info'", quoted);

      g_assert_cmpuint (g_strv_length (argv), ==, G_N_ELEMENTS (head));
      for (guint w = 0; head[w] != NULL; w++)
        g_assert_cmpstr (argv[w], ==, head[w]);
      g_assert_true (g_str_has_prefix (argv[10], "exec 'sh' '-c' '"));
      g_assert_true (g_str_has_suffix (argv[10], tail_list)
                     || g_str_has_suffix (argv[10], tail_info));
    }
  /* What reached the runner there, through the far side's shell. */
  far = take_argvs ("far-argv.");
  g_assert_cmpuint (far->len, ==, 2);
  g_assert_true (has_argv (far, (const char *const[]) { "--list", NULL }));
  g_assert_true (has_argv (far, (const char *const[]) { "--device-info", NULL }));

  /* The kernels are the target's; the page and the status line name it; it is remembered. */
  g_assert_cmpuint (ws_plan_get_n_kernels (plan), ==, 1);
  g_assert_cmpstr (ws_plan_get_kernel_name (plan, 0), ==, "far_add");
  g_assert_cmpstr (ws_environment_get_title (environment), ==, "Ready to Run on the NVIDIA H200");
  g_assert_nonnull (strstr (ws_environment_get_description (environment),
                            "Target: gpu-box (ssh gpu-box)."));
  g_assert_nonnull (ws_test_find_label (ws_test_view (window, "welcome"),
                                        "Ready to Run on the NVIDIA H200"));
  g_assert_true (g_str_has_prefix (ws_window_get_status_text (window),
                                   "gpu-box · NVIDIA H200 · driver supports CUDA "));
  chosen = g_settings_get_string (settings, "target");
  g_assert_cmpstr (chosen, ==, "gpu-box");

  /* Back to this computer: asked here again, not through ssh. */
  pick (window, "local");
  wait_for_kernel (window, "vector_add");
  g_ptr_array_unref (ssh);
  ssh = take_argvs ("ssh-argv.");
  g_assert_cmpuint (ssh->len, ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A launcher that fails says so in its own words, under a heading that names the target. */
static void
test_probe_failure (void)
{
  g_autoptr (WsTargetList) list = new_targets ("failure");
  static const struct
  {
    const char *target, *title, *words[3];
  } cases[] = {
    { "nowhere", "nowhere Cannot Be Reached",
      { "ssh: Could not resolve hostname nowhere", "Target: nowhere (ssh nowhere).", NULL } },
    { "locked", "locked Refused",
      { "student@locked: Permission denied (publickey).", "ssh-copy-id", NULL } },
    { "nogpu", "nogpu Refused",
      { "Slurm has no partition “nogpu”", "Invalid partition name specified", NULL } },
    { "norunner", "No GPU Runner on norunner",
      { "no warpscope-runner at “/nonexistent/warpscope-runner” on norunner",
        "&& ninja -C build install", NULL } },
    { "busy", "The Slurm Job for busy Waited Too Long",
      { "Slurm job 42 was still waiting after 1 second", "squeue gives the reason Resources",
        NULL } },
  };
  WsWindow *window;
  WsEnvironment *environment;

  add_target (list, ssh_target ("nowhere", "nowhere"));
  add_target (list, ssh_target ("locked", "locked"));
  add_target (list, srun_target ("nogpu", "nogpu"));
  {
    WsTarget *missing = ssh_target ("norunner", "norunner");

    ws_target_set_runner (missing, "/nonexistent/warpscope-runner");
    add_target (list, missing);
  }
  add_target (list, srun_target ("busy", "busy"));
  window = window_ready ();
  environment = environment_of (window);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *summary = g_strdup_printf ("No usable GPU on %s: recordings and the "
                                                  "calculator work",
                                                  cases[i].target);

      pick (window, cases[i].target);
      g_assert_cmpint (ws_environment_get_state (environment), ==, WS_ENVIRONMENT_UNUSABLE);
      g_assert_cmpstr (ws_environment_get_title (environment), ==, cases[i].title);
      for (guint w = 0; cases[i].words[w] != NULL; w++)
        g_assert_nonnull (strstr (ws_environment_get_description (environment),
                                  cases[i].words[w]));
      g_assert_nonnull (ws_test_find_label (ws_test_view (window, "welcome"), cases[i].title));
      /* The page shows the paragraph as it is, whatever marks it holds (&&, <, >). */
      g_assert_nonnull (ws_test_find_label (ws_test_view (window, "welcome"),
                                            ws_environment_get_description (environment)));
      g_assert_cmpstr (ws_window_get_status_text (window), ==, summary);
      /* Nothing to run on. */
      g_assert_false (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL)
                      && ws_window_is_running (window));
    }
  gtk_window_destroy (GTK_WINDOW (window));
  g_ptr_array_unref (take_argvs ("ssh-argv."));
  g_ptr_array_unref (take_argvs ("far-argv."));
}

/* The launcher prefix of older versions becomes a saved ssh target, chosen. */
static void
test_migrate_launcher (void)
{
  g_autoptr (WsTargetList) list = new_targets ("migrate");
  g_autoptr (GSettings) settings = g_settings_new ("org.warpscope.Warpscope");
  g_autoptr (WsTargetList) saved = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *launcher = NULL, *chosen = NULL;
  WsTarget *target;
  WsWindow *window;

  add_target (list, ssh_target ("lab", "lab"));
  g_settings_set_string (settings, "launcher", "ssh gpu-box");
  window = ws_test_new_window ();
  launcher = g_settings_get_string (settings, "launcher");
  chosen = g_settings_get_string (settings, "target");
  g_assert_cmpstr (launcher, ==, "");
  g_assert_cmpstr (chosen, ==, "gpu-box");
  saved = ws_target_list_load (ws_target_list_get_path (list), &error);
  g_assert_no_error (error);
  target = ws_target_list_find (saved, "gpu-box");
  g_assert_nonnull (target);
  g_assert_cmpint (ws_target_get_kind (target), ==, WS_TARGET_SSH);
  g_assert_cmpstr (ws_target_get_host (target), ==, "gpu-box");
  g_assert_nonnull (ws_target_list_find (saved, "lab"));
  gtk_window_destroy (GTK_WINDOW (window));
  ws_test_spin_for (200);
  g_ptr_array_unref (take_argvs ("ssh-argv."));

  /* A prefix that is not "ssh HOST" is kept as the command it is. */
  g_clear_object (&saved);
  g_settings_set_string (settings, "launcher", "env CUDA_VISIBLE_DEVICES=1");
  window = ws_test_new_window ();
  saved = ws_target_list_load (ws_target_list_get_path (list), &error);
  target = ws_target_list_find (saved, "launcher");
  g_assert_nonnull (target);
  g_assert_cmpint (ws_target_get_kind (target), ==, WS_TARGET_COMMAND);
  g_assert_true (g_strv_equal (ws_target_get_launcher (target),
                               (const char *const[]) { "env", "CUDA_VISIBLE_DEVICES=1", NULL }));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The dialog checks a target before it saves it, edits it in place, and removes it. */
static void
test_dialog (void)
{
  g_autoptr (WsTargetList) list = new_targets ("dialog");
  g_autoptr (WsTargetList) saved = NULL;
  g_autoptr (GError) error = NULL;
  WsTargetDialog *dialog = WS_TARGET_DIALOG (ws_target_dialog_new (list));
  WsTarget *box;

  ws_target_dialog_edit (dialog, NULL);
  ws_target_dialog_set_field (dialog, "name", "box");
  ws_target_dialog_set_field (dialog, "kind", "ssh");
  g_assert_false (ws_target_dialog_save (dialog, &error));
  g_assert_nonnull (ws_target_dialog_get_problem (dialog));
  g_assert_nonnull (strstr (ws_target_dialog_get_problem (dialog), "host"));
  g_assert_false (g_file_test (ws_target_list_get_path (list), G_FILE_TEST_EXISTS));
  g_clear_error (&error);
  ws_target_dialog_set_field (dialog, "name", "local");
  ws_target_dialog_set_field (dialog, "host", "gpu-box");
  g_assert_false (ws_target_dialog_save (dialog, &error));
  g_assert_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID);
  g_assert_nonnull (strstr (ws_target_dialog_get_problem (dialog), "“local”"));
  g_clear_error (&error);
  ws_target_dialog_set_field (dialog, "name", "box");
  ws_target_dialog_set_field (dialog, "ssh-options", "-i '/keys/my key'");
  g_assert_true (ws_target_dialog_save (dialog, &error));
  g_assert_no_error (error);
  saved = ws_target_list_load (ws_target_list_get_path (list), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ws_target_get_host (ws_target_list_find (saved, "box")), ==, "gpu-box");
  g_assert_true (g_strv_equal (ws_target_get_ssh_options (ws_target_list_find (saved, "box")),
                               (const char *const[]) { "-i", "/keys/my key", NULL }));

  /* Edited in place: the object a window has chosen is the one that changes. */
  box = ws_target_list_find (list, "box");
  ws_target_dialog_edit (dialog, "box");
  ws_target_dialog_set_field (dialog, "name", "box2");
  ws_target_dialog_set_field (dialog, "runner", "/opt/warpscope/bin/warpscope-runner");
  g_assert_true (ws_target_dialog_save (dialog, &error));
  g_assert_true (ws_target_list_find (list, "box2") == box);
  g_assert_cmpstr (ws_target_get_runner (box), ==, "/opt/warpscope/bin/warpscope-runner");
  g_clear_object (&saved);
  saved = ws_target_list_load (ws_target_list_get_path (list), &error);
  g_assert_null (ws_target_list_find (saved, "box"));
  g_assert_nonnull (ws_target_list_find (saved, "box2"));

  g_assert_true (ws_target_dialog_remove (dialog, "box2", &error));
  g_clear_object (&saved);
  saved = ws_target_list_load (ws_target_list_get_path (list), &error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (saved)), ==, 1);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* A file of targets that cannot be read is said, and nothing is written over it. */
static void
test_unreadable (void)
{
  g_autoptr (WsTargetList) list = new_targets ("unreadable");
  const char *broken = "[gpu-box]\nkind=teleport\n";
  g_autofree char *after = NULL;
  g_autoptr (GError) error = NULL;
  WsWindow *window;
  WsTargetDialog *dialog;

  g_assert_true (g_file_set_contents (ws_target_list_get_path (list), broken, -1, NULL));
  window = ws_test_new_window ();
  g_assert_nonnull (ws_window_get_last_toast (window));
  g_assert_nonnull (strstr (ws_window_get_last_toast (window), "teleport"));
  dialog = WS_TARGET_DIALOG (ws_target_dialog_new (
    ws_target_picker_get_targets (ws_test_view (window, "target_picker"))));
  ws_target_dialog_edit (dialog, NULL);
  ws_target_dialog_set_field (dialog, "name", "box");
  ws_target_dialog_set_field (dialog, "host", "gpu-box");
  g_assert_false (ws_target_dialog_save (dialog, &error));
  g_assert_nonnull (strstr (error->message, "Nothing is saved while"));
  g_assert_true (g_file_get_contents (ws_target_list_get_path (list), &after, NULL, NULL));
  g_assert_cmpstr (after, ==, broken);
  gtk_window_destroy (GTK_WINDOW (dialog));
  gtk_window_destroy (GTK_WINDOW (window));
  ws_test_spin_for (100);
}

/* ---- a sweep split across two GPUs ------------------------------------------------------- */

static char *standin_dir;

/* A window on this computer whose runner is the two-GPU stand-in (given as the runner here),
 * replaying at `speed`, with `extra` run first in each share. */
static WsWindow *
split_window (double speed, const char *extra)
{
  g_autofree char *runner = NULL, *recording = NULL, *text = NULL;
  g_autoptr (WsTargetList) list = new_targets ("split");

  g_clear_pointer (&standin_dir, g_free);
  standin_dir = g_build_filename (top, "standin-XXXXXX", NULL);
  g_assert_nonnull (g_mkdtemp (standin_dir));
  standin_write_shares (standin_dir, 2, FALSE);
  runner = standin_write_runner (standin_dir, 2, speed, extra);
  /* Every start of the runner leaves its argv. */
  recording = g_build_filename (standin_dir, "recording-runner", NULL);
  text = g_strdup_printf ("#!/bin/sh\nprintf '%%s\\0' \"$@\" > '%s/argv.'$$\nexec '%s' \"$@\"\n",
                          standin_dir, runner);
  g_assert_true (g_file_set_contents (recording, text, -1, NULL));
  g_chmod (recording, 0755);
  g_setenv ("WARPSCOPE_RUNNER", recording, TRUE);
  return window_ready ();
}

static gboolean
has_runs (gpointer window)
{
  WsSession *session = ws_workspace_get_session (ws_window_get_workspace (window));

  return session != NULL && g_list_model_get_n_items (ws_session_get_runs (session)) > 0;
}

static gboolean
sweep_valid (gpointer plan)
{
  return ws_plan_get_valid (plan, WS_PLAN_SWEEP);
}

static void
sweep (WsWindow *window)
{
  wait_for_kernel (window, "vector_add");
  ws_test_spin_until (sweep_valid, ws_test_view (window, "plan"), 30000);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.sweep", NULL));
  if (!ws_window_is_running (window))
    g_test_message ("not started: %s", ws_window_get_last_toast (window));
  g_assert_true (ws_window_is_running (window));
}

static void
test_split_sweep (void)
{
  WsWindow *window = split_window (0, NULL);
  WsDevicesGroup *group;
  WsSession *session;
  GListModel *runs;
  GPtrArray *argvs;
  int done = 0, total = 0;

  /* The target's two GPUs are offered, all chosen. */
  group = (WsDevicesGroup *) gtk_widget_get_template_child (ws_test_view (window, "sidebar"),
                                                            WS_TYPE_CONFIG_SIDEBAR,
                                         "devices_group");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (group)));
  g_assert_cmpstr (ws_devices_group_get_devices (group), ==, "all");
  sweep (window);
  ws_test_spin_until (not_running, window, 60000);
  session = ws_workspace_get_session (ws_window_get_workspace (window));
  runs = ws_session_get_runs (session);
  /* One session, in plan order, each run tagged with the GPU of its share. */
  g_assert_cmpuint (g_list_model_get_n_items (runs), ==, 32);
  for (guint i = 0; i < 32; i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);
      g_autofree char *uuid = standin_uuid (i % 2);

      g_assert_cmpint (ws_run_get_id (run), ==, (int) i + 1);
      g_assert_cmpint (ws_run_get_config (run)->device, ==, (int) (i % 2));
      g_assert_cmpstr (ws_run_get_config (run)->device_uuid, ==, uuid);
      g_assert_cmpint (ws_run_get_state (run), ==, WS_RUN_STATE_COMPLETE);
    }
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_devices (session)), ==, 2);
  g_assert_true (ws_session_get_progress (session, &done, &total));
  g_assert_cmpint (total, ==, 32);
  g_assert_cmpint (done, ==, 32);
  g_assert_cmpstr (ws_window_get_last_toast (window), ==, "32 runs finished");
  g_assert_true (ws_runs_view_shows_devices (ws_test_view (window, "runs_view")));
  /* Each runner got its GPU and its share. */
  argvs = take_argvs_in (standin_dir, "argv.");
  g_assert_cmpuint (count_with (argvs, (const char *const[]) { "--shard", NULL }, NULL), ==, 2);
  g_assert_cmpuint (count_with (argvs, (const char *const[]) { "--device", "0", "--shard", "0/2",
                                                               NULL },
                                "--sizes"),
                    ==, 1);
  g_assert_cmpuint (count_with (argvs, (const char *const[]) { "--device", "1", "--shard", "1/2",
                                                               NULL },
                                "--sizes"),
                    ==, 1);
  g_ptr_array_unref (argvs);

  /* A subset of one GPU: a single runner there, no split, no GPU column. */
  ws_devices_group_set_devices (group, "1");
  sweep (window);
  ws_test_spin_until (not_running, window, 60000);
  argvs = take_argvs_in (standin_dir, "argv.");
  g_assert_cmpuint (count_with (argvs, (const char *const[]) { "--shard", NULL }, NULL), ==, 0);
  g_assert_cmpuint (count_with (argvs, (const char *const[]) { "--device", "1", NULL }, "--sizes"),
                    ==, 1);
  g_assert_cmpuint (count_with (argvs, (const char *const[]) { "--device", NULL }, NULL), ==, 1);
  g_assert_false (ws_runs_view_shows_devices (ws_test_view (window, "runs_view")));
  g_ptr_array_unref (argvs);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* How many runners of a split (given --shard) are still alive, by the pids in the names of
 * their argv files; fails unless there were two. */
static guint
shard_runners_alive (void)
{
  g_autoptr (GDir) dir = g_dir_open (standin_dir, 0, NULL);
  const char *name;
  guint shards = 0, alive = 0;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (standin_dir, name, NULL);
      g_autofree char *text = NULL;
      gsize length;
      gboolean shard = FALSE;

      if (!g_str_has_prefix (name, "argv.") || !g_file_get_contents (path, &text, &length, NULL))
        continue;
      for (gsize at = 0; at < length; at += strlen (text + at) + 1)
        shard = shard || g_str_equal (text + at, "--shard");
      if (!shard)
        continue;
      shards++;
      alive += standin_pid_alive (atoi (name + strlen ("argv.")));
    }
  g_assert_cmpuint (shards, ==, 2);
  return alive;
}

/* Stop stops both runners; the runs that finished stay. */
static void
test_split_stop (void)
{
  WsWindow *window = split_window (1, NULL);
  WsSession *session;

  sweep (window);
  ws_test_spin_until (has_runs, window, 30000);
  g_assert_true (has_runs (window));
  g_assert_true (ws_window_is_running (window));
  g_assert_cmpuint (shard_runners_alive (), ==, 2);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.stop", NULL);
  ws_test_spin_until (not_running, window, 15000);
  g_assert_false (ws_window_is_running (window));
  g_assert_cmpuint (shard_runners_alive (), ==, 0);
  session = ws_workspace_get_session (ws_window_get_workspace (window));
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (session)), <, 32);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* GPU 1's runner fails at once: GPU 0's runs are kept, and the message names GPU 1. */
static void
test_split_one_fails (void)
{
  WsWindow *window = split_window (0, "[ \"$k\" = 1 ] && { echo 'CUDA error: an illegal memory "
                                      "access was encountered' >&2; exit 4; }");
  WsSession *session;
  GListModel *runs;
  guint complete = 0;

  sweep (window);
  ws_test_spin_until (not_running, window, 60000);
  session = ws_workspace_get_session (ws_window_get_workspace (window));
  runs = ws_session_get_runs (session);
  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);

      if (ws_run_get_state (run) != WS_RUN_STATE_COMPLETE)
        continue;
      complete++;
      g_assert_cmpint (ws_run_get_config (run)->device, ==, 0);
    }
  g_assert_cmpuint (complete, ==, 16);
  g_assert_nonnull (ws_window_get_last_toast (window));
  g_assert_true (g_str_has_prefix (ws_window_get_last_toast (window), "GPU 1: "));
  g_assert_nonnull (strstr (ws_window_get_last_toast (window), "The runs of the other GPU are kept."));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A sweep through an ssh target: split across the far side's two GPUs, one ssh each, with the
 * runner there given its GPU and share; one session of every run. */
static void
test_sweep_on_ssh (void)
{
  g_autoptr (WsTargetList) list = new_targets ("sweep-ssh");
  g_autoptr (GPtrArray) ssh = NULL, far = NULL;
  WsWindow *window;
  WsSession *session;

  add_target (list, ssh_target ("gpu-box", "gpu-box"));
  window = window_ready ();
  pick (window, "gpu-box");
  wait_for_kernel (window, "far_add");
  ws_test_spin_until (sweep_valid, ws_test_view (window, "plan"), 30000);
  g_ptr_array_unref (take_argvs ("ssh-argv."));
  g_ptr_array_unref (take_argvs ("far-argv."));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.sweep", NULL));
  g_assert_true (ws_window_is_running (window));
  ws_test_spin_until (not_running, window, 60000);
  session = ws_workspace_get_session (ws_window_get_workspace (window));
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (session)), ==, 32);
  g_assert_cmpstr (ws_window_get_last_toast (window), ==, "32 runs finished");
  ssh = take_argvs ("ssh-argv.");
  g_assert_cmpuint (ssh->len, ==, 2);
  far = take_argvs ("far-argv.");
  g_assert_cmpuint (count_with (far, (const char *const[]) { "--kernel", "far_add", NULL }, NULL),
                    ==, 2);
  g_assert_cmpuint (count_with (far, (const char *const[]) { "--device", "0", "--shard", "0/2",
                                                             NULL }, NULL),
                    ==, 1);
  g_assert_cmpuint (count_with (far, (const char *const[]) { "--device", "1", "--shard", "1/2",
                                                             NULL }, NULL),
                    ==, 1);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* ---- a traced program on a target --------------------------------------------------------- */

static gboolean
trace_done (gpointer data)
{
  return *ws_trace_dialog_get_message (data) != '\0';
}

/* Trace a Program… runs the program through the chosen target's launcher, with the runner
 * there (here the real runner, with its stand-in for the CUDA driver), and its records come
 * back as the workspace's trace. */
static void
test_trace_on_target (void)
{
  g_autoptr (WsTargetList) list = new_targets ("trace");
  g_autoptr (GSettings) settings = g_settings_new ("org.warpscope.Warpscope");
  g_autoptr (GPtrArray) ssh = NULL;
  g_autofree char *program = NULL, *sample = NULL, *text = NULL, *line = NULL;
  const char *runner = g_getenv ("WS_RUNNER");
  WsTarget *target;
  WsWindow *window;
  WsTraceDialog *dialog;
  GObject *controller;
  WsTrace *trace;

  if (runner == NULL || g_getenv ("WS_FAKE_CUDA") == NULL)
    {
      g_test_skip ("built without the runner (no CUDA toolkit)");
      return;
    }
  g_setenv ("WARPSCOPE_LIBCUDA", g_getenv ("WS_FAKE_CUDA"), TRUE);
  sample = ws_test_sample ("trace-vector-add-h200.jsonl");
  program = g_build_filename (top, "traced.sh", NULL);
  text = g_strdup_printf ("#!/bin/sh\ncat '%s' >&\"$WARPSCOPE_TRACE_FD\"\n", sample);
  g_assert_true (g_file_set_contents (program, text, -1, NULL));
  g_chmod (program, 0755);
  target = ssh_target ("trace-box", "trace-box");
  ws_target_set_runner (target, runner);
  add_target (list, target);
  window = window_ready ();
  pick (window, "trace-box");
  g_ptr_array_unref (take_argvs ("ssh-argv."));

  controller = gtk_widget_get_template_child (GTK_WIDGET (window), WS_TYPE_WINDOW, "controller");
  dialog = ws_trace_dialog_new (GTK_WINDOW (window), settings, WS_RUN_CONTROLLER (controller),
                                ws_window_get_workspace (window), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
  line = g_strdup_printf ("'%s' --tpb 128", program);
  ws_trace_dialog_set_fields (dialog, line, top, "", "");
  g_assert_true (ws_trace_dialog_start (dialog));
  ws_test_spin_until (trace_done, dialog, 30000);
  g_assert_nonnull (strstr (ws_trace_dialog_get_message (dialog), "exited with status 0"));
  trace = ws_session_get_trace (ws_workspace_get_session (ws_window_get_workspace (window)));
  g_assert_nonnull (trace);
  g_assert_cmpuint (ws_trace_get_programs (trace)->len, ==, 1);
  /* Through ssh, once, the runner there given --trace and the program as typed. */
  ssh = take_argvs ("ssh-argv.");
  g_assert_cmpuint (ssh->len, ==, 1);
  g_assert_nonnull (strstr (((char **) g_ptr_array_index (ssh, 0))[10], "'--trace'"));
  g_assert_nonnull (strstr (((char **) g_ptr_array_index (ssh, 0))[10], "'--tpb' '128'"));
  gtk_window_destroy (GTK_WINDOW (dialog));
  gtk_window_destroy (GTK_WINDOW (window));
  g_unsetenv ("WARPSCOPE_LIBCUDA");
}

int
main (int argc, char **argv)
{
  g_autofree char *cache = NULL;
  g_autofree char *standin = NULL;
  int status;

  top = g_dir_make_tmp ("ws-app-targets-XXXXXX", NULL);
  cache = g_build_filename (top, "cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  /* This computer's runner answers as two GPUs; so does the far side's, behind its own. */
  standin_write_shares (top, 2, FALSE);
  standin = standin_write_runner (top, 2, 0, NULL);
  g_setenv ("WARPSCOPE_RUNNER", standin, TRUE);
  write_far_runner (standin);
  write_launchers ();
  g_test_add_func ("/app-targets/pick-reprobes", test_pick_reprobes);
  g_test_add_func ("/app-targets/probe-failure", test_probe_failure);
  g_test_add_func ("/app-targets/migrate-launcher", test_migrate_launcher);
  g_test_add_func ("/app-targets/dialog", test_dialog);
  g_test_add_func ("/app-targets/unreadable", test_unreadable);
  g_test_add_func ("/app-targets/split-sweep", test_split_sweep);
  g_test_add_func ("/app-targets/split-stop", test_split_stop);
  g_test_add_func ("/app-targets/split-one-fails", test_split_one_fails);
  g_test_add_func ("/app-targets/sweep-on-ssh", test_sweep_on_ssh);
  g_test_add_func ("/app-targets/trace-on-target", test_trace_on_target);
  status = g_test_run ();
  if (status == 0)
    {
      g_autofree char *command = g_strdup_printf ("rm -rf '%s'", top);

      g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL);
    }
  return status;
}

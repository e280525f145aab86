/* test-app-targets-pick.c: the window and its targets, under Xvfb with no GPU: picking a
 * target in the header bar asks its runner again through its launcher (stand-ins for ssh,
 * srun and squeue that record the argv they are given), a launcher that fails is shown in its
 * own words, the old launcher prefix becomes a target, and the targets dialog checks before it
 * saves.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "test-launchers.h"
#include "ws-target-dialog.h"

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
      g_autofree char *quoted = g_shell_quote (far_runner);
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
      /* Nothing to run on, and Run says why on hover. */
      g_assert_false (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL)
                      && ws_window_is_running (window));
      {
        const char *why = gtk_widget_get_tooltip_text (
          GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (window), WS_TYPE_WINDOW,
                                                     "run_button")));

        g_assert_nonnull (strstr (why, cases[i].title));
        g_assert_nonnull (strstr (why, "Open a recording"));
      }
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

int
main (int argc, char **argv)
{
  launchers_init (&argc, &argv);
  g_test_add_func ("/app-targets/pick-reprobes", test_pick_reprobes);
  g_test_add_func ("/app-targets/probe-failure", test_probe_failure);
  g_test_add_func ("/app-targets/migrate-launcher", test_migrate_launcher);
  g_test_add_func ("/app-targets/dialog", test_dialog);
  g_test_add_func ("/app-targets/unreadable", test_unreadable);
  return launchers_run ();
}

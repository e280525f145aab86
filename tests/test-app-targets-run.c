/* test-app-targets-run.c: the window's work on its targets, under Xvfb with no GPU: a sweep
 * split across two GPUs (a stand-in runner that answers as two devices) gives one session in
 * plan order with each run's GPU, stops both runners, and keeps one GPU's runs when the other
 * fails; a sweep through ssh is split across the far side's GPUs; a traced program runs on
 * the chosen target.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "test-launchers.h"
#include "ws-config-sidebar.h"
#include "ws-devices-group.h"
#include "ws-runs-view.h"
#include "ws-trace-dialog.h"
#include "ws-trace.h"

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
  g_assert_cmpstr (ws_plan_get_devices (ws_test_view (window, "plan")), ==, "all");
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
  ws_plan_set_devices (ws_test_view (window, "plan"), "1");
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
  launchers_init (&argc, &argv);
  g_test_add_func ("/app-targets/split-sweep", test_split_sweep);
  g_test_add_func ("/app-targets/split-stop", test_split_stop);
  g_test_add_func ("/app-targets/split-one-fails", test_split_one_fails);
  g_test_add_func ("/app-targets/sweep-on-ssh", test_sweep_on_ssh);
  g_test_add_func ("/app-targets/trace-on-target", test_trace_on_target);
  return launchers_run ();
}

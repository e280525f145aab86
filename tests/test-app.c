/* test-app.c: the window as a person sees it, under Xvfb: recordings open, a replay fills the
 * session live and stops when told, findings show, an invalid block disables Run with its
 * reason, a runner that dies mid-sweep leaves the finished runs and an error, export writes
 * a valid file, and an installed program never takes the build tree's runner.
 * tests/test-app-workspace.c has the views and what they share.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>

#include "test-app-util.h"
#include "ws-config-sidebar.h"
#include "ws-config.h"
#include "ws-export-dialog.h"
#include "ws-run-controller.h"
#include "ws-runner-client.h"
#include "ws-runs-view.h"
#include "ws-timeline-view.h"

static gboolean
not_running (gpointer data)
{
  return !ws_window_is_running (data);
}

/* The labels of the buttons that run this action, in the order they are shown. */
static void
collect_buttons (GtkWidget *widget, const char *action, GPtrArray *labels)
{
  if (GTK_IS_BUTTON (widget)
      && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0)
    g_ptr_array_add (labels, (gpointer) gtk_button_get_label (GTK_BUTTON (widget)));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    collect_buttons (c, action, labels);
}

/* A menu label as GTK shows it: "__" is one '_', a single '_' marks the mnemonic and is not
 * shown. */
static char *
menu_label_shown (const char *label)
{
  GString *shown = g_string_new (NULL);

  for (const char *p = label; *p; p++)
    if (*p != '_')
      g_string_append_c (shown, *p);
    else if (p[1] == '_')
      g_string_append_c (shown, *p++);
  return g_string_free (shown, FALSE);
}

/* The welcome page offers every bundled recording, the tutorial's own first, each named for
 * what it shows and the GPU it was made on; the menu offers the same, in the same order. The
 * tutorial's own program, traced, comes before them all on a button of its own. */
static void
test_welcome_recordings (void)
{
  WsWindow *window = ws_test_new_window ();
  GMenuModel *menu = ws_test_view (window, "samples_menu");
  g_autoptr (GPtrArray) labels = g_ptr_array_new ();
  g_autoptr (GDir) dir = g_dir_open (g_getenv ("WS_SAMPLES_DIR"), 0, NULL);
  guint files = 0;
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    files += g_str_has_suffix (name, ".jsonl");
  g_assert_cmpstr (ws_window_get_page (window), ==, "welcome");
  collect_buttons (GTK_WIDGET (window), "win.open-sample", labels);
  g_assert_cmpuint (labels->len, ==, files);
  g_assert_cmpuint (labels->len, >=, 4);
  g_assert_cmpstr (g_ptr_array_index (labels, 0), ==, "The Tutorial's Own Program, Traced");
  g_ptr_array_remove_index (labels, 0);
  g_assert_cmpstr (g_ptr_array_index (labels, 0), ==, "Vector add over sizes (H200)");
  g_assert_cmpstr (g_ptr_array_index (labels, 1), ==, "Vector add over block sizes (H200)");
  g_assert_cmpstr (g_ptr_array_index (labels, 2), ==,
                   "Matrix multiply over sizes, naive and tiled (H200)");
  for (guint i = 0; i < labels->len; i++)
    g_assert_true (g_str_has_suffix (g_ptr_array_index (labels, i), " (H200)"));
  /* Kernels of one's own come last, under their heading, the memory check at the end. */
  g_assert_nonnull (ws_test_find_label (GTK_WIDGET (window), "Your own kernel"));
  g_assert_nonnull (ws_test_find_label (GTK_WIDGET (window), "Programs traced as they are"));
  g_assert_cmpstr (g_ptr_array_index (labels, labels->len - 1), ==,
                   "A missing bounds guard, caught by memcheck (H200)");
  g_assert_cmpstr (g_ptr_array_index (labels, labels->len - 5), ==,
                   "Vector add over sizes and blocks (H200)");
  /* The menu: a submenu per group under the same headings, the traced one in its place
   * among the others. */
  {
    const char *headings[] = { "Warpscope's kernels", "Programs traced as they are",
                               "Your own kernel" };
    guint k = 0;
    gboolean stencil = FALSE; /* TILE_Y keeps its underscore */

    g_assert_cmpint (g_menu_model_get_n_items (menu), ==, G_N_ELEMENTS (headings));
    for (guint s = 0; s < G_N_ELEMENTS (headings); s++)
      {
        g_autoptr (GMenuModel) section = g_menu_model_get_item_link (menu, s,
                                                                     G_MENU_LINK_SUBMENU);
        g_autofree char *heading = NULL;

        g_assert_true (g_menu_model_get_item_attribute (menu, s, G_MENU_ATTRIBUTE_LABEL, "s",
                                                        &heading));
        g_assert_cmpstr (heading, ==, headings[s]);
        for (int i = 0; i < g_menu_model_get_n_items (section); i++)
          {
            g_autofree char *label = NULL, *title = NULL;

            g_assert_true (g_menu_model_get_item_attribute (section, i, G_MENU_ATTRIBUTE_LABEL,
                                                            "s", &label));
            title = menu_label_shown (label);
            if (g_str_equal (title, "The tutorial's vector add, traced as written (H200)"))
              continue;
            g_assert_cmpstr (title, ==, g_ptr_array_index (labels, k++));
            stencil |= g_str_equal (title, "2D stencil over the block and TILE_Y (H200)");
          }
      }
    g_assert_cmpuint (k, ==, labels->len);
    g_assert_true (stencil);
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* How tall a popover menu of `model` is, its submenus' pages too (the tallest of them). */
static int
menu_height (GtkWidget *parent, GMenuModel *model)
{
  GtkWidget *popover = gtk_popover_menu_new_from_model (model);
  int natural = 0;

  /* Popped down and given time to go before it is taken away: a popover unparented while its
   * surface is still up leaves the pointer's next event to a surface that is gone (a
   * critical in the sanitized build). */
  gtk_widget_set_parent (popover, parent);
  gtk_popover_popup (GTK_POPOVER (popover));
  ws_test_spin_for (100);
  natural = gtk_widget_get_height (popover);
  gtk_popover_popdown (GTK_POPOVER (popover));
  ws_test_spin_for (200);
  gtk_widget_unparent (popover);
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autoptr (GMenuModel) submenu = g_menu_model_get_item_link (model, i, G_MENU_LINK_SUBMENU);

      if (submenu != NULL)
        natural = MAX (natural, menu_height (parent, submenu));
    }
  return natural;
}

/* Open a Bundled Recording fits a projector's 1024×768 screen under the header bar, each of
 * its pages, however many recordings there are. */
static void
test_recordings_menu_fits (void)
{
  WsWindow *window;
  GtkWidget *button;
  int height;

  ws_test_add_icons ();
  window = ws_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 768);
  gtk_window_present (GTK_WINDOW (window));
  ws_test_spin_for (100);
  button = ws_test_view (window, "open_button");
  height = menu_height (button, ws_test_view (window, "samples_menu"));
  g_test_message ("the bundled recordings' menu is %d pixels high", height);
  g_assert_cmpint (height, >, 100);
  /* Under the header bar (47 pixels), with as much again to spare below it. */
  g_assert_cmpint (height, <=, 768 - 2 * 47);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_open_recordings (void)
{
  const char *names[] = { "vector-add-sizes-h200.jsonl", "vector-add-blocks-h200.jsonl",
                          "matmul-sizes-h200.jsonl", "matmul-naive-blocks-h200.jsonl" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      WsWindow *window = ws_test_new_window ();
      WsSession *session;

      g_assert_cmpstr (ws_window_get_page (window), ==, "welcome");
      session = ws_test_open (window, names[i]);
      g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (session)), >, 0);
      /* The views replace the welcome page, and the status line names the GPU and date. */
      g_assert_cmpstr (ws_window_get_page (window), ==, "views");
      g_assert_true (g_str_has_prefix (ws_window_get_status_text (window),
                                       "Recording made on NVIDIA H200, 20"));
      ws_test_spin_for (50);
      gtk_window_destroy (GTK_WINDOW (window));
    }
}

/* Two runs selected in the table: the findings panel compares them and the timeline draws
 * them one above the other from their own starts, so its window is in ns since those starts
 * and zooming and panning stay within the longer run. One run again: back to session time. */
static void
test_compare_runs (void)
{
  WsWindow *window = ws_test_new_window ();
  WsSession *session = ws_test_open (window, "vector-add-sizes-h200.jsonl");
  WsRunsView *runs = ws_test_view (window, "runs_view");
  WsTimelineView *timeline = ws_test_view (window, "timeline");
  WsChartOptions o;
  WsTimelineGeometry g;
  gint64 s5, e5, s11, e11, span;

  g_assert_true (ws_run_get_time_range (ws_session_find_run (session, 5), &s5, &e5));
  g_assert_true (ws_run_get_time_range (ws_session_find_run (session, 11), &s11, &e11));
  span = MAX (e5 - s5, e11 - s11);

  ws_runs_view_select_run (runs, 5);
  ws_test_spin_for (50);
  ws_timeline_view_get_options (timeline, &o);
  g_assert_cmpint (o.run, ==, 5);
  g_assert_cmpint (o.compare_run, ==, 0);
  g_assert_cmpint (o.window_start, <, s5);
  g_assert_cmpint (o.window_end, >, e5);

  ws_runs_view_add_to_selection (runs, 11);
  ws_test_spin_for (50);
  ws_timeline_view_get_options (timeline, &o);
  g_assert_cmpint (o.run, ==, 5);
  g_assert_cmpint (o.compare_run, ==, 11);
  /* The whole of both: from each run's start to the end of the longer one. */
  ws_timeline_get_geometry (session, &o, &g);
  g_assert_cmpint (g.start, <=, 0);
  g_assert_cmpint (g.start, >, -span / 10);
  g_assert_cmpint (g.end, >=, span);
  g_assert_cmpint (g.end, <, span + span / 10);
  g_assert_cmpuint (ws_test_count_css (ws_test_view (window, "findings_panel"), "finding"), >=, 2);

  /* Zoom in, then pan far to the right: the window stays by the runs, in their time. */
  ws_timeline_view_zoom (timeline, 4, 0.5);
  for (int i = 0; i < 20; i++)
    ws_timeline_view_pan (timeline, 0.5);
  ws_timeline_view_get_options (timeline, &o);
  g_assert_cmpint (o.window_end - o.window_start, <, span / 3);
  g_assert_cmpint (o.window_end, <=, span + span / 10);

  ws_runs_view_select_run (runs, 11);
  ws_test_spin_for (50);
  ws_timeline_view_get_options (timeline, &o);
  g_assert_cmpint (o.compare_run, ==, 0);
  g_assert_cmpint (o.window_start, <, s11);
  g_assert_cmpint (o.window_end, >, e11);
  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct
{
  guint added_before_end;
  gboolean ended;
} ReplayCount;

static void
run_added_cb (WsSession *session, WsRun *run, ReplayCount *count)
{
  if (!count->ended)
    count->added_before_end++;
}

static void
test_replay_live (void)
{
  g_autofree char *path = ws_test_sample ("vector-add-sizes-h200.jsonl");
  g_autofree char *cli = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "..", "src", "cli",
                                           "warpscope-cli", NULL);
  const char *argv[] = { cli, "replay", path, "--speed", "20", NULL };
  g_autoptr (GError) error = NULL;
  WsWindow *window;
  WsSession *session;
  ReplayCount count = { 0 };
  int done = 0, total = 0;

  if (!g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("warpscope-cli not built");
      return;
    }
  window = ws_test_new_window ();
  g_assert_true (ws_window_start_live (window, argv, &error));
  g_assert_no_error (error);
  session = ws_workspace_get_session (ws_window_get_workspace (window));
  g_signal_connect (session, "run-added", G_CALLBACK (run_added_cb), &count);
  g_assert_true (ws_window_is_running (window));
  ws_test_spin_until (not_running, window, 60000);
  count.ended = TRUE;
  /* Runs appeared one by one as their records arrived, and progress reached the end. */
  g_assert_cmpuint (count.added_before_end, ==, 12);
  g_assert_true (ws_session_get_progress (session, &done, &total));
  g_assert_cmpint (done, ==, total);
  g_assert_true (g_str_has_prefix (ws_window_get_status_text (window),
                                   "Replay of a recording made on NVIDIA H200"));
  g_assert_cmpstr (ws_window_get_last_toast (window), ==, "12 runs finished");
  /* Findings show for a selected run. */
  ws_runs_view_select_run (ws_test_view (window, "runs_view"), 4);
  ws_test_spin_for (100);
  g_assert_cmpuint (ws_test_count_css (ws_test_view (window, "findings_panel"), "finding"), >=, 1);
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
has_runs (gpointer data)
{
  WsSession *session = ws_workspace_get_session (ws_window_get_workspace (data));

  return session != NULL && g_list_model_get_n_items (ws_session_get_runs (session)) > 0;
}

/* A recording replayed at its own pace (File ▸ Replay) is stopped like any run: Stop ends it
 * at once, the runs so far stay, and the end is said once. */
static void
test_replay_stop (void)
{
  g_autofree char *path = ws_test_sample ("vector-add-sizes-h200.jsonl");
  g_autofree char *cli = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "..", "src", "cli",
                                           "warpscope-cli", NULL);
  g_autoptr (GFile) recording = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  WsWindow *window;
  WsRunController *controller;
  WsSession *session;
  guint n_runs;
  gint64 begun;

  if (!g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("warpscope-cli not built");
      return;
    }
  g_setenv ("WARPSCOPE_CLI", cli, TRUE);
  window = ws_test_new_window ();
  controller = WS_RUN_CONTROLLER (gtk_widget_get_template_child (GTK_WIDGET (window),
                                                                 WS_TYPE_WINDOW, "controller"));
  g_assert_true (ws_run_controller_replay (controller, recording, &error));
  g_assert_no_error (error);
  g_assert_true (ws_run_controller_is_running (controller));
  /* A second run while one goes is refused with what to do. */
  g_assert_false (ws_run_controller_replay (controller, recording, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
  ws_test_spin_until (has_runs, window, 20000);
  session = ws_workspace_get_session (ws_window_get_workspace (window));
  begun = g_get_monotonic_time ();
  ws_run_controller_cancel (controller);
  ws_test_spin_until (not_running, window, 10000);
  g_assert_cmpfloat ((g_get_monotonic_time () - begun) / 1e6, <, 5);
  n_runs = g_list_model_get_n_items (ws_session_get_runs (session));
  g_assert_cmpuint (n_runs, >=, 1);
  g_assert_cmpuint (n_runs, <, 12);
  g_assert_false (ws_session_is_done (session, NULL, NULL));
  g_assert_cmpstr (ws_window_get_last_toast (window), ==,
                   "Stopped. The runs that completed are kept.");
  g_assert_false (ws_run_controller_is_running (controller));
  gtk_window_destroy (GTK_WINDOW (window));
  g_unsetenv ("WARPSCOPE_CLI");
}

static gboolean
problem_shown (gpointer data)
{
  return ws_config_sidebar_get_run_problem (data) != NULL;
}

static void
test_invalid_block (void)
{
  WsWindow *window = ws_test_new_window ();
  WsConfigSidebar *sidebar = ws_test_view (window, "sidebar");
  WsPlan *plan = ws_test_view (window, "plan");

  ws_test_spin_for (300); /* the catalog arrives from the runner (no GPU needed) */
  ws_config_sidebar_set_block_text (sidebar, "33x33");
  ws_test_spin_until (problem_shown, sidebar, 3000);
  /* The sidebar's block is the plan's, and the plan's reason is shown under it. */
  g_assert_cmpstr (ws_plan_get_block (plan), ==, "33x33");
  g_assert_false (ws_plan_get_valid (plan, WS_PLAN_RUN));
  g_assert_nonnull (ws_config_sidebar_get_run_problem (sidebar));
  g_assert_nonnull (strstr (ws_config_sidebar_get_run_problem (sidebar), "1024"));
  g_assert_false (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL)
                  && ws_window_is_running (window));
  /* A preset's text picks the preset. */
  ws_config_sidebar_set_block_text (sidebar, "128");
  g_assert_cmpstr (ws_plan_get_block (plan), ==, "128");
  g_assert_null (ws_config_sidebar_get_run_problem (sidebar));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_runner_dies (void)
{
  g_autofree char *path = ws_test_sample ("vector-add-sizes-h200.jsonl");
  g_autofree char *dir = g_dir_make_tmp ("ws-app-XXXXXX", NULL);
  g_autofree char *script = g_build_filename (dir, "dying-runner", NULL);
  g_autofree char *text = g_strdup_printf ("#!/bin/sh\n"
                                           "# prints the first runs of a recording, then dies\n"
                                           "head -n 300 '%s'\n"
                                           "kill -9 $$\n",
                                           path);
  const char *argv[] = { script, NULL };
  g_autoptr (GError) error = NULL;
  WsWindow *window;
  WsSession *session;
  guint complete = 0;

  g_assert_true (g_file_set_contents (script, text, -1, NULL));
  g_chmod (script, 0755);
  window = ws_test_new_window ();
  g_assert_true (ws_window_start_live (window, argv, &error));
  ws_test_spin_until (not_running, window, 20000);
  session = ws_workspace_get_session (ws_window_get_workspace (window));
  for (guint i = 0; i < g_list_model_get_n_items (ws_session_get_runs (session)); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (ws_session_get_runs (session), i);

      complete += ws_run_get_state (run) == WS_RUN_STATE_COMPLETE;
    }
  /* The runs that finished are kept; the crash is said in words. */
  g_assert_cmpuint (complete, >=, 1);
  g_assert_nonnull (ws_window_get_last_toast (window));
  g_assert_nonnull (strstr (ws_window_get_last_toast (window), "crashed"));
  g_assert_nonnull (strstr (ws_window_get_last_toast (window), "kept"));
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (script);
  g_rmdir (dir);
}

static void
test_export (void)
{
  g_autofree char *out_path = g_build_filename (g_get_tmp_dir (), "ws-test-export.png", NULL);
  g_autoptr (GFile) out = g_file_new_for_path (out_path);
  g_autoptr (GError) error = NULL;
  g_autoptr (GSettings) settings = g_settings_new ("org.warpscope.Warpscope");
  g_autoptr (GPtrArray) sessions = g_ptr_array_new_with_free_func (g_object_unref);
  WsChartOptions options;
  GtkWidget *dialog;
  g_autofree char *data = NULL;
  gsize len;

  g_ptr_array_add (sessions, ws_test_load_sample ("vector-add-sizes-h200.jsonl"));
  ws_chart_options_init (&options, WS_CHART_SPEEDUP, ws_theme_get (WS_THEME_LIGHT), 800, 500);
  g_settings_set_string (settings, "export-format", "png");
  dialog = ws_export_dialog_new (NULL, settings, sessions, &options);
  g_assert_true (ws_export_dialog_write (WS_EXPORT_DIALOG (dialog), out, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (out_path, &data, &len, NULL));
  g_assert_cmpuint (len, >, 1000);
  g_assert_cmpmem (data, 8, "\x89PNG\r\n\x1a\n", 8);
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_unlink (out_path);
}

/* What this program finds with no override: asked of a copy of it outside the build tree. */
static void
report_programs (void)
{
  g_autofree char *runner = ws_runner_find ();
  g_autofree char *cli = ws_cli_find ();

  g_print ("runner=%s\ncli=%s\n", runner ? runner : "", cli ? cli : "");
}

/* Run from the build tree, the programs use what was built there; installed (here: copied
 * out of the build tree), never, even though the build tree is still there. */
static void
test_programs_found (void)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = g_dir_make_tmp ("ws-installed-XXXXXX", NULL);
  g_autofree char *copy = g_build_filename (dir, "test-app", NULL);
  g_autofree char *contents = NULL, *out = NULL, *expected = NULL;
  g_autofree char *runner = NULL;
  gsize length;
  int status;
  g_auto (GStrv) env = g_get_environ ();
  const char *argv[] = { copy, "--report-programs", NULL };

  env = g_environ_unsetenv (env, "WARPSCOPE_RUNNER");
  env = g_environ_unsetenv (env, "WARPSCOPE_CLI");
  g_unsetenv ("WARPSCOPE_RUNNER");
  g_unsetenv ("WARPSCOPE_CLI");
  runner = ws_runner_find ();
  if (g_file_test (WS_RUNNER_BUILD_PATH, G_FILE_TEST_IS_EXECUTABLE))
    g_assert_cmpstr (runner, ==, WS_RUNNER_BUILD_PATH);
  g_assert_true (g_file_get_contents (self, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (copy, contents, (gssize) length, NULL));
  g_chmod (copy, 0755);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL,
                               &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (out, "runner="));
  g_assert_null (strstr (out, WS_BUILD_ROOT));
  expected = g_strdup_printf ("runner=%s\n", g_file_test (WS_RUNNER_INSTALL_PATH, G_FILE_TEST_IS_EXECUTABLE)
                                               ? WS_RUNNER_INSTALL_PATH
                                               : "");
  g_assert_true (g_str_has_prefix (out, expected));
  g_unlink (copy);
  g_rmdir (dir);
}

static gboolean
findings_out (gpointer flap)
{
  return adw_flap_get_reveal_progress (flap) >= 1;
}

/* The panes asked for (F9, Shift+F9) while the window is still appearing come out once it is
 * laid out. libadwaita 1.2 divides the speed a flap starts revealing at by the flap's width,
 * 0 before its first allocation: for a frame the pane and the chart beside it were allocated
 * INT_MIN pixels wide (GTK's warning, fatal here). Whether that frame came was a matter of
 * timing, so a few windows are asked; that the flap is not asked before it has a width is
 * not. */
static void
test_panes_before_first_frame (void)
{
  ws_test_add_icons ();
  for (guint i = 0; i < 3; i++)
    {
      WsWindow *window = ws_window_new (NULL);
      AdwFlap *findings = ws_test_view (window, "findings_flap");
      AdwFlap *config = ws_test_view (window, "config_flap");

      gtk_window_present (GTK_WINDOW (window));
      gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-findings", NULL);
      gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-config", NULL);
      g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (findings)), ==, 0);
      g_assert_false (adw_flap_get_reveal_flap (findings));
      /* A window takes seconds to appear under the sanitizers on a busy machine. */
      ws_test_spin_until (findings_out, findings, 30000);
      g_assert_true (adw_flap_get_reveal_flap (findings));
      g_assert_cmpfloat (adw_flap_get_reveal_progress (findings), ==, 1);
      g_assert_true (adw_flap_get_reveal_flap (config));
      gtk_window_destroy (GTK_WINDOW (window));
    }
}

/* The runs table hidden and shown again (F8, the main menu's Runs Table): the chart takes its
 * height on a short screen, and the choice is the window's action, remembered in the
 * settings. */
static void
test_runs_table_hidden (void)
{
  WsWindow *window = ws_test_new_window ();
  GtkWidget *table = NULL, *scroller = NULL;
  GVariant *state;
  int before;

  ws_test_open (window, "vector-add-sizes-h200.jsonl");
  table = ws_test_view (window, "table_pane");
  scroller = ws_test_view (window, "views_scroller");
  ws_test_spin_for (200);
  g_assert_true (gtk_widget_get_visible (table));
  before = gtk_widget_get_height (scroller);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.runs-table", NULL));
  g_assert_false (gtk_widget_get_visible (table));
  /* The chart takes the height once the window is laid out again (seconds under the
   * sanitizers on a busy machine). */
  for (int i = 0; i < 100 && gtk_widget_get_height (scroller) <= before; i++)
    ws_test_spin_for (100);
  g_assert_cmpint (gtk_widget_get_height (scroller), >, before);
  state = g_action_group_get_action_state (G_ACTION_GROUP (window), "runs-table");
  g_assert_false (g_variant_get_boolean (state));
  g_variant_unref (state);
  /* Presentation mode hides it anyway, and leaving it keeps the person's choice. */
  ws_workspace_set_presentation (ws_window_get_workspace (window), TRUE);
  ws_workspace_set_presentation (ws_window_get_workspace (window), FALSE);
  ws_test_spin_for (50);
  g_assert_false (gtk_widget_get_visible (table));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.runs-table", NULL));
  ws_test_spin_for (200);
  g_assert_true (gtk_widget_get_visible (table));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A run whose counters were read: the findings panel says what the GPU measured beside the
 * theory, with the achieved occupancy's finding; a run without says nothing of it. A stand-in
 * session: no bundled recording has counters yet. */
static void
test_findings_measured (void)
{
  WsWindow *window = ws_test_new_window ();
  GtkWidget *findings = ws_test_view (window, "findings_panel");
  g_autofree char *dir = g_dir_make_tmp ("ws-app-XXXXXX", NULL);
  g_autofree char *path = ws_test_write_counted_session (dir);
  g_autoptr (GFile) file = g_file_new_for_path (path);

  ws_window_open_file (window, file);
  ws_test_spin_until (ws_test_has_session, window, 10000);
  ws_test_wait_analysed (ws_window_get_workspace (window));
  ws_workspace_select_runs (ws_window_get_workspace (window), 1, 0);
  ws_test_spin_for (200);
  g_assert_nonnull (ws_test_find_label (findings, "Measured on the GPU"));
  g_assert_nonnull (ws_test_find_label (findings, "Achieved occupancy 78%, of the theoretical "
                                                  "100%. DRAM: 80.1 MB read"));
  g_assert_nonnull (ws_test_find_label (findings, "Achieved occupancy 78%, below the theoretical"));
  ws_test_open (window, "vector-add-sizes-h200.jsonl");
  ws_workspace_select_runs (ws_window_get_workspace (window), 5, 0);
  ws_test_spin_for (200);
  g_assert_null (ws_test_find_label (findings, "Measured on the GPU"));
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_autofree char *cache = NULL;

  if (argc == 2 && g_str_equal (argv[1], "--report-programs"))
    {
      report_programs ();
      return 0;
    }
  /* Nothing of a person's own cache or settings leaks into the tests. */
  cache = g_dir_make_tmp ("ws-app-cache-XXXXXX", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_test_add_func ("/app/welcome-recordings", test_welcome_recordings);
  g_test_add_func ("/app/recordings-menu-fits", test_recordings_menu_fits);
  g_test_add_func ("/app/open-recordings", test_open_recordings);
  g_test_add_func ("/app/compare-runs", test_compare_runs);
  g_test_add_func ("/app/replay-live", test_replay_live);
  g_test_add_func ("/app/replay-stop", test_replay_stop);
  g_test_add_func ("/app/invalid-block", test_invalid_block);
  g_test_add_func ("/app/runner-dies", test_runner_dies);
  g_test_add_func ("/app/export", test_export);
  g_test_add_func ("/app/programs-found", test_programs_found);
  g_test_add_func ("/app/panes-before-first-frame", test_panes_before_first_frame);
  g_test_add_func ("/app/runs-table-hidden", test_runs_table_hidden);
  g_test_add_func ("/app/findings-measured", test_findings_measured);
  return g_test_run ();
}

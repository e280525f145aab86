/* ws-window.c: the main window. Its template (ui/ws-window.ui) holds the workspace, the
 * environment, the plan and the run controller, and gives each view the ones it shows; what
 * is left here are the actions, the file choosers and the menus.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-window.h"

#include <glib/gi18n.h>

#include "ws-chart-actions.h"
#include "ws-chart-menu.h"
#include "ws-chart-view.h"
#include "ws-config-sidebar.h"
#include "ws-config.h"
#include "ws-devices-group.h"
#include "ws-environment-dialog.h"
#include "ws-findings-panel.h"
#include "ws-kernel-actions.h"
#include "ws-layout.h"
#include "ws-occupancy-view.h"
#include "ws-plan.h"
#include "ws-probe.h"
#include "ws-recent-menu.h"
#include "ws-run-controller.h"
#include "ws-runner-client.h"
#include "ws-runs-view.h"
#include "ws-sample.h"
#include "ws-source-view.h"
#include "ws-callout-strip.h"
#include "ws-status-bar.h"
#include "ws-takeaway.h"
#include "ws-target-picker.h"
#include "ws-time-summary.h"
#include "ws-timeline-view.h"
#include "ws-trace-dialog.h"
#include "ws-trace-view.h"
#include "ws-welcome-page.h"

struct _WsWindow
{
  AdwApplicationWindow parent_instance;

  /* template */
  AdwToastOverlay *toasts;
  AdwViewSwitcherTitle *switcher_title;
  AdwViewSwitcherBar *switcher_bar;
  AdwFlap *config_flap, *findings_flap;
  GtkStack *main_stack;
  WsWelcomePage *welcome;
  AdwViewStack *views;
  WsTimelineView *timeline;
  WsStatusBar *status_bar;
  GMenu *samples_menu;
  GMenu *recent_menu;
  WsWorkspace *workspace;
  WsEnvironment *environment;
  WsPlan *plan;
  WsRunController *controller;
  WsChartActions *chart_actions;

  GSettings *settings;
  GListModel *samples;
  char *last_toast;
  GtkFileChooserNative *chooser;
  guint switcher_idle;
};

G_DEFINE_FINAL_TYPE (WsWindow, ws_window, ADW_TYPE_APPLICATION_WINDOW)

static void
toast (WsWindow *self, const char *text)
{
  AdwToast *t = adw_toast_new (text);

  adw_toast_set_timeout (t, 6);
  adw_toast_overlay_add_toast (self->toasts, t);
  g_free (self->last_toast);
  self->last_toast = g_strdup (text);
}

void
ws_window_show_toast (WsWindow *self, const char *text)
{
  g_return_if_fail (WS_IS_WINDOW (self));
  toast (self, text);
}

/* ---- what can be done now ------------------------------------------------------------------ */

static void
update_actions (WsWindow *self)
{
  gboolean running = ws_run_controller_is_running (self->controller);
  gboolean has_runs = ws_workspace_has_runs (self->workspace)
                      || ws_workspace_has_trace (self->workspace);
  gboolean can_run = !running && ws_environment_get_state (self->environment) == WS_ENVIRONMENT_READY;
  gboolean presenting = ws_workspace_get_presentation (self->workspace);
  GtkWidget *widget = GTK_WIDGET (self);

  gtk_widget_action_set_enabled (widget, "win.run", can_run && ws_plan_get_valid (self->plan, WS_PLAN_RUN));
  gtk_widget_action_set_enabled (widget, "win.sweep",
                                 can_run && ws_plan_get_valid (self->plan, WS_PLAN_SWEEP));
  gtk_widget_action_set_enabled (widget, "win.stop", running);
  gtk_widget_action_set_enabled (widget, "win.save", has_runs && !running);
  gtk_widget_action_set_enabled (widget, "win.save-as", has_runs && !running);
  /* A clicker's keys step through runs only on a projector: elsewhere they move the cursor. */
  gtk_widget_action_set_enabled (widget, "win.next-run", presenting && has_runs);
  gtk_widget_action_set_enabled (widget, "win.previous-run", presenting && has_runs);
  gtk_widget_action_set_enabled (widget, "win.leave-presentation", presenting);
}

static void update_switcher (WsWindow *self);
static void update_presentation (WsWindow *self);

/* The views need runs, except the calculator and the editor, which work with none. */
static void
update_page (WsWindow *self)
{
  const char *page = gtk_stack_get_visible_child_name (self->main_stack);
  const char *view = adw_view_stack_get_visible_child_name (self->views);
  WsSession *session = ws_workspace_get_session (self->workspace);

  if (ws_workspace_has_runs (self->workspace) || ws_workspace_has_trace (self->workspace))
    {
      gtk_stack_set_visible_child_name (self->main_stack, "views");
      /* A recording opened for a lecture starts at its first run. */
      if (ws_workspace_get_presentation (self->workspace) && ws_workspace_get_run (self->workspace) == 0)
        ws_workspace_step_run (self->workspace, 1);
    }
  else if (session != NULL && ws_session_get_memcheck_findings (session)->len > 0
           && g_strcmp0 (page, "views") != 0)
    {
      /* A memory check has no run: what it found is marked on its source's lines. */
      gtk_stack_set_visible_child_name (self->main_stack, "views");
      adw_view_stack_set_visible_child_name (self->views, "source");
    }
  else if (!(g_strcmp0 (page, "views") == 0
             && (g_strcmp0 (view, "occupancy") == 0 || g_strcmp0 (view, "source") == 0)))
    gtk_stack_set_visible_child_name (self->main_stack, "welcome");
  update_actions (self);
  /* The welcome page and the views dock different panes, and only the views switch. */
  gtk_widget_queue_allocate (GTK_WIDGET (self));
  update_switcher (self);
  update_presentation (self);
}

/* ---- the layout ---------------------------------------------------------------------------- */

static void
set_docked (AdwFlap *flap, gboolean docked)
{
  AdwFlapFoldPolicy policy = docked ? ADW_FLAP_FOLD_POLICY_NEVER : ADW_FLAP_FOLD_POLICY_ALWAYS;

  /* A flap that unfolds is revealed, one that folds is hidden (AdwFlap does both). */
  if (adw_flap_get_fold_policy (flap) != policy)
    adw_flap_set_fold_policy (flap, policy);
}

/* Which panes sit beside the chart follows the size the window is given: before its
 * children are allocated, so that they are allocated once, in the new layout. */
static void
ws_window_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  WsWindow *self = WS_WINDOW (widget);
  WsLayoutMode mode = WS_LAYOUT_WELCOME;
  WsLayout layout;

  if (ws_workspace_get_presentation (self->workspace))
    mode = WS_LAYOUT_PRESENTATION;
  else if (g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "views") == 0)
    mode = WS_LAYOUT_VIEWS;
  ws_layout_choose (mode, width, height, &layout);
  set_docked (self->config_flap, layout.config_docked);
  set_docked (self->findings_flap, layout.findings_docked);
  GTK_WIDGET_CLASS (ws_window_parent_class)->size_allocate (widget, width, height, baseline);
}

/* The views' switcher moves to a bar at the bottom when the header has no room for it. The
 * title says so while it is being allocated: the bar follows once that is over. */
static gboolean
update_switcher_idle (gpointer data)
{
  WsWindow *self = data;
  gboolean views = g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "views") == 0;

  self->switcher_idle = 0;
  adw_view_switcher_title_set_view_switcher_enabled (self->switcher_title, views);
  adw_view_switcher_bar_set_reveal (self->switcher_bar,
                                    views && adw_view_switcher_title_get_title_visible (self->switcher_title));
  return G_SOURCE_REMOVE;
}

static void
update_switcher (WsWindow *self)
{
  if (self->switcher_idle == 0)
    self->switcher_idle = g_idle_add (update_switcher_idle, self);
}

static GtkWidget *
child (WsWindow *self, const char *id)
{
  return GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (self), WS_TYPE_WINDOW, id));
}

/* What presentation mode shows: on the views, the takeaway over the chart and the callouts
 * under it (unless hidden); nothing for running, saving or picking runs from the table. */
static void
update_presentation (WsWindow *self)
{
  /* Off the header too, so that the views' switcher stays in it at 1024 pixels. */
  static const char *desk[] = { "sidebar_button", "run_button", "sweep_button", "stop_button",
                                "open_button", "save_button", "export_button", "findings_button",
                                "target_picker", "table_pane", "status_bar" };
  gboolean on = ws_workspace_get_presentation (self->workspace);
  gboolean views = g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "views") == 0;
  GtkWidget *callouts_button = child (self, "callouts_button");

  for (guint i = 0; i < G_N_ELEMENTS (desk); i++)
    gtk_widget_set_visible (child (self, desk[i]), !on);
  /* A traced program has no runs: its tables are the Kernels view, not the runs table. */
  if (ws_workspace_has_trace (self->workspace))
    gtk_widget_set_visible (child (self, "table_pane"), FALSE);
  gtk_widget_set_visible (child (self, "leave_presentation_button"), on);
  gtk_widget_set_visible (callouts_button, on && views);
  gtk_widget_set_visible (child (self, "takeaway"), on && views);
  gtk_widget_set_visible (child (self, "callouts"),
                          on && views
                            && gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (callouts_button)));
}

/* Presentation mode: full screen, the chart and what it says, large. */
static void
presentation_cb (WsWindow *self)
{
  gboolean on = ws_workspace_get_presentation (self->workspace);

  if (on)
    {
      gtk_window_fullscreen (GTK_WINDOW (self));
      gtk_widget_add_css_class (GTK_WIDGET (self), "presentation");
      /* Nothing over the chart: a pane brought out over it goes back. */
      adw_flap_set_reveal_flap (self->config_flap, FALSE);
      adw_flap_set_reveal_flap (self->findings_flap, FALSE);
      /* A lecture starts at the first run. */
      if (ws_workspace_get_run (self->workspace) == 0)
        ws_workspace_step_run (self->workspace, 1);
    }
  else
    {
      gtk_window_unfullscreen (GTK_WINDOW (self));
      gtk_widget_remove_css_class (GTK_WIDGET (self), "presentation");
    }
  update_presentation (self);
  update_actions (self);
  gtk_widget_queue_allocate (GTK_WIDGET (self));
}

/* ---- sessions -------------------------------------------------------------------------------- */

gboolean
ws_window_start_live (WsWindow *self, const char *const *argv, GError **error)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);
  ws_probe_session_arrives (GTK_WIDGET (self));
  return ws_run_controller_start (self->controller, argv, error);
}

/* On the chosen target; a sweep split across the GPUs chosen in the sidebar, a single run on
 * the first of them. */
static void
start_plan (WsWindow *self, WsPlanMode mode)
{
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) argv = NULL;
  g_autofree char *choice = g_settings_get_string (self->settings, "devices");
  gboolean all;
  g_autoptr (GArray) devices = ws_devices_choose (choice, ws_environment_get_session (self->environment),
                                                  &all);
  guint n = mode == WS_PLAN_RUN ? (all ? 0 : 1) : (all && devices->len < 2 ? 0 : devices->len);
  WsTarget *target = ws_run_controller_get_target (self->controller);

  ws_kernel_actions_before_run (self);
  if (ws_plan_is_own (self->plan) && target != NULL && ws_target_is_remote (target))
    {
      g_autofree char *place = ws_target_dup_place (target);
      /* Translators: the place is a host name ("gpu-box"). */
      g_autofree char *text = g_strdup_printf (_("Your own kernel's file is on this computer, not on "
                                                 "%s: run it on Local, or copy the file there and "
                                                 "run it with warpscope-cli."),
                                               place);
      toast (self, text);
      return;
    }
  /* The runner's path is the target's: only its options are the plan's. */
  argv = ws_plan_build_argv (self->plan, mode, "warpscope-runner", &error);

  ws_probe_session_arrives (GTK_WIDGET (self));
  if (argv == NULL
      || !ws_run_controller_start_on_target (self->controller, (const char *const *) argv + 1,
                                             (const int *) devices->data, n, &error))
    toast (self, error->message);
}

static void
load_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (WsWindow) self = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSession) session = ws_session_load_finish (result, &error);
  g_autofree char *uri = NULL;

  if (session == NULL)
    {
      toast (self, error->message);
      return;
    }
  uri = g_file_get_uri (ws_session_get_file (session));
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
  ws_probe_session_arrives (GTK_WIDGET (self));
  ws_workspace_set_session (self->workspace, session);
  if (ws_session_get_problems (session)->len > 0)
    {
      WsProblem *p = g_ptr_array_index (ws_session_get_problems (session), 0);
      g_autofree char *text = g_strdup_printf (_("Line %u could not be read (%s); the rest of "
                                                 "the file is shown."),
                                               p->line, p->message);

      toast (self, text);
    }
}

void
ws_window_open_file (WsWindow *self, GFile *file)
{
  g_return_if_fail (WS_IS_WINDOW (self));
  if (ws_kernel_actions_open_file (self, file))
    return;
  ws_session_load_async (file, NULL, load_done_cb, g_object_ref (self));
}

/* ---- file choosers --------------------------------------------------------------------------- */

static void
open_response_cb (GtkNativeDialog *chooser, int response, WsWindow *self)
{
  g_autoptr (GFile) file = NULL;
  g_autoptr (GError) error = NULL;

  if (response != GTK_RESPONSE_ACCEPT)
    return;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  if (!GPOINTER_TO_INT (g_object_get_data (G_OBJECT (chooser), "replay")))
    {
      ws_window_open_file (self, file);
      return;
    }
  ws_probe_session_arrives (GTK_WIDGET (self));
  if (!ws_run_controller_replay (self->controller, file, &error))
    toast (self, error->message);
}

static void
choose_file (WsWindow *self, gboolean replay)
{
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *samples = ws_application_dup_samples_dir ();
  g_autoptr (GFile) folder = g_file_new_for_path (samples);

  gtk_file_filter_set_name (filter, _("Warpscope sessions (*.jsonl)"));
  gtk_file_filter_add_pattern (filter, "*.jsonl");
  gtk_file_filter_add_pattern (filter, "*.json");
  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (replay ? _("Replay a Recording") : _("Open"),
                                               GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                               replay ? _("_Replay") : _("_Open"), _("_Cancel"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), folder, NULL);
  g_object_set_data (G_OBJECT (self->chooser), "replay", GINT_TO_POINTER (replay));
  g_signal_connect (self->chooser, "response", G_CALLBACK (open_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
save_to (WsWindow *self, GFile *file)
{
  WsSession *session = ws_workspace_get_session (self->workspace);
  g_autoptr (GError) error = NULL;
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *text = NULL;

  if (!ws_session_save (session, file, NULL, &error))
    {
      toast (self, error->message);
      return;
    }
  ws_session_set_source (session, WS_SESSION_SOURCE_RECORDING);
  text = g_strdup_printf (_("Saved as %s"), name);
  toast (self, text);
  update_actions (self);
}

static void
save_response_cb (GtkNativeDialog *chooser, int response, WsWindow *self)
{
  g_autoptr (GFile) file = NULL;

  if (response != GTK_RESPONSE_ACCEPT)
    return;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  save_to (self, file);
}

static void
save_as (WsWindow *self)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *name = g_date_time_format (now, "warpscope-%Y%m%d-%H%M%S.jsonl");

  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (_("Save Session"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"),
                                               _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);
  g_signal_connect (self->chooser, "response", G_CALLBACK (save_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static gboolean
drop_cb (GtkDropTarget *target, const GValue *value, double x, double y, WsWindow *self)
{
  if (!G_VALUE_HOLDS (value, G_TYPE_FILE))
    return FALSE;
  ws_window_open_file (self, g_value_get_object (value));
  return TRUE;
}

/* ---- actions --------------------------------------------------------------------------------- */

static void
run_action (GtkWidget *widget, const char *name, GVariant *param)
{
  start_plan (WS_WINDOW (widget), g_str_equal (name, "win.sweep") ? WS_PLAN_SWEEP : WS_PLAN_RUN);
}

static void
stop_action (GtkWidget *widget, const char *name, GVariant *param)
{
  ws_run_controller_cancel (WS_WINDOW (widget)->controller);
}

static void
open_action (GtkWidget *widget, const char *name, GVariant *param)
{
  choose_file (WS_WINDOW (widget), g_str_equal (name, "win.replay"));
}

static void
open_sample_action (GtkWidget *widget, const char *name, GVariant *param)
{
  g_autoptr (GFile) file = g_file_new_for_path (g_variant_get_string (param, NULL));

  ws_window_open_file (WS_WINDOW (widget), file);
}

static void
open_autosave_action (GtkWidget *widget, const char *name, GVariant *param)
{
  g_autofree char *path = ws_run_controller_dup_autosave_path ();
  g_autoptr (GFile) file = g_file_new_for_path (path);

  ws_window_open_file (WS_WINDOW (widget), file);
}

static void
save_action (GtkWidget *widget, const char *name, GVariant *param)
{
  WsWindow *self = WS_WINDOW (widget);
  WsSession *session = ws_workspace_get_session (self->workspace);
  GFile *file = session ? ws_session_get_file (session) : NULL;
  g_autofree char *samples = ws_application_dup_samples_dir ();
  g_autofree char *path = file ? g_file_get_path (file) : NULL;

  if (session == NULL)
    return;
  /* Never over a bundled recording; a live session gets a name first. */
  if (g_str_equal (name, "win.save-as") || file == NULL
      || ws_session_get_source (session) == WS_SESSION_SOURCE_LIVE
      || (path != NULL && g_str_has_prefix (path, samples)))
    save_as (self);
  else
    save_to (self, file);
}

static void
trace_action (GtkWidget *widget, const char *name, GVariant *param)
{
  WsWindow *self = WS_WINDOW (widget);
  WsTraceDialog *dialog = ws_trace_dialog_new (GTK_WINDOW (self), self->settings,
                                               self->controller, self->workspace,
                                               ws_environment_get_runner (self->environment));

  ws_probe_session_arrives (GTK_WIDGET (self));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
environment_action (GtkWidget *widget, const char *name, GVariant *param)
{
  WsWindow *self = WS_WINDOW (widget);
  GtkWidget *dialog = ws_environment_dialog_new (ws_environment_get_session (self->environment),
                                                 ws_workspace_get_session (self->workspace),
                                                 ws_environment_get_runner (self->environment));

  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
presentation_action (GtkWidget *widget, const char *name, GVariant *param)
{
  WsWorkspace *workspace = WS_WINDOW (widget)->workspace;

  ws_workspace_set_presentation (workspace, !ws_workspace_get_presentation (workspace));
}

static void
toggle_pane_action (GtkWidget *widget, const char *name, GVariant *param)
{
  WsWindow *self = WS_WINDOW (widget);
  gboolean findings = g_str_equal (name, "win.toggle-findings");
  AdwFlap *flap = findings ? self->findings_flap : self->config_flap;

  /* On a projector the findings are the callouts under the chart. */
  if (findings && ws_workspace_get_presentation (self->workspace))
    {
      GtkToggleButton *button = GTK_TOGGLE_BUTTON (child (self, "callouts_button"));

      gtk_toggle_button_set_active (button, !gtk_toggle_button_get_active (button));
      return;
    }
  adw_flap_set_reveal_flap (flap, !adw_flap_get_reveal_flap (flap));
}

static void
step_run_action (GtkWidget *widget, const char *name, GVariant *param)
{
  ws_workspace_step_run (WS_WINDOW (widget)->workspace, g_str_equal (name, "win.next-run") ? 1 : -1);
}

static void
leave_presentation_action (GtkWidget *widget, const char *name, GVariant *param)
{
  ws_workspace_set_presentation (WS_WINDOW (widget)->workspace, FALSE);
}

static void
show_view_action (GtkWidget *widget, const char *name, GVariant *param)
{
  WsWindow *self = WS_WINDOW (widget);

  gtk_stack_set_visible_child_name (self->main_stack, "views");
  adw_view_stack_set_visible_child_name (self->views, g_variant_get_string (param, NULL));
}

/* libadwaita 1.2's split button names neither of its halves for a screen reader. */
static void
name_export_button (GtkWidget *split)
{
  GtkWidget *main_part = gtk_widget_get_first_child (split);
  GtkWidget *arrow = gtk_widget_get_last_child (split);

  adw_split_button_set_menu_model (ADW_SPLIT_BUTTON (split), ws_chart_menu_get_model ());
  if (GTK_IS_BUTTON (main_part))
    gtk_accessible_update_property (GTK_ACCESSIBLE (main_part), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    _("Export"), -1);
  for (GtkWidget *w = arrow; GTK_IS_MENU_BUTTON (arrow) && w != NULL; w = gtk_widget_get_first_child (w))
    if (GTK_IS_BUTTON (w) || GTK_IS_MENU_BUTTON (w))
      gtk_accessible_update_property (GTK_ACCESSIBLE (w), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("More ways to export"), -1);
}

/* A clicker sends Page Up and Page Down (some send the arrows) and Escape to stop: caught
 * before the focused view, which would scroll or pan; let through while the actions are off. */
static void
presentation_keys (WsWindow *self)
{
  static const struct
  {
    guint key, other;
    const char *action;
  } keys[] = {
    { GDK_KEY_Right, GDK_KEY_Page_Down, "win.next-run" },
    { GDK_KEY_Left, GDK_KEY_Page_Up, "win.previous-run" },
    { GDK_KEY_Escape, 0, "win.leave-presentation" },
  };
  GtkEventController *controller = gtk_shortcut_controller_new ();

  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      GtkShortcutTrigger *trigger = gtk_keyval_trigger_new (keys[i].key, 0);

      if (keys[i].other != 0)
        trigger = gtk_alternative_trigger_new (trigger, gtk_keyval_trigger_new (keys[i].other, 0));
      gtk_shortcut_controller_add_shortcut (
        GTK_SHORTCUT_CONTROLLER (controller),
        gtk_shortcut_new (trigger, gtk_named_action_new (keys[i].action)));
    }
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}

/* ---- boilerplate ----------------------------------------------------------------------------- */

static void
controller_message_cb (WsRunController *controller, const char *text, WsWindow *self)
{
  toast (self, text);
}

/* Asking the runner about the GPU takes a CUDA context: after the first frame. */
static gboolean
probe_environment_idle (gpointer data)
{
  WsWindow *self = data;

  if (!gtk_widget_in_destruction (GTK_WIDGET (self)))
    ws_environment_probe (self->environment);
  return G_SOURCE_REMOVE;
}

static void
ws_window_constructed (GObject *object)
{
  WsWindow *self = WS_WINDOW (object);
  WsApplication *app = WS_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  static const char *plan_keys[] = { "kernel", "size", "block", "transfer", "reps", "cpu-one",
                                     "cpu-all", "sweep-from", "sweep-to", "sweep-factor",
                                     "sweep-blocks" };
  g_autofree char *autosaved = ws_run_controller_dup_autosave_path ();
  g_autofree char *samples_dir = ws_application_dup_samples_dir ();
  g_autofree char *runner = ws_runner_find ();
  g_autoptr (GError) error = NULL;
  GObject *picker;

  G_OBJECT_CLASS (ws_window_parent_class)->constructed (object);
  self->settings = app ? g_object_ref (ws_application_get_settings (app))
                       : g_settings_new (WS_SETTINGS_SCHEMA);
  g_settings_bind (self->settings, "window-width", self, "default-width", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "window-height", self, "default-height", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "window-maximized", self, "maximized", G_SETTINGS_BIND_DEFAULT);
  for (guint i = 0; i < G_N_ELEMENTS (plan_keys); i++)
    g_settings_bind (self->settings, plan_keys[i], self->plan, plan_keys[i], G_SETTINGS_BIND_DEFAULT);
  picker = gtk_widget_get_template_child (GTK_WIDGET (self), WS_TYPE_WINDOW, "target_picker");
  g_settings_bind (self->settings, "target", picker, "selected", G_SETTINGS_BIND_DEFAULT);
  if (!ws_target_picker_migrate_launcher (WS_TARGET_PICKER (picker), self->settings, &error))
    toast (self, error->message);
  else if (ws_target_list_get_unreadable (ws_target_picker_get_targets (WS_TARGET_PICKER (picker))))
    toast (self, ws_target_list_get_unreadable (ws_target_picker_get_targets (WS_TARGET_PICKER (picker))));
  g_settings_bind (self->settings, "runner-timeout", self->controller, "timeout", G_SETTINGS_BIND_GET);
  ws_chart_actions_set_settings (self->chart_actions, self->settings);
  ws_environment_set_runner (self->environment, runner);
  g_idle_add_full (G_PRIORITY_LOW, probe_environment_idle, g_object_ref (self), g_object_unref);

  self->samples = ws_sample_list_new (samples_dir);
  ws_welcome_page_set_samples (self->welcome, self->samples);
  ws_sample_list_fill_menu (self->samples, self->samples_menu);
  ws_recent_menu_follow (self->recent_menu);
  update_page (self);
  if (g_file_test (autosaved, G_FILE_TEST_EXISTS))
    {
      AdwToast *t = adw_toast_new (_("The last live session was kept"));

      adw_toast_set_button_label (t, _("Open"));
      adw_toast_set_action_name (t, "win.open-autosave");
      adw_toast_overlay_add_toast (self->toasts, t);
    }
}

static void
ws_window_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (ws_window_parent_class)->map (widget);
  ws_probe_window_mapped (widget);
}

static gboolean
ws_window_close_request (GtkWindow *window)
{
  if (ws_kernel_actions_close_request (WS_WINDOW (window)))
    return TRUE;
  ws_run_controller_cancel (WS_WINDOW (window)->controller);
  return GTK_WINDOW_CLASS (ws_window_parent_class)->close_request (window);
}

static void
ws_window_dispose (GObject *object)
{
  WsWindow *self = WS_WINDOW (object);

  /* A probe or a run may still finish after the window is gone: it must not reach back. */
  if (self->workspace != NULL)
    g_signal_handlers_disconnect_by_data (self->workspace, self);
  if (self->environment != NULL)
    g_signal_handlers_disconnect_by_data (self->environment, self);
  if (self->plan != NULL)
    g_signal_handlers_disconnect_by_data (self->plan, self);
  if (self->controller != NULL)
    g_signal_handlers_disconnect_by_data (self->controller, self);
  /* A picker kept alive past its window must not follow, nor write, the chosen target. */
  if (self->settings != NULL)
    g_settings_unbind (gtk_widget_get_template_child (GTK_WIDGET (self), WS_TYPE_WINDOW,
                                                      "target_picker"),
                       "selected");
  g_clear_object (&self->settings);
  g_clear_object (&self->samples);
  g_clear_object (&self->chooser);
  g_clear_handle_id (&self->switcher_idle, g_source_remove);
  g_clear_pointer (&self->last_toast, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_WINDOW);
  G_OBJECT_CLASS (ws_window_parent_class)->dispose (object);
}

static void
ws_window_class_init (WsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  /* Every action, with its key when it has one. */
  static const struct
  {
    const char *name, *type;
    GtkWidgetActionActivateFunc activate;
    guint key;
    GdkModifierType modifiers;
  } actions[] = {
    { "win.run", NULL, run_action, GDK_KEY_r, GDK_CONTROL_MASK },
    { "win.sweep", NULL, run_action, GDK_KEY_R, GDK_CONTROL_MASK | GDK_SHIFT_MASK },
    { "win.stop", NULL, stop_action, GDK_KEY_Escape, 0 },
    { "win.open", NULL, open_action, GDK_KEY_o, GDK_CONTROL_MASK },
    { "win.replay", NULL, open_action },
    { "win.open-sample", "s", open_sample_action },
    { "win.open-autosave", NULL, open_autosave_action },
    { "win.save", NULL, save_action, GDK_KEY_s, GDK_CONTROL_MASK },
    { "win.save-as", NULL, save_action, GDK_KEY_S, GDK_CONTROL_MASK | GDK_SHIFT_MASK },
    { "win.environment", NULL, environment_action },
    { "win.trace", NULL, trace_action, GDK_KEY_t, GDK_CONTROL_MASK },
    { "win.presentation", NULL, presentation_action, GDK_KEY_F11, 0 },
    { "win.show-view", "s", show_view_action },
    /* Sysprof's keys for its side panes. */
    { "win.toggle-config", NULL, toggle_pane_action, GDK_KEY_F9, 0 },
    { "win.toggle-findings", NULL, toggle_pane_action, GDK_KEY_F9, GDK_SHIFT_MASK },
    /* Their keys are the clicker's (presentation_keys): before any view sees them. */
    { "win.next-run", NULL, step_run_action },
    { "win.previous-run", NULL, step_run_action },
    { "win.leave-presentation", NULL, leave_presentation_action },
  };
  /* The views the window does not use itself, by their ids, for gtk_widget_get_template_child. */
  static const char *views[] = { "sidebar", "runs_view", "findings_panel", "time_summary",
                                 "speedup", "blocks", "occupancy", "breakdown", "roofline",
                                 "source", "header",
                                 "config_pane", "centre", "views_paned", "views_scroller",
                                 "table_pane", "takeaway", "callouts", "callouts_button",
                                 "leave_presentation_button", "sidebar_button", "run_button", "export_button",
                                 "sweep_button", "stop_button", "open_button", "save_button",
                                 "findings_button", "trace_view", "target_picker" };
  GType types[] = { WS_TYPE_CHART_ACTIONS, WS_TYPE_WORKSPACE, WS_TYPE_ENVIRONMENT, WS_TYPE_PLAN, WS_TYPE_RUN_CONTROLLER,
                    WS_TYPE_CONFIG_SIDEBAR, WS_TYPE_WELCOME_PAGE, WS_TYPE_TIMELINE_VIEW,
                    WS_TYPE_CHART_VIEW, WS_TYPE_OCCUPANCY_VIEW, WS_TYPE_SOURCE_VIEW,
                    WS_TYPE_TIME_SUMMARY, WS_TYPE_RUNS_VIEW, WS_TYPE_FINDINGS_PANEL,
                    WS_TYPE_STATUS_BAR, WS_TYPE_TAKEAWAY, WS_TYPE_CALLOUT_STRIP,
                    WS_TYPE_TRACE_VIEW, WS_TYPE_TARGET_PICKER, WS_TYPE_DEVICES_GROUP };

  object_class->constructed = ws_window_constructed;
  object_class->dispose = ws_window_dispose;
  GTK_WINDOW_CLASS (klass)->close_request = ws_window_close_request;
  widget_class->map = ws_window_map;
  widget_class->size_allocate = ws_window_size_allocate;

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    g_type_ensure (types[i]);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/warpscope/Warpscope/ui/ws-window.ui");
  gtk_widget_class_bind_template_child (widget_class, WsWindow, toasts);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, switcher_title);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, switcher_bar);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, config_flap);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, findings_flap);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, welcome);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, views);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, status_bar);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, samples_menu);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, recent_menu);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, workspace);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, environment);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, plan);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, controller);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, chart_actions);
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    gtk_widget_class_bind_template_child_full (widget_class, views[i], FALSE, 0);
  ws_kernel_actions_install (widget_class);

  /* The chart actions' keys (ws-chart-actions.c: a group the window holds). */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "chart.export", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "chart.copy", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      gtk_widget_class_install_action (widget_class, actions[i].name, actions[i].type,
                                       actions[i].activate);
      if (actions[i].key != 0)
        gtk_widget_class_add_binding_action (widget_class, actions[i].key, actions[i].modifiers,
                                             actions[i].name, NULL);
    }
}

static void
ws_window_init (WsWindow *self)
{
  GtkDropTarget *drop;

  gtk_widget_init_template (GTK_WIDGET (self));
#ifdef WS_DEVELOPMENT
  gtk_widget_add_css_class (GTK_WIDGET (self), "devel");
#endif
  /* What the actions depend on; the views follow the workspace themselves. */
  g_signal_connect_swapped (self->workspace, "notify::session", G_CALLBACK (update_page), self);
  g_signal_connect_swapped (self->workspace, "run-added", G_CALLBACK (update_page), self);
  /* A traced program's first process arrives as a session record, not a run. */
  g_signal_connect_swapped (self->workspace, "session-updated", G_CALLBACK (update_page), self);
  g_signal_connect_swapped (self->workspace, "notify::presentation", G_CALLBACK (presentation_cb), self);
  g_signal_connect_swapped (self->switcher_title, "notify::title-visible", G_CALLBACK (update_switcher), self);
  g_signal_connect_swapped (self->environment, "notify::state", G_CALLBACK (update_actions), self);
  g_signal_connect_swapped (self->plan, "notify::run-valid", G_CALLBACK (update_actions), self);
  g_signal_connect_swapped (self->plan, "notify::sweep-valid", G_CALLBACK (update_actions), self);
  g_signal_connect_swapped (self->controller, "notify::running", G_CALLBACK (update_actions), self);
  g_signal_connect (self->controller, "message", G_CALLBACK (controller_message_cb), self);
  ws_kernel_actions_init (self);

  gtk_widget_insert_action_group (GTK_WIDGET (self), "chart", G_ACTION_GROUP (self->chart_actions));
  presentation_keys (self);
  name_export_button (child (self, "export_button"));
  g_signal_connect_swapped (child (self, "callouts_button"), "toggled",
                            G_CALLBACK (update_presentation), self);
  update_actions (self);

  drop = gtk_drop_target_new (G_TYPE_FILE, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}

WsWindow *
ws_window_new (WsApplication *application)
{
  return g_object_new (WS_TYPE_WINDOW, "application", application, NULL);
}

WsWorkspace *
ws_window_get_workspace (WsWindow *self)
{
  return self->workspace;
}

const char *
ws_window_get_status_text (WsWindow *self)
{
  return ws_status_bar_get_text (self->status_bar);
}

gboolean
ws_window_is_running (WsWindow *self)
{
  return ws_run_controller_is_running (self->controller);
}

const char *
ws_window_get_last_toast (WsWindow *self)
{
  return self->last_toast;
}

const char *
ws_window_get_page (WsWindow *self)
{
  return gtk_stack_get_visible_child_name (self->main_stack);
}

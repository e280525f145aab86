/* ws-window.c: the main window. Its template (ui/ws-window.ui) holds the workspace, the
 * environment, the plan and the run controller, and gives each view the ones it shows; what
 * is left here is its wiring, which actions are enabled, the welcome page or the views, and
 * the toasts. Its jobs are in files of their own (ws-window-private.h): the files
 * (ws-window-files.c), running (ws-window-run.c), what is shown where (ws-window-layout.c) and
 * an own kernel (ws-kernel-actions.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-window-private.h"

#include <glib/gi18n.h>

#include "ws-chart-actions.h"
#include "ws-chart-menu.h"
#include "ws-chart-view.h"
#include "ws-config-sidebar.h"
#include "ws-config.h"
#include "ws-devices-group.h"
#include "ws-findings-panel.h"
#include "ws-kernel-actions.h"
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
#include "ws-toast.h"
#include "ws-trace-view.h"
#include "ws-welcome-page.h"

G_DEFINE_FINAL_TYPE (WsWindow, ws_window, ADW_TYPE_APPLICATION_WINDOW)

static void
toast (WsWindow *self, const char *text)
{
  AdwToast *t = ws_toast_new (GTK_WIDGET (self->toasts), text);

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

static GtkWidget *child (WsWindow *self, const char *id);

/* A Run or Sweep that is off says why on hover, whatever the target: what the environment
 * found, and what can be done without a GPU. */
static void
update_run_tooltips (WsWindow *self)
{
  WsEnvironmentState state = ws_environment_get_state (self->environment);
  g_autofree char *run = NULL, *sweep = NULL;

  if (state == WS_ENVIRONMENT_READY || state == WS_ENVIRONMENT_PROBING)
    {
      run = g_strdup (_("Run the configuration (Ctrl+R)"));
      sweep = g_strdup (_("Run the sweep (Ctrl+Shift+R)"));
    }
  else
    {
      /* Translators: the environment's title ("The GPU Cannot Be Used"), then what to do. */
      run = g_strdup_printf (_("Nothing to run on: %s. Open a recording (Ctrl+O), or choose a "
                               "target with a GPU in the header."),
                             ws_environment_get_title (self->environment));
      sweep = g_strdup (run);
    }
  gtk_widget_set_tooltip_text (child (self, "run_button"), run);
  gtk_widget_set_tooltip_text (child (self, "sweep_button"), sweep);
}

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
  update_run_tooltips (self);
  gtk_widget_action_set_enabled (widget, "win.stop", running);
  gtk_widget_action_set_enabled (widget, "win.save", has_runs && !running);
  gtk_widget_action_set_enabled (widget, "win.save-as", has_runs && !running);
  /* A clicker's keys step through runs only on a projector: elsewhere they move the cursor. */
  gtk_widget_action_set_enabled (widget, "win.next-run", presenting && has_runs);
  gtk_widget_action_set_enabled (widget, "win.previous-run", presenting && has_runs);
  gtk_widget_action_set_enabled (widget, "win.leave-presentation", presenting);
}

/* A traced program has no CPU baseline and no bytes or FLOPs per kernel: opened while Speedup
 * or Roofline shows, it lands on its timeline, once, so a view it can fill comes first. */
static void
land_trace (WsWindow *self, WsSession *session, const char *view)
{
  if (!ws_workspace_has_trace (self->workspace) || session == self->landed)
    return;
  g_set_weak_pointer (&self->landed, session);
  if (g_strcmp0 (view, "speedup") == 0 || g_strcmp0 (view, "roofline") == 0)
    adw_view_stack_set_visible_child_name (self->views, "timeline");
}

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
      land_trace (self, session, view);
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
  _ws_window_update_switcher (self);
  _ws_window_update_presentation (self);
}

void
_ws_window_update_actions (WsWindow *self)
{
  update_actions (self);
}

static GtkWidget *
child (WsWindow *self, const char *id)
{
  return GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (self), WS_TYPE_WINDOW, id));
}

GtkWidget *
_ws_window_child (WsWindow *self, const char *id)
{
  return child (self, id);
}

void
_ws_window_install_actions (GtkWidgetClass *widget_class, const WsWindowAction *actions,
                            guint n_actions)
{
  for (guint i = 0; i < n_actions; i++)
    {
      gtk_widget_class_install_action (widget_class, actions[i].name, actions[i].type,
                                       actions[i].activate);
      if (actions[i].key != 0)
        gtk_widget_class_add_binding_action (widget_class, actions[i].key, actions[i].modifiers,
                                             actions[i].name, NULL);
    }
}

/* ---- the template's wiring ------------------------------------------------------------------- */

static void
ws_window_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  _ws_window_dock_panes (WS_WINDOW (widget), width, height);
  GTK_WIDGET_CLASS (ws_window_parent_class)->size_allocate (widget, width, height, baseline);
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
                                     "sweep-blocks", "devices", "counters" };
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
  /* win.runs-table (F8, the main menu): the runs table shown or hidden, remembered. */
  {
    g_autoptr (GAction) runs_table = g_settings_create_action (self->settings, "runs-table");

    g_action_map_add_action (G_ACTION_MAP (self), runs_table);
    g_signal_connect_swapped (self->settings, "changed::runs-table",
                              G_CALLBACK (_ws_window_update_presentation), self);
  }
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
      AdwToast *t = ws_toast_new (GTK_WIDGET (self->toasts), _("The last live session was kept"));

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
  g_clear_weak_pointer (&self->landed);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_WINDOW);
  G_OBJECT_CLASS (ws_window_parent_class)->dispose (object);
}

static void
ws_window_class_init (WsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
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
  /* Every action, with its key when it has one, is installed by the file that holds it. */
  _ws_window_run_install (widget_class);
  _ws_window_files_install (widget_class);
  _ws_window_layout_install (widget_class);
}

static void
ws_window_init (WsWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
#ifdef WS_DEVELOPMENT
  gtk_widget_add_css_class (GTK_WIDGET (self), "devel");
#endif
  /* What the actions depend on; the views follow the workspace themselves. */
  g_signal_connect_swapped (self->workspace, "notify::session", G_CALLBACK (update_page), self);
  g_signal_connect_swapped (self->workspace, "run-added", G_CALLBACK (update_page), self);
  /* A traced program's first process arrives as a session record, not a run. */
  g_signal_connect_swapped (self->workspace, "session-updated", G_CALLBACK (update_page), self);
  g_signal_connect_swapped (self->environment, "notify::state", G_CALLBACK (update_actions), self);
  g_signal_connect_swapped (self->plan, "notify::run-valid", G_CALLBACK (update_actions), self);
  g_signal_connect_swapped (self->plan, "notify::sweep-valid", G_CALLBACK (update_actions), self);
  g_signal_connect_swapped (self->controller, "notify::running", G_CALLBACK (update_actions), self);
  g_signal_connect (self->controller, "message", G_CALLBACK (controller_message_cb), self);
  ws_kernel_actions_init (self);

  gtk_widget_insert_action_group (GTK_WIDGET (self), "chart", G_ACTION_GROUP (self->chart_actions));
  _ws_window_layout_init (self);
  name_export_button (child (self, "export_button"));
  update_actions (self);
  _ws_window_files_init (self);
  _ws_window_control_init (self);
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

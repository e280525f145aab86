/* ws-window-layout.c: what the window shows where: the side panes docked or folded by the
 * size it is given, the views' switcher in the header or at the bottom, and presentation mode
 * (full screen, the chart and what it says, large; a clicker's keys step through the runs).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-window-private.h"

#include "ws-layout.h"
#include "ws-takeaway.h"

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
void
_ws_window_dock_panes (WsWindow *self, int width, int height)
{
  WsLayoutMode mode = WS_LAYOUT_WELCOME;
  WsLayout layout;

  if (ws_workspace_get_presentation (self->workspace))
    mode = WS_LAYOUT_PRESENTATION;
  else if (g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "views") == 0)
    mode = WS_LAYOUT_VIEWS;
  ws_layout_choose (mode, width, height, &layout);
  set_docked (self->config_flap, layout.config_docked);
  set_docked (self->findings_flap, layout.findings_docked);
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

void
_ws_window_update_switcher (WsWindow *self)
{
  if (self->switcher_idle == 0)
    self->switcher_idle = g_idle_add (update_switcher_idle, self);
}

/* ---- the panes ----------------------------------------------------------------------------- */

/* libadwaita 1.2 starts a flap's reveal at a speed divided by the flap's width, which is 0
 * until the flap is first allocated: 0/0, and for a frame the pane and what lies beside it are
 * allocated INT_MIN pixels wide. A pane asked for before then comes out (or goes) once the
 * window is laid out. What was asked is kept on the flap: 0 nothing, else 1 + reveal. */
#define PENDING_REVEAL "ws-pending-reveal"

static gboolean
reveal_when_allocated_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  int pending = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (widget), PENDING_REVEAL));

  if (pending != 0 && gtk_widget_get_width (widget) == 0)
    return G_SOURCE_CONTINUE;
  g_object_set_data (G_OBJECT (widget), PENDING_REVEAL, NULL);
  if (pending != 0)
    adw_flap_set_reveal_flap (ADW_FLAP (widget), pending - 1);
  return G_SOURCE_REMOVE;
}

/* Whether the pane is out, or will be once the window is laid out. */
static gboolean
pane_revealed (AdwFlap *flap)
{
  int pending = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (flap), PENDING_REVEAL));

  return pending != 0 ? pending - 1 : adw_flap_get_reveal_flap (flap);
}

static void
reveal_pane (AdwFlap *flap, gboolean reveal)
{
  gboolean waiting = g_object_get_data (G_OBJECT (flap), PENDING_REVEAL) != NULL;

  if (gtk_widget_get_width (GTK_WIDGET (flap)) > 0)
    {
      /* A callback still waiting finds nothing asked, and goes. */
      g_object_set_data (G_OBJECT (flap), PENDING_REVEAL, NULL);
      adw_flap_set_reveal_flap (flap, reveal);
      return;
    }
  g_object_set_data (G_OBJECT (flap), PENDING_REVEAL, GINT_TO_POINTER (1 + !!reveal));
  if (!waiting)
    gtk_widget_add_tick_callback (GTK_WIDGET (flap), reveal_when_allocated_cb, NULL, NULL);
}

/* ---- presentation mode --------------------------------------------------------------------- */

/* What presentation mode shows: on the views, the takeaway over the chart and the callouts
 * under it (unless hidden); nothing for running, saving or picking runs from the table. */
void
_ws_window_update_presentation (WsWindow *self)
{
  /* Off the header too, so that the views' switcher stays in it at 1024 pixels. */
  static const char *desk[] = { "sidebar_button", "run_button", "sweep_button", "stop_button",
                                "open_button", "save_button", "export_button", "findings_button",
                                "target_picker", "table_pane", "status_bar" };
  gboolean on = ws_workspace_get_presentation (self->workspace);
  gboolean views = g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "views") == 0;
  GtkWidget *callouts_button = _ws_window_child (self, "callouts_button");

  for (guint i = 0; i < G_N_ELEMENTS (desk); i++)
    gtk_widget_set_visible (_ws_window_child (self, desk[i]), !on);
  /* A traced program has no runs: its tables are the Kernels view, not the runs table. Hidden
   * by the person (F8), the chart takes its height. */
  if (ws_workspace_has_trace (self->workspace)
      || (self->settings != NULL && !g_settings_get_boolean (self->settings, "runs-table")))
    gtk_widget_set_visible (_ws_window_child (self, "table_pane"), FALSE);
  gtk_widget_set_visible (_ws_window_child (self, "leave_presentation_button"), on);
  gtk_widget_set_visible (callouts_button, on && views);
  /* Beside the chart the findings may be folded away (below about 1440 px): the answer stays
   * in sight over the chart, a click from the rest. */
  gtk_widget_set_visible (_ws_window_child (self, "takeaway"),
                          views
                            && (on
                                || (ws_takeaway_has_answer (WS_TAKEAWAY (
                                      _ws_window_child (self, "takeaway")))
                                    && adw_flap_get_folded (self->findings_flap)
                                    && !pane_revealed (self->findings_flap))));
  gtk_widget_set_visible (_ws_window_child (self, "callouts"),
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
      reveal_pane (self->config_flap, FALSE);
      reveal_pane (self->findings_flap, FALSE);
      /* A lecture starts at the first run. */
      if (ws_workspace_get_run (self->workspace) == 0)
        ws_workspace_step_run (self->workspace, 1);
    }
  else
    {
      gtk_window_unfullscreen (GTK_WINDOW (self));
      gtk_widget_remove_css_class (GTK_WIDGET (self), "presentation");
    }
  _ws_window_update_presentation (self);
  _ws_window_update_actions (self);
  gtk_widget_queue_allocate (GTK_WIDGET (self));
}

/* ---- actions --------------------------------------------------------------------------------- */

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
      GtkToggleButton *button = GTK_TOGGLE_BUTTON (_ws_window_child (self, "callouts_button"));

      gtk_toggle_button_set_active (button, !gtk_toggle_button_get_active (button));
      return;
    }
  reveal_pane (flap, !pane_revealed (flap));
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

/* A clicker sends Page Up and Page Down (some send the arrows) and Escape to stop: caught
 * before the focused view, which would scroll or pan; let through while the actions are off. */
static void
window_keys (WsWindow *self)
{
  static const struct
  {
    guint key, other;
    const char *action;
  } keys[] = {
    { GDK_KEY_Right, GDK_KEY_Page_Down, "win.next-run" },
    { GDK_KEY_Left, GDK_KEY_Page_Up, "win.previous-run" },
    { GDK_KEY_Escape, 0, "win.leave-presentation" },
    /* Not the clicker's, but a window's key all the same: the runs table shown or hidden. */
    { GDK_KEY_F8, 0, "win.runs-table" },
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

void
_ws_window_layout_install (GtkWidgetClass *widget_class)
{
  static const WsWindowAction actions[] = {
    { "win.presentation", NULL, presentation_action, GDK_KEY_F11, 0 },
    { "win.show-view", "s", show_view_action },
    /* Sysprof's keys for its side panes. */
    { "win.toggle-config", NULL, toggle_pane_action, GDK_KEY_F9, 0 },
    { "win.toggle-findings", NULL, toggle_pane_action, GDK_KEY_F9, GDK_SHIFT_MASK },
    /* Their keys are the clicker's (window_keys): before any view sees them. */
    { "win.next-run", NULL, step_run_action },
    { "win.previous-run", NULL, step_run_action },
    { "win.leave-presentation", NULL, leave_presentation_action },
  };

  _ws_window_install_actions (widget_class, actions, G_N_ELEMENTS (actions));
}

void
_ws_window_layout_init (WsWindow *self)
{
  g_signal_connect_swapped (self->workspace, "notify::presentation", G_CALLBACK (presentation_cb),
                            self);
  g_signal_connect_swapped (self->switcher_title, "notify::title-visible",
                            G_CALLBACK (_ws_window_update_switcher), self);
  window_keys (self);
  g_signal_connect_swapped (_ws_window_child (self, "callouts_button"), "toggled",
                            G_CALLBACK (_ws_window_update_presentation), self);
  g_signal_connect_swapped (_ws_window_child (self, "takeaway"), "notify::has-answer",
                            G_CALLBACK (_ws_window_update_presentation), self);
  g_signal_connect_swapped (self->findings_flap, "notify::folded",
                            G_CALLBACK (_ws_window_update_presentation), self);
  g_signal_connect_swapped (self->findings_flap, "notify::reveal-flap",
                            G_CALLBACK (_ws_window_update_presentation), self);
}

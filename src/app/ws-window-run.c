/* ws-window-run.c: the window's actions that start something: Run and Sweep (the plan on
 * the chosen target, a sweep split across the GPUs the sidebar chose), Stop, Trace a
 * Program…, and the environment dialog.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-window-private.h"

#include <glib/gi18n.h>

#include "ws-devices-group.h"
#include "ws-environment-dialog.h"
#include "ws-kernel-actions.h"
#include "ws-probe.h"
#include "ws-trace-dialog.h"

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
  /* A Slurm cluster's nodes share the login node's files, as a rule; an ssh host does not. */
  if (ws_plan_is_own (self->plan) && target != NULL && ws_target_is_remote (target)
      && !ws_target_is_slurm (target))
    {
      g_autofree char *place = ws_target_dup_place (target);
      /* Translators: the place is a host name ("gpu-box"). */
      g_autofree char *text = g_strdup_printf (_("Your own kernel's file is on this computer, not on "
                                                 "%s: run it on Local, or copy the file there and "
                                                 "run it with warpscope-cli."),
                                               place);
      ws_window_show_toast (self, text);
      return;
    }
  /* The runner's path is the target's: only its options are the plan's. */
  argv = ws_plan_build_argv (self->plan, mode, "warpscope-runner", &error);

  ws_probe_session_arrives (GTK_WIDGET (self));
  if (argv == NULL
      || !ws_run_controller_start_on_target (self->controller, (const char *const *) argv + 1,
                                             (const int *) devices->data, n, &error))
    ws_window_show_toast (self, error->message);
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

void
_ws_window_run_install (GtkWidgetClass *widget_class)
{
  static const WsWindowAction actions[] = {
    { "win.run", NULL, run_action, GDK_KEY_r, GDK_CONTROL_MASK },
    { "win.sweep", NULL, run_action, GDK_KEY_R, GDK_CONTROL_MASK | GDK_SHIFT_MASK },
    { "win.stop", NULL, stop_action, GDK_KEY_Escape, 0 },
    { "win.environment", NULL, environment_action },
    { "win.trace", NULL, trace_action, GDK_KEY_t, GDK_CONTROL_MASK },
  };

  _ws_window_install_actions (widget_class, actions, G_N_ELEMENTS (actions));
}

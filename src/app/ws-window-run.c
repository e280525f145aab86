/* ws-window-run.c: the window's actions that start something: Run and Sweep (the plan on
 * the chosen target, with the GPUs the plan gives it), Stop, Trace a Program…, and the
 * environment dialog.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-window-private.h"

#include <glib/gi18n.h>

#include "ws-environment-dialog.h"
#include "ws-probe.h"
#include "ws-trace-dialog.h"

gboolean
ws_window_start_live (WsWindow *self, const char *const *argv, GError **error)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);
  ws_probe_session_arrives (GTK_WIDGET (self));
  return ws_run_controller_start (self->controller, argv, error);
}

/* On the chosen target, with the GPUs the plan gives it: the plan says what can run there. */
static void
start_plan (WsWindow *self, WsPlanMode mode)
{
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) args = ws_plan_prepare_run (self->plan, mode,
                                             ws_run_controller_get_target (self->controller),
                                             &error);
  g_autoptr (GArray) devices = NULL;

  if (args == NULL)
    {
      ws_window_show_toast (self, error->message);
      return;
    }
  devices = ws_plan_dup_run_devices (self->plan, mode,
                                     ws_environment_get_session (self->environment));
  ws_probe_session_arrives (GTK_WIDGET (self));
  if (!ws_run_controller_start_on_target (self->controller, (const char *const *) args,
                                          (const int *) devices->data, devices->len, &error))
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

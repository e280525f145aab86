/* ws-status-bar.c: the status line and the progress of a live run.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-status-bar.h"

#include <glib/gi18n.h>

struct _WsStatusBar
{
  WsView parent_instance;

  GtkRevealer *progress_revealer;
  GtkProgressBar *progress_bar;
  GtkLabel *status_label;

  WsEnvironment *environment;
  WsRunController *controller;
};

G_DEFINE_FINAL_TYPE (WsStatusBar, ws_status_bar, WS_TYPE_VIEW)

enum
{
  PROP_0,
  PROP_ENVIRONMENT,
  PROP_CONTROLLER,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ", DATE" when the recording has a date: never a "?" in its place. */
static void
append_date (GString *text, WsSession *s)
{
  g_autofree char *date = ws_session_dup_date (s);

  if (date != NULL)
    g_string_append_printf (text, ", %s", date);
}

/* A live session: the GPU, once the runner has named it (while it starts, that it starts;
 * after it ended without one, that there was none), and what it said of the driver and the
 * runtime, leaving out what it did not say. */
static void
describe_live (GString *text, WsSession *s, gboolean running)
{
  WsDevice *device = ws_session_get_device (s);
  const WsHello *hello = ws_session_get_hello (s);

  g_string_assign (text, device ? ws_device_get_name (device)
                         : running ? _("starting the runner…")
                         : _("no GPU"));
  if (hello != NULL && hello->driver_cuda != NULL)
    g_string_append_printf (text, _(" · driver supports CUDA %s"), hello->driver_cuda);
  else if (hello != NULL && !hello->driver_found)
    g_string_append (text, _(" · no NVIDIA driver"));
  if (hello != NULL && hello->runtime_cuda != NULL)
    g_string_append_printf (text, _(" · runtime %s"), hello->runtime_cuda);
}

static void
describe_source (GString *text, WsSession *s, gboolean running)
{
  WsDevice *device = ws_session_get_device (s);
  g_autofree char *name = ws_session_get_file (s) ? g_file_get_basename (ws_session_get_file (s))
                                                  : NULL;

  switch (ws_session_get_source (s))
    {
    case WS_SESSION_SOURCE_REPLAY:
      g_string_printf (text, _("Replay of a recording made on %s"),
                       device ? ws_device_get_name (device) : _("an unknown GPU"));
      append_date (text, s);
      break;
    case WS_SESSION_SOURCE_RECORDING:
      /* A memory check recorded before its device record was kept names no GPU. */
      if (ws_session_get_memcheck_findings (s)->len > 0)
        {
          if (device != NULL)
            g_string_printf (text, _("Memory check on %s"), ws_device_get_name (device));
          else
            g_string_assign (text, _("Memory check"));
        }
      else
        g_string_printf (text, _("Recording made on %s"),
                         device ? ws_device_get_name (device) : _("an unknown GPU"));
      append_date (text, s);
      if (name)
        g_string_append_printf (text, " · %s", name);
      break;
    default:
      describe_live (text, s, running);
      break;
    }
}

static char *
status_text (WsStatusBar *self)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));
  WsSession *s = workspace ? ws_workspace_get_session (workspace) : NULL;
  GString *text = g_string_new (NULL);
  guint problems;
  int done = 0, total = 0;

  if (s == NULL)
    {
      g_string_assign (text, self->environment ? ws_environment_get_summary (self->environment) : "");
      return g_string_free (text, FALSE);
    }
  describe_source (text, s, self->controller && ws_run_controller_is_running (self->controller));
  if (ws_session_get_progress (s, &done, &total) && total > 0 && done < total)
    g_string_append_printf (text, _(" · run %d of %d"), done + 1, total);
  problems = ws_session_get_problems (s)->len;
  if (problems > 0)
    g_string_append_printf (text, ngettext (" · %u line could not be read",
                                            " · %u lines could not be read", problems),
                            problems);
  return g_string_free (text, FALSE);
}

static void
update (WsStatusBar *self)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));
  WsSession *session = workspace ? ws_workspace_get_session (workspace) : NULL;
  gboolean running = self->controller && ws_run_controller_is_running (self->controller);
  g_autofree char *status = status_text (self);
  int done = 0, total = 0;

  gtk_label_set_text (self->status_label, status);
  gtk_revealer_set_reveal_child (self->progress_revealer, running);
  if (running && session && ws_session_get_progress (session, &done, &total) && total > 0)
    {
      g_autofree char *text = g_strdup_printf (_("%d of %d configurations"), done, total);

      gtk_progress_bar_set_fraction (self->progress_bar, (double) done / total);
      gtk_progress_bar_set_text (self->progress_bar, text);
    }
  else if (running)
    {
      gtk_progress_bar_pulse (self->progress_bar);
      gtk_progress_bar_set_text (self->progress_bar, _("Running…"));
    }
}

const char *
ws_status_bar_get_text (WsStatusBar *self)
{
  g_return_val_if_fail (WS_IS_STATUS_BAR (self), NULL);
  return gtk_label_get_text (self->status_label);
}

/* Updates now, and on any of `signals` of `source` (NULL: none). */
static void
listen (WsStatusBar *self, gpointer source, const char *const *signals)
{
  for (guint i = 0; source != NULL && signals[i] != NULL; i++)
    g_signal_connect_swapped (source, signals[i], G_CALLBACK (update), self);
  update (self);
}

/* Follows `source`, a property's object: updates on any of the signals. */
static void
follow (WsStatusBar *self, gpointer field, gpointer source, const char *const *signals)
{
  GObject **slot = field;

  if (*slot != NULL)
    g_signal_handlers_disconnect_by_data (*slot, self);
  g_set_object (slot, source);
  listen (self, source, signals);
}

static void
ws_status_bar_workspace_changed (WsView *view, WsWorkspace *workspace)
{
  static const char *signals[] = { "notify::session", "run-added", "run-updated",
                                   "session-updated", NULL };

  listen (WS_STATUS_BAR (view), workspace, signals);
}

static void
ws_status_bar_set_property (GObject *object, guint prop, const GValue *value, GParamSpec *pspec)
{
  WsStatusBar *self = WS_STATUS_BAR (object);
  static const char *environment_signals[] = { "notify::summary", NULL };
  static const char *controller_signals[] = { "notify::running", NULL };

  switch (prop)
    {
    case PROP_ENVIRONMENT:
      follow (self, &self->environment, g_value_get_object (value), environment_signals);
      break;
    case PROP_CONTROLLER:
      follow (self, &self->controller, g_value_get_object (value), controller_signals);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_status_bar_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  WsStatusBar *self = WS_STATUS_BAR (object);

  switch (prop)
    {
    case PROP_ENVIRONMENT: g_value_set_object (value, self->environment); break;
    case PROP_CONTROLLER: g_value_set_object (value, self->controller); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_status_bar_dispose (GObject *object)
{
  WsStatusBar *self = WS_STATUS_BAR (object);
  GObject **sources[] = { (GObject **) &self->environment, (GObject **) &self->controller };

  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      if (*sources[i] != NULL)
        g_signal_handlers_disconnect_by_data (*sources[i], self);
      g_clear_object (sources[i]);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_STATUS_BAR);
  G_OBJECT_CLASS (ws_status_bar_parent_class)->dispose (object);
}

static void
ws_status_bar_class_init (WsStatusBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  object_class->set_property = ws_status_bar_set_property;
  object_class->get_property = ws_status_bar_get_property;
  object_class->dispose = ws_status_bar_dispose;
  WS_VIEW_CLASS (klass)->workspace_changed = ws_status_bar_workspace_changed;
  properties[PROP_ENVIRONMENT] = g_param_spec_object ("environment", NULL, NULL,
                                                      WS_TYPE_ENVIRONMENT, rw);
  properties[PROP_CONTROLLER] = g_param_spec_object ("controller", NULL, NULL,
                                                     WS_TYPE_RUN_CONTROLLER, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/warpscope/Warpscope/ui/ws-status-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, WsStatusBar, progress_revealer);
  gtk_widget_class_bind_template_child (widget_class, WsStatusBar, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, WsStatusBar, status_label);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
}

static void
ws_status_bar_init (WsStatusBar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
}

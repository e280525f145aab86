/* ws-chart-actions.c: what the window does with the chart on screen. A file written says
 * where it went; one that exists is replaced only when the person says so (ws-chart-export).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-chart-actions.h"

#include <glib/gi18n.h>

#include "ws-chart-export.h"
#include "ws-chart-view.h"
#include "ws-export-dialog.h"
#include "ws-occupancy-view.h"
#include "ws-saved-file.h"
#include "ws-timeline-view.h"
#include "ws-toast.h"

struct _WsChartActions
{
  GSimpleActionGroup parent_instance;
  WsWorkspace *workspace;
  AdwViewStack *views;
  AdwToastOverlay *toasts;
  GSettings *settings;
  char *last_toast;
};

G_DEFINE_FINAL_TYPE (WsChartActions, ws_chart_actions, G_TYPE_SIMPLE_ACTION_GROUP)

enum
{
  PROP_0,
  PROP_WORKSPACE,
  PROP_VIEWS,
  PROP_TOASTS,
  PROP_SETTINGS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GtkWindow *
window_of (WsChartActions *self)
{
  GtkRoot *root = self->toasts ? gtk_widget_get_root (GTK_WIDGET (self->toasts)) : NULL;

  return GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL;
}

static void
add_toast (WsChartActions *self, AdwToast *toast, char *text)
{
  g_free (self->last_toast);
  self->last_toast = text;
  if (self->toasts != NULL)
    adw_toast_overlay_add_toast (self->toasts, toast);
  else
    g_object_unref (g_object_ref_sink (toast));
}

static void
say (WsChartActions *self, const char *text)
{
  AdwToast *toast = ws_toast_new (GTK_WIDGET (self->toasts), text);

  adw_toast_set_timeout (toast, 6);
  add_toast (self, toast, g_strdup (text));
}

static void
saved (WsChartActions *self, GFile *file)
{
  char *text = NULL;
  AdwToast *toast = ws_saved_file_toast (file, &text);

  add_toast (self, toast, text);
}

/* The chart on screen, as it is shown: a chart view's, the calculator's; for the views that
 * are not charts, the timeline. */
static gboolean
shown_options (WsChartActions *self, WsChartOptions *options)
{
  GtkWidget *shown;

  if (self->views == NULL || self->workspace == NULL || ws_workspace_get_session (self->workspace) == NULL)
    return FALSE;
  shown = adw_view_stack_get_visible_child (self->views);
  if (WS_IS_OCCUPANCY_VIEW (shown))
    shown = ws_occupancy_view_get_chart (WS_OCCUPANCY_VIEW (shown));
  if (!WS_IS_CHART_VIEW (shown) && !WS_IS_TIMELINE_VIEW (shown))
    shown = adw_view_stack_get_child_by_name (self->views, "timeline");
  if (WS_IS_CHART_VIEW (shown))
    ws_chart_view_get_options (WS_CHART_VIEW (shown), options);
  else if (WS_IS_TIMELINE_VIEW (shown))
    ws_timeline_view_get_options (WS_TIMELINE_VIEW (shown), options);
  else
    return FALSE;
  return TRUE;
}

/* ---- the actions -------------------------------------------------------------------------- */

static void
export_activated (GSimpleAction *action, GVariant *param, gpointer data)
{
  WsChartActions *self = data;
  WsChartOptions options;

  if (!shown_options (self, &options) || self->settings == NULL)
    return;
  gtk_window_present (GTK_WINDOW (ws_export_dialog_new (window_of (self), self->settings,
                                                        ws_workspace_get_sessions (self->workspace),
                                                        &options)));
}

static void
exported_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (WsChartActions) self = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = ws_chart_export_finish (result, &error);

  if (error != NULL)
    say (self, error->message);
  else if (file != NULL)
    saved (self, file);
}

/* One step from the chart to a file: the export settings, the chart's default name. */
static void
export_as_activated (GSimpleAction *action, GVariant *param, gpointer data)
{
  WsChartActions *self = data;
  WsExportFormat format;
  WsChartOptions options;

  if (!ws_export_format_from_string (g_variant_get_string (param, NULL), &format)
      || !shown_options (self, &options) || self->settings == NULL)
    return;
  ws_chart_export_async (window_of (self), self->settings,
                         ws_workspace_get_sessions (self->workspace), &options, format, NULL,
                         exported_cb, g_object_ref (self));
}

static void
copy_activated (GSimpleAction *action, GVariant *param, gpointer data)
{
  WsChartActions *self = data;
  g_autoptr (GError) error = NULL;
  WsChartOptions options;

  if (!shown_options (self, &options) || self->toasts == NULL)
    return;
  if (!ws_chart_export_copy (GTK_WIDGET (self->toasts), ws_workspace_get_sessions (self->workspace),
                             &options, &error))
    say (self, error->message);
  else
    say (self, _("Copied the chart as a PNG image"));
}

/* A file written (by the dialog too: chart.exported), opened, or shown in its folder. */
static void
file_activated (GSimpleAction *action, GVariant *param, gpointer data)
{
  WsChartActions *self = data;
  const char *name = g_action_get_name (G_ACTION (action));
  g_autoptr (GFile) file = g_file_new_for_uri (g_variant_get_string (param, NULL));

  if (g_str_equal (name, "exported"))
    saved (self, file);
  else if (g_str_equal (name, "open-file"))
    ws_saved_file_open (window_of (self), file);
  else
    ws_saved_file_show_async (window_of (self), file, NULL, NULL, NULL);
}

static void
update_enabled (WsChartActions *self)
{
  const char *need_runs[] = { "copy", "export-as", "export" };
  gboolean has_runs = self->workspace && ws_workspace_has_runs (self->workspace);

  for (guint i = 0; i < G_N_ELEMENTS (need_runs); i++)
    g_simple_action_set_enabled (
      G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), need_runs[i])), has_runs);
}

void
ws_chart_actions_set_settings (WsChartActions *self, GSettings *settings)
{
  g_return_if_fail (WS_IS_CHART_ACTIONS (self));
  g_set_object (&self->settings, settings);
}

const char *
ws_chart_actions_get_last_toast (WsChartActions *self)
{
  g_return_val_if_fail (WS_IS_CHART_ACTIONS (self), NULL);
  return self->last_toast;
}

/* ---- boilerplate -------------------------------------------------------------------------- */

static void
set_workspace (WsChartActions *self, WsWorkspace *workspace)
{
  if (self->workspace != NULL)
    g_signal_handlers_disconnect_by_data (self->workspace, self);
  g_set_object (&self->workspace, workspace);
  if (workspace != NULL)
    {
      g_signal_connect_swapped (workspace, "notify::session", G_CALLBACK (update_enabled), self);
      g_signal_connect_swapped (workspace, "run-added", G_CALLBACK (update_enabled), self);
    }
  update_enabled (self);
}

static void
ws_chart_actions_set_property (GObject *object, guint prop, const GValue *value, GParamSpec *pspec)
{
  WsChartActions *self = WS_CHART_ACTIONS (object);

  switch (prop)
    {
    case PROP_WORKSPACE: set_workspace (self, g_value_get_object (value)); break;
    case PROP_VIEWS: g_set_object (&self->views, g_value_get_object (value)); break;
    case PROP_TOASTS: g_set_object (&self->toasts, g_value_get_object (value)); break;
    case PROP_SETTINGS: ws_chart_actions_set_settings (self, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_chart_actions_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  WsChartActions *self = WS_CHART_ACTIONS (object);

  switch (prop)
    {
    case PROP_WORKSPACE: g_value_set_object (value, self->workspace); break;
    case PROP_VIEWS: g_value_set_object (value, self->views); break;
    case PROP_TOASTS: g_value_set_object (value, self->toasts); break;
    case PROP_SETTINGS: g_value_set_object (value, self->settings); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_chart_actions_dispose (GObject *object)
{
  WsChartActions *self = WS_CHART_ACTIONS (object);

  set_workspace (self, NULL);
  g_clear_object (&self->views);
  g_clear_object (&self->toasts);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->last_toast, g_free);
  G_OBJECT_CLASS (ws_chart_actions_parent_class)->dispose (object);
}

static void
ws_chart_actions_class_init (WsChartActionsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  object_class->set_property = ws_chart_actions_set_property;
  object_class->get_property = ws_chart_actions_get_property;
  object_class->dispose = ws_chart_actions_dispose;
  properties[PROP_WORKSPACE] = g_param_spec_object ("workspace", NULL, NULL, WS_TYPE_WORKSPACE, rw);
  properties[PROP_VIEWS] = g_param_spec_object ("views", NULL, NULL, ADW_TYPE_VIEW_STACK, rw);
  properties[PROP_TOASTS] = g_param_spec_object ("toasts", NULL, NULL, ADW_TYPE_TOAST_OVERLAY, rw);
  properties[PROP_SETTINGS] = g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ws_chart_actions_init (WsChartActions *self)
{
  const GActionEntry entries[] = {
    { "copy", copy_activated },
    { "export", export_activated },
    { "export-as", export_as_activated, "s" },
    { "exported", file_activated, "s" },
    { "open-file", file_activated, "s" },
    { "show-file", file_activated, "s" },
  };

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  update_enabled (self);
}

WsChartActions *
ws_chart_actions_new (void)
{
  return g_object_new (WS_TYPE_CHART_ACTIONS, NULL);
}

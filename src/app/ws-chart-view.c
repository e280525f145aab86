/* ws-chart-view.c: a chart widget. Painting goes through gtk_snapshot_append_cairo and the
 * same ws_chart_draw that export uses; it repaints when its workspace changes.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-chart-view.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-chart-widget.h"

struct _WsChartView
{
  WsView parent_instance;

  WsChartKind kind;
  char *arch;
  int block_size, registers, smem_bytes;
};

G_DEFINE_FINAL_TYPE (WsChartView, ws_chart_view, WS_TYPE_VIEW)

enum
{
  PROP_0,
  PROP_KIND,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

GType
ws_chart_kind_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    { WS_CHART_TIMELINE, "WS_CHART_TIMELINE", "timeline" },
    { WS_CHART_SPEEDUP, "WS_CHART_SPEEDUP", "speedup" },
    { WS_CHART_BLOCKS, "WS_CHART_BLOCKS", "blocks" },
    { WS_CHART_OCCUPANCY, "WS_CHART_OCCUPANCY", "occupancy" },
    { WS_CHART_BREAKDOWN, "WS_CHART_BREAKDOWN", "breakdown" },
    { WS_CHART_ROOFLINE, "WS_CHART_ROOFLINE", "roofline" },
    { WS_CHART_PARAMS, "WS_CHART_PARAMS", "params" },
    { 0, NULL, NULL },
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("WsChartKind", values));
  return type;
}

GPtrArray *
ws_chart_view_sessions (WsWorkspace *workspace)
{
  static GPtrArray *none = NULL;

  if (workspace != NULL)
    return ws_workspace_get_sessions (workspace);
  if (g_once_init_enter (&none))
    g_once_init_leave (&none, g_ptr_array_new ());
  return none;
}

gboolean
ws_chart_view_paint_waiting (GtkWidget *widget, GtkSnapshot *snapshot, WsWorkspace *workspace)
{
  static const GdkRGBA dim = { 0.5, 0.5, 0.5, 1 };
  g_autoptr (PangoLayout) layout = NULL;
  int width, height;

  if (workspace == NULL || ws_workspace_is_analysed (workspace))
    return FALSE;
  layout = gtk_widget_create_pango_layout (widget, _("Analysing the session…"));
  pango_layout_get_pixel_size (layout, &width, &height);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot,
                          &GRAPHENE_POINT_INIT ((gtk_widget_get_width (widget) - width) / 2.0,
                                                (gtk_widget_get_height (widget) - height) / 2.0));
  gtk_snapshot_append_layout (snapshot, layout, &dim);
  gtk_snapshot_restore (snapshot);
  return TRUE;
}

void
ws_chart_view_fill_options (GtkWidget *widget, WsWorkspace *workspace, WsChartKind kind,
                            WsChartOptions *options, WsTheme **owned)
{
  gboolean presentation = workspace && ws_workspace_get_presentation (workspace);
  const WsTheme *theme = ws_theme_get (adw_style_manager_get_dark (adw_style_manager_get_default ())
                                         ? WS_THEME_DARK
                                         : WS_THEME_LIGHT);

  /* Projector text; a chart shorter than a 1024×768 projector gives it (a 600-pixel-high
   * screen) draws it smaller, in proportion, so that its plot keeps most of its height. */
  double scale = WS_PRESENTATION_TEXT_SCALE
                 * CLAMP (gtk_widget_get_height (widget) / WS_PRESENTATION_FULL_HEIGHT, 0.7, 1.0);

  *owned = presentation ? ws_theme_scaled (theme, scale) : NULL;
  ws_chart_options_init (options, kind, *owned ? *owned : theme, gtk_widget_get_width (widget),
                         gtk_widget_get_height (widget));
  /* Empty states and findings on the chart name the sidebar's controls, not the CLI's flags. */
  options->audience = WS_AUDIENCE_APP;
  options->annotate = presentation;
  if (workspace == NULL || kind == WS_CHART_OCCUPANCY)
    return;
  options->run = ws_workspace_get_run (workspace);
  options->compare_run = ws_workspace_get_compare_run (workspace);
  ws_workspace_get_visible_window (workspace, &options->window_start, &options->window_end);
  ws_workspace_get_selected_range (workspace, &options->selection_start, &options->selection_end);
  options->highlight = ws_workspace_get_highlight (workspace);
}

static void
fill_options (WsChartView *self, WsChartOptions *options, WsTheme **owned)
{
  ws_chart_view_fill_options (GTK_WIDGET (self), ws_view_get_workspace (WS_VIEW (self)),
                              self->kind, options, owned);
  options->arch = self->arch;
  options->block_size = self->block_size;
  options->registers = self->registers;
  options->smem_bytes = self->smem_bytes;
}

void
ws_chart_view_get_options (WsChartView *self, WsChartOptions *options)
{
  g_autofree WsTheme *owned = NULL;

  g_return_if_fail (WS_IS_CHART_VIEW (self));
  fill_options (self, options, &owned);
  ws_chart_widget_export_options (options);
}

static void
ws_chart_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  WsChartView *self = WS_CHART_VIEW (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  /* The calculator's chart is of its own configuration, not of a session. */
  WsWorkspace *workspace = self->kind == WS_CHART_OCCUPANCY
                             ? NULL : ws_view_get_workspace (WS_VIEW (self));
  g_autofree WsTheme *owned = NULL;
  WsChartOptions options;

  if (width <= 0 || height <= 0)
    return;
  if (workspace != NULL && ws_chart_view_paint_waiting (widget, snapshot, workspace))
    return;
  fill_options (self, &options, &owned);
  ws_chart_widget_snapshot (widget, snapshot, ws_chart_view_sessions (workspace), &options);
}

void
ws_chart_view_set_occupancy (WsChartView *self, const char *arch, int block_size, int registers,
                             int smem_bytes)
{
  g_return_if_fail (WS_IS_CHART_VIEW (self));
  g_free (self->arch);
  self->arch = g_strdup (arch);
  self->block_size = block_size;
  self->registers = registers;
  self->smem_bytes = smem_bytes;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- the workspace ------------------------------------------------------------------------ */

static void
repaint (WsChartView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
ws_chart_view_workspace_changed (WsView *view, WsWorkspace *workspace)
{
  ws_chart_widget_follow (GTK_WIDGET (view), workspace);
}

static void
set_kind (WsChartView *self, WsChartKind kind)
{
  self->kind = kind;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  ws_chart_kind_title (kind), -1);
  repaint (self);
}

/* ---- boilerplate -------------------------------------------------------------------------- */

static void
ws_chart_view_set_property (GObject *object, guint prop, const GValue *value, GParamSpec *pspec)
{
  WsChartView *self = WS_CHART_VIEW (object);

  switch (prop)
    {
    case PROP_KIND: set_kind (self, g_value_get_enum (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_chart_view_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  WsChartView *self = WS_CHART_VIEW (object);

  switch (prop)
    {
    case PROP_KIND: g_value_set_enum (value, self->kind); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_chart_view_dispose (GObject *object)
{
  WsChartView *self = WS_CHART_VIEW (object);

  ws_chart_widget_dispose (GTK_WIDGET (self));
  g_clear_pointer (&self->arch, g_free);
  G_OBJECT_CLASS (ws_chart_view_parent_class)->dispose (object);
}

static void
ws_chart_view_class_init (WsChartViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->set_property = ws_chart_view_set_property;
  object_class->get_property = ws_chart_view_get_property;
  object_class->dispose = ws_chart_view_dispose;
  widget_class->snapshot = ws_chart_view_snapshot;
  ws_chart_widget_class_init (widget_class);
  WS_VIEW_CLASS (klass)->workspace_changed = ws_chart_view_workspace_changed;

  properties[PROP_KIND] = g_param_spec_enum ("kind", NULL, NULL, WS_TYPE_CHART_KIND,
                                             WS_CHART_SPEEDUP,
                                             G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY
                                               | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ws_chart_view_init (WsChartView *self)
{
  self->block_size = 256;
  self->registers = 32;
  ws_chart_widget_init (GTK_WIDGET (self));
}

GtkWidget *
ws_chart_view_new (WsChartKind kind)
{
  return g_object_new (WS_TYPE_CHART_VIEW, "kind", kind, NULL);
}

/* ws-chart-widget.c: what every chart on screen does alike.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-chart-widget.h"

#include <adwaita.h>

#include "ws-chart-menu.h"

static void
size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  ws_chart_menu_present (widget);
}

void
ws_chart_widget_class_init (GtkWidgetClass *widget_class)
{
  widget_class->size_allocate = size_allocate;
  gtk_widget_class_set_css_name (widget_class, "chart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

void
ws_chart_widget_init (GtkWidget *chart)
{
  gtk_widget_set_hexpand (chart, TRUE);
  gtk_widget_set_vexpand (chart, TRUE);
  gtk_widget_set_size_request (chart, 320, 200);
  ws_chart_menu_attach (chart);
  g_signal_connect_swapped (adw_style_manager_get_default (), "notify::dark",
                            G_CALLBACK (gtk_widget_queue_draw), chart);
}

void
ws_chart_widget_follow (GtkWidget *chart, WsWorkspace *workspace)
{
  if (workspace != NULL)
    {
      /* Whatever the views share may show on a chart: the runs, presentation mode. */
      g_signal_connect_swapped (workspace, "notify", G_CALLBACK (gtk_widget_queue_draw), chart);
      g_signal_connect_swapped (workspace, "run-updated", G_CALLBACK (gtk_widget_queue_draw),
                                chart);
      g_signal_connect_swapped (workspace, "session-updated", G_CALLBACK (gtk_widget_queue_draw),
                                chart);
      /* Until then the chart says it is waiting for the session's analysis. */
      g_signal_connect_swapped (workspace, "analysis-ready", G_CALLBACK (gtk_widget_queue_draw),
                                chart);
    }
  gtk_widget_queue_draw (chart);
}

void
ws_chart_widget_snapshot (GtkWidget *chart, GtkSnapshot *snapshot, GPtrArray *sessions,
                          const WsChartOptions *options)
{
  int width = gtk_widget_get_width (chart), height = gtk_widget_get_height (chart);
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));

  ws_chart_draw (cr, sessions, options);
  cairo_destroy (cr);
}

void
ws_chart_widget_export_options (WsChartOptions *options)
{
  options->theme = ws_theme_get (WS_THEME_LIGHT);
  options->highlight = NULL;
}

void
ws_chart_widget_dispose (GtkWidget *chart)
{
  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), chart);
  ws_chart_menu_detach (chart);
}

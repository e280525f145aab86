/* ws-chart-menu.h: what can be done with a chart on screen: copy it as a PNG, export it as
 * PNG, SVG or PDF in one step, or in the export dialog. The same menu opens on a right click
 * (or a long press) on any chart and from the header's export button.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The menu (chart.copy, chart.export-as('png' | 'svg' | 'pdf'), chart.export). */
GMenuModel *ws_chart_menu_get_model (void);

/* Opens the menu where `chart` is clicked with the secondary button or long-pressed. The
 * popover returned is `chart`'s child: the chart presents it in its size_allocate
 * (ws_chart_menu_present) and unparents it in dispose (ws_chart_menu_detach). */
GtkWidget *ws_chart_menu_attach (GtkWidget *chart);
void ws_chart_menu_present (GtkWidget *chart);
void ws_chart_menu_detach (GtkWidget *chart);

G_END_DECLS

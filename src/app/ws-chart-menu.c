/* ws-chart-menu.c: every chart's context menu, and the header's, from one model.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-chart-menu.h"

#include <glib/gi18n.h>

GMenuModel *
ws_chart_menu_get_model (void)
{
  static GMenu *menu = NULL;

  if (g_once_init_enter (&menu))
    {
      GMenu *m = g_menu_new ();
      g_autoptr (GMenu) copy = g_menu_new ();
      g_autoptr (GMenu) formats = g_menu_new ();
      g_autoptr (GMenu) more = g_menu_new ();

      g_menu_append (copy, _("_Copy as PNG"), "chart.copy");
      g_menu_append (formats, _("Export as _PNG"), "chart.export-as::png");
      g_menu_append (formats, _("Export as _SVG"), "chart.export-as::svg");
      g_menu_append (formats, _("Export as P_DF"), "chart.export-as::pdf");
      g_menu_append (more, _("_Export…"), "chart.export");
      g_menu_append_section (m, NULL, G_MENU_MODEL (copy));
      g_menu_append_section (m, NULL, G_MENU_MODEL (formats));
      g_menu_append_section (m, NULL, G_MENU_MODEL (more));
      g_once_init_leave (&menu, m);
    }
  return G_MENU_MODEL (menu);
}

static void
popup (GtkWidget *chart, double x, double y)
{
  GtkPopover *popover = g_object_get_data (G_OBJECT (chart), "ws-chart-menu");

  gtk_popover_set_pointing_to (popover, &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (popover);
}

static void
pressed_cb (GtkGestureClick *gesture, int n, double x, double y, GtkWidget *chart)
{
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  popup (chart, x, y);
}

static void
long_pressed_cb (GtkGestureLongPress *gesture, double x, double y, GtkWidget *chart)
{
  popup (chart, x, y);
}

static gboolean
key_popup_cb (GtkWidget *chart, GVariant *args, gpointer data)
{
  popup (chart, gtk_widget_get_width (chart) / 2.0, gtk_widget_get_height (chart) / 2.0);
  return TRUE;
}

GtkWidget *
ws_chart_menu_attach (GtkWidget *chart)
{
  GtkWidget *popover = gtk_popover_menu_new_from_model (ws_chart_menu_get_model ());
  GtkGesture *click = gtk_gesture_click_new ();
  GtkGesture *press = gtk_gesture_long_press_new ();
  GtkEventController *keys;

  gtk_popover_set_has_arrow (GTK_POPOVER (popover), FALSE);
  gtk_widget_set_halign (popover, GTK_ALIGN_START);
  gtk_widget_set_parent (popover, chart);
  g_object_set_data (G_OBJECT (chart), "ws-chart-menu", popover);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), chart);
  gtk_widget_add_controller (chart, GTK_EVENT_CONTROLLER (click));
  gtk_gesture_single_set_touch_only (GTK_GESTURE_SINGLE (press), TRUE);
  g_signal_connect (press, "pressed", G_CALLBACK (long_pressed_cb), chart);
  gtk_widget_add_controller (chart, GTK_EVENT_CONTROLLER (press));
  /* The keyboard's context-menu keys, on a chart that has the focus. */
  keys = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_add_shortcut (
    GTK_SHORTCUT_CONTROLLER (keys),
    gtk_shortcut_new (gtk_alternative_trigger_new (gtk_keyval_trigger_new (GDK_KEY_F10, GDK_SHIFT_MASK),
                                                   gtk_keyval_trigger_new (GDK_KEY_Menu, 0)),
                      gtk_callback_action_new (key_popup_cb, NULL, NULL)));
  gtk_widget_add_controller (chart, keys);
  return popover;
}

void
ws_chart_menu_present (GtkWidget *chart)
{
  GtkWidget *popover = g_object_get_data (G_OBJECT (chart), "ws-chart-menu");

  if (popover != NULL)
    gtk_popover_present (GTK_POPOVER (popover));
}

void
ws_chart_menu_detach (GtkWidget *chart)
{
  GtkWidget *popover = g_object_steal_data (G_OBJECT (chart), "ws-chart-menu");

  if (popover != NULL)
    gtk_widget_unparent (popover);
}

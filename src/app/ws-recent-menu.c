/* ws-recent-menu.c: Open Recent, from GTK's list of recently used files.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-recent-menu.h"

#include <gtk/gtk.h>

#include "ws-label.h"

static int
compare_recent (gconstpointer a, gconstpointer b)
{
  GtkRecentInfo *x = *(GtkRecentInfo **) a, *y = *(GtkRecentInfo **) b;

  return g_date_time_compare (gtk_recent_info_get_modified (y), gtk_recent_info_get_modified (x));
}

static void
fill (GMenu *menu)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  g_autoptr (GPtrArray) sessions = g_ptr_array_new ();
  guint shown = 0;

  g_menu_remove_all (menu);
  for (GList *l = items; l != NULL; l = l->next)
    if (g_str_has_suffix (gtk_recent_info_get_uri (l->data), ".jsonl") && gtk_recent_info_exists (l->data))
      g_ptr_array_add (sessions, l->data);
  g_ptr_array_sort (sessions, compare_recent);
  for (guint i = 0; i < sessions->len && shown < 8; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (sessions, i);
      g_autoptr (GFile) file = g_file_new_for_uri (gtk_recent_info_get_uri (info));
      g_autofree char *path = g_file_get_path (file);
      g_autoptr (GMenuItem) item = NULL;
      g_autofree char *label = NULL;

      if (path == NULL)
        continue;
      label = ws_label_menu_text (gtk_recent_info_get_display_name (info));
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target (item, "win.open-sample", "s", path);
      g_menu_append_item (menu, item);
      shown++;
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

void
ws_recent_menu_follow (GMenu *menu)
{
  g_return_if_fail (G_IS_MENU (menu));
  fill (menu);
  g_signal_connect_object (gtk_recent_manager_get_default (), "changed", G_CALLBACK (fill), menu,
                           G_CONNECT_SWAPPED);
}

/* test-icons.c: every icon the app names resolves, on Debian 12's Adwaita and hicolor themes
 * plus the icons bundled in the app's resources: none is drawn as a broken image.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <adwaita.h>

#include "ws-application.h"
#include "ws-config.h"

/* Icon names in the templates (icon-name properties) and in the app's C sources (string
 * literals of icon names, and the application's own icon). */
static void
collect_from (GHashTable *names, const char *dir, const char *suffix, GRegex *regex)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *entry;

  g_assert_nonnull (d);
  while ((entry = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, entry, NULL);
      g_autofree char *text = NULL;
      g_autoptr (GMatchInfo) match = NULL;

      if (!g_str_has_suffix (entry, suffix))
        continue;
      g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
      g_regex_match (regex, text, 0, &match);
      for (; g_match_info_matches (match); g_match_info_next (match, NULL))
        g_hash_table_add (names, g_match_info_fetch (match, 1));
    }
}

static GHashTable *
collect_icon_names (void)
{
  GHashTable *names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *ui = g_test_build_filename (G_TEST_DIST, "..", "ui", NULL);
  g_autofree char *app = g_test_build_filename (G_TEST_DIST, "..", "src", "app", NULL);
  g_autoptr (GRegex) in_ui = g_regex_new ("<property name=\"icon[-_]name\"[^>]*>([^<]+)<", 0, 0,
                                          NULL);
  g_autoptr (GRegex) in_c = g_regex_new ("\"([a-z0-9.-]+-symbolic)\"", 0, 0, NULL);

  collect_from (names, ui, ".ui", in_ui);
  collect_from (names, app, ".c", in_c);
  g_hash_table_add (names, g_strdup (WS_APPLICATION_ID));
  return names;
}

static void
test_every_icon_resolves (void)
{
  g_autoptr (GHashTable) names = collect_icon_names ();
  g_autoptr (WsApplication) app = ws_application_new ();
  g_autofree char *base = NULL;
  g_autofree char *icons = NULL;
  g_autoptr (GString) missing = g_string_new (NULL);
  GtkIconTheme *theme = gtk_icon_theme_get_for_display (gdk_display_get_default ());
  GHashTableIter iter;
  gpointer name;

  /* What GtkApplication adds at start-up for an application with this resource base path. */
  g_object_get (app, "resource-base-path", &base, NULL);
  icons = g_build_path ("/", base, "icons", NULL);
  gtk_icon_theme_add_resource_path (theme, icons);
  /* The templates name at least these; an empty list would pass for nothing. */
  g_assert_cmpuint (g_hash_table_size (names), >=, 15);
  g_assert_true (g_hash_table_contains (names, "speedometer-symbolic"));
  g_assert_true (g_hash_table_contains (names, "document-open-symbolic"));

  g_hash_table_iter_init (&iter, names);
  while (g_hash_table_iter_next (&iter, &name, NULL))
    {
      g_test_message ("%s", (const char *) name);
      if (!gtk_icon_theme_has_icon (theme, name))
        g_string_append_printf (missing, " %s", (const char *) name);
    }
  if (missing->len > 0)
    g_error ("not in the icon theme (%s) nor in %s:%s", gtk_icon_theme_get_theme_name (theme),
             icons, missing->str);
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_test_add_func ("/icons/every-icon-resolves", test_every_icon_resolves);
  return g_test_run ();
}

/* ws-application.c: the application: settings, app-wide actions, windows.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-application.h"

#include <glib/gi18n.h>

#include "ws-config.h"
#include "ws-i18n.h"
#include "ws-preferences-window.h"
#include "ws-window.h"

struct _WsApplication
{
  AdwApplication parent_instance;
  GSettings *settings;
  char *initial_view;     /* --view */
  gboolean presentation;  /* --presentation */
};

G_DEFINE_FINAL_TYPE (WsApplication, ws_application, ADW_TYPE_APPLICATION)

WsApplication *
ws_application_new (void)
{
  return g_object_new (WS_TYPE_APPLICATION, "application-id", WS_APPLICATION_ID, "flags",
                       G_APPLICATION_HANDLES_OPEN, "resource-base-path",
                       "/org/warpscope/Warpscope", NULL);
}

GSettings *
ws_application_get_settings (WsApplication *self)
{
  g_return_val_if_fail (WS_IS_APPLICATION (self), NULL);
  return self->settings;
}

char *
ws_application_dup_samples_dir (void)
{
  const char *override = g_getenv ("WS_SAMPLES_DIR");

  if (override != NULL && g_file_test (override, G_FILE_TEST_IS_DIR))
    return g_strdup (override);
  /* From the build tree, the recordings in the source tree; installed, the shared copy. */
  if (ws_running_from_build_tree () && g_file_test (WS_SAMPLES_SOURCE_DIR, G_FILE_TEST_IS_DIR))
    return g_strdup (WS_SAMPLES_SOURCE_DIR);
  if (g_file_test (WS_SAMPLES_INSTALL_DIR, G_FILE_TEST_IS_DIR))
    return g_strdup (WS_SAMPLES_INSTALL_DIR);
  return g_strdup (WS_SAMPLES_SOURCE_DIR);
}

static GtkWindow *
current_window (WsApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    {
      window = GTK_WINDOW (ws_window_new (self));
      gtk_window_present (window);
      /* A lecture can start on the right view, full screen. */
      if (self->initial_view != NULL)
        gtk_widget_activate_action (GTK_WIDGET (window), "win.show-view", "s", self->initial_view);
      if (self->presentation)
        gtk_widget_activate_action (GTK_WIDGET (window), "win.presentation", NULL);
    }
  return window;
}

static int
ws_application_handle_local_options (GApplication *app, GVariantDict *options)
{
  WsApplication *self = WS_APPLICATION (app);
  const char *views[] = { "timeline", "kernels", "speedup", "blocks", "occupancy", "breakdown",
                          "roofline", "source", NULL };

  if (g_variant_dict_lookup (options, "view", "s", &self->initial_view)
      && !g_strv_contains (views, self->initial_view))
    {
      g_printerr (_("--view takes one of: timeline, kernels (a traced program's), speedup, "
                    "blocks, occupancy, breakdown, roofline, source\n"));
      return 2;
    }
  self->presentation = g_variant_dict_contains (options, "presentation");
  return -1;
}

static void
ws_application_activate (GApplication *app)
{
  gtk_window_present (current_window (WS_APPLICATION (app)));
}

static void
ws_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  WsApplication *self = WS_APPLICATION (app);

  for (int i = 0; i < n_files; i++)
    {
      WsWindow *window = i == 0 ? WS_WINDOW (current_window (self)) : ws_window_new (self);

      ws_window_open_file (window, files[i]);
      gtk_window_present (GTK_WINDOW (window));
    }
}

static void
quit_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  g_application_quit (G_APPLICATION (user_data));
}

static void
about_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  WsApplication *self = user_data;
  const char *developers[] = { "The Warpscope developers", NULL };
  GtkWidget *about;

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", gtk_application_get_active_window (GTK_APPLICATION (self)),
                        "application-name", "Warpscope",
                        "application-icon", "org.warpscope.Warpscope",
                        "version", WS_VERSION,
                        "developer-name", "The Warpscope developers",
                        "developers", developers,
                        "comments", _("Run CUDA kernels, see where the time goes, and learn why. "
                                      "It grew out of a Chinese tutorial on CUDA from Python; "
                                      "each of its lessons becomes something to run, watch and "
                                      "measure."),
                        "license-type", GTK_LICENSE_GPL_3_0,
                        NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static void
preferences_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  WsApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  GtkWindow *prefs = GTK_WINDOW (ws_preferences_window_new (self->settings));

  gtk_window_set_transient_for (prefs, parent);
  gtk_window_present (prefs);
}

static void
new_window_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  gtk_window_present (GTK_WINDOW (ws_window_new (WS_APPLICATION (user_data))));
}

static const GActionEntry app_actions[] = {
  { "quit", quit_action },
  { "about", about_action },
  { "preferences", preferences_action },
  { "new-window", new_window_action },
};

static void
color_scheme_changed_cb (GSettings *settings, const char *key, gpointer user_data)
{
  g_autofree char *scheme = g_settings_get_string (settings, "color-scheme");
  AdwStyleManager *manager = adw_style_manager_get_default ();

  if (g_str_equal (scheme, "light"))
    adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  else if (g_str_equal (scheme, "dark"))
    adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  else
    adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
}

static void
ws_application_startup (GApplication *app)
{
  WsApplication *self = WS_APPLICATION (app);
  const char *quit_accels[] = { "<Control>q", NULL };
  const char *prefs_accels[] = { "<Control>comma", NULL };

  G_APPLICATION_CLASS (ws_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions, G_N_ELEMENTS (app_actions),
                                   self);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.preferences",
                                         prefs_accels);
  self->settings = g_settings_new (WS_SETTINGS_SCHEMA);
  g_signal_connect (self->settings, "changed::color-scheme",
                    G_CALLBACK (color_scheme_changed_cb), self);
  color_scheme_changed_cb (self->settings, "color-scheme", self);
}

static void
ws_application_finalize (GObject *object)
{
  WsApplication *self = WS_APPLICATION (object);

  g_clear_object (&self->settings);
  g_clear_pointer (&self->initial_view, g_free);
  G_OBJECT_CLASS (ws_application_parent_class)->finalize (object);
}

static void
ws_application_class_init (WsApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = ws_application_finalize;
  app_class->activate = ws_application_activate;
  app_class->open = ws_application_open;
  app_class->startup = ws_application_startup;
  app_class->handle_local_options = ws_application_handle_local_options;
}

static void
ws_application_init (WsApplication *self)
{
  g_application_add_main_option (G_APPLICATION (self), "view", 0, G_OPTION_FLAG_NONE,
                                 G_OPTION_ARG_STRING,
                                 _("The view to show first: timeline, kernels (a traced "
                                   "program's), speedup, blocks, occupancy, breakdown, "
                                   "roofline or source"),
                                 _("VIEW"));
  g_application_add_main_option (G_APPLICATION (self), "presentation", 0, G_OPTION_FLAG_NONE,
                                 G_OPTION_ARG_NONE,
                                 _("Start in presentation mode: full screen, larger text"), NULL);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[SESSION…]"));
  g_application_set_option_context_summary (
    G_APPLICATION (self), _("Run CUDA kernels, see where the time goes, and learn why. Opens "
                            "sessions and recordings (.jsonl) given as arguments."));
}

/* ws-preferences-window.c: the preferences window, bound to GSettings.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-preferences-window.h"

#include <glib/gi18n.h>

#include "ws-target-dialog.h"
#include "ws-target-picker.h"

struct _WsPreferencesWindow
{
  AdwPreferencesWindow parent_instance;
  GSettings *settings;
};

G_DEFINE_FINAL_TYPE (WsPreferencesWindow, ws_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

static void
ws_preferences_window_dispose (GObject *object)
{
  g_clear_object (&WS_PREFERENCES_WINDOW (object)->settings);
  G_OBJECT_CLASS (ws_preferences_window_parent_class)->dispose (object);
}

static void
ws_preferences_window_class_init (WsPreferencesWindowClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ws_preferences_window_dispose;
}

static void
ws_preferences_window_init (WsPreferencesWindow *self)
{
}

static void
manage_targets_cb (GtkButton *button, GtkWindow *preferences)
{
  g_autoptr (WsTargetList) targets = ws_target_list_dup_shared (NULL);
  GtkWidget *dialog = ws_target_dialog_new (targets);

  gtk_window_set_transient_for (GTK_WINDOW (dialog), preferences);
  gtk_window_present (GTK_WINDOW (dialog));
}

static gboolean
scheme_to_index (GValue *value, GVariant *variant, gpointer data)
{
  const char *s = g_variant_get_string (variant, NULL);

  g_value_set_uint (value, g_str_equal (s, "light") ? 1 : g_str_equal (s, "dark") ? 2 : 0);
  return TRUE;
}

static GVariant *
index_to_scheme (const GValue *value, const GVariantType *type, gpointer data)
{
  static const char *names[] = { "default", "light", "dark" };
  guint i = g_value_get_uint (value);

  return g_variant_new_string (names[MIN (i, 2)]);
}

GtkWidget *
ws_preferences_window_new (GSettings *settings)
{
  WsPreferencesWindow *self = g_object_new (WS_TYPE_PREFERENCES_WINDOW, NULL);
  AdwPreferencesPage *page = ADW_PREFERENCES_PAGE (adw_preferences_page_new ());
  AdwPreferencesGroup *runner = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  AdwPreferencesGroup *look = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  GtkWidget *targets_row = adw_action_row_new ();
  GtkWidget *manage = gtk_button_new_with_mnemonic (_("_Manage…"));
  GtkWidget *timeout_row = adw_action_row_new ();
  GtkWidget *timeout = gtk_spin_button_new_with_range (0, 3600, 10);
  GtkWidget *scheme = adw_combo_row_new ();
  const char *schemes[] = { N_("Follow the system"), N_("Light"), N_("Dark"), NULL };
  g_autoptr (GtkStringList) scheme_names = gtk_string_list_new (NULL);

  self->settings = g_object_ref (settings);
  adw_preferences_page_set_title (page, _("General"));
  adw_preferences_group_set_title (runner, _("Runner"));
  adw_preferences_group_set_description (
    runner, _("Warpscope starts warpscope-runner to use the GPU: on this computer, or on a "
              "target, chosen in the header bar: a GPU server reached with ssh, or a Slurm "
              "cluster; the runner must be installed there."));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (targets_row), _("Targets"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (targets_row),
                               _("The ssh hosts and Slurm clusters the runner can run on"));
  gtk_widget_set_valign (manage, GTK_ALIGN_CENTER);
  g_signal_connect (manage, "clicked", G_CALLBACK (manage_targets_cb), self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (targets_row), manage);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (targets_row), manage);
  adw_preferences_group_add (runner, targets_row);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (timeout_row), _("Stop a silent runner after"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (timeout_row),
                               _("Seconds without output before a hung run is stopped (0: never)"));
  gtk_widget_set_valign (timeout, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (ADW_ACTION_ROW (timeout_row), timeout);
  g_settings_bind (settings, "runner-timeout", gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (timeout)),
                   "value", G_SETTINGS_BIND_DEFAULT);
  adw_preferences_group_add (runner, timeout_row);

  adw_preferences_group_set_title (look, _("Appearance"));
  for (guint i = 0; schemes[i] != NULL; i++)
    gtk_string_list_append (scheme_names, _(schemes[i]));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (scheme), _("Style"));
  adw_combo_row_set_model (ADW_COMBO_ROW (scheme), G_LIST_MODEL (scheme_names));
  g_settings_bind_with_mapping (settings, "color-scheme", scheme, "selected",
                                G_SETTINGS_BIND_DEFAULT, scheme_to_index, index_to_scheme, NULL,
                                NULL);
  adw_preferences_group_add (look, scheme);

  adw_preferences_page_add (page, runner);
  adw_preferences_page_add (page, look);
  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (self), page);
  return GTK_WIDGET (self);
}

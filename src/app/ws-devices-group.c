/* ws-devices-group.c: the GPUs a sweep is split across. The check buttons follow the
 * environment's --device-info answer; the choice is the plan's "devices", kept as text, so a
 * GPU that is missing today (a target with fewer GPUs) does not lose the rest of it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-devices-group.h"

#include <glib/gi18n.h>

struct _WsDevicesGroup
{
  AdwPreferencesGroup parent_instance;

  GtkWidget *row;
  GtkWidget *button;
  GtkBox *checks;
  GtkCheckButton *all_check;
  GPtrArray *device_checks; /* GtkCheckButton, with "index" */

  WsEnvironment *environment;
  WsPlan *plan;
  gboolean syncing;
};

G_DEFINE_FINAL_TYPE (WsDevicesGroup, ws_devices_group, ADW_TYPE_PREFERENCES_GROUP)

enum
{
  PROP_0,
  PROP_ENVIRONMENT,
  PROP_PLAN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ---- showing the choice ------------------------------------------------------------------ */

static WsSession *
info (WsDevicesGroup *self)
{
  return self->environment != NULL ? ws_environment_get_session (self->environment) : NULL;
}

static void
show_choice (WsDevicesGroup *self)
{
  gboolean all;
  g_autoptr (GArray) chosen = NULL;
  g_autoptr (GString) text = g_string_new (NULL);

  if (self->plan == NULL)
    return;
  chosen = ws_plan_choose_devices (self->plan, info (self), &all);
  self->syncing = TRUE;
  gtk_check_button_set_active (self->all_check, all);
  for (guint i = 0; i < self->device_checks->len; i++)
    {
      GtkCheckButton *check = g_ptr_array_index (self->device_checks, i);
      int index = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (check), "index"));
      gboolean on = FALSE;

      for (guint j = 0; j < chosen->len; j++)
        on = on || g_array_index (chosen, int, j) == index;
      gtk_check_button_set_active (check, on);
      gtk_widget_set_sensitive (GTK_WIDGET (check), !all);
    }
  self->syncing = FALSE;
  if (all)
    g_string_printf (text, g_dngettext (NULL, "All %u GPU, one runner each",
                                        "All %u GPUs, one runner each", chosen->len),
                     chosen->len);
  else
    {
      g_autoptr (GString) list = g_string_new (NULL);

      for (guint j = 0; j < chosen->len; j++)
        g_string_append_printf (list, "%s%d", j > 0 ? ", " : "", g_array_index (chosen, int, j));
      g_string_printf (text, g_dngettext (NULL, "GPU %s", "GPUs %s", chosen->len), list->str);
    }
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->row), text->str);
  gtk_menu_button_set_label (GTK_MENU_BUTTON (self->button), all ? _("All") : _("Some"));
}

static void
device_toggled_cb (GtkCheckButton *check, WsDevicesGroup *self)
{
  g_autoptr (GString) list = g_string_new (NULL);
  guint on = 0;

  if (self->syncing || self->plan == NULL)
    return;
  if (check == self->all_check)
    {
      /* Unticked, every GPU is ticked one by one, for a person to untick some. */
      if (gtk_check_button_get_active (check))
        ws_plan_set_devices (self->plan, "all");
      else
        {
          for (guint i = 0; i < self->device_checks->len; i++)
            gtk_widget_set_sensitive (g_ptr_array_index (self->device_checks, i), TRUE);
        }
      return;
    }
  for (guint i = 0; i < self->device_checks->len; i++)
    {
      GtkCheckButton *c = g_ptr_array_index (self->device_checks, i);

      if (gtk_check_button_get_active (c))
        {
          g_string_append_printf (list, "%s%d", on > 0 ? "," : "",
                                  GPOINTER_TO_INT (g_object_get_data (G_OBJECT (c), "index")));
          on++;
        }
    }
  ws_plan_set_devices (self->plan,
                       on == 0 || on == self->device_checks->len ? "all" : list->str);
}

static void
fill (WsDevicesGroup *self)
{
  WsSession *session = info (self);
  GListModel *found = session != NULL ? ws_session_get_devices (session) : NULL;
  guint n = found != NULL ? g_list_model_get_n_items (found) : 0;

  for (guint i = 0; i < self->device_checks->len; i++)
    gtk_box_remove (self->checks, g_ptr_array_index (self->device_checks, i));
  g_ptr_array_set_size (self->device_checks, 0);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsDevice) device = g_list_model_get_item (found, i);
      int index = ws_device_get_info (device)->index;
      /* Translators: a GPU by its CUDA index, then its name. */
      g_autofree char *label = g_strdup_printf (_("GPU %d · %s"), index,
                                                ws_device_get_name (device));
      GtkWidget *check = gtk_check_button_new_with_label (label);

      g_object_set_data (G_OBJECT (check), "index", GINT_TO_POINTER (index));
      g_signal_connect (check, "toggled", G_CALLBACK (device_toggled_cb), self);
      gtk_box_append (self->checks, check);
      g_ptr_array_add (self->device_checks, check);
    }
  gtk_widget_set_visible (GTK_WIDGET (self), n > 1);
  show_choice (self);
}

/* ---- boilerplate ------------------------------------------------------------------------- */

void
ws_devices_group_set_environment (WsDevicesGroup *self, WsEnvironment *environment)
{
  g_return_if_fail (WS_IS_DEVICES_GROUP (self));
  if (self->environment == environment)
    return;
  if (self->environment != NULL)
    g_signal_handlers_disconnect_by_data (self->environment, self);
  g_set_object (&self->environment, environment);
  if (environment != NULL)
    g_signal_connect_swapped (environment, "notify::device", G_CALLBACK (fill), self);
  fill (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENVIRONMENT]);
}

void
ws_devices_group_set_plan (WsDevicesGroup *self, WsPlan *plan)
{
  g_return_if_fail (WS_IS_DEVICES_GROUP (self));
  if (self->plan == plan)
    return;
  if (self->plan != NULL)
    g_signal_handlers_disconnect_by_data (self->plan, self);
  g_set_object (&self->plan, plan);
  if (plan != NULL)
    g_signal_connect_swapped (plan, "notify::devices", G_CALLBACK (show_choice), self);
  show_choice (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAN]);
}

static void
ws_devices_group_set_property (GObject *object, guint prop, const GValue *value,
                               GParamSpec *pspec)
{
  WsDevicesGroup *self = WS_DEVICES_GROUP (object);

  switch (prop)
    {
    case PROP_ENVIRONMENT: ws_devices_group_set_environment (self, g_value_get_object (value)); break;
    case PROP_PLAN: ws_devices_group_set_plan (self, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_devices_group_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  WsDevicesGroup *self = WS_DEVICES_GROUP (object);

  switch (prop)
    {
    case PROP_ENVIRONMENT: g_value_set_object (value, self->environment); break;
    case PROP_PLAN: g_value_set_object (value, self->plan); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_devices_group_dispose (GObject *object)
{
  WsDevicesGroup *self = WS_DEVICES_GROUP (object);

  ws_devices_group_set_environment (self, NULL);
  ws_devices_group_set_plan (self, NULL);
  g_clear_pointer (&self->device_checks, g_ptr_array_unref);
  G_OBJECT_CLASS (ws_devices_group_parent_class)->dispose (object);
}

static void
ws_devices_group_class_init (WsDevicesGroupClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->set_property = ws_devices_group_set_property;
  object_class->get_property = ws_devices_group_get_property;
  object_class->dispose = ws_devices_group_dispose;
  properties[PROP_ENVIRONMENT] = g_param_spec_object ("environment", NULL, NULL,
                                                      WS_TYPE_ENVIRONMENT, rw);
  properties[PROP_PLAN] = g_param_spec_object ("plan", NULL, NULL, WS_TYPE_PLAN, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ws_devices_group_init (WsDevicesGroup *self)
{
  GtkWidget *popover = gtk_popover_new ();

  self->device_checks = g_ptr_array_new ();
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (self), _("GPUs"));
  adw_preferences_group_set_description (
    ADW_PREFERENCES_GROUP (self),
    _("A sweep is split across the GPUs chosen, one runner each, into one session; a single "
      "run goes to the first."));
  self->row = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->row), _("Devices"));
  self->checks = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 4));
  self->all_check = GTK_CHECK_BUTTON (gtk_check_button_new_with_label (_("All GPUs")));
  g_signal_connect (self->all_check, "toggled", G_CALLBACK (device_toggled_cb), self);
  gtk_box_append (self->checks, GTK_WIDGET (self->all_check));
  gtk_popover_set_child (GTK_POPOVER (popover), GTK_WIDGET (self->checks));
  self->button = gtk_menu_button_new ();
  gtk_widget_set_valign (self->button, GTK_ALIGN_CENTER);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (self->button), popover);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("GPUs to run on"), -1);
  adw_action_row_add_suffix (ADW_ACTION_ROW (self->row), self->button);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (self->row), self->button);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (self), self->row);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

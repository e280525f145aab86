/* ws-param-group.c: an own kernel's tunable parameters as toggles, built from its header.
 * Rebuilt only when the parameters or their values change, not at every key typed in the
 * editor, so a toggle keeps its focus while the kernel is written.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-param-group.h"

#include <adwaita.h>
#include <glib/gi18n.h>

struct _WsParamGroup
{
  GtkWidget parent_instance;

  GtkWidget *group;     /* AdwPreferencesGroup */
  AdwActionRow *kernel_row;
  GPtrArray *rows;      /* AdwActionRow, one per parameter */
  GPtrArray *names;     /* char *, the parameters shown */
  char *signature;      /* names and values shown: rebuilt when it changes */
  WsPlan *plan;
  gboolean syncing;
};

G_DEFINE_FINAL_TYPE (WsParamGroup, ws_param_group, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_PLAN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static char *
signature_of (WsKernelSource *source)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; source != NULL && i < ws_kernel_source_get_n_params (source); i++)
    {
      g_auto (GStrv) values = ws_kernel_source_dup_param_values (source, i);
      g_autofree char *joined = g_strjoinv (",", values);

      g_string_append_printf (s, "%s=%s;", ws_kernel_source_get_param_name (source, i), joined);
    }
  return g_string_free (s, FALSE);
}

/* ---- toggles and the plan ----------------------------------------------------------------- */

static GtkWidget *
toggles_of (WsParamGroup *self, guint index)
{
  return g_object_get_data (g_ptr_array_index (self->rows, index), "toggles");
}

static void
toggled_cb (GtkToggleButton *button, WsParamGroup *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "param"));
  g_autoptr (GString) values = g_string_new (NULL);

  if (self->syncing || self->plan == NULL)
    return;
  for (GtkWidget *c = gtk_widget_get_first_child (toggles_of (self, index)); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (c)))
      g_string_append_printf (values, "%s%s", values->len ? "," : "",
                              gtk_button_get_label (GTK_BUTTON (c)));
  ws_plan_set_param (self->plan, g_ptr_array_index (self->names, index), values->str);
}

/* The toggles show what the plan chose (it keeps at least the default). */
static void
sync_toggles (WsParamGroup *self)
{
  self->syncing = TRUE;
  for (guint i = 0; i < self->rows->len; i++)
    {
      const char *chosen = ws_plan_get_param (self->plan, g_ptr_array_index (self->names, i));
      g_auto (GStrv) values = g_strsplit (chosen ? chosen : "", ",", -1);

      for (GtkWidget *c = gtk_widget_get_first_child (toggles_of (self, i)); c != NULL;
           c = gtk_widget_get_next_sibling (c))
        gtk_toggle_button_set_active (
          GTK_TOGGLE_BUTTON (c),
          g_strv_contains ((const char *const *) values, gtk_button_get_label (GTK_BUTTON (c))));
    }
  self->syncing = FALSE;
}

static void
clear_rows (WsParamGroup *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    adw_preferences_group_remove (ADW_PREFERENCES_GROUP (self->group),
                                  g_ptr_array_index (self->rows, i));
  g_ptr_array_set_size (self->rows, 0);
  g_ptr_array_set_size (self->names, 0);
}

static void
add_row (WsParamGroup *self, WsKernelSource *source, guint index)
{
  const char *name = ws_kernel_source_get_param_name (source, index);
  g_auto (GStrv) values = ws_kernel_source_dup_param_values (source, index);
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *toggles = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  g_autofree char *label = NULL;

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), _("Values to sweep; one run takes the first"));
  gtk_widget_add_css_class (toggles, "linked");
  gtk_widget_set_valign (toggles, GTK_ALIGN_CENTER);
  for (guint v = 0; values[v] != NULL; v++)
    {
      GtkWidget *toggle = gtk_toggle_button_new_with_label (values[v]);

      g_object_set_data (G_OBJECT (toggle), "param", GUINT_TO_POINTER (index));
      label = g_strdup_printf ("%s = %s", name, values[v]);
      gtk_accessible_update_property (GTK_ACCESSIBLE (toggle), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      label, -1);
      g_clear_pointer (&label, g_free);
      g_signal_connect (toggle, "toggled", G_CALLBACK (toggled_cb), self);
      gtk_box_append (GTK_BOX (toggles), toggle);
    }
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), toggles);
  g_object_set_data (G_OBJECT (row), "toggles", toggles);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (self->group), row);
  g_ptr_array_add (self->rows, row);
  g_ptr_array_add (self->names, g_strdup (name));
}

static void
source_cb (WsParamGroup *self)
{
  WsKernelSource *source = self->plan ? ws_plan_get_source (self->plan) : NULL;
  g_autofree char *signature = signature_of (source);
  const char *path = source ? ws_kernel_source_get_path (source) : NULL;
  g_autofree char *file = path ? g_path_get_basename (path) : NULL;
  const char *title = source ? ws_kernel_source_get_title (source) : NULL;

  gtk_widget_set_visible (GTK_WIDGET (self), source != NULL);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->kernel_row),
                                 title ? title : _("The header has errors"));
  adw_action_row_set_subtitle (self->kernel_row, file ? file : "");
  if (g_strcmp0 (signature, self->signature) != 0)
    {
      clear_rows (self);
      for (guint i = 0; source != NULL && i < ws_kernel_source_get_n_params (source); i++)
        add_row (self, source, i);
      g_free (self->signature);
      self->signature = g_steal_pointer (&signature);
    }
  sync_toggles (self);
}

void
ws_param_group_set_plan (WsParamGroup *self, WsPlan *plan)
{
  g_return_if_fail (WS_IS_PARAM_GROUP (self));
  if (self->plan == plan)
    return;
  if (self->plan != NULL)
    g_signal_handlers_disconnect_by_data (self->plan, self);
  g_set_object (&self->plan, plan);
  if (plan != NULL)
    {
      g_signal_connect_swapped (plan, "notify::source", G_CALLBACK (source_cb), self);
      g_signal_connect_swapped (plan, "notify::params", G_CALLBACK (sync_toggles), self);
    }
  source_cb (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAN]);
}

guint
ws_param_group_get_n_params (WsParamGroup *self)
{
  g_return_val_if_fail (WS_IS_PARAM_GROUP (self), 0);
  return self->names->len;
}

const char *
ws_param_group_get_param_name (WsParamGroup *self, guint index)
{
  g_return_val_if_fail (WS_IS_PARAM_GROUP (self), NULL);
  g_return_val_if_fail (index < self->names->len, NULL);
  return g_ptr_array_index (self->names, index);
}

GtkToggleButton *
ws_param_group_get_toggle (WsParamGroup *self, const char *name, const char *value)
{
  g_return_val_if_fail (WS_IS_PARAM_GROUP (self), NULL);
  for (guint i = 0; i < self->names->len; i++)
    if (g_str_equal (g_ptr_array_index (self->names, i), name))
      for (GtkWidget *c = gtk_widget_get_first_child (toggles_of (self, i)); c != NULL;
           c = gtk_widget_get_next_sibling (c))
        if (g_strcmp0 (gtk_button_get_label (GTK_BUTTON (c)), value) == 0)
          return GTK_TOGGLE_BUTTON (c);
  return NULL;
}

/* ---- boilerplate -------------------------------------------------------------------------- */

static void
ws_param_group_set_property (GObject *object, guint prop, const GValue *value, GParamSpec *pspec)
{
  switch (prop)
    {
    case PROP_PLAN: ws_param_group_set_plan (WS_PARAM_GROUP (object), g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_param_group_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  switch (prop)
    {
    case PROP_PLAN: g_value_set_object (value, WS_PARAM_GROUP (object)->plan); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_param_group_dispose (GObject *object)
{
  WsParamGroup *self = WS_PARAM_GROUP (object);

  ws_param_group_set_plan (self, NULL);
  g_clear_pointer (&self->group, gtk_widget_unparent);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->names, g_ptr_array_unref);
  g_clear_pointer (&self->signature, g_free);
  G_OBJECT_CLASS (ws_param_group_parent_class)->dispose (object);
}

static void
ws_param_group_class_init (WsParamGroupClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ws_param_group_dispose;
  object_class->set_property = ws_param_group_set_property;
  object_class->get_property = ws_param_group_get_property;
  properties[PROP_PLAN] = g_param_spec_object ("plan", NULL, NULL, WS_TYPE_PLAN,
                                               G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                 | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
ws_param_group_init (WsParamGroup *self)
{
  GtkWidget *leave = gtk_button_new_with_mnemonic (_("_Built-in Kernels"));

  self->rows = g_ptr_array_new ();
  self->names = g_ptr_array_new_with_free_func (g_free);
  self->group = adw_preferences_group_new ();
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (self->group), _("Your kernel"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (self->group),
                                         _("Edited in the Source view; its tunable parameters "
                                           "come from its header."));
  self->kernel_row = ADW_ACTION_ROW (adw_action_row_new ());
  gtk_actionable_set_action_name (GTK_ACTIONABLE (leave), "win.close-kernel");
  gtk_widget_set_valign (leave, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (leave, _("Close your kernel and choose among the built-in ones"));
  adw_action_row_add_suffix (self->kernel_row, leave);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (self->group), GTK_WIDGET (self->kernel_row));
  gtk_widget_set_parent (self->group, GTK_WIDGET (self));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

/* ws-target-picker.c: the target picker. The popover's rows follow the shared target list;
 * a row clicked is the choice, which the window's environment and run controller follow.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-target-picker.h"

#include <glib/gi18n.h>

#include "ws-runner-client.h"
#include "ws-target-dialog.h"

struct _WsTargetPicker
{
  GtkWidget parent_instance;

  GtkWidget *button;
  GtkLabel *label;
  GtkListBox *rows;
  GtkWidget *popover;

  WsTargetList *targets;
  char *selected;
  WsTarget *target;
};

G_DEFINE_FINAL_TYPE (WsTargetPicker, ws_target_picker, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_TARGETS,
  PROP_SELECTED,
  PROP_TARGET,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ---- the shared list --------------------------------------------------------------------- */

static WsTargetList *shared;
static char *shared_error;

WsTargetList *
ws_target_list_dup_shared (const char **error)
{
  g_autofree char *wanted = ws_target_list_default_path ();

  /* $WARPSCOPE_TARGETS names another file now: that file's list, while the old one lives on
   * with whatever still holds it. */
  if (shared != NULL && g_strcmp0 (ws_target_list_get_path (shared), wanted) != 0)
    {
      g_object_remove_weak_pointer (G_OBJECT (shared), (gpointer *) &shared);
      shared = NULL;
    }
  if (shared == NULL)
    {
      g_autoptr (GError) local = NULL;

      g_clear_pointer (&shared_error, g_free);
      shared = ws_target_list_load (NULL, &local);
      if (shared == NULL)
        {
          /* Marked, so that nothing is written over the file while it is broken. */
          g_autofree char *path = ws_target_list_default_path ();

          shared_error = g_strdup (local->message);
          shared = ws_target_list_new (path);
          g_object_set_data_full (G_OBJECT (shared), "ws-unreadable", g_strdup (local->message),
                                  g_free);
        }
      g_object_add_weak_pointer (G_OBJECT (shared), (gpointer *) &shared);
      if (error != NULL)
        *error = shared_error;
      return shared;
    }
  if (error != NULL)
    *error = shared_error;
  return g_object_ref (shared);
}

const char *
ws_target_list_get_unreadable (WsTargetList *list)
{
  return g_object_get_data (G_OBJECT (list), "ws-unreadable");
}

/* ---- the choice -------------------------------------------------------------------------- */

static char *
display_name (WsTarget *target)
{
  if (g_strcmp0 (ws_target_get_name (target), WS_TARGET_LOCAL_NAME) == 0)
    return g_strdup (_("Local"));
  return g_strdup (ws_target_get_name (target));
}

static void
show_choice (WsTargetPicker *self)
{
  g_autofree char *name = display_name (self->target);
  g_autofree char *description = ws_target_dup_description (self->target);
  g_autofree char *tooltip = NULL;

  gtk_label_set_text (self->label, name);
  /* A short name is shown whole, a long one cut: the header bar must fit at 1024 px. */
  gtk_label_set_width_chars (self->label, MIN ((int) g_utf8_strlen (name, -1), 10));
  tooltip = ws_target_get_kind (self->target) == WS_TARGET_LOCAL
              ? g_strdup (_("Where the runner runs: this computer"))
              /* Translators: the target's name and the command it stands for. */
              : g_strdup_printf (_("Where the runner runs: %s (%s)"), name, description);
  gtk_widget_set_tooltip_text (self->button, tooltip);
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->rows)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *check = g_object_get_data (G_OBJECT (row), "check");
      WsTarget *target = g_object_get_data (G_OBJECT (row), "target");

      if (check != NULL)
        gtk_widget_set_opacity (check, target == self->target ? 1 : 0);
    }
}

static void
target_renamed_cb (WsTarget *target, GParamSpec *pspec, WsTargetPicker *self)
{
  /* The setting follows the name it is saved under. */
  if (g_strcmp0 (self->selected, ws_target_get_name (target)) != 0)
    {
      g_free (self->selected);
      self->selected = g_strdup (ws_target_get_name (target));
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
    }
  show_choice (self);
}

static void
choose (WsTargetPicker *self)
{
  WsTarget *found = ws_target_list_find (self->targets, self->selected);

  if (found == NULL)
    found = ws_target_list_find (self->targets, WS_TARGET_LOCAL_NAME);
  if (found != self->target)
    {
      if (self->target != NULL)
        g_signal_handlers_disconnect_by_data (self->target, self);
      g_set_object (&self->target, found);
      g_signal_connect (found, "notify", G_CALLBACK (target_renamed_cb), self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TARGET]);
    }
  show_choice (self);
}

void
ws_target_picker_set_selected (WsTargetPicker *self, const char *name)
{
  g_return_if_fail (WS_IS_TARGET_PICKER (self));
  if (name == NULL || *name == '\0')
    name = WS_TARGET_LOCAL_NAME;
  if (g_strcmp0 (self->selected, name) != 0)
    {
      g_free (self->selected);
      self->selected = g_strdup (name);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
    }
  choose (self);
}

/* ---- the popover ------------------------------------------------------------------------- */

static GtkWidget *
new_row (WsTarget *target)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");
  g_autofree char *name = display_name (target);
  g_autofree char *description = ws_target_get_kind (target) == WS_TARGET_LOCAL
                                   && ws_target_get_runner (target) == NULL
                                   ? g_strdup (_("The runner on this computer"))
                                   : ws_target_dup_description (target);
  GtkWidget *title = gtk_label_new (name);
  GtkWidget *subtitle = gtk_label_new (description);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_label_set_ellipsize (GTK_LABEL (subtitle), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (subtitle), 40);
  gtk_label_set_width_chars (GTK_LABEL (subtitle), MIN ((int) g_utf8_strlen (description, -1), 36));
  gtk_widget_add_css_class (subtitle, "dim-label");
  gtk_widget_add_css_class (subtitle, "caption");
  gtk_box_append (GTK_BOX (text), title);
  gtk_box_append (GTK_BOX (text), subtitle);
  gtk_box_append (GTK_BOX (box), check);
  gtk_box_append (GTK_BOX (box), text);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data (G_OBJECT (row), "check", check);
  g_object_set_data_full (G_OBJECT (row), "target", g_object_ref (target), g_object_unref);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  return row;
}

static void
fill (WsTargetPicker *self)
{
  GtkWidget *child;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->targets));

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->rows))) != NULL)
    gtk_list_box_remove (self->rows, child);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsTarget) target = g_list_model_get_item (G_LIST_MODEL (self->targets), i);

      gtk_list_box_append (self->rows, new_row (target));
    }
  /* A target removed is no longer the choice; the setting keeps its name until another is
   * chosen, so a file mended later gives it back. */
  choose (self);
}

static void
row_activated_cb (GtkListBox *box, GtkListBoxRow *row, WsTargetPicker *self)
{
  WsTarget *target = g_object_get_data (G_OBJECT (row), "target");

  gtk_popover_popdown (GTK_POPOVER (self->popover));
  ws_target_picker_set_selected (self, ws_target_get_name (target));
}

static void
manage_clicked_cb (GtkButton *button, WsTargetPicker *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *dialog = ws_target_dialog_new (self->targets);

  gtk_popover_popdown (GTK_POPOVER (self->popover));
  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (root));
  gtk_window_present (GTK_WINDOW (dialog));
}

/* ---- the launcher prefix of older versions ----------------------------------------------- */

/* A name a target may have (letters, digits, '.', '_', '-') from `wanted`, not yet taken. */
static char *
free_name (WsTargetList *targets, const char *wanted)
{
  g_autoptr (GString) base = g_string_new (NULL);
  g_autofree char *name = NULL;

  for (const char *p = wanted; *p != '\0'; p++)
    g_string_append_c (base, g_ascii_isalnum (*p) || *p == '.' || *p == '_' || *p == '-' ? *p
                                                                                        : '-');
  if (base->len == 0 || g_str_equal (base->str, WS_TARGET_LOCAL_NAME))
    g_string_assign (base, "launcher");
  name = g_strdup (base->str);
  for (guint i = 2; ws_target_list_find (targets, name) != NULL; i++)
    {
      g_free (name);
      name = g_strdup_printf ("%s-%u", base->str, i);
    }
  return g_steal_pointer (&name);
}

gboolean
ws_target_picker_migrate_launcher (WsTargetPicker *self, GSettings *settings, GError **error)
{
  g_autofree char *text = g_settings_get_string (settings, "launcher");
  g_auto (GStrv) words = NULL;
  g_autoptr (WsTarget) target = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (WS_IS_TARGET_PICKER (self), FALSE);
  if (*g_strstrip (text) == '\0')
    return TRUE;
  if (!g_shell_parse_argv (text, NULL, &words, error))
    {
      g_prefix_error (error, _("The launcher prefix “%s” of the preferences cannot be read: "),
                      text);
      return FALSE;
    }
  if (g_strv_length (words) == 2 && g_str_equal (words[0], "ssh") && words[1][0] != '-')
    {
      name = free_name (self->targets, words[1]);
      target = ws_target_new (name, WS_TARGET_SSH);
      ws_target_set_host (target, words[1]);
    }
  else
    {
      name = free_name (self->targets, "launcher");
      target = ws_target_new (name, WS_TARGET_COMMAND);
      ws_target_set_launcher (target, (const char *const *) words);
      ws_target_set_remote_shell (target, ws_launcher_is_ssh ((const char *const *) words));
    }
  if (g_object_get_data (G_OBJECT (self->targets), "ws-unreadable") != NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("The launcher prefix of the preferences was not made a target: the "
                             "file of saved targets cannot be read."));
      return FALSE;
    }
  if (!ws_target_list_add (self->targets, target, error) || !ws_target_list_save (self->targets, error))
    {
      ws_target_list_remove (self->targets, name, NULL);
      return FALSE;
    }
  ws_target_picker_set_selected (self, name);
  g_settings_set_string (settings, "launcher", "");
  return TRUE;
}

/* ---- boilerplate ------------------------------------------------------------------------- */

WsTargetList *
ws_target_picker_get_targets (WsTargetPicker *self)
{
  g_return_val_if_fail (WS_IS_TARGET_PICKER (self), NULL);
  return self->targets;
}

const char *
ws_target_picker_get_selected (WsTargetPicker *self)
{
  g_return_val_if_fail (WS_IS_TARGET_PICKER (self), NULL);
  return self->selected;
}

WsTarget *
ws_target_picker_get_target (WsTargetPicker *self)
{
  g_return_val_if_fail (WS_IS_TARGET_PICKER (self), NULL);
  return self->target;
}

static void
ws_target_picker_set_property (GObject *object, guint prop, const GValue *value,
                               GParamSpec *pspec)
{
  switch (prop)
    {
    case PROP_SELECTED:
      ws_target_picker_set_selected (WS_TARGET_PICKER (object), g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_target_picker_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  WsTargetPicker *self = WS_TARGET_PICKER (object);

  switch (prop)
    {
    case PROP_TARGETS: g_value_set_object (value, self->targets); break;
    case PROP_SELECTED: g_value_set_string (value, self->selected); break;
    case PROP_TARGET: g_value_set_object (value, self->target); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_target_picker_dispose (GObject *object)
{
  WsTargetPicker *self = WS_TARGET_PICKER (object);

  if (self->target != NULL)
    g_signal_handlers_disconnect_by_data (self->target, self);
  if (self->targets != NULL)
    g_signal_handlers_disconnect_by_data (self->targets, self);
  g_clear_object (&self->target);
  g_clear_object (&self->targets);
  g_clear_pointer (&self->button, gtk_widget_unparent);
  G_OBJECT_CLASS (ws_target_picker_parent_class)->dispose (object);
}

static void
ws_target_picker_finalize (GObject *object)
{
  g_free (WS_TARGET_PICKER (object)->selected);
  G_OBJECT_CLASS (ws_target_picker_parent_class)->finalize (object);
}

static void
ws_target_picker_class_init (WsTargetPickerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->set_property = ws_target_picker_set_property;
  object_class->get_property = ws_target_picker_get_property;
  object_class->dispose = ws_target_picker_dispose;
  object_class->finalize = ws_target_picker_finalize;
  properties[PROP_TARGETS] = g_param_spec_object ("targets", NULL, NULL, WS_TYPE_TARGET_LIST, ro);
  properties[PROP_SELECTED] = g_param_spec_string ("selected", NULL, NULL, WS_TARGET_LOCAL_NAME,
                                                   G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                     | G_PARAM_STATIC_STRINGS);
  properties[PROP_TARGET] = g_param_spec_object ("target", NULL, NULL, WS_TYPE_TARGET, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
ws_target_picker_init (WsTargetPicker *self)
{
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *manage = gtk_button_new_with_mnemonic (_("_Manage Targets…"));
  GtkWidget *heading = gtk_label_new (_("Where the runner runs"));

  self->targets = ws_target_list_dup_shared (NULL);
  self->selected = g_strdup (WS_TARGET_LOCAL_NAME);

  gtk_box_append (GTK_BOX (content), gtk_image_new_from_icon_name ("network-server-symbolic"));
  self->label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (self->label, PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (self->label, 14);
  gtk_box_append (GTK_BOX (content), GTK_WIDGET (self->label));
  gtk_box_append (GTK_BOX (content), gtk_image_new_from_icon_name ("pan-down-symbolic"));

  gtk_widget_add_css_class (heading, "heading");
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_box_append (GTK_BOX (box), heading);
  self->rows = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->rows, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->rows), "boxed-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->rows), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Targets"), -1);
  g_signal_connect (self->rows, "row-activated", G_CALLBACK (row_activated_cb), self);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 420);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->rows));
  gtk_box_append (GTK_BOX (box), scroller);
  gtk_widget_add_css_class (manage, "flat");
  g_signal_connect (manage, "clicked", G_CALLBACK (manage_clicked_cb), self);
  gtk_box_append (GTK_BOX (box), manage);
  self->popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (self->popover), box);

  self->button = gtk_menu_button_new ();
  gtk_menu_button_set_child (GTK_MENU_BUTTON (self->button), content);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (self->button), self->popover);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Target"), -1);
  gtk_widget_set_parent (self->button, GTK_WIDGET (self));

  g_signal_connect_swapped (self->targets, "items-changed", G_CALLBACK (fill), self);
  fill (self);
}

GtkWidget *
ws_target_picker_new (void)
{
  return g_object_new (WS_TYPE_TARGET_PICKER, NULL);
}

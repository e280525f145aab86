/* ws-target-dialog.c: the targets dialog. The form edits the saved target in place once it
 * checks out, so the window that has it chosen asks it again at once.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-target-dialog.h"

#include <string.h>

#include <glib/gi18n.h>

#include "ws-runner-client.h"
#include "ws-target-picker.h"
#include "ws-toast.h"

struct _WsTargetDialog
{
  AdwWindow parent_instance;

  WsTargetList *targets;
  GtkStack *stack;
  AdwPreferencesGroup *saved;
  GPtrArray *saved_rows;
  GtkWidget *empty;
  GtkWidget *add_button, *cancel_button, *save_button;
  AdwWindowTitle *title;

  char *editing;        /* the name of the target in the form; NULL: a new one */
  AdwEntryRow *name_row, *host_row, *port_row, *ssh_row, *slurm_row, *launcher_row,
    *runner_row;
  AdwComboRow *kind_row;
  GtkLabel *problem;
};

G_DEFINE_FINAL_TYPE (WsTargetDialog, ws_target_dialog, ADW_TYPE_WINDOW)

/* The kinds in the order the form offers them. */
static const WsTargetKind kinds[] = { WS_TARGET_SSH, WS_TARGET_SLURM_SRUN,
                                      WS_TARGET_SLURM_SBATCH, WS_TARGET_LOCAL,
                                      WS_TARGET_COMMAND };
static const char *kind_titles[] = { N_("A GPU server, over ssh"),
                                     N_("Slurm, a job step (srun)"),
                                     N_("Slurm, a batch job (sbatch --wait)"),
                                     N_("This computer"), N_("A launcher command") };

/* ---- the list ---------------------------------------------------------------------------- */

static void edit_clicked_cb (GtkButton *button, WsTargetDialog *self);
static void remove_clicked_cb (GtkButton *button, WsTargetDialog *self);

static GtkWidget *
icon_button (const char *icon, const char *label, GCallback callback, WsTargetDialog *self,
             const char *name)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_tooltip_text (button, label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);
  g_object_set_data_full (G_OBJECT (button), "name", g_strdup (name), g_free);
  g_signal_connect (button, "clicked", callback, self);
  return button;
}

static void
fill (WsTargetDialog *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->targets));
  guint shown = 0;

  for (guint i = 0; i < self->saved_rows->len; i++)
    adw_preferences_group_remove (self->saved, g_ptr_array_index (self->saved_rows, i));
  g_ptr_array_set_size (self->saved_rows, 0);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsTarget) target = g_list_model_get_item (G_LIST_MODEL (self->targets), i);
      const char *name = ws_target_get_name (target);
      g_autofree char *description = ws_target_dup_description (target);
      GtkWidget *row;

      if (g_str_equal (name, WS_TARGET_LOCAL_NAME))
        continue;
      row = adw_action_row_new ();
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), description);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                 icon_button ("document-edit-symbolic", _("Edit"),
                                              G_CALLBACK (edit_clicked_cb), self, name));
      adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                 icon_button ("user-trash-symbolic", _("Remove"),
                                              G_CALLBACK (remove_clicked_cb), self, name));
      adw_preferences_group_add (self->saved, row);
      g_ptr_array_add (self->saved_rows, row);
      shown++;
    }
  gtk_widget_set_visible (self->empty, shown == 0);
}

static void
show_list (WsTargetDialog *self)
{
  gtk_stack_set_visible_child_name (self->stack, "list");
  adw_window_title_set_title (self->title, _("Targets"));
  gtk_widget_set_visible (self->add_button, TRUE);
  gtk_widget_set_visible (self->cancel_button, FALSE);
  gtk_widget_set_visible (self->save_button, FALSE);
}

gboolean
ws_target_dialog_remove (WsTargetDialog *self, const char *name, GError **error)
{
  g_autoptr (WsTarget) kept = NULL;
  WsTarget *target;

  g_return_val_if_fail (WS_IS_TARGET_DIALOG (self), FALSE);
  if (ws_target_list_get_unreadable (self->targets) != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("Nothing is saved while %s cannot be read (%s): mend the file or move it "
                     "away, then start Warpscope again."),
                   ws_target_list_get_path (self->targets),
                   ws_target_list_get_unreadable (self->targets));
      return FALSE;
    }
  target = ws_target_list_find (self->targets, name);
  kept = target != NULL ? g_object_ref (target) : NULL;
  if (!ws_target_list_remove (self->targets, name, error))
    return FALSE;
  if (!ws_target_list_save (self->targets, error))
    {
      ws_target_list_add (self->targets, kept, NULL);
      return FALSE;
    }
  return TRUE;
}

static void
toast (WsTargetDialog *self, const char *text)
{
  AdwToastOverlay *overlay = ADW_TOAST_OVERLAY (adw_window_get_content (ADW_WINDOW (self)));

  adw_toast_overlay_add_toast (overlay, ws_toast_new (GTK_WIDGET (overlay), text));
}

static void
remove_clicked_cb (GtkButton *button, WsTargetDialog *self)
{
  g_autoptr (GError) error = NULL;

  if (!ws_target_dialog_remove (self, g_object_get_data (G_OBJECT (button), "name"), &error))
    toast (self, error->message);
}

/* ---- the form ---------------------------------------------------------------------------- */

static void
set_text (AdwEntryRow *row, const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (row), text != NULL ? text : "");
}

static void
set_words (AdwEntryRow *row, const char *const *words)
{
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint i = 0; words != NULL && words[i] != NULL; i++)
    {
      g_autofree char *quoted = NULL;

      /* Words that need no quoting are shown as they are. */
      quoted = strpbrk (words[i], " \t\n'\"\\$`*?[]{}()<>|&;#~") != NULL || *words[i] == '\0'
                 ? g_shell_quote (words[i])
                 : g_strdup (words[i]);
      g_string_append_printf (text, "%s%s", i > 0 ? " " : "", quoted);
    }
  set_text (row, text->str);
}

static WsTargetKind
form_kind (WsTargetDialog *self)
{
  return kinds[MIN (adw_combo_row_get_selected (self->kind_row), G_N_ELEMENTS (kinds) - 1)];
}

/* Only the fields the kind uses are shown. */
static void
kind_cb (WsTargetDialog *self)
{
  WsTargetKind kind = form_kind (self);
  gboolean slurm = kind == WS_TARGET_SLURM_SRUN || kind == WS_TARGET_SLURM_SBATCH;

  gtk_widget_set_visible (GTK_WIDGET (self->host_row), kind == WS_TARGET_SSH || slurm);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->host_row),
                                 slurm ? _("Login node to reach by ssh (empty: Slurm is here)")
                                       : _("Host (gpu-box, user@host, an alias of ~/.ssh/config)"));
  gtk_widget_set_visible (GTK_WIDGET (self->port_row), kind == WS_TARGET_SSH || slurm);
  gtk_widget_set_visible (GTK_WIDGET (self->ssh_row), kind == WS_TARGET_SSH || slurm);
  gtk_widget_set_visible (GTK_WIDGET (self->slurm_row), slurm);
  gtk_widget_set_visible (GTK_WIDGET (self->launcher_row), kind == WS_TARGET_COMMAND);
}

void
ws_target_dialog_edit (WsTargetDialog *self, const char *name)
{
  WsTarget *target = name != NULL ? ws_target_list_find (self->targets, name) : NULL;
  guint port;

  g_return_if_fail (WS_IS_TARGET_DIALOG (self));
  g_free (self->editing);
  self->editing = target != NULL ? g_strdup (name) : NULL;
  set_text (self->name_row, target ? ws_target_get_name (target) : "");
  adw_combo_row_set_selected (self->kind_row, 0);
  for (guint i = 0; target != NULL && i < G_N_ELEMENTS (kinds); i++)
    if (kinds[i] == ws_target_get_kind (target))
      adw_combo_row_set_selected (self->kind_row, i);
  set_text (self->host_row, target ? ws_target_get_host (target) : NULL);
  port = target ? ws_target_get_port (target) : 0;
  {
    g_autofree char *text = port != 0 ? g_strdup_printf ("%u", port) : NULL;

    set_text (self->port_row, text);
  }
  set_words (self->ssh_row, target ? ws_target_get_ssh_options (target) : NULL);
  set_words (self->slurm_row, target ? ws_target_get_slurm_options (target) : NULL);
  set_words (self->launcher_row, target ? ws_target_get_launcher (target) : NULL);
  set_text (self->runner_row, target ? ws_target_get_runner (target) : NULL);
  gtk_label_set_text (self->problem, "");
  gtk_widget_set_visible (GTK_WIDGET (self->problem), FALSE);
  kind_cb (self);
  gtk_stack_set_visible_child_name (self->stack, "form");
  adw_window_title_set_title (self->title, target ? _("Edit Target") : _("Add a Target"));
  gtk_widget_set_visible (self->add_button, FALSE);
  gtk_widget_set_visible (self->cancel_button, TRUE);
  gtk_widget_set_visible (self->save_button, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->name_row));
}

static void
edit_clicked_cb (GtkButton *button, WsTargetDialog *self)
{
  ws_target_dialog_edit (self, g_object_get_data (G_OBJECT (button), "name"));
}

void
ws_target_dialog_set_field (WsTargetDialog *self, const char *field, const char *text)
{
  struct { const char *name; AdwEntryRow *row; } rows[] = {
    { "name", self->name_row }, { "host", self->host_row }, { "port", self->port_row },
    { "ssh-options", self->ssh_row }, { "slurm-options", self->slurm_row },
    { "launcher", self->launcher_row }, { "runner", self->runner_row },
  };
  WsTargetKind kind;

  g_return_if_fail (WS_IS_TARGET_DIALOG (self));
  if (g_str_equal (field, "kind"))
    {
      g_return_if_fail (ws_target_kind_from_string (text, &kind));
      for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
        if (kinds[i] == kind)
          adw_combo_row_set_selected (self->kind_row, i);
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    if (g_str_equal (field, rows[i].name))
      set_text (rows[i].row, text);
}

/* The words typed in a row, as a shell would split them; NULL for none. */
static gboolean
row_words (AdwEntryRow *row, char ***words, GError **error)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (row));
  g_autoptr (GError) local = NULL;

  *words = NULL;
  if (*text == '\0' || g_shell_parse_argv (text, NULL, words, &local))
    return TRUE;
  if (g_error_matches (local, G_SHELL_ERROR, G_SHELL_ERROR_EMPTY_STRING))
    return TRUE;
  g_set_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID,
               /* Translators: the field's title, what was typed, why it cannot be read. */
               _("%s: “%s” cannot be split into words: %s"),
               adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), text, local->message);
  return FALSE;
}

/* The form as a target, checked; NULL and why not. */
static WsTarget *
form_target (WsTargetDialog *self, GError **error)
{
  WsTargetKind kind = form_kind (self);
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->name_row));
  const char *port_text = gtk_editable_get_text (GTK_EDITABLE (self->port_row));
  gboolean remote = kind != WS_TARGET_LOCAL && kind != WS_TARGET_COMMAND;
  g_auto (GStrv) ssh = NULL, slurm = NULL, launcher = NULL;
  g_autoptr (WsTarget) target = NULL;
  guint64 port = 0;

  if (!row_words (self->ssh_row, &ssh, error) || !row_words (self->slurm_row, &slurm, error)
      || !row_words (self->launcher_row, &launcher, error))
    return NULL;
  if (remote && *port_text != '\0'
      && (!g_ascii_string_to_unsigned (port_text, 10, 1, 65535, &port, NULL)))
    {
      g_set_error_literal (error, WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID,
                           _("The port must be a number from 1 to 65535, or empty for ssh's "
                             "own."));
      return NULL;
    }
  if (*name == '\0')
    {
      g_set_error_literal (error, WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID,
                           _("Give the target a name, such as gpu-box or cluster."));
      return NULL;
    }
  target = ws_target_new (name, kind);
  if (remote)
    {
      ws_target_set_host (target, gtk_editable_get_text (GTK_EDITABLE (self->host_row)));
      ws_target_set_port (target, (guint) port);
      ws_target_set_ssh_options (target, (const char *const *) ssh);
    }
  if (kind == WS_TARGET_SLURM_SRUN || kind == WS_TARGET_SLURM_SBATCH)
    ws_target_set_slurm_options (target, (const char *const *) slurm);
  if (kind == WS_TARGET_COMMAND)
    {
      ws_target_set_launcher (target, (const char *const *) launcher);
      ws_target_set_remote_shell (target, ws_launcher_is_ssh ((const char *const *) launcher));
    }
  ws_target_set_runner (target, gtk_editable_get_text (GTK_EDITABLE (self->runner_row)));
  if (!ws_target_validate (target, error))
    return NULL;
  if (g_str_equal (name, WS_TARGET_LOCAL_NAME)
      || (g_strcmp0 (name, self->editing) != 0 && ws_target_list_find (self->targets, name) != NULL))
    {
      g_set_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_EXISTS,
                   _("A target named “%s” is already there: give this one another name."), name);
      return NULL;
    }
  return g_steal_pointer (&target);
}

/* The form's values into the saved target, which keeps what the form does not show (its
 * environment, pending timeout, job folder). */
static void
apply (WsTarget *to, WsTarget *from)
{
  g_object_freeze_notify (G_OBJECT (to));
  g_object_set (to, "name", ws_target_get_name (from), "kind", ws_target_get_kind (from), NULL);
  ws_target_set_host (to, ws_target_get_host (from));
  ws_target_set_port (to, ws_target_get_port (from));
  ws_target_set_ssh_options (to, ws_target_get_ssh_options (from));
  ws_target_set_slurm_options (to, ws_target_get_slurm_options (from));
  ws_target_set_launcher (to, ws_target_get_launcher (from));
  ws_target_set_remote_shell (to, ws_target_get_remote_shell (from));
  ws_target_set_runner (to, ws_target_get_runner (from));
  g_object_thaw_notify (G_OBJECT (to));
}

gboolean
ws_target_dialog_save (WsTargetDialog *self, GError **error)
{
  g_autoptr (WsTarget) target = NULL;
  g_autoptr (GError) local = NULL;
  WsTarget *old;

  g_return_val_if_fail (WS_IS_TARGET_DIALOG (self), FALSE);
  if (ws_target_list_get_unreadable (self->targets) != NULL)
    g_set_error (&local, G_IO_ERROR, G_IO_ERROR_FAILED,
                 /* Translators: the file, then why it cannot be read. */
                 _("Nothing is saved while %s cannot be read (%s): mend the file or move it "
                   "away, then start Warpscope again."),
                 ws_target_list_get_path (self->targets),
                 ws_target_list_get_unreadable (self->targets));
  else
    target = form_target (self, &local);
  old = self->editing != NULL ? ws_target_list_find (self->targets, self->editing) : NULL;
  if (target != NULL && old == NULL)
    {
      if (ws_target_list_add (self->targets, target, &local)
          && !ws_target_list_save (self->targets, &local))
        ws_target_list_remove (self->targets, ws_target_get_name (target), NULL);
    }
  else if (target != NULL)
    {
      /* Saved as a copy first: a list that cannot be written leaves the target as it was. */
      g_autoptr (WsTarget) was = ws_target_new (ws_target_get_name (old), ws_target_get_kind (old));

      apply (was, old);
      apply (old, target);
      if (!ws_target_list_save (self->targets, &local))
        apply (old, was);
    }
  if (local != NULL)
    {
      gtk_label_set_text (self->problem, local->message);
      gtk_widget_set_visible (GTK_WIDGET (self->problem), TRUE);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  fill (self);
  show_list (self);
  return TRUE;
}

const char *
ws_target_dialog_get_problem (WsTargetDialog *self)
{
  g_return_val_if_fail (WS_IS_TARGET_DIALOG (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->problem)) ? gtk_label_get_text (self->problem)
                                                             : NULL;
}

/* ---- building it ------------------------------------------------------------------------- */

static AdwEntryRow *
entry_row (AdwPreferencesGroup *group, const char *title)
{
  GtkWidget *row = adw_entry_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_group_add (group, row);
  return ADW_ENTRY_ROW (row);
}

static GtkWidget *
build_form (WsTargetDialog *self)
{
  GtkWidget *page = adw_preferences_page_new ();
  AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  g_autoptr (GtkStringList) names = gtk_string_list_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (kind_titles); i++)
    gtk_string_list_append (names, _(kind_titles[i]));
  self->name_row = entry_row (group, _("Name"));
  self->kind_row = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->kind_row), _("Where"));
  adw_combo_row_set_model (self->kind_row, G_LIST_MODEL (names));
  adw_preferences_group_add (group, GTK_WIDGET (self->kind_row));
  self->host_row = entry_row (group, _("Host"));
  self->port_row = entry_row (group, _("ssh port (empty: ssh's own)"));
  self->ssh_row = entry_row (group, _("More ssh options (-i KEY, -J JUMP)"));
  self->slurm_row = entry_row (group, _("Slurm options (-p gpu --gres=gpu:1)"));
  self->launcher_row = entry_row (group, _("Command in front of the runner (env, a wrapper)"));
  self->runner_row = entry_row (group, _("The runner's path there (empty: warpscope-runner)"));
  self->problem = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->problem, TRUE);
  gtk_label_set_xalign (self->problem, 0);
  gtk_widget_set_margin_top (GTK_WIDGET (self->problem), 12);
  gtk_widget_add_css_class (GTK_WIDGET (self->problem), "error");
  adw_preferences_group_add (group, GTK_WIDGET (self->problem));
  adw_preferences_group_set_description (
    group, _("Warpscope starts the runner there through ssh or Slurm, with your keys and your "
             "account: the runner must be installed there (it needs no GLib)."));
  g_signal_connect_swapped (self->kind_row, "notify::selected", G_CALLBACK (kind_cb), self);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), group);
  return page;
}

static void
add_clicked_cb (WsTargetDialog *self)
{
  ws_target_dialog_edit (self, NULL);
}

static void
save_clicked_cb (WsTargetDialog *self)
{
  ws_target_dialog_save (self, NULL);
}

static void
ws_target_dialog_dispose (GObject *object)
{
  WsTargetDialog *self = WS_TARGET_DIALOG (object);

  if (self->targets != NULL)
    g_signal_handlers_disconnect_by_data (self->targets, self);
  g_clear_object (&self->targets);
  g_clear_pointer (&self->saved_rows, g_ptr_array_unref);
  g_clear_pointer (&self->editing, g_free);
  G_OBJECT_CLASS (ws_target_dialog_parent_class)->dispose (object);
}

static void
ws_target_dialog_class_init (WsTargetDialogClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ws_target_dialog_dispose;
  gtk_widget_class_add_binding_action (GTK_WIDGET_CLASS (klass), GDK_KEY_Escape, 0,
                                       "window.close", NULL);
}

static void
ws_target_dialog_init (WsTargetDialog *self)
{
  GtkWidget *toasts = adw_toast_overlay_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *list = adw_preferences_page_new ();

  self->saved_rows = g_ptr_array_new ();
  gtk_window_set_title (GTK_WINDOW (self), _("Targets"));
  gtk_window_set_default_size (GTK_WINDOW (self), 560, 560);
  gtk_window_set_modal (GTK_WINDOW (self), TRUE);
  self->title = ADW_WINDOW_TITLE (adw_window_title_new (_("Targets"), NULL));
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), GTK_WIDGET (self->title));
  self->add_button = gtk_button_new_with_mnemonic (_("_Add Target…"));
  gtk_widget_add_css_class (self->add_button, "suggested-action");
  g_signal_connect_swapped (self->add_button, "clicked", G_CALLBACK (add_clicked_cb), self);
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), self->add_button);
  self->cancel_button = gtk_button_new_with_mnemonic (_("_Cancel"));
  g_signal_connect_swapped (self->cancel_button, "clicked", G_CALLBACK (show_list), self);
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), self->cancel_button);
  self->save_button = gtk_button_new_with_mnemonic (_("_Save"));
  gtk_widget_add_css_class (self->save_button, "suggested-action");
  g_signal_connect_swapped (self->save_button, "clicked", G_CALLBACK (save_clicked_cb), self);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), self->save_button);
  gtk_box_append (GTK_BOX (box), header);

  self->saved = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (self->saved, _("Saved targets"));
  adw_preferences_group_set_description (
    self->saved, _("Where the runner can run besides this computer. The one chosen in the "
                   "header bar gives the GPUs, the kernels and the runs."));
  self->empty = gtk_label_new (_("None yet: add a GPU server you reach with ssh, or a Slurm "
                                 "cluster."));
  gtk_label_set_wrap (GTK_LABEL (self->empty), TRUE);
  gtk_widget_add_css_class (self->empty, "dim-label");
  adw_preferences_group_add (self->saved, self->empty);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (list), self->saved);

  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);
  gtk_stack_add_named (self->stack, list, "list");
  gtk_stack_add_named (self->stack, build_form (self), "form");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->stack));
  adw_toast_overlay_set_child (ADW_TOAST_OVERLAY (toasts), box);
  adw_window_set_content (ADW_WINDOW (self), toasts);
  show_list (self);
}

GtkWidget *
ws_target_dialog_new (WsTargetList *targets)
{
  WsTargetDialog *self;

  g_return_val_if_fail (WS_IS_TARGET_LIST (targets), NULL);
  self = g_object_new (WS_TYPE_TARGET_DIALOG, NULL);
  self->targets = g_object_ref (targets);
  g_signal_connect_swapped (targets, "items-changed", G_CALLBACK (fill), self);
  fill (self);
  return GTK_WIDGET (self);
}

/* ws-trace-dialog.c: Trace a Program…. The command becomes the model's WsTraceCommand, and so
 * warpscope-runner --trace's argv, exactly as warpscope-cli trace makes it; the run controller
 * streams its records into the workspace's live session.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-trace-dialog.h"

#include <glib/gi18n.h>

#include "ws-format.h"
#include "ws-units.h"
#include "ws-trace-command.h"

#define STATUS_MS 250
#define MAX_RECENT 10

struct _WsTraceDialog
{
  AdwWindow parent_instance;

  /* template */
  GtkWidget *trace_button, *stop_button;
  AdwEntryRow *command_row, *cwd_row, *env_row, *sweep_row;
  GtkLabel *status_label, *message_label;
  AdwPreferencesGroup *recent_group;

  GSettings *settings;
  WsRunController *controller;
  WsWorkspace *workspace;
  char *runner;
  WsSession *session;     /* the traced program's, while this dialog follows it */
  gint64 started;         /* monotonic µs */
  guint status_id;
  GPtrArray *recent_rows;
  GtkFileChooserNative *chooser;
};

G_DEFINE_FINAL_TYPE (WsTraceDialog, ws_trace_dialog, ADW_TYPE_WINDOW)

static void
say (WsTraceDialog *self, const char *text, gboolean problem)
{
  gtk_label_set_text (self->message_label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), text != NULL && *text != '\0');
  if (problem)
    gtk_widget_add_css_class (GTK_WIDGET (self->message_label), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->message_label), "error");
}

/* ---- recent commands --------------------------------------------------------------------- */

static void
recent_activated_cb (AdwActionRow *row, WsTraceDialog *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->command_row),
                         adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)));
  gtk_widget_grab_focus (GTK_WIDGET (self->command_row));
}

static void
fill_recent (WsTraceDialog *self)
{
  g_auto (GStrv) recent = g_settings_get_strv (self->settings, "trace-recent");

  for (guint i = 0; i < self->recent_rows->len; i++)
    adw_preferences_group_remove (self->recent_group, g_ptr_array_index (self->recent_rows, i));
  g_ptr_array_set_size (self->recent_rows, 0);
  for (guint i = 0; recent[i] != NULL; i++)
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), recent[i]);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                 gtk_image_new_from_icon_name ("edit-undo-symbolic"));
      g_signal_connect (row, "activated", G_CALLBACK (recent_activated_cb), self);
      adw_preferences_group_add (self->recent_group, row);
      g_ptr_array_add (self->recent_rows, row);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->recent_group), recent[0] != NULL);
}

/* The command goes first; an older copy of it and the oldest beyond MAX_RECENT go. */
static void
remember (WsTraceDialog *self, const char *line)
{
  g_auto (GStrv) recent = g_settings_get_strv (self->settings, "trace-recent");
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) kept = NULL;
  guint n = 1;

  g_strv_builder_add (builder, line);
  for (guint i = 0; recent[i] != NULL && n < MAX_RECENT; i++)
    if (!g_str_equal (recent[i], line))
      g_strv_builder_add (builder, recent[i]), n++;
  kept = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "trace-recent", (const char *const *) kept);
  g_settings_set_string (self->settings, "trace-cwd",
                         gtk_editable_get_text (GTK_EDITABLE (self->cwd_row)));
  g_settings_set_string (self->settings, "trace-env",
                         gtk_editable_get_text (GTK_EDITABLE (self->env_row)));
  g_settings_set_string (self->settings, "trace-sweep",
                         gtk_editable_get_text (GTK_EDITABLE (self->sweep_row)));
  fill_recent (self);
}

/* ---- the live line ----------------------------------------------------------------------- */

static void
update_status (WsTraceDialog *self)
{
  WsTrace *trace = self->session ? ws_session_get_trace (self->session) : NULL;
  GPtrArray *programs = trace ? ws_trace_get_programs (trace) : NULL;
  g_autofree char *elapsed = ws_units_duration ((double) (g_get_monotonic_time ()
                                                            - self->started) * 1e3);
  g_autofree char *kernels_text = NULL, *copies_text = NULL;
  g_autoptr (GString) line = g_string_new (NULL);
  guint kernels = 0, copies = 0;

  if (trace != NULL)
    ws_trace_count (trace, &kernels, &copies);
  kernels_text = g_strdup_printf (ngettext ("%u kernel", "%u kernels",
                                               kernels),
                                  kernels);
  copies_text = g_strdup_printf (ngettext ("%u copy", "%u copies", copies),
                                 copies);
  /* Translators: the time since the trace started, then "3 kernels" and "2 copies". */
  g_string_printf (line, _("%s · %s, %s"), elapsed, kernels_text, copies_text);
  if (programs != NULL && programs->len > 0)
    {
      const WsTraceProgram *p = g_ptr_array_index (programs, programs->len - 1);
      g_autofree char *params = ws_trace_describe_params (p);

      if (p->of > 1)
        /* Translators: the program run in progress, of how many, and its parameter values. */
        g_string_append_printf (line, _(" — run %u of %u (%s)"), p->id, p->of, params);
    }
  gtk_label_set_text (self->status_label, line->str);
}

static gboolean
status_cb (gpointer data)
{
  update_status (data);
  return G_SOURCE_CONTINUE;
}

/* The program ended (or the runner did): how, in plain words. */
static void
finished (WsTraceDialog *self)
{
  WsTrace *trace = self->session ? ws_session_get_trace (self->session) : NULL;
  g_autofree char *problem = self->session ? ws_trace_describe_session_error (self->session)
                                           : NULL;
  g_autoptr (GString) ending = g_string_new (NULL);
  GPtrArray *programs = trace ? ws_trace_get_programs (trace) : NULL;

  g_clear_handle_id (&self->status_id, g_source_remove);
  update_status (self);
  for (guint i = 0; programs != NULL && i < programs->len; i++)
    {
      const WsTraceProgram *p = g_ptr_array_index (programs, i);
      g_autofree char *command = ws_trace_describe_command (trace, p);
      g_autofree char *how = ws_trace_describe_ending (trace, p, NULL);

      /* Translators: the command line, then how it ended ("exited with status 0 after 2 s") */
      g_string_append_printf (ending, _("%s %s"), command, how ? how : _("ended"));
      g_string_append_c (ending, '\n');
    }
  if (problem != NULL)
    g_string_append (ending, problem);
  else if (ending->len > 0)
    g_string_truncate (ending, ending->len - 1);
  say (self, ending->str, problem != NULL);
  gtk_widget_set_sensitive (self->stop_button, FALSE);
  gtk_widget_set_sensitive (self->trace_button, TRUE);
}

/* Its own trace's end only: a run started from the window afterwards is not this dialog's. */
static void
running_cb (WsTraceDialog *self)
{
  if (self->session != NULL && !ws_run_controller_is_running (self->controller)
      && ws_workspace_get_session (self->workspace) == self->session)
    finished (self);
  else if (self->session != NULL && ws_workspace_get_session (self->workspace) != self->session)
    {
      g_clear_handle_id (&self->status_id, g_source_remove);
      g_clear_object (&self->session);
      gtk_widget_set_sensitive (self->stop_button, FALSE);
      gtk_widget_set_sensitive (self->trace_button, TRUE);
    }
}

/* ---- starting ---------------------------------------------------------------------------- */

/* The fields as the model's command; FALSE with the reason said. */
static gboolean
read_fields (WsTraceDialog *self, WsTraceCommand *command, GError **error)
{
  const char *cwd = gtk_editable_get_text (GTK_EDITABLE (self->cwd_row));

  command->program = ws_trace_command_split (gtk_editable_get_text (GTK_EDITABLE (self->command_row)),
                                             error);
  if (command->program == NULL)
    return FALSE;
  command->env = ws_trace_command_split_items (gtk_editable_get_text (GTK_EDITABLE (self->env_row)));
  command->sweeps = ws_trace_command_split_items (gtk_editable_get_text (GTK_EDITABLE (self->sweep_row)));
  command->cwd = g_strdup (*cwd != '\0' ? cwd : g_get_home_dir ());
  return ws_trace_command_validate (command, error);
}

gboolean
ws_trace_dialog_start (WsTraceDialog *self)
{
  g_auto (WsTraceCommand) command = { 0 };
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) argv = NULL;
  WsTarget *target;

  g_return_val_if_fail (WS_IS_TRACE_DIALOG (self), FALSE);
  target = ws_run_controller_get_target (self->controller);
  /* A target elsewhere has its own runner and library. */
  if (self->runner == NULL && (target == NULL || !ws_target_is_remote (target)))
    {
      say (self, _("This Warpscope was built without its GPU runner, so it cannot trace "
                   "programs: recordings and the calculator still work."),
           TRUE);
      return FALSE;
    }
  if (!read_fields (self, &command, &error)
      || (argv = ws_trace_command_build_argv (&command, "warpscope-runner", &error)) == NULL
      /* The runner's path is the target's: only its options are the command's. */
      || !ws_run_controller_start_trace (self->controller, (const char *const *) argv + 1, &error))
    {
      say (self, error->message, TRUE);
      return FALSE;
    }
  remember (self, gtk_editable_get_text (GTK_EDITABLE (self->command_row)));
  g_set_object (&self->session, ws_workspace_get_session (self->workspace));
  self->started = g_get_monotonic_time ();
  say (self, NULL, FALSE);
  update_status (self);
  g_clear_handle_id (&self->status_id, g_source_remove);
  self->status_id = g_timeout_add (STATUS_MS, status_cb, self);
  gtk_widget_set_sensitive (self->stop_button, TRUE);
  gtk_widget_set_sensitive (self->trace_button, FALSE);
  return TRUE;
}

void
ws_trace_dialog_stop (WsTraceDialog *self)
{
  g_return_if_fail (WS_IS_TRACE_DIALOG (self));
  if (self->session != NULL && ws_run_controller_is_running (self->controller)
      && ws_workspace_get_session (self->workspace) == self->session)
    ws_run_controller_cancel (self->controller);
}

static void
trace_clicked_cb (WsTraceDialog *self)
{
  if (gtk_widget_get_sensitive (self->trace_button))
    ws_trace_dialog_start (self);
}

static void
stop_clicked_cb (WsTraceDialog *self)
{
  ws_trace_dialog_stop (self);
}

static void
folder_response_cb (GtkNativeDialog *chooser, int response, WsTraceDialog *self)
{
  g_autoptr (GFile) folder = NULL;
  g_autofree char *path = NULL;

  if (response != GTK_RESPONSE_ACCEPT)
    return;
  folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  path = folder ? g_file_get_path (folder) : NULL;
  if (path != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->cwd_row), path);
}

static void
choose_folder_cb (WsTraceDialog *self)
{
  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (_("Working Folder"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                               _("_Select"), _("_Cancel"));
  g_signal_connect (self->chooser, "response", G_CALLBACK (folder_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* ---- for tests ---------------------------------------------------------------------------- */

void
ws_trace_dialog_set_fields (WsTraceDialog *self, const char *command, const char *cwd,
                            const char *env, const char *sweep)
{
  g_return_if_fail (WS_IS_TRACE_DIALOG (self));
  gtk_editable_set_text (GTK_EDITABLE (self->command_row), command ? command : "");
  gtk_editable_set_text (GTK_EDITABLE (self->cwd_row), cwd ? cwd : "");
  gtk_editable_set_text (GTK_EDITABLE (self->env_row), env ? env : "");
  gtk_editable_set_text (GTK_EDITABLE (self->sweep_row), sweep ? sweep : "");
}

const char *
ws_trace_dialog_get_status (WsTraceDialog *self)
{
  g_return_val_if_fail (WS_IS_TRACE_DIALOG (self), NULL);
  return gtk_label_get_text (self->status_label);
}

const char *
ws_trace_dialog_get_message (WsTraceDialog *self)
{
  g_return_val_if_fail (WS_IS_TRACE_DIALOG (self), NULL);
  return gtk_label_get_text (self->message_label);
}

/* ---- boilerplate ------------------------------------------------------------------------ */

WsTraceDialog *
ws_trace_dialog_new (GtkWindow *parent, GSettings *settings, WsRunController *controller,
                     WsWorkspace *workspace, const char *runner)
{
  WsTraceDialog *self = g_object_new (WS_TYPE_TRACE_DIALOG, "transient-for", parent, NULL);
  g_auto (GStrv) recent = NULL;
  g_autofree char *cwd = NULL, *env = NULL, *sweep = NULL;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);
  self->settings = g_object_ref (settings);
  self->controller = g_object_ref (controller);
  self->workspace = g_object_ref (workspace);
  self->runner = g_strdup (runner);
  g_signal_connect_swapped (controller, "notify::running", G_CALLBACK (running_cb), self);
  recent = g_settings_get_strv (settings, "trace-recent");
  cwd = g_settings_get_string (settings, "trace-cwd");
  env = g_settings_get_string (settings, "trace-env");
  sweep = g_settings_get_string (settings, "trace-sweep");
  ws_trace_dialog_set_fields (self, recent[0], cwd, env, sweep);
  fill_recent (self);
  return self;
}

static void
ws_trace_dialog_dispose (GObject *object)
{
  WsTraceDialog *self = WS_TRACE_DIALOG (object);

  g_clear_handle_id (&self->status_id, g_source_remove);
  if (self->controller != NULL)
    g_signal_handlers_disconnect_by_data (self->controller, self);
  g_clear_object (&self->controller);
  g_clear_object (&self->workspace);
  g_clear_object (&self->settings);
  g_clear_object (&self->session);
  g_clear_object (&self->chooser);
  g_clear_pointer (&self->runner, g_free);
  g_clear_pointer (&self->recent_rows, g_ptr_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_TRACE_DIALOG);
  G_OBJECT_CLASS (ws_trace_dialog_parent_class)->dispose (object);
}

static void
ws_trace_dialog_class_init (WsTraceDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ws_trace_dialog_dispose;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/warpscope/Warpscope/ui/ws-trace-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, WsTraceDialog, trace_button);
  gtk_widget_class_bind_template_child (widget_class, WsTraceDialog, stop_button);
  gtk_widget_class_bind_template_child (widget_class, WsTraceDialog, command_row);
  gtk_widget_class_bind_template_child (widget_class, WsTraceDialog, cwd_row);
  gtk_widget_class_bind_template_child (widget_class, WsTraceDialog, env_row);
  gtk_widget_class_bind_template_child (widget_class, WsTraceDialog, sweep_row);
  gtk_widget_class_bind_template_child (widget_class, WsTraceDialog, status_label);
  gtk_widget_class_bind_template_child (widget_class, WsTraceDialog, message_label);
  gtk_widget_class_bind_template_child (widget_class, WsTraceDialog, recent_group);
  gtk_widget_class_bind_template_callback (widget_class, trace_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, choose_folder_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
ws_trace_dialog_init (WsTraceDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->recent_rows = g_ptr_array_new ();
}

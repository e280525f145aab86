/* ws-window-files.c: the window's files: Open… and Replay a Recording…, the bundled and the
 * autosaved recordings, Save and Save As… (never over a bundled recording), a file dropped on
 * the window; a session is read in a thread into the workspace and kept in recent files.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-window-private.h"

#include <glib/gi18n.h>

#include "ws-kernel-actions.h"
#include "ws-probe.h"

/* ---- sessions -------------------------------------------------------------------------------- */

static void
load_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (WsWindow) self = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSession) session = ws_session_load_finish (result, &error);
  g_autofree char *uri = NULL;

  if (session == NULL)
    {
      ws_window_show_toast (self, error->message);
      return;
    }
  uri = g_file_get_uri (ws_session_get_file (session));
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
  ws_probe_session_arrives (GTK_WIDGET (self));
  ws_workspace_set_session (self->workspace, session);
  if (ws_session_get_problems (session)->len > 0)
    {
      WsProblem *p = g_ptr_array_index (ws_session_get_problems (session), 0);
      g_autofree char *text = g_strdup_printf (_("Line %u could not be read (%s); the rest of "
                                                 "the file is shown."),
                                               p->line, p->message);

      ws_window_show_toast (self, text);
    }
}

void
ws_window_open_file (WsWindow *self, GFile *file)
{
  g_return_if_fail (WS_IS_WINDOW (self));
  if (ws_kernel_actions_open_file (self, file))
    return;
  ws_session_load_async (file, NULL, load_done_cb, g_object_ref (self));
}

/* ---- file choosers --------------------------------------------------------------------------- */

static void
open_response_cb (GtkNativeDialog *chooser, int response, WsWindow *self)
{
  g_autoptr (GFile) file = NULL;
  g_autoptr (GError) error = NULL;

  if (response != GTK_RESPONSE_ACCEPT)
    return;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  if (!GPOINTER_TO_INT (g_object_get_data (G_OBJECT (chooser), "replay")))
    {
      ws_window_open_file (self, file);
      return;
    }
  ws_probe_session_arrives (GTK_WIDGET (self));
  if (!ws_run_controller_replay (self->controller, file, &error))
    ws_window_show_toast (self, error->message);
}

static void
choose_file (WsWindow *self, gboolean replay)
{
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *samples = ws_application_dup_samples_dir ();
  g_autoptr (GFile) folder = g_file_new_for_path (samples);

  gtk_file_filter_set_name (filter, _("Warpscope sessions (*.jsonl)"));
  gtk_file_filter_add_pattern (filter, "*.jsonl");
  gtk_file_filter_add_pattern (filter, "*.json");
  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (replay ? _("Replay a Recording") : _("Open"),
                                               GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                               replay ? _("_Replay") : _("_Open"), _("_Cancel"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), folder, NULL);
  g_object_set_data (G_OBJECT (self->chooser), "replay", GINT_TO_POINTER (replay));
  g_signal_connect (self->chooser, "response", G_CALLBACK (open_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

void
_ws_window_save_to (WsWindow *self, GFile *file)
{
  WsSession *session = ws_workspace_get_session (self->workspace);
  g_autoptr (GError) error = NULL;
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *text = NULL;

  if (!ws_session_save (session, file, NULL, &error))
    {
      ws_window_show_toast (self, error->message);
      return;
    }
  ws_session_set_source (session, WS_SESSION_SOURCE_RECORDING);
  text = g_strdup_printf (_("Saved as %s"), name);
  ws_window_show_toast (self, text);
  _ws_window_update_actions (self);
}

static void
save_response_cb (GtkNativeDialog *chooser, int response, WsWindow *self)
{
  g_autoptr (GFile) file = NULL;

  if (response != GTK_RESPONSE_ACCEPT)
    return;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  _ws_window_save_to (self, file);
}

static void
save_as (WsWindow *self)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *name = g_date_time_format (now, "warpscope-%Y%m%d-%H%M%S.jsonl");

  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (_("Save Session"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"),
                                               _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);
  g_signal_connect (self->chooser, "response", G_CALLBACK (save_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static gboolean
drop_cb (GtkDropTarget *target, const GValue *value, double x, double y, WsWindow *self)
{
  if (!G_VALUE_HOLDS (value, G_TYPE_FILE))
    return FALSE;
  ws_window_open_file (self, g_value_get_object (value));
  return TRUE;
}

/* ---- actions --------------------------------------------------------------------------------- */

static void
open_action (GtkWidget *widget, const char *name, GVariant *param)
{
  choose_file (WS_WINDOW (widget), g_str_equal (name, "win.replay"));
}

static void
open_sample_action (GtkWidget *widget, const char *name, GVariant *param)
{
  g_autoptr (GFile) file = g_file_new_for_path (g_variant_get_string (param, NULL));

  ws_window_open_file (WS_WINDOW (widget), file);
}

static void
open_autosave_action (GtkWidget *widget, const char *name, GVariant *param)
{
  g_autofree char *path = ws_run_controller_dup_autosave_path ();
  g_autoptr (GFile) file = g_file_new_for_path (path);

  ws_window_open_file (WS_WINDOW (widget), file);
}

static void
save_action (GtkWidget *widget, const char *name, GVariant *param)
{
  WsWindow *self = WS_WINDOW (widget);
  WsSession *session = ws_workspace_get_session (self->workspace);
  GFile *file = session ? ws_session_get_file (session) : NULL;
  g_autofree char *samples = ws_application_dup_samples_dir ();
  g_autofree char *path = file ? g_file_get_path (file) : NULL;

  if (session == NULL)
    return;
  /* Never over a bundled recording; a live session gets a name first. */
  if (g_str_equal (name, "win.save-as") || file == NULL
      || ws_session_get_source (session) == WS_SESSION_SOURCE_LIVE
      || (path != NULL && g_str_has_prefix (path, samples)))
    save_as (self);
  else
    _ws_window_save_to (self, file);
}

void
_ws_window_files_install (GtkWidgetClass *widget_class)
{
  static const WsWindowAction actions[] = {
    { "win.open", NULL, open_action, GDK_KEY_o, GDK_CONTROL_MASK },
    { "win.replay", NULL, open_action },
    { "win.open-sample", "s", open_sample_action },
    { "win.open-autosave", NULL, open_autosave_action },
    { "win.save", NULL, save_action, GDK_KEY_s, GDK_CONTROL_MASK },
    { "win.save-as", NULL, save_action, GDK_KEY_S, GDK_CONTROL_MASK | GDK_SHIFT_MASK },
  };

  _ws_window_install_actions (widget_class, actions, G_N_ELEMENTS (actions));
}

void
_ws_window_files_init (WsWindow *self)
{
  GtkDropTarget *drop = gtk_drop_target_new (G_TYPE_FILE, GDK_ACTION_COPY);

  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}

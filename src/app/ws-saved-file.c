/* ws-saved-file.c: never replacing a file without asking, and showing where a file went.
 * GtkFileLauncher does the last two from GTK 4.10; on 4.8 they are the D-Bus calls it makes.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-saved-file.h"

#include <fcntl.h>
#include <gio/gunixfdlist.h>
#include <glib/gi18n.h>
#include <unistd.h>

#include "ws-figure.h"
#include "ws-toast.h"

/* ---- asking before replacing -------------------------------------------------------------- */

static void
confirm_response_cb (AdwMessageDialog *dialog, const char *response, GTask *task)
{
  GFile *file = g_task_get_task_data (task);

  if (g_str_equal (response, "replace"))
    g_task_return_pointer (task, g_object_ref (file), g_object_unref);
  else if (g_str_equal (response, "keep"))
    g_task_return_pointer (task, ws_figure_unused_file (file), g_object_unref);
  else
    g_task_return_pointer (task, NULL, NULL);
  g_object_unref (task);
}

void
ws_saved_file_confirm_async (GtkWindow *parent, GFile *file, GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer data)
{
  GTask *task = g_task_new (parent, cancellable, callback, data);
  g_autoptr (GFile) folder = g_file_get_parent (file);
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *where = folder ? g_file_get_basename (folder) : g_strdup ("/");
  g_autofree char *heading = NULL, *body = NULL;
  GtkWidget *dialog;

  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  if (!g_file_query_exists (file, cancellable))
    {
      g_task_return_pointer (task, g_object_ref (file), g_object_unref);
      g_object_unref (task);
      return;
    }
  heading = g_strdup_printf (_("Replace “%s”?"), name);
  body = g_strdup_printf (_("A file of that name is already in %s. Replacing it overwrites "
                            "what it holds; keeping both saves this one under a new name."),
                          where);
  dialog = adw_message_dialog_new (parent, heading, body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"), "keep",
                                    _("_Keep Both"), "replace", _("_Replace"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "replace",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "keep");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect (dialog, "response", G_CALLBACK (confirm_response_cb), task);
  gtk_window_present (GTK_WINDOW (dialog));
}

GFile *
ws_saved_file_confirm_finish (GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- the toast ---------------------------------------------------------------------------- */

AdwToast *
ws_saved_file_toast (GFile *file, char **words)
{
  g_autoptr (GFile) folder = g_file_get_parent (file);
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *where = folder ? g_file_get_basename (folder) : g_strdup ("/");
  /* Translators: "Saved vector-add-sizes-h200-speedup.svg in Pictures". */
  g_autofree char *text = g_strdup_printf (_("Saved %1$s in %2$s"), name, where);
  g_autofree char *uri = g_file_get_uri (file);
  g_autofree char *path = g_file_get_path (file);
  AdwToast *toast = ws_toast_new (NULL, text);
  GtkWidget *title = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *label = gtk_label_new (text);
  GtkWidget *show = gtk_button_new_with_mnemonic (_("Show in _Folder"));

  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_tooltip_text (label, path);
  gtk_widget_add_css_class (show, "flat");
  gtk_widget_set_valign (show, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (show), "chart.show-file");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (show), "s", uri);
  gtk_box_append (GTK_BOX (title), label);
  gtk_box_append (GTK_BOX (title), show);
  /* libadwaita 1.2's toast has one button of its own; the other goes beside the words. */
  adw_toast_set_custom_title (toast, title);
  adw_toast_set_button_label (toast, _("_Open"));
  adw_toast_set_action_name (toast, "chart.open-file");
  adw_toast_set_action_target_value (toast, g_variant_new_string (uri));
  adw_toast_set_timeout (toast, 10);
  if (words != NULL)
    *words = g_steal_pointer (&text);
  return toast;
}

/* ---- opening ------------------------------------------------------------------------------ */

static void
launched_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GError) error = NULL;

  if (!g_app_info_launch_default_for_uri_finish (result, &error))
    g_message ("Cannot open the file: %s", error->message);
}

void
ws_saved_file_open (GtkWindow *parent, GFile *file)
{
  g_autofree char *uri = g_file_get_uri (file);
  g_autoptr (GdkAppLaunchContext) context = NULL;

  if (parent != NULL)
    context = gdk_display_get_app_launch_context (gtk_widget_get_display (GTK_WIDGET (parent)));
  /* In a sandbox GLib asks the OpenURI portal. */
  g_app_info_launch_default_for_uri_async (uri, G_APP_LAUNCH_CONTEXT (context), NULL, launched_cb,
                                           NULL);
}

/* ---- showing in the folder ---------------------------------------------------------------- */

static void
folder_launched_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GTask) task = data;
  GError *error = NULL;

  if (!g_app_info_launch_default_for_uri_finish (result, &error))
    g_task_return_error (task, error);
  else
    g_task_return_int (task, WS_SHOWN_BY_LAUNCHER);
}

static void
by_launcher (GTask *task)
{
  GFile *file = g_task_get_task_data (task);
  g_autoptr (GFile) folder = g_file_get_parent (file);
  g_autofree char *uri = g_file_get_uri (folder ? folder : file);

  g_app_info_launch_default_for_uri_async (uri, NULL, g_task_get_cancellable (task),
                                           folder_launched_cb, task);
}

static void
portal_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  GTask *task = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GVariant) reply = g_dbus_connection_call_with_unix_fd_list_finish (
    G_DBUS_CONNECTION (source), NULL, result, &error);

  if (reply == NULL)
    {
      by_launcher (task);
      return;
    }
  g_task_return_int (task, WS_SHOWN_BY_PORTAL);
  g_object_unref (task);
}

/* The portal takes the file as a descriptor, so that a sandbox can name what it may see. */
static void
by_portal (GTask *task, GDBusConnection *bus)
{
  GFile *file = g_task_get_task_data (task);
  g_autofree char *path = g_file_get_path (file);
  int fd = path ? open (path, O_RDONLY | O_CLOEXEC) : -1;
  g_autoptr (GUnixFDList) fds = NULL;
  GVariantBuilder options;

  if (fd < 0)
    {
      by_launcher (task);
      return;
    }
  fds = g_unix_fd_list_new_from_array (&fd, 1);
  g_variant_builder_init (&options, G_VARIANT_TYPE_VARDICT);
  g_dbus_connection_call_with_unix_fd_list (
    bus, "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
    "org.freedesktop.portal.OpenURI", "OpenDirectory",
    g_variant_new ("(sha{sv})", "", 0, &options), G_VARIANT_TYPE ("(o)"),
    G_DBUS_CALL_FLAGS_NONE, 5000, fds, g_task_get_cancellable (task), portal_cb, task);
}

static void
file_manager_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  GTask *task = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result,
                                                              &error);

  if (reply == NULL)
    {
      by_portal (task, G_DBUS_CONNECTION (source));
      return;
    }
  g_task_return_int (task, WS_SHOWN_BY_FILE_MANAGER);
  g_object_unref (task);
}

static void
bus_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  GTask *task = data;
  g_autoptr (GDBusConnection) bus = g_bus_get_finish (result, NULL);
  GFile *file = g_task_get_task_data (task);
  g_autofree char *uri = g_file_get_uri (file);
  const char *uris[] = { uri, NULL };

  if (bus == NULL)
    {
      by_launcher (task);
      return;
    }
  g_dbus_connection_call (bus, "org.freedesktop.FileManager1", "/org/freedesktop/FileManager1",
                          "org.freedesktop.FileManager1", "ShowItems",
                          g_variant_new ("(^ass)", uris, ""), NULL, G_DBUS_CALL_FLAGS_NONE, 5000,
                          g_task_get_cancellable (task), file_manager_cb, task);
}

void
ws_saved_file_show_async (GtkWindow *parent, GFile *file, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer data)
{
  GTask *task = g_task_new (parent, cancellable, callback, data);

  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_bus_get (G_BUS_TYPE_SESSION, cancellable, bus_cb, task);
}

gboolean
ws_saved_file_show_finish (GAsyncResult *result, WsShownBy *shown_by, GError **error)
{
  GError *e = NULL;
  gssize how = g_task_propagate_int (G_TASK (result), &e);

  if (e != NULL)
    {
      g_propagate_error (error, e);
      return FALSE;
    }
  if (shown_by != NULL)
    *shown_by = (WsShownBy) how;
  return TRUE;
}

/* ws-kernel-actions.c: the window's own-kernel actions. They reach the window's objects
 * through its template (the document, the plan, the environment, the run controller), so the
 * window itself only installs them. Check and Memory Check run the runner as a live session,
 * as Run does: its compile errors and findings arrive as records, are listed in the findings
 * panel and marked in the Source view.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-kernel-actions.h"

#include <glib/gi18n.h>

#include "ws-environment.h"
#include "ws-kernel-document.h"
#include "ws-plan.h"
#include "ws-run-controller.h"
#include "ws-source-view.h"

static gpointer
child (gpointer window, const char *id)
{
  return gtk_widget_get_template_child (GTK_WIDGET (window), WS_TYPE_WINDOW, id);
}

static WsKernelDocument *
document_of (gpointer window)
{
  return child (window, "kernel_document");
}

static void
show_source (gpointer window)
{
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-view", "s", "source");
}

static void
update_actions (WsWindow *self)
{
  WsKernelDocument *document = document_of (self);
  WsPlan *plan = child (self, "plan");
  gboolean open = ws_kernel_document_is_open (document);
  gboolean idle = !ws_window_is_running (self);
  gboolean runner = ws_environment_get_runner (child (self, "environment")) != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.check-kernel", open && idle && runner);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.memcheck-kernel",
                                 open && idle && runner && ws_plan_get_valid (plan, WS_PLAN_RUN));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.close-kernel", open);
}

/* ---- before unsaved changes are lost ------------------------------------------------------ */

typedef void (*Then) (WsWindow *window, gpointer data);

typedef struct
{
  WsWindow *window;
  Then then;
  gpointer data;
  GDestroyNotify free;
} Pending;

static void
pending_free (Pending *p)
{
  if (p->free != NULL)
    p->free (p->data);
  g_object_unref (p->window);
  g_free (p);
}

static void
confirm_response_cb (AdwMessageDialog *dialog, const char *response, Pending *p)
{
  WsKernelDocument *document = document_of (p->window);
  g_autoptr (GError) error = NULL;

  g_signal_handlers_disconnect_by_data (dialog, p);
  if (g_str_equal (response, "save") && !ws_kernel_document_save (document, NULL, &error))
    ws_window_show_toast (p->window, error->message);
  else if (g_str_equal (response, "save") || g_str_equal (response, "discard"))
    p->then (p->window, p->data);
  pending_free (p);
}

/* Goes on at once when nothing would be lost; else asks Save, Discard or Cancel. */
static void
confirm_discard (WsWindow *self, Then then, gpointer data, GDestroyNotify free)
{
  WsKernelDocument *document = document_of (self);
  Pending *p;
  GtkWidget *dialog;
  g_autofree char *heading = NULL;

  if (!ws_kernel_document_get_modified (document))
    {
      then (self, data);
      if (free != NULL)
        free (data);
      return;
    }
  p = g_new0 (Pending, 1);
  p->window = g_object_ref (self);
  p->then = then;
  p->data = data;
  p->free = free;
  heading = g_strdup_printf (_("Save the changes to %s?"), ws_kernel_document_get_title (document));
  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading,
                                   _("The changes to this kernel are lost unless you save them."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"), "discard",
                                    _("_Discard"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "discard",
                                              ADW_RESPONSE_DESTRUCTIVE);
  /* A kernel never saved has nowhere to go yet: Save As is in the Source view. */
  if (ws_kernel_document_get_file (document) != NULL)
    {
      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "save", _("_Save"));
      adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "save",
                                                  ADW_RESPONSE_SUGGESTED);
      adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "save");
    }
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect (dialog, "response", G_CALLBACK (confirm_response_cb), p);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* ---- new, open, edit a copy, close -------------------------------------------------------- */

static void
new_kernel (WsWindow *self, gpointer name)
{
  g_autoptr (GError) error = NULL;

  if (!ws_kernel_document_new_from_template (document_of (self), name, &error))
    ws_window_show_toast (self, error->message);
  else
    show_source (self);
}

static void
new_kernel_action (GtkWidget *widget, const char *name, GVariant *param)
{
  confirm_discard (WS_WINDOW (widget), new_kernel, g_variant_dup_string (param, NULL), g_free);
}

static void
open_kernel (WsWindow *self, gpointer file)
{
  g_autoptr (GError) error = NULL;

  if (!ws_kernel_document_load (document_of (self), file, &error))
    ws_window_show_toast (self, error->message);
  else
    show_source (self);
}

gboolean
ws_kernel_actions_open_file (WsWindow *window, GFile *file)
{
  g_autofree char *name = g_file_get_basename (file);

  if (name == NULL || !g_str_has_suffix (name, ".cu"))
    return FALSE;
  confirm_discard (window, open_kernel, g_object_ref (file), g_object_unref);
  return TRUE;
}

static void
open_response_cb (GtkNativeDialog *chooser, int response, WsWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    confirm_discard (self, open_kernel, gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser)),
                     g_object_unref);
  g_object_set_data (G_OBJECT (self), "ws-kernel-chooser", NULL);
}

static void
open_kernel_action (GtkWidget *widget, const char *name, GVariant *param)
{
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();
  GtkFileChooserNative *chooser;

  gtk_file_filter_set_name (filter, _("CUDA kernels (*.cu)"));
  gtk_file_filter_add_pattern (filter, "*.cu");
  chooser = gtk_file_chooser_native_new (_("Open Kernel"), GTK_WINDOW (widget),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  /* Held by the window while it is shown. */
  g_object_set_data_full (G_OBJECT (widget), "ws-kernel-chooser", chooser, g_object_unref);
  g_signal_connect (chooser, "response", G_CALLBACK (open_response_cb), widget);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

typedef struct
{
  char *text, *name;
} Recorded;

static void
recorded_free (Recorded *r)
{
  g_free (r->text);
  g_free (r->name);
  g_free (r);
}

static void
edit_recorded (WsWindow *self, gpointer data)
{
  Recorded *r = data;

  ws_kernel_document_load_text (document_of (self), r->text, r->name);
  show_source (self);
}

static void
edit_recorded_action (GtkWidget *widget, const char *name, GVariant *param)
{
  Recorded *r = g_new0 (Recorded, 1);

  g_variant_get (param, "(ss)", &r->text, &r->name);
  confirm_discard (WS_WINDOW (widget), edit_recorded, r, (GDestroyNotify) recorded_free);
}

static void
close_kernel (WsWindow *self, gpointer data)
{
  ws_kernel_document_close (document_of (self));
}

static void
close_kernel_action (GtkWidget *widget, const char *name, GVariant *param)
{
  confirm_discard (WS_WINDOW (widget), close_kernel, NULL, NULL);
}

/* ---- check and memory check --------------------------------------------------------------- */

static void
check_action (GtkWidget *widget, const char *name, GVariant *param)
{
  WsWindow *self = WS_WINDOW (widget);
  const char *runner = ws_environment_get_runner (child (self, "environment"));
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) argv = NULL;

  if (runner == NULL)
    {
      ws_window_show_toast (self, _("No GPU runner in this build: recordings and the calculator "
                                    "work"));
      return;
    }
  /* The runner reads the file: the copy of what is typed, as it is now. */
  ws_kernel_document_reread (document_of (self));
  argv = ws_plan_build_check_argv (child (self, "plan"), runner,
                                   g_str_equal (name, "win.memcheck-kernel") ? "memcheck" : NULL,
                                   &error);
  if (argv == NULL || !ws_window_start_live (self, (const char *const *) argv, &error))
    {
      ws_window_show_toast (self, error->message);
      return;
    }
  /* Which one runs, until it ends: 1 Check, 2 Memory Check. */
  g_object_set_data (G_OBJECT (self), "ws-kernel-check",
                     GINT_TO_POINTER (g_str_equal (name, "win.memcheck-kernel") ? 2 : 1));
  show_source (self);
}

static gboolean
has_error (WsSession *session)
{
  GPtrArray *errors = ws_session_get_errors (session);

  for (guint i = 0; i < errors->len; i++)
    if (((WsRunnerError *) g_ptr_array_index (errors, i))->severity == WS_ERROR_SEVERITY_ERROR)
      return TRUE;
  return FALSE;
}

/* A check that ended with nothing wrong says so over the code, as warpscope-cli check does;
 * one that found something has it marked on its lines and listed in the findings panel. */
static void
check_ended_cb (WsWindow *self)
{
  int check = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (self), "ws-kernel-check"));
  WsSession *session = ws_workspace_get_session (ws_window_get_workspace (self));
  g_autofree char *text = NULL;
  int exit_code = -1;

  if (check == 0 || ws_window_is_running (self))
    return;
  g_object_set_data (G_OBJECT (self), "ws-kernel-check", NULL);
  if (session == NULL || !ws_session_is_done (session, &exit_code, NULL) || exit_code != 0
      || has_error (session) || ws_session_get_memcheck_findings (session)->len > 0)
    return;
  text = ws_session_dup_clean_check_text (session,
                                          ws_kernel_document_get_title (document_of (self)),
                                          check == 2);
  ws_source_view_show_note (child (self, "source"), text);
}

/* ---- boilerplate -------------------------------------------------------------------------- */

static void
closed_after_asking (WsWindow *self, gpointer data)
{
  ws_kernel_document_close (document_of (self));
  gtk_window_close (GTK_WINDOW (self));
}

gboolean
ws_kernel_actions_close_request (WsWindow *window)
{
  if (!ws_kernel_document_get_modified (document_of (window)))
    return FALSE;
  confirm_discard (window, closed_after_asking, NULL, NULL);
  return TRUE;
}

void
ws_kernel_actions_init (WsWindow *window)
{
  g_signal_connect_swapped (document_of (window), "notify::open", G_CALLBACK (update_actions),
                            window);
  g_signal_connect_swapped (child (window, "controller"), "notify::running",
                            G_CALLBACK (update_actions), window);
  g_signal_connect_swapped (child (window, "controller"), "notify::running",
                            G_CALLBACK (check_ended_cb), window);
  g_signal_connect_swapped (child (window, "environment"), "notify::runner",
                            G_CALLBACK (update_actions), window);
  g_signal_connect_swapped (child (window, "plan"), "notify::run-valid",
                            G_CALLBACK (update_actions), window);
  /* Before a run the plan asks for what was typed a moment ago: the copy the runner reads is
   * written now, not after the pause. */
  g_signal_connect_object (child (window, "plan"), "prepare",
                           G_CALLBACK (ws_kernel_document_reread), document_of (window),
                           G_CONNECT_SWAPPED);
  update_actions (window);
}

void
ws_kernel_actions_install (GtkWidgetClass *widget_class)
{
  static const struct
  {
    const char *name, *type;
    GtkWidgetActionActivateFunc activate;
  } actions[] = {
    { "win.new-kernel", "s", new_kernel_action },
    { "win.open-kernel", NULL, open_kernel_action },
    { "win.edit-recorded-kernel", "(ss)", edit_recorded_action },
    { "win.close-kernel", NULL, close_kernel_action },
    { "win.check-kernel", NULL, check_action },
    { "win.memcheck-kernel", NULL, check_action },
  };

  g_type_ensure (WS_TYPE_KERNEL_DOCUMENT);
  gtk_widget_class_bind_template_child_full (widget_class, "kernel_document", FALSE, 0);
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    gtk_widget_class_install_action (widget_class, actions[i].name, actions[i].type,
                                     actions[i].activate);
}

/* ws-source-view.c: a GtkSourceView of the kernel's CUDA code. A built-in kernel's family file
 * and a recording's own kernel are read-only; the own kernel being written (the document) is
 * edited here, with a bar to save it, check it and check its memory, and its problems marked
 * in the gutter (ws-kernel-marks.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-source-view.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-kernel-marks.h"
#include "ws-trace-command.h"

typedef enum
{
  SHOW_NOTHING,
  SHOW_BUILTIN,  /* a built-in kernel's family file */
  SHOW_RECORDED, /* the own kernel a session recorded */
  SHOW_DOCUMENT, /* the own kernel being written */
  SHOW_PROGRAM,  /* a traced program's own file, or why there is none */
} Showing;

struct _WsSourceView
{
  WsView parent_instance;
  GtkWidget *box;
  GtkWidget *bar;
  GtkLabel *bar_title;
  GtkLabel *bar_status;
  gboolean status_is_note; /* bar_status holds a note, not an error */
  GtkWidget *document_buttons, *edit_copy_button;
  GtkWidget *scroller;
  GtkSourceView *view;
  GtkSourceBuffer *buffer; /* read-only: a built-in's or a recording's source */
  char *family;            /* what `buffer` holds: a family, or NULL */
  char *recorded;          /* …or a recording's text */
  GtkSourceBuffer *program_buffer; /* a traced program's file, read-only */
  char *program_path;              /* its path; NULL: none here */
  GtkCssProvider *font;
  gboolean presentation;
  WsKernelDocument *document;
  gboolean prefer_document; /* opened since the last recording was */
  gboolean scroll_to_mark;  /* a recording came: show its first marked line */
  Showing showing;
  char *pending_family, *pending_kernel; /* asked for before the view existed */
  GtkFileChooserNative *chooser;
};

G_DEFINE_FINAL_TYPE (WsSourceView, ws_source_view, WS_TYPE_VIEW)

enum
{
  PROP_0,
  PROP_DOCUMENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void ensure_view (WsSourceView *self);

static void
update_scheme (WsSourceView *self)
{
  GtkSourceStyleSchemeManager *schemes;
  GtkSourceStyleScheme *scheme;
  gboolean dark;

  if (self->buffer == NULL)
    return;
  schemes = gtk_source_style_scheme_manager_get_default ();
  dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  scheme = gtk_source_style_scheme_manager_get_scheme (schemes, dark ? "Adwaita-dark" : "Adwaita");
  if (scheme == NULL)
    return;
  gtk_source_buffer_set_style_scheme (self->buffer, scheme);
  if (self->program_buffer != NULL)
    gtk_source_buffer_set_style_scheme (self->program_buffer, scheme);
  if (self->document != NULL && ws_kernel_document_is_open (self->document))
    gtk_source_buffer_set_style_scheme (ws_kernel_document_get_buffer (self->document), scheme);
}

/* ---- the bar over an own kernel ----------------------------------------------------------- */

static void
update_bar (WsSourceView *self)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));
  WsSession *session = workspace ? ws_workspace_get_session (workspace) : NULL;
  gboolean document = self->showing == SHOW_DOCUMENT;

  if (self->bar == NULL)
    return;
  gtk_widget_set_visible (self->bar, document || self->showing == SHOW_RECORDED
                                       || self->showing == SHOW_PROGRAM);
  gtk_widget_set_visible (self->document_buttons, document);
  gtk_widget_set_visible (self->edit_copy_button, self->showing == SHOW_RECORDED);
  if (document)
    {
      g_autofree char *title
        = g_strdup_printf ("%s%s", ws_kernel_document_get_title (self->document),
                           ws_kernel_document_get_modified (self->document) ? " •" : "");

      gtk_label_set_text (self->bar_title, title);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->bar_title),
                                   ws_kernel_document_get_modified (self->document)
                                     ? _("Changed since it was saved")
                                     : NULL);
    }
  else if (self->showing == SHOW_PROGRAM)
    {
      g_autofree char *name = self->program_path ? g_path_get_basename (self->program_path) : NULL;
      g_autofree char *title
        = name ? g_strdup_printf (_("%s, the traced program's file as it is on this computer "
                                    "(read-only)"),
                                  name)
               : g_strdup (_("No source to show"));

      gtk_label_set_text (self->bar_title, title);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->bar_title), self->program_path);
    }
  else if (self->showing == SHOW_RECORDED)
    {
      const char *path = NULL;
      g_autofree char *name = NULL;
      g_autofree char *title = NULL;

      ws_session_get_source_text (session, &path, NULL);
      name = path ? g_path_get_basename (path) : g_strdup ("?");
      title = g_strdup_printf (_("%s, as the session recorded it (read-only)"), name);
      gtk_label_set_text (self->bar_title, title);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->bar_title), path);
    }
}

/* Under the file's name: a failed save (in red), or what a check found nothing wrong with,
 * which the next edit makes stale. */
static void
set_status (WsSourceView *self, const char *text, gboolean error)
{
  self->status_is_note = text != NULL && !error;
  if (self->bar_status == NULL)
    return;
  gtk_label_set_text (self->bar_status, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->bar_status), text != NULL);
  if (error)
    gtk_widget_add_css_class (GTK_WIDGET (self->bar_status), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->bar_status), "error");
}

void
ws_source_view_show_note (WsSourceView *self, const char *text)
{
  g_return_if_fail (WS_IS_SOURCE_VIEW (self));
  ensure_view (self);
  set_status (self, text, FALSE);
}

const char *
ws_source_view_get_note (WsSourceView *self)
{
  g_return_val_if_fail (WS_IS_SOURCE_VIEW (self), NULL);
  if (self->bar_status == NULL || !self->status_is_note)
    return NULL;
  return gtk_label_get_text (self->bar_status);
}

/* ---- what is shown ------------------------------------------------------------------------ */

/* A session about an own kernel: the document's own run, check or memory check (live), or one
 * that recorded a kernel file. */
static gboolean
own_session (WsSession *session)
{
  return session != NULL
         && (ws_session_get_source (session) == WS_SESSION_SOURCE_LIVE
             || ws_session_get_source_text (session, NULL, NULL) != NULL);
}

static void
update_marks (WsSourceView *self)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));
  WsSession *session = workspace ? ws_workspace_get_session (workspace) : NULL;

  if (self->view == NULL)
    return;
  if (self->showing == SHOW_DOCUMENT)
    ws_kernel_marks_update (ws_kernel_document_get_buffer (self->document),
                            ws_kernel_document_get_source (self->document),
                            own_session (session) ? session : NULL);
  else
    ws_kernel_marks_update (self->buffer, NULL, self->showing == SHOW_RECORDED ? session : NULL);
}

static void
use_buffer (WsSourceView *self, GtkSourceBuffer *buffer, gboolean editable)
{
  if (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view)) != GTK_TEXT_BUFFER (buffer))
    gtk_text_view_set_buffer (GTK_TEXT_VIEW (self->view), GTK_TEXT_BUFFER (buffer));
  gtk_text_view_set_editable (GTK_TEXT_VIEW (self->view), editable);
  gtk_text_view_set_cursor_visible (GTK_TEXT_VIEW (self->view), editable);
  gtk_source_view_set_highlight_current_line (self->view, editable);
}

void
ws_source_view_show_kernel (WsSourceView *self, const char *family, const char *kernel)
{
  g_autofree char *path = NULL;
  g_autoptr (GBytes) bytes = NULL;
  GtkTextIter start, match_start, match_end;
  g_autofree char *needle = NULL;

  g_return_if_fail (WS_IS_SOURCE_VIEW (self));
  if (family == NULL)
    return;
  if (self->view == NULL)
    {
      g_free (self->pending_family);
      g_free (self->pending_kernel);
      self->pending_family = g_strdup (family);
      self->pending_kernel = g_strdup (kernel);
      return;
    }
  self->showing = SHOW_BUILTIN;
  use_buffer (self, self->buffer, FALSE);
  if (g_strcmp0 (family, self->family) != 0)
    {
      path = g_strdup_printf ("/org/warpscope/Warpscope/kernels/%s.cu", family);
      bytes = g_resources_lookup_data (path, 0, NULL);
      gtk_text_buffer_set_text (GTK_TEXT_BUFFER (self->buffer),
                                bytes ? g_bytes_get_data (bytes, NULL)
                                      : _("// The source of this kernel is not part of this "
                                          "build of Warpscope."),
                                bytes ? (int) g_bytes_get_size (bytes) : -1);
      g_free (self->family);
      self->family = g_strdup (family);
      g_clear_pointer (&self->recorded, g_free);
    }
  update_bar (self);
  update_marks (self);
  if (kernel == NULL)
    return;
  gtk_text_buffer_get_start_iter (GTK_TEXT_BUFFER (self->buffer), &start);
  needle = g_strdup_printf ("%s (", kernel);
  if (gtk_text_iter_forward_search (&start, needle, GTK_TEXT_SEARCH_TEXT_ONLY, &match_start,
                                    &match_end, NULL))
    {
      gtk_text_buffer_select_range (GTK_TEXT_BUFFER (self->buffer), &match_start, &match_end);
      gtk_text_view_scroll_to_iter (GTK_TEXT_VIEW (self->view), &match_start, 0.1, TRUE, 0, 0.1);
    }
}

static void
show_recorded (WsSourceView *self, const char *text)
{
  self->showing = SHOW_RECORDED;
  use_buffer (self, self->buffer, FALSE);
  if (g_strcmp0 (text, self->recorded) != 0)
    {
      gtk_text_buffer_set_text (GTK_TEXT_BUFFER (self->buffer), text, -1);
      g_free (self->recorded);
      self->recorded = g_strdup (text);
      g_clear_pointer (&self->family, g_free);
    }
  update_bar (self);
  update_marks (self);
  if (self->scroll_to_mark)
    {
      self->scroll_to_mark = FALSE;
      ws_kernel_marks_scroll_to_first (self->view);
    }
}

static void
show_document (WsSourceView *self)
{
  self->showing = SHOW_DOCUMENT;
  use_buffer (self, ws_kernel_document_get_buffer (self->document), TRUE);
  update_scheme (self);
  update_bar (self);
  update_marks (self);
}

/* A traced program has no kernel of Warpscope's to show: its own file when it is on this
 * computer (as it is now, which the title says), else why the view is empty. */
static void
show_program (WsSourceView *self, WsTrace *trace)
{
  g_autofree char *why = NULL, *text = NULL;
  gsize length = 0;

  self->showing = SHOW_PROGRAM;
  g_free (self->program_path);
  self->program_path = ws_trace_find_program_file (trace, &why);
  if (self->program_buffer == NULL)
    self->program_buffer = gtk_source_buffer_new (NULL);
  if (self->program_path != NULL
      && (!g_file_get_contents (self->program_path, &text, &length, NULL) || length > 1 << 20
          || !g_utf8_validate (text, (gssize) length, NULL)))
    {
      why = g_strdup_printf (_("The traced program's file %s could not be shown: it is not a "
                               "text file of under 1 MB."),
                             self->program_path);
      g_clear_pointer (&self->program_path, g_free);
    }
  update_scheme (self);
  gtk_source_buffer_set_language (
    self->program_buffer,
    self->program_path
      ? gtk_source_language_manager_guess_language (gtk_source_language_manager_get_default (),
                                                    self->program_path, NULL)
      : NULL);
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (self->program_buffer), text ? text : "", -1);
  use_buffer (self, self->program_buffer, FALSE);
  update_bar (self);
  set_status (self, why, FALSE);
}

/* The selected run's kernel (else the session's first): a built-in's file; an own kernel's
 * text as the session recorded it, or the document when it is the one being written. */
static void
refresh (WsSourceView *self)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));
  WsSession *session = workspace ? ws_workspace_get_session (workspace) : NULL;
  WsRun *run = workspace ? ws_workspace_get_selected_run (workspace) : NULL;
  gboolean document = self->document != NULL && ws_kernel_document_is_open (self->document);
  const char *recorded = session ? ws_session_get_source_text (session, NULL, NULL) : NULL;
  gboolean own;

  if (self->view == NULL)
    return; /* ensure_view() comes back here */
  if (!document && ws_workspace_has_trace (workspace))
    {
      show_program (self, ws_session_get_trace (session));
      return;
    }
  if (run == NULL && session != NULL)
    run = ws_session_find_run (session, 1);
  own = run == NULL || g_strcmp0 (ws_run_get_config (run)->family, "own") == 0;
  if (document && own && (self->prefer_document || recorded == NULL))
    show_document (self);
  else if (recorded != NULL && own)
    show_recorded (self, recorded);
  else if (run != NULL)
    ws_source_view_show_kernel (self, ws_run_get_config (run)->family,
                                ws_run_get_config (run)->kernel);
  else if (document)
    show_document (self);
}

/* A recording opened is what is shown; a live session is the document's own run. */
static void
session_changed_cb (WsSourceView *self)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));
  WsSession *session = ws_workspace_get_session (workspace);

  if (session != NULL && ws_session_get_source (session) != WS_SESSION_SOURCE_LIVE)
    self->prefer_document = FALSE;
  self->scroll_to_mark = session != NULL
                         && ws_session_get_source (session) == WS_SESSION_SOURCE_RECORDING;
  set_status (self, NULL, FALSE);
  refresh (self);
}

static void
document_open_cb (WsSourceView *self)
{
  self->prefer_document = TRUE;
  set_status (self, NULL, FALSE);
  refresh (self);
}

static void
document_changed_cb (WsSourceView *self)
{
  if (self->status_is_note)
    set_status (self, NULL, FALSE);
  if (self->showing == SHOW_DOCUMENT)
    {
      update_bar (self);
      update_marks (self);
    }
}

static void
session_updated_cb (WsSourceView *self)
{
  if (self->showing == SHOW_DOCUMENT || self->showing == SHOW_RECORDED)
    update_marks (self);
}

/* ---- saving ------------------------------------------------------------------------------- */

static void
save_to (WsSourceView *self, GFile *file)
{
  g_autoptr (GError) error = NULL;

  if (!ws_kernel_document_save (self->document, file, &error))
    set_status (self, error->message, TRUE);
  else
    set_status (self, NULL, FALSE);
}

static void
save_response_cb (GtkNativeDialog *chooser, int response, WsSourceView *self)
{
  g_autoptr (GFile) file = NULL;

  if (response != GTK_RESPONSE_ACCEPT)
    return;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  save_to (self, file);
}

static void
save_as (WsSourceView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();

  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (_("Save Kernel"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                               GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"),
                                               _("_Cancel"));
  gtk_file_filter_set_name (filter, _("CUDA kernels (*.cu)"));
  gtk_file_filter_add_pattern (filter, "*.cu");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser),
                                     ws_kernel_document_get_title (self->document));
  g_signal_connect (self->chooser, "response", G_CALLBACK (save_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
save_action (GtkWidget *widget, const char *name, GVariant *param)
{
  WsSourceView *self = WS_SOURCE_VIEW (widget);

  if (self->showing != SHOW_DOCUMENT)
    return;
  if (g_str_equal (name, "source.save-as") || ws_kernel_document_get_file (self->document) == NULL)
    save_as (self);
  else
    save_to (self, NULL);
}

static void
edit_copy_action (GtkWidget *widget, const char *name, GVariant *param)
{
  WsSourceView *self = WS_SOURCE_VIEW (widget);
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));
  WsSession *session = workspace ? ws_workspace_get_session (workspace) : NULL;
  const char *path = NULL;
  const char *text = session ? ws_session_get_source_text (session, &path, NULL) : NULL;
  g_autofree char *base = path ? g_path_get_basename (path) : NULL;

  if (text == NULL || self->document == NULL)
    return;
  /* The window asks first when the kernel being written has unsaved changes. */
  gtk_widget_activate_action (widget, "win.edit-recorded-kernel", "(ss)", text, base ? base : "");
}

/* ---- boilerplate -------------------------------------------------------------------------- */

static void
set_presentation (WsSourceView *self, gboolean presentation)
{
  self->presentation = presentation;
  if (self->font == NULL)
    return;
  gtk_css_provider_load_from_data (self->font,
                                   presentation ? "textview { font-size: 160%; }"
                                                : "textview { font-size: 110%; }",
                                   -1);
}

static void
presentation_cb (WsSourceView *self)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));

  set_presentation (self, ws_workspace_get_presentation (workspace));
}

static void
ws_source_view_workspace_changed (WsView *view, WsWorkspace *workspace)
{
  WsSourceView *self = WS_SOURCE_VIEW (view);

  if (workspace != NULL)
    {
      g_signal_connect_swapped (workspace, "notify::session", G_CALLBACK (session_changed_cb), self);
      g_signal_connect_swapped (workspace, "notify::run", G_CALLBACK (refresh), self);
      g_signal_connect_swapped (workspace, "session-updated", G_CALLBACK (session_updated_cb),
                                self);
      g_signal_connect_swapped (workspace, "notify::presentation", G_CALLBACK (presentation_cb),
                                self);
      presentation_cb (self);
      session_changed_cb (self);
    }
}

void
ws_source_view_set_document (WsSourceView *self, WsKernelDocument *document)
{
  g_return_if_fail (WS_IS_SOURCE_VIEW (self));
  if (self->document == document)
    return;
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  if (document != NULL)
    {
      g_signal_connect_swapped (document, "notify::open", G_CALLBACK (document_open_cb), self);
      g_signal_connect_swapped (document, "notify::title", G_CALLBACK (document_open_cb), self);
      g_signal_connect_swapped (document, "notify::modified", G_CALLBACK (document_changed_cb),
                                self);
      g_signal_connect_swapped (document, "notify::source", G_CALLBACK (document_changed_cb),
                                self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

GtkSourceBuffer *
ws_source_view_get_buffer (WsSourceView *self)
{
  g_return_val_if_fail (WS_IS_SOURCE_VIEW (self), NULL);
  ensure_view (self);
  return GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view)));
}

gboolean
ws_source_view_is_editing (WsSourceView *self)
{
  g_return_val_if_fail (WS_IS_SOURCE_VIEW (self), FALSE);
  return self->showing == SHOW_DOCUMENT;
}

static void
ws_source_view_set_property (GObject *object, guint prop, const GValue *value, GParamSpec *pspec)
{
  switch (prop)
    {
    case PROP_DOCUMENT:
      ws_source_view_set_document (WS_SOURCE_VIEW (object), g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_source_view_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  switch (prop)
    {
    case PROP_DOCUMENT: g_value_set_object (value, WS_SOURCE_VIEW (object)->document); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void ws_source_view_map (GtkWidget *widget);

static void
ws_source_view_dispose (GObject *object)
{
  WsSourceView *self = WS_SOURCE_VIEW (object);

  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  ws_source_view_set_document (self, NULL);
  g_clear_object (&self->chooser);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->buffer);
  g_clear_object (&self->program_buffer);
  g_clear_pointer (&self->program_path, g_free);
  g_clear_pointer (&self->family, g_free);
  g_clear_pointer (&self->recorded, g_free);
  g_clear_pointer (&self->pending_family, g_free);
  g_clear_pointer (&self->pending_kernel, g_free);
  g_clear_object (&self->font);
  G_OBJECT_CLASS (ws_source_view_parent_class)->dispose (object);
}

static void
ws_source_view_class_init (WsSourceViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = ws_source_view_dispose;
  object_class->set_property = ws_source_view_set_property;
  object_class->get_property = ws_source_view_get_property;
  properties[PROP_DOCUMENT] = g_param_spec_object ("document", NULL, NULL,
                                                   WS_TYPE_KERNEL_DOCUMENT, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  widget_class->map = ws_source_view_map;
  WS_VIEW_CLASS (klass)->workspace_changed = ws_source_view_workspace_changed;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_install_action (widget_class, "source.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "source.save-as", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "source.edit-copy", NULL, edit_copy_action);
  /* In the editor, Ctrl+S saves the kernel; elsewhere it saves the session. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "source.save",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_S, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "source.save-as", NULL);
}

static GtkWidget *
bar_button (const char *label, const char *icon, const char *action, const char *tooltip)
{
  GtkWidget *b = icon ? gtk_button_new_from_icon_name (icon) : gtk_button_new_with_mnemonic (label);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (b), action);
  gtk_widget_set_tooltip_text (b, tooltip);
  if (icon != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (b), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  gtk_widget_add_css_class (b, "flat");
  return b;
}

/* The file's name on a line of its own, the buttons below it: the pane between the sidebar
 * and the findings is narrow on a small screen (about 300 pixels at 1024). */
static GtkWidget *
build_bar (WsSourceView *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
  GtkWidget *saving = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  gtk_widget_add_css_class (bar, "toolbar");
  gtk_widget_set_margin_top (bar, 4);
  self->bar_title = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->bar_title, 0);
  gtk_label_set_ellipsize (self->bar_title, PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (GTK_WIDGET (self->bar_title), "heading");
  gtk_widget_set_margin_start (GTK_WIDGET (self->bar_title), 6);
  self->bar_status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->bar_status, 0);
  gtk_label_set_wrap (self->bar_status, TRUE);
  gtk_widget_set_margin_start (GTK_WIDGET (self->bar_status), 6);
  gtk_widget_set_visible (GTK_WIDGET (self->bar_status), FALSE);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->bar_title));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->bar_status));

  self->document_buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
  gtk_widget_set_hexpand (self->document_buttons, TRUE);
  gtk_box_append (GTK_BOX (self->document_buttons),
                  bar_button (_("_Check"), NULL, "win.check-kernel",
                              _("Read the header and compile every variant with NVRTC, without "
                                "running")));
  gtk_box_append (GTK_BOX (self->document_buttons),
                  bar_button (_("_Memory Check"), NULL, "win.memcheck-kernel",
                              _("Run one configuration under compute-sanitizer: out-of-bounds "
                                "and misaligned accesses")));
  gtk_widget_set_hexpand (saving, TRUE);
  gtk_widget_set_halign (saving, GTK_ALIGN_END);
  gtk_box_append (GTK_BOX (saving), bar_button (_("Save"), "document-save-symbolic", "source.save",
                                                _("Save the kernel (Ctrl+S)")));
  gtk_box_append (GTK_BOX (saving),
                  bar_button (_("Save As"), "document-save-as-symbolic", "source.save-as",
                              _("Save the kernel under another name (Ctrl+Shift+S)")));
  gtk_box_append (GTK_BOX (self->document_buttons), saving);
  gtk_box_append (GTK_BOX (buttons), self->document_buttons);
  self->edit_copy_button = bar_button (_("_Edit a Copy"), NULL, "source.edit-copy",
                                       _("Open this source as your own kernel, to change and "
                                         "run it"));
  gtk_box_append (GTK_BOX (buttons), self->edit_copy_button);
  gtk_box_append (GTK_BOX (bar), buttons);
  gtk_widget_set_visible (bar, FALSE);
  return bar;
}

/* The language and style managers read every definition on first use: done when the view
 * is first needed, not at start-up. */
static void
ensure_view (WsSourceView *self)
{
  if (self->view != NULL)
    return;
  self->buffer = ws_kernel_buffer_new ();
  self->view = GTK_SOURCE_VIEW (gtk_source_view_new_with_buffer (self->buffer));
  gtk_text_view_set_editable (GTK_TEXT_VIEW (self->view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (self->view), TRUE);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (self->view), 8);
  /* A line longer than the view wraps under itself (its number says it is one line) instead
   * of running off the right edge behind a scrollbar that only shows on hover. */
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (self->view), GTK_WRAP_WORD_CHAR);
  gtk_source_view_set_show_line_numbers (self->view, TRUE);
  gtk_source_view_set_highlight_current_line (self->view, FALSE);
  gtk_source_view_set_tab_width (self->view, 4);
  gtk_source_view_set_auto_indent (self->view, TRUE);
  ws_kernel_marks_setup (self->view);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Kernel source"), -1);
  self->font = gtk_css_provider_new ();
  gtk_style_context_add_provider (gtk_widget_get_style_context (GTK_WIDGET (self->view)),
                                  GTK_STYLE_PROVIDER (self->font),
                                  GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  set_presentation (self, self->presentation);
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  self->bar = build_bar (self);
  gtk_box_append (GTK_BOX (self->box), self->bar);
  self->scroller = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (self->scroller, TRUE);
  /* The scrollbar stays shown: a file is longer than the view, and says so. */
  gtk_scrolled_window_set_overlay_scrolling (GTK_SCROLLED_WINDOW (self->scroller), FALSE);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), GTK_WIDGET (self->view));
  gtk_box_append (GTK_BOX (self->box), self->scroller);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  update_scheme (self);
  g_signal_connect_swapped (adw_style_manager_get_default (), "notify::dark",
                            G_CALLBACK (update_scheme), self);
  if (self->pending_family != NULL)
    {
      g_autofree char *family = g_steal_pointer (&self->pending_family);
      g_autofree char *kernel = g_steal_pointer (&self->pending_kernel);

      ws_source_view_show_kernel (self, family, kernel);
    }
  if (ws_view_get_workspace (WS_VIEW (self)) != NULL)
    refresh (self);
}

static void
ws_source_view_map (GtkWidget *widget)
{
  ensure_view (WS_SOURCE_VIEW (widget));
  GTK_WIDGET_CLASS (ws_source_view_parent_class)->map (widget);
}

static void
ws_source_view_init (WsSourceView *self)
{
}

GtkWidget *
ws_source_view_new (void)
{
  return g_object_new (WS_TYPE_SOURCE_VIEW, NULL);
}

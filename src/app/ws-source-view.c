/* ws-source-view.c: a read-only GtkSourceView of a kernel family's .cu file.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-source-view.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

struct _WsSourceView
{
  GtkWidget parent_instance;
  GtkWidget *scroller;
  GtkSourceView *view;
  GtkSourceBuffer *buffer;
  char *family;
  GtkCssProvider *font;
  gboolean presentation;
  char *pending_family, *pending_kernel; /* asked for before the view existed */
  WsWorkspace *workspace;
};

G_DEFINE_FINAL_TYPE (WsSourceView, ws_source_view, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_WORKSPACE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
update_scheme (WsSourceView *self)
{
  if (self->buffer == NULL)
    return;
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  GtkSourceStyleScheme *scheme
    = gtk_source_style_scheme_manager_get_scheme (schemes, dark ? "Adwaita-dark" : "Adwaita");

  if (scheme != NULL)
    gtk_source_buffer_set_style_scheme (self->buffer, scheme);
}

void
ws_source_view_show_kernel (WsSourceView *self, const char *family, const char *kernel)
{
  g_autofree char *path = NULL;
  g_autoptr (GBytes) bytes = NULL;
  GtkTextIter start, match_start, match_end;

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
    }
  if (kernel == NULL)
    return;
  gtk_text_buffer_get_start_iter (GTK_TEXT_BUFFER (self->buffer), &start);
  {
    g_autofree char *needle = g_strdup_printf ("%s (", kernel);

    if (gtk_text_iter_forward_search (&start, needle, GTK_TEXT_SEARCH_TEXT_ONLY, &match_start,
                                      &match_end, NULL))
      {
        gtk_text_buffer_select_range (GTK_TEXT_BUFFER (self->buffer), &match_start, &match_end);
        gtk_text_view_scroll_to_iter (GTK_TEXT_VIEW (self->view), &match_start, 0.1, TRUE, 0, 0.1);
      }
  }
}

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
show_run (WsSourceView *self, WsRun *run)
{
  if (run != NULL)
    ws_source_view_show_kernel (self, ws_run_get_config (run)->family,
                                ws_run_get_config (run)->kernel);
}

/* A session opens on its first run's kernel; a selected run shows its own. */
static void
session_changed_cb (WsSourceView *self)
{
  WsSession *session = ws_workspace_get_session (self->workspace);

  show_run (self, session ? ws_session_find_run (session, 1) : NULL);
}

static void
run_changed_cb (WsSourceView *self)
{
  show_run (self, ws_workspace_get_selected_run (self->workspace));
}

static void
presentation_cb (WsSourceView *self)
{
  set_presentation (self, ws_workspace_get_presentation (self->workspace));
}

void
ws_source_view_set_workspace (WsSourceView *self, WsWorkspace *workspace)
{
  g_return_if_fail (WS_IS_SOURCE_VIEW (self));
  if (self->workspace == workspace)
    return;
  if (self->workspace != NULL)
    g_signal_handlers_disconnect_by_data (self->workspace, self);
  g_set_object (&self->workspace, workspace);
  if (workspace != NULL)
    {
      g_signal_connect_swapped (workspace, "notify::session", G_CALLBACK (session_changed_cb), self);
      g_signal_connect_swapped (workspace, "notify::run", G_CALLBACK (run_changed_cb), self);
      g_signal_connect_swapped (workspace, "notify::presentation", G_CALLBACK (presentation_cb),
                                self);
      presentation_cb (self);
      session_changed_cb (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WORKSPACE]);
}

static void
ws_source_view_set_property (GObject *object, guint prop, const GValue *value, GParamSpec *pspec)
{
  switch (prop)
    {
    case PROP_WORKSPACE:
      ws_source_view_set_workspace (WS_SOURCE_VIEW (object), g_value_get_object (value));
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
    case PROP_WORKSPACE:
      g_value_set_object (value, WS_SOURCE_VIEW (object)->workspace);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void ws_source_view_map (GtkWidget *widget);

static void
ws_source_view_dispose (GObject *object)
{
  WsSourceView *self = WS_SOURCE_VIEW (object);

  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  if (self->workspace != NULL)
    g_signal_handlers_disconnect_by_data (self->workspace, self);
  g_clear_object (&self->workspace);
  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  g_clear_pointer (&self->family, g_free);
  g_clear_pointer (&self->pending_family, g_free);
  g_clear_pointer (&self->pending_kernel, g_free);
  g_clear_object (&self->font);
  G_OBJECT_CLASS (ws_source_view_parent_class)->dispose (object);
}

static void
ws_source_view_class_init (WsSourceViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ws_source_view_dispose;
  object_class->set_property = ws_source_view_set_property;
  object_class->get_property = ws_source_view_get_property;
  properties[PROP_WORKSPACE] = g_param_spec_object ("workspace", NULL, NULL, WS_TYPE_WORKSPACE,
                                                    G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                      | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  GTK_WIDGET_CLASS (klass)->map = ws_source_view_map;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

/* The language and style managers read every definition on first use: done when the view
 * is first needed, not at start-up. */
static void
ensure_view (WsSourceView *self)
{
  GtkSourceLanguage *cuda;

  if (self->view != NULL)
    return;
  cuda = gtk_source_language_manager_get_language (gtk_source_language_manager_get_default (),
                                                   "cuda");

  self->buffer = gtk_source_buffer_new_with_language (cuda);
  self->view = GTK_SOURCE_VIEW (gtk_source_view_new_with_buffer (self->buffer));
  g_object_unref (self->buffer);
  gtk_text_view_set_editable (GTK_TEXT_VIEW (self->view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (self->view), TRUE);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (self->view), 8);
  /* A line longer than the view wraps under itself (its number says it is one line) instead
   * of running off the right edge behind a scrollbar that only shows on hover. */
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (self->view), GTK_WRAP_WORD_CHAR);
  gtk_source_view_set_show_line_numbers (self->view, TRUE);
  gtk_source_view_set_highlight_current_line (self->view, FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Kernel source"), -1);
  self->font = gtk_css_provider_new ();
  gtk_style_context_add_provider (gtk_widget_get_style_context (GTK_WIDGET (self->view)),
                                  GTK_STYLE_PROVIDER (self->font),
                                  GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  set_presentation (self, self->presentation);
  self->scroller = gtk_scrolled_window_new ();
  /* The scrollbar stays shown: a file is longer than the view, and says so. */
  gtk_scrolled_window_set_overlay_scrolling (GTK_SCROLLED_WINDOW (self->scroller), FALSE);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), GTK_WIDGET (self->view));
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
  update_scheme (self);
  g_signal_connect_swapped (adw_style_manager_get_default (), "notify::dark",
                            G_CALLBACK (update_scheme), self);
  if (self->pending_family != NULL)
    {
      g_autofree char *family = g_steal_pointer (&self->pending_family);
      g_autofree char *kernel = g_steal_pointer (&self->pending_kernel);

      ws_source_view_show_kernel (self, family, kernel);
    }
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

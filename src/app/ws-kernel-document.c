/* ws-kernel-document.c: the own kernel being written. The runner reads a file, not a buffer:
 * a kernel saved and unchanged is run from its own file; one with unsaved changes, or never
 * saved, from a copy in the cache (warpscope/kernels/), so that running never writes over a
 * person's file behind their back.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-kernel-document.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>

struct _WsKernelDocument
{
  GObject parent_instance;

  GtkSourceBuffer *buffer;
  GFile *file;
  char *title;
  gboolean open;
  WsKernelSource *source;
  guint reread_id;
  gboolean loading; /* setting the text: not an edit */
};

G_DEFINE_FINAL_TYPE (WsKernelDocument, ws_kernel_document, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_OPEN,
  PROP_FILE,
  PROP_TITLE,
  PROP_MODIFIED,
  PROP_SOURCE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

const char *const ws_kernel_templates[] = { "vector_add", "matmul_tiled", NULL };

const char *
ws_kernel_template_title (const char *name)
{
  if (g_strcmp0 (name, "vector_add") == 0)
    return _("Vector Add");
  if (g_strcmp0 (name, "matmul_tiled") == 0)
    return _("Tiled Matrix Multiply");
  return name;
}

/* ---- the copy the runner reads ------------------------------------------------------------ */

static char *
runner_path (WsKernelDocument *self, GError **error)
{
  g_autofree char *dir = NULL;
  char *path;
  g_autofree char *text = NULL;
  GtkTextIter start, end;

  if (self->file != NULL && !ws_kernel_document_get_modified (self)
      && (path = g_file_get_path (self->file)) != NULL)
    return path;
  dir = g_build_filename (g_get_user_cache_dir (), "warpscope", "kernels", NULL);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), _("Cannot create %s: %s"),
                   dir, g_strerror (errno));
      return NULL;
    }
  path = g_build_filename (dir, self->title, NULL);
  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (self->buffer), &start, &end);
  text = gtk_text_buffer_get_text (GTK_TEXT_BUFFER (self->buffer), &start, &end, FALSE);
  if (!g_file_set_contents (path, text, -1, error))
    g_clear_pointer (&path, g_free);
  return path;
}

void
ws_kernel_document_reread (WsKernelDocument *self)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  GtkTextIter start, end;

  g_return_if_fail (WS_IS_KERNEL_DOCUMENT (self));
  g_clear_handle_id (&self->reread_id, g_source_remove);
  if (!self->open)
    return;
  path = runner_path (self, &error);
  if (path == NULL)
    g_warning ("%s", error->message);
  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (self->buffer), &start, &end);
  text = gtk_text_buffer_get_text (GTK_TEXT_BUFFER (self->buffer), &start, &end, FALSE);
  g_clear_object (&self->source);
  self->source = ws_kernel_source_new (text, -1, path ? path : self->title);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SOURCE]);
}

static gboolean
reread_cb (gpointer data)
{
  WsKernelDocument *self = data;

  self->reread_id = 0;
  ws_kernel_document_reread (self);
  return G_SOURCE_REMOVE;
}

/* Typing reads the header again once it pauses. */
static void
changed_cb (WsKernelDocument *self)
{
  if (self->loading || !self->open)
    return;
  g_clear_handle_id (&self->reread_id, g_source_remove);
  self->reread_id = g_timeout_add (300, reread_cb, self);
}

static void
modified_changed_cb (WsKernelDocument *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
}

/* ---- opening and saving ------------------------------------------------------------------- */

static void changed_cb (WsKernelDocument *self);
static void modified_changed_cb (WsKernelDocument *self);

GtkSourceBuffer *
ws_kernel_buffer_new (void)
{
  static const char *const ids[] = { "cuda", "cpp", "c" };
  static gsize warned = 0;
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  GtkSourceBuffer *buffer = gtk_source_buffer_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      GtkSourceLanguage *language = gtk_source_language_manager_get_language (languages, ids[i]);

      if (language != NULL)
        {
          gtk_source_buffer_set_language (buffer, language);
          return buffer;
        }
    }
  /* A minimal system (GtkSourceView without its language files): the text is shown and
   * edited all the same, without colours. */
  if (g_once_init_enter (&warned))
    {
      g_warning ("GtkSourceView has no CUDA, C++ or C language definition here (looked in its "
                 "language path): kernel sources are shown as plain text");
      g_once_init_leave (&warned, 1);
    }
  return buffer;
}

/* The language manager reads every definition on first use: done when a kernel is first
 * opened, not when the window starts. */
static void
ensure_buffer (WsKernelDocument *self)
{
  if (self->buffer != NULL)
    return;
  self->buffer = ws_kernel_buffer_new ();
  gtk_source_buffer_set_highlight_matching_brackets (self->buffer, TRUE);
  g_signal_connect_swapped (self->buffer, "changed", G_CALLBACK (changed_cb), self);
  g_signal_connect_swapped (self->buffer, "modified-changed", G_CALLBACK (modified_changed_cb),
                            self);
}

static void
set_text (WsKernelDocument *self, const char *text, gssize length, GFile *file,
          const char *title)
{
  GtkTextIter start;

  ensure_buffer (self);
  g_object_freeze_notify (G_OBJECT (self));
  self->loading = TRUE;
  /* What was loaded is not an edit to undo. */
  gtk_text_buffer_begin_irreversible_action (GTK_TEXT_BUFFER (self->buffer));
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (self->buffer), text, (int) length);
  gtk_text_buffer_end_irreversible_action (GTK_TEXT_BUFFER (self->buffer));
  gtk_text_buffer_get_start_iter (GTK_TEXT_BUFFER (self->buffer), &start);
  gtk_text_buffer_place_cursor (GTK_TEXT_BUFFER (self->buffer), &start);
  gtk_text_buffer_set_modified (GTK_TEXT_BUFFER (self->buffer), FALSE);
  self->loading = FALSE;
  g_set_object (&self->file, file);
  g_free (self->title);
  self->title = g_strdup (title);
  if (!self->open)
    {
      self->open = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OPEN]);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
  ws_kernel_document_reread (self);
  g_object_thaw_notify (G_OBJECT (self));
}

gboolean
ws_kernel_document_new_from_template (WsKernelDocument *self, const char *name, GError **error)
{
  g_autofree char *path = NULL;
  g_autofree char *title = NULL;
  g_autoptr (GBytes) bytes = NULL;

  g_return_val_if_fail (WS_IS_KERNEL_DOCUMENT (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  path = g_strdup_printf ("/org/warpscope/Warpscope/examples/kernels/%s.cu", name);
  bytes = g_resources_lookup_data (path, 0, error);
  if (bytes == NULL)
    return FALSE;
  title = g_strdup_printf ("%s.cu", name);
  set_text (self, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), NULL, title);
  return TRUE;
}

gboolean
ws_kernel_document_load (WsKernelDocument *self, GFile *file, GError **error)
{
  g_autoptr (WsKernelSource) read = NULL;
  g_autofree char *title = NULL;

  g_return_val_if_fail (WS_IS_KERNEL_DOCUMENT (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  read = ws_kernel_source_new_from_file (file, error);
  if (read == NULL)
    return FALSE;
  title = g_file_get_basename (file);
  set_text (self, ws_kernel_source_get_text (read), -1, file, title);
  return TRUE;
}

void
ws_kernel_document_load_text (WsKernelDocument *self, const char *text, const char *name)
{
  g_return_if_fail (WS_IS_KERNEL_DOCUMENT (self));
  g_return_if_fail (text != NULL);
  set_text (self, text, -1, NULL, name != NULL && *name != '\0' ? name : "kernel.cu");
}

gboolean
ws_kernel_document_save (WsKernelDocument *self, GFile *file, GError **error)
{
  g_autofree char *text = NULL;
  g_autofree char *title = NULL;
  GtkTextIter start, end;

  g_return_val_if_fail (WS_IS_KERNEL_DOCUMENT (self), FALSE);
  g_return_val_if_fail (self->open, FALSE);
  file = file != NULL ? file : self->file;
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (self->buffer), &start, &end);
  text = gtk_text_buffer_get_text (GTK_TEXT_BUFFER (self->buffer), &start, &end, FALSE);
  /* Written beside it and renamed over: never half a file. */
  if (!g_file_replace_contents (file, text, strlen (text), NULL, FALSE, G_FILE_CREATE_NONE, NULL,
                                NULL, error))
    return FALSE;
  g_object_freeze_notify (G_OBJECT (self));
  if (file != self->file)
    {
      g_set_object (&self->file, file);
      title = g_file_get_basename (file);
      g_free (self->title);
      self->title = g_steal_pointer (&title);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
    }
  gtk_text_buffer_set_modified (GTK_TEXT_BUFFER (self->buffer), FALSE);
  /* The runner now reads the file itself. */
  ws_kernel_document_reread (self);
  g_object_thaw_notify (G_OBJECT (self));
  return TRUE;
}

void
ws_kernel_document_close (WsKernelDocument *self)
{
  g_return_if_fail (WS_IS_KERNEL_DOCUMENT (self));
  if (!self->open)
    return;
  g_clear_handle_id (&self->reread_id, g_source_remove);
  g_object_freeze_notify (G_OBJECT (self));
  self->loading = TRUE;
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (self->buffer), "", 0);
  gtk_text_buffer_set_modified (GTK_TEXT_BUFFER (self->buffer), FALSE);
  self->loading = FALSE;
  self->open = FALSE;
  g_clear_object (&self->file);
  g_clear_object (&self->source);
  g_clear_pointer (&self->title, g_free);
  for (guint p = PROP_OPEN; p < N_PROPS; p++)
    g_object_notify_by_pspec (G_OBJECT (self), properties[p]);
  g_object_thaw_notify (G_OBJECT (self));
}

/* ---- properties --------------------------------------------------------------------------- */

GtkSourceBuffer *
ws_kernel_document_get_buffer (WsKernelDocument *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_DOCUMENT (self), NULL);
  ensure_buffer (self);
  return self->buffer;
}

gboolean
ws_kernel_document_is_open (WsKernelDocument *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_DOCUMENT (self), FALSE);
  return self->open;
}

GFile *
ws_kernel_document_get_file (WsKernelDocument *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_DOCUMENT (self), NULL);
  return self->file;
}

const char *
ws_kernel_document_get_title (WsKernelDocument *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_DOCUMENT (self), NULL);
  return self->title;
}

gboolean
ws_kernel_document_get_modified (WsKernelDocument *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_DOCUMENT (self), FALSE);
  return self->open && gtk_text_buffer_get_modified (GTK_TEXT_BUFFER (self->buffer));
}

WsKernelSource *
ws_kernel_document_get_source (WsKernelDocument *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_DOCUMENT (self), NULL);
  return self->source;
}

static void
ws_kernel_document_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  WsKernelDocument *self = WS_KERNEL_DOCUMENT (object);

  switch (prop)
    {
    case PROP_OPEN: g_value_set_boolean (value, self->open); break;
    case PROP_FILE: g_value_set_object (value, self->file); break;
    case PROP_TITLE: g_value_set_string (value, self->title); break;
    case PROP_MODIFIED: g_value_set_boolean (value, ws_kernel_document_get_modified (self)); break;
    case PROP_SOURCE: g_value_set_object (value, self->source); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_kernel_document_dispose (GObject *object)
{
  WsKernelDocument *self = WS_KERNEL_DOCUMENT (object);

  g_clear_handle_id (&self->reread_id, g_source_remove);
  if (self->buffer != NULL)
    g_signal_handlers_disconnect_by_data (self->buffer, self);
  g_clear_object (&self->buffer);
  g_clear_object (&self->file);
  g_clear_object (&self->source);
  g_clear_pointer (&self->title, g_free);
  G_OBJECT_CLASS (ws_kernel_document_parent_class)->dispose (object);
}

static void
ws_kernel_document_class_init (WsKernelDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = ws_kernel_document_get_property;
  object_class->dispose = ws_kernel_document_dispose;
  properties[PROP_OPEN] = g_param_spec_boolean ("open", NULL, NULL, FALSE, ro);
  properties[PROP_FILE] = g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE, ro);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, ro);
  properties[PROP_MODIFIED] = g_param_spec_boolean ("modified", NULL, NULL, FALSE, ro);
  properties[PROP_SOURCE] = g_param_spec_object ("source", NULL, NULL, WS_TYPE_KERNEL_SOURCE, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ws_kernel_document_init (WsKernelDocument *self)
{
}

WsKernelDocument *
ws_kernel_document_new (void)
{
  return g_object_new (WS_TYPE_KERNEL_DOCUMENT, NULL);
}

/* ws-kernel-source.c: an own kernel's file, its header read by src/common/ws-kernel-file.c.
 * The parser's messages are in English, as the runner's are: the runner says the same
 * things about the same file, and has no gettext.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-kernel-source.h"

#include <glib/gi18n-lib.h>

#include "ws-kernel-file.h"
#include "ws-sha256.h"

struct _WsKernelSource
{
  GObject parent_instance;
  char *path;
  char *text;
  gsize length;
  char hash[65];
  WsKernelFile *kf;
  GPtrArray *problems;
};

G_DEFINE_FINAL_TYPE (WsKernelSource, ws_kernel_source, G_TYPE_OBJECT)

static void
problem_free (WsSourceProblem *p)
{
  g_free (p->message);
  g_free (p);
}

static void
ws_kernel_source_finalize (GObject *object)
{
  WsKernelSource *self = WS_KERNEL_SOURCE (object);

  g_free (self->path);
  g_free (self->text);
  g_free (self->kf);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  G_OBJECT_CLASS (ws_kernel_source_parent_class)->finalize (object);
}

static void
ws_kernel_source_class_init (WsKernelSourceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_kernel_source_finalize;
}

static void
ws_kernel_source_init (WsKernelSource *self)
{
  self->problems = g_ptr_array_new_with_free_func ((GDestroyNotify) problem_free);
}

WsKernelSource *
ws_kernel_source_new (const char *text, gssize length, const char *path)
{
  WsKernelSource *self;
  WsKernelFile *kf;

  g_return_val_if_fail (text != NULL || length == 0, NULL);
  self = g_object_new (WS_TYPE_KERNEL_SOURCE, NULL);
  self->length = length < 0 ? strlen (text) : (gsize) length;
  self->text = g_strndup (text != NULL ? text : "", self->length);
  self->path = g_strdup (path);
  ws_sha256_of (self->text, self->length, self->hash);
  /* The struct is large (tens of kilobytes) and fixed: one allocation, none inside. */
  kf = self->kf = g_new0 (WsKernelFile, 1);
  ws_kernel_file_parse (text != NULL ? text : "", self->length, kf);
  for (int i = 0; i < kf->n_errors; i++)
    {
      WsSourceProblem *p = g_new0 (WsSourceProblem, 1);

      p->line = (guint) MAX (kf->errors[i].line, 1);
      p->column = (guint) MAX (kf->errors[i].column, 1);
      p->message = g_strdup (kf->errors[i].message);
      g_ptr_array_add (self->problems, p);
    }
  if (kf->more_errors > 0)
    {
      WsSourceProblem *p = g_new0 (WsSourceProblem, 1);

      p->line = (guint) MAX (kf->errors[kf->n_errors - 1].line, 1);
      p->column = 1;
      p->message = g_strdup_printf ("and %d more errors in the header", kf->more_errors);
      g_ptr_array_add (self->problems, p);
    }
  return self;
}

WsKernelSource *
ws_kernel_source_new_from_file (GFile *file, GError **error)
{
  g_autoptr (GFileInputStream) in = NULL;
  g_autofree char *buf = NULL;
  g_autofree char *path = NULL;
  gsize got = 0;

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  path = g_file_get_parse_name (file);
  in = g_file_read (file, NULL, error);
  if (in == NULL)
    return NULL;
  /* One byte more than a kernel file may hold tells a file that is too large. */
  buf = g_malloc (WS_KF_MAX_SOURCE + 1);
  if (!g_input_stream_read_all (G_INPUT_STREAM (in), buf, WS_KF_MAX_SOURCE + 1, &got, NULL,
                                error))
    return NULL;
  if (got > WS_KF_MAX_SOURCE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("%s is larger than %d KiB, the most a kernel file may be"), path,
                   WS_KF_MAX_SOURCE / 1024);
      return NULL;
    }
  return ws_kernel_source_new (buf, (gssize) got, path);
}

const char *
ws_kernel_source_get_path (WsKernelSource *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_SOURCE (self), NULL);
  return self->path;
}

const char *
ws_kernel_source_get_text (WsKernelSource *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_SOURCE (self), NULL);
  return self->text;
}

const char *
ws_kernel_source_get_hash (WsKernelSource *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_SOURCE (self), NULL);
  return self->hash;
}

GPtrArray *
ws_kernel_source_get_problems (WsKernelSource *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_SOURCE (self), NULL);
  return self->problems;
}

gboolean
ws_kernel_source_is_valid (WsKernelSource *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_SOURCE (self), FALSE);
  return self->problems->len == 0;
}

const char *
ws_kernel_source_get_entry (WsKernelSource *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_SOURCE (self), NULL);
  return ws_kernel_source_is_valid (self) ? self->kf->kernel : NULL;
}

const char *
ws_kernel_source_get_title (WsKernelSource *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_SOURCE (self), NULL);
  if (!ws_kernel_source_is_valid (self))
    return NULL;
  return self->kf->title[0] ? self->kf->title : self->kf->kernel;
}

guint
ws_kernel_source_get_n_params (WsKernelSource *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_SOURCE (self), 0);
  return ws_kernel_source_is_valid (self) ? (guint) self->kf->n_params : 0;
}

const char *
ws_kernel_source_get_param_name (WsKernelSource *self, guint index)
{
  g_return_val_if_fail (WS_IS_KERNEL_SOURCE (self), NULL);
  g_return_val_if_fail (index < ws_kernel_source_get_n_params (self), NULL);
  return self->kf->params[index].name;
}

char **
ws_kernel_source_dup_param_values (WsKernelSource *self, guint index)
{
  GStrvBuilder *b;
  char **values;

  g_return_val_if_fail (WS_IS_KERNEL_SOURCE (self), NULL);
  g_return_val_if_fail (index < ws_kernel_source_get_n_params (self), NULL);
  b = g_strv_builder_new ();
  for (int i = 0; i < self->kf->params[index].n_values; i++)
    g_strv_builder_add (b, self->kf->params[index].texts[i]);
  values = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  return values;
}

guint
ws_kernel_source_get_n_sizes (WsKernelSource *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_SOURCE (self), 0);
  return ws_kernel_source_is_valid (self) ? (guint) self->kf->n_sizes : 0;
}

const char *
ws_kernel_source_get_size_name (WsKernelSource *self, guint index)
{
  g_return_val_if_fail (WS_IS_KERNEL_SOURCE (self), NULL);
  g_return_val_if_fail (index < ws_kernel_source_get_n_sizes (self), NULL);
  return self->kf->size_names[index];
}

guint64
ws_kernel_source_get_size_default (WsKernelSource *self, guint index)
{
  g_return_val_if_fail (WS_IS_KERNEL_SOURCE (self), 0);
  g_return_val_if_fail (index < ws_kernel_source_get_n_sizes (self), 0);
  return self->kf->size_defaults[index];
}

guint
ws_kernel_source_get_block (WsKernelSource *self, guint block[3])
{
  g_return_val_if_fail (WS_IS_KERNEL_SOURCE (self), 0);
  block[0] = block[1] = block[2] = 1;
  if (!ws_kernel_source_is_valid (self))
    return 0;
  for (int i = 0; i < 3; i++)
    block[i] = MAX (self->kf->block[i], 1);
  return (guint) CLAMP (self->kf->block_rank, 1, 3);
}

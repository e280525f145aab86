/* ws-file.c: files written whole or not at all.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-file.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gunixoutputstream.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <unistd.h>

static gboolean
set_errno_error (GError **error, int saved, const char *format, const char *path)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), format, path,
               g_strerror (saved));
  return FALSE;
}

gboolean
ws_file_write_atomic (GFile *file, WsWriteFunc func, gpointer user_data, GError **error)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *dir = NULL, *base = NULL, *tmpl = NULL;
  g_autoptr (GOutputStream) stream = NULL;
  gboolean ok;
  int fd;

  if (path == NULL)
    {
      /* Not a local file (a GVfs location): GIO's replace writes a temporary file there and
       * renames it on close, which is the same promise. */
      g_autoptr (GFileOutputStream) out = g_file_replace (file, NULL, FALSE,
                                                          G_FILE_CREATE_REPLACE_DESTINATION,
                                                          NULL, error);

      if (out == NULL)
        return FALSE;
      ok = func (G_OUTPUT_STREAM (out), user_data, error);
      if (!ok)
        {
          g_autoptr (GCancellable) cancel = g_cancellable_new ();

          /* Closing a cancelled stream abandons the temporary file. */
          g_cancellable_cancel (cancel);
          g_output_stream_close (G_OUTPUT_STREAM (out), cancel, NULL);
          return FALSE;
        }
      return g_output_stream_close (G_OUTPUT_STREAM (out), NULL, error);
    }

  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  tmpl = g_strdup_printf ("%s/.%s.XXXXXX", dir, base);
  fd = g_mkstemp_full (tmpl, O_WRONLY, 0644);
  if (fd < 0)
    return set_errno_error (error, errno, _("Cannot write in %s: %s"), dir);
  stream = g_unix_output_stream_new (fd, TRUE);
  ok = func (stream, user_data, error);
  if (ok && fsync (fd) != 0)
    ok = set_errno_error (error, errno, _("Cannot write %s: %s"), path);
  if (!g_output_stream_close (stream, NULL, ok ? error : NULL))
    ok = FALSE;
  if (ok && g_rename (tmpl, path) != 0)
    ok = set_errno_error (error, errno, _("Cannot save %s: %s"), path);
  if (!ok)
    g_unlink (tmpl);
  return ok;
}

/* ws-session-load.c: reading a session file in large blocks, line by line, refusing at once
 * what cannot be a session (binary data) and never holding a line longer than
 * WS_SESSION_MAX_LINE, so that /dev/zero or a disk image costs a moment, not the memory.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-session-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* How much of the start of a file must look like text before lines are read. */
#define SNIFF_BYTES 4096

/* `buf` holds the first `have` bytes of the file (all of it when `eof`). */
static gboolean
sniff (const char *buf, gsize have, gboolean eof, GError **error)
{
  gsize n = MIN (have, SNIFF_BYTES);
  const char *nul = memchr (buf, '\0', n);
  const char *bad = NULL;

  if (nul != NULL)
    {
      g_set_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_NOT_A_SESSION,
                   _("this is not a Warpscope session: it holds binary data (a NUL byte at "
                     "byte %u)"),
                   (guint) (nul - buf) + 1);
      return FALSE;
    }
  /* A character cut at the end of the window is not an error: its rest follows. */
  if (!g_utf8_validate (buf, (gssize) n, &bad) && !(buf + n - bad < 4 && !(eof && n == have)))
    {
      g_set_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_NOT_A_SESSION,
                   _("this is not a Warpscope session: it is not UTF-8 text (byte %u is not)"),
                   (guint) (bad - buf) + 1);
      return FALSE;
    }
  return TRUE;
}

/* Feeds the complete lines in buf[*start, have), and at the end of the file the last one
 * without a newline; a line that grows past WS_SESSION_MAX_LINE is counted and skipped to
 * its newline (*skipping) without being kept. FALSE when the stream cannot be a session. */
static gboolean
feed_lines (WsSession *self, char *buf, gsize have, gsize *start, gboolean eof,
            gboolean *skipping, GError **error)
{
  for (;;)
    {
      g_autoptr (GError) local = NULL;
      char *nl = memchr (buf + *start, '\n', have - *start);
      gsize len;

      if (*skipping)
        {
          if (nl == NULL)
            {
              *start = have;
              return TRUE;
            }
          *start = (gsize) (nl - buf) + 1;
          *skipping = FALSE;
          continue;
        }
      if (nl == NULL && have - *start > WS_SESSION_MAX_LINE)
        {
          if (!ws_session_feed_overlong_line (self, &local)
              && local->code != WS_SESSION_ERROR_MALFORMED)
            {
              g_propagate_error (error, g_steal_pointer (&local));
              return FALSE;
            }
          *start = have;
          *skipping = TRUE;
          return TRUE;
        }
      if (nl == NULL && !(eof && *start < have))
        return TRUE;
      len = nl ? (gsize) (nl - (buf + *start)) : have - *start;
      if (!ws_session_feed_line (self, buf + *start, (gssize) len, &local)
          && local->code != WS_SESSION_ERROR_MALFORMED)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      *start += len + (nl ? 1 : 0);
      if (nl == NULL)
        return TRUE;
    }
}

WsSession *
ws_session_load (GFile *file, GCancellable *cancellable, GError **error)
{
  g_autoptr (WsSession) self = NULL;
  g_autoptr (GFileInputStream) in = NULL;
  g_autofree char *name = NULL;
  const gsize block = 1 << 20;
  gsize have = 0, cap = 2 * block;
  g_autofree char *buf = NULL;
  gboolean sniffed = FALSE, skipping = FALSE;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  name = g_file_get_parse_name (file);
  in = g_file_read (file, cancellable, error);
  if (in == NULL)
    return NULL;
  self = ws_session_new (WS_SESSION_SOURCE_RECORDING);
  ws_session_set_file (self, file);

  /* Read in large blocks and hand each line to the session where it lies: no copy per line.
   * The buffer holds at most one line of WS_SESSION_MAX_LINE and a block. */
  buf = g_malloc (cap);
  for (;;)
    {
      g_autoptr (GError) local = NULL;
      gssize got;
      gsize start = 0;
      gboolean eof;

      if (cap - have < block)
        buf = g_realloc (buf, cap = have + 2 * block);
      got = g_input_stream_read (G_INPUT_STREAM (in), buf + have, block, cancellable, &local);
      if (got < 0)
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", name);
          return NULL;
        }
      have += (gsize) got;
      eof = got == 0;
      if (!sniffed && have < SNIFF_BYTES && !eof)
        continue;
      if (!sniffed && !sniff (buf, have, eof, &local))
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", name);
          return NULL;
        }
      sniffed = TRUE;
      if (!feed_lines (self, buf, have, &start, eof, &skipping, &local))
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", name);
          return NULL;
        }
      memmove (buf, buf + start, have - start);
      have -= start;
      if (eof)
        break;
    }
  if (self->hello == NULL)
    {
      g_set_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_EMPTY,
                   _("%s: the file is empty: it holds no records"), name);
      return NULL;
    }
  ws_session_end (self);
  return g_steal_pointer (&self);
}

static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;
  WsSession *session = ws_session_load (task_data, cancellable, &error);

  if (session == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, session, g_object_unref);
}

void
ws_session_load_async (GFile *file, GCancellable *cancellable, GAsyncReadyCallback callback,
                       gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, ws_session_load_async);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, load_thread);
}

WsSession *
ws_session_load_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

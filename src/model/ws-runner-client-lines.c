/* ws-runner-client-lines.c: the runner's stdout, read as it arrives, cut into lines and fed
 * to the session: a launcher's banner before the hello skipped (or refused), a line longer
 * than WS_SESSION_MAX_LINE counted and not kept, a last line without its newline read.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ws-record.h"
#include "ws-runner-client-private.h"

/* Before the runner's hello, lines that are not JSON (a launcher's banner, a greeting a login
 * shell's .bashrc prints through ssh) are skipped, up to BANNER_MAX_LINES and
 * BANNER_MAX_BYTES (ws-runner-client-private.h); more, and the launcher is not one that
 * leaves stdout to the runner. Of the banner's first line, at most this many characters are
 * quoted. */
#define BANNER_QUOTED 200

static void
refuse_banner (WsRunnerClient *self)
{
  GError *error;

  self->banner_refused = TRUE;
  /* Translators: the first line the launcher printed, quoted. */
  error = g_error_new (G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("The launcher printed more than %u lines or %u KiB before the runner "
                         "started (the first: “%s”), so what follows cannot be told from it. "
                         "Make it quiet on stdout: ssh -q, and a .bashrc that prints only when "
                         "the shell is interactive ([[ $- == *i* ]] || return at its top)."),
                       BANNER_MAX_LINES, BANNER_MAX_BYTES / 1024, self->banner_first);
  _ws_runner_client_set_error (self, error);
  /* Nothing of its output can be kept: the runner need not go on. */
  _ws_runner_client_stop_group (self);
}

/* TRUE when the line is a launcher's, before the runner's hello: skipped, counted, not fed.
 * A JSON line is the runner's, hello or not; the session judges it. */
static gboolean
take_banner_line (WsRunnerClient *self, const char *line, gsize length)
{
  g_autoptr (WsRecord) record = NULL;
  guint column = 0;

  if (self->banner_refused)
    return TRUE;
  while (length > 0 && line[length - 1] == '\r')
    length--;
  if (ws_session_get_hello (self->session) != NULL || _ws_line_is_blank (line, length))
    return FALSE;
  record = ws_record_parse (line, length, &column, NULL);
  if (record != NULL)
    return FALSE;
  if (self->banner_first == NULL)
    self->banner_first = _ws_quote_line (line, length, BANNER_QUOTED);
  self->banner_lines++;
  self->banner_bytes += length + 1;
  /* The session counts the line, so that the runner's lines keep their numbers. */
  ws_session_skip_line (self->session);
  if (self->banner_lines > BANNER_MAX_LINES || self->banner_bytes > BANNER_MAX_BYTES)
    refuse_banner (self);
  return TRUE;
}

static void
feed (WsRunnerClient *self, const char *line, gsize length)
{
  g_autoptr (GError) error = NULL;

  if (take_banner_line (self, line, length))
    return;

  /* A malformed line is kept as a problem in the session; the stream goes on. */
  if (!ws_session_feed_line (self->session, line, (gssize) length, &error) && error != NULL
      && self->fatal == NULL
      && !g_error_matches (error, WS_SESSION_ERROR, WS_SESSION_ERROR_MALFORMED))
    self->fatal = g_steal_pointer (&error);
  _ws_runner_client_emit_line (self, line);
  if (!self->done_seen && ws_session_is_done (self->session, NULL, NULL))
    {
      self->done_seen = TRUE;
      _ws_runner_client_note_activity (self, TRUE);
    }
}

static void
end_skip (WsRunnerClient *self)
{
  g_autoptr (GError) error = NULL;

  if (!ws_session_feed_overlong_line (self->session, &error) && error != NULL
      && self->fatal == NULL
      && !g_error_matches (error, WS_SESSION_ERROR, WS_SESSION_ERROR_MALFORMED))
    self->fatal = g_steal_pointer (&error);
  self->skipping = FALSE;
  self->skipped = 0;
}

/* Splits what was read into lines; a line longer than WS_SESSION_MAX_LINE is counted, not
 * kept, so that a stream without newlines takes no more memory than the limit. */
static void
feed_chunk (WsRunnerClient *self, char *data, gsize n)
{
  char *p = data, *end = data + n;

  while (p < end)
    {
      char *newline = memchr (p, '\n', (gsize) (end - p));
      gsize length = (gsize) ((newline != NULL ? newline : end) - p);

      if (self->skipping)
        {
          self->skipped += length;
          if (newline != NULL)
            end_skip (self);
        }
      else if (self->partial->len + length > WS_SESSION_MAX_LINE)
        {
          self->skipping = TRUE;
          self->skipped = self->partial->len + length;
          /* Give the memory back, not only the length. */
          g_byte_array_unref (self->partial);
          self->partial = g_byte_array_new ();
          if (newline != NULL)
            end_skip (self);
        }
      else if (newline != NULL && self->partial->len == 0)
        {
          *newline = '\0';
          feed (self, p, length);
        }
      else
        {
          g_byte_array_append (self->partial, (const guint8 *) p, (guint) length);
          if (newline != NULL)
            {
              g_byte_array_append (self->partial, (const guint8 *) "", 1);
              feed (self, (const char *) self->partial->data, self->partial->len - 1);
              g_byte_array_set_size (self->partial, 0);
            }
        }
      if (newline == NULL)
        break;
      p = newline + 1;
    }
}

static void
stdout_ended (WsRunnerClient *self)
{
  if (self->skipping)
    end_skip (self);
  else if (self->partial->len > 0)
    {
      /* A last line without its newline still counts. */
      g_byte_array_append (self->partial, (const guint8 *) "", 1);
      feed (self, (const char *) self->partial->data, self->partial->len - 1);
      g_byte_array_set_size (self->partial, 0);
    }
  self->stdout_done = TRUE;
  g_input_stream_close (self->out, NULL, NULL);
  _ws_runner_client_maybe_finish (self);
}

static void read_stdout_cb (GObject *source, GAsyncResult *result, gpointer data);

void
_ws_runner_client_read_stdout (WsRunnerClient *self)
{
  g_input_stream_read_async (self->out, self->chunk, READ_CHUNK, G_PRIORITY_DEFAULT,
                             self->cancellable, read_stdout_cb, self);
}

static void
read_stdout_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  WsRunnerClient *self = data;
  g_autoptr (GError) error = NULL;
  gssize n = g_input_stream_read_finish (G_INPUT_STREAM (source), result, &error);

  if (n <= 0)
    {
      if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _ws_runner_client_set_error (self, g_steal_pointer (&error));
      stdout_ended (self);
      g_object_unref (self);
      return;
    }
  _ws_runner_client_note_activity (self, TRUE);
  feed_chunk (self, self->chunk, (gsize) n);
  _ws_runner_client_read_stdout (self);
}

/* fuzz-support.c: the session every GLib fuzz target builds from its input.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "fuzz-support.h"

#include <stdlib.h>
#include <string.h>

/* GLib stops a fatal message with a breakpoint (SIGTRAP), which libFuzzer does not catch:
 * abort instead, so that the input is kept as a crasher. */
static GLogWriterOutput
writer (GLogLevelFlags level, const GLogField *fields, gsize n_fields, gpointer user_data)
{
  if (level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
    {
      g_log_writer_standard_streams (level, fields, n_fields, user_data);
      abort ();
    }
  /* The rest through the default writer, which drops debug messages unless G_MESSAGES_DEBUG
   * asks for them: GIO's on stdout broke the replay's TAP. */
  return g_log_writer_default (level, fields, n_fields, user_data);
}

void
ws_fuzz_init_glib (void)
{
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  g_log_set_writer_func (writer, NULL, NULL);
}

WsSession *
ws_fuzz_session_from_lines (const uint8_t *data, size_t size)
{
  WsSession *session = ws_session_new (WS_SESSION_SOURCE_RECORDING);
  const char *p = (const char *) data, *end = p + size;

  while (p < end)
    {
      const char *nl = memchr (p, '\n', (size_t) (end - p));
      size_t len = nl ? (size_t) (nl - p) : (size_t) (end - p);
      g_autoptr (GError) error = NULL;

      /* The line is handed over as it lies in the input, not NUL-terminated: a read past
       * its length is a read past the fuzzer's buffer, which AddressSanitizer reports. */
      if (!ws_session_feed_line (session, p, (gssize) len, &error))
        g_assert (error != NULL);
      else
        g_assert (error == NULL);
      p += len + (nl ? 1 : 0);
    }
  ws_session_end (session);
  return session;
}

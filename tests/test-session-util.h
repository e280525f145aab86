/* test-session-util.h: sessions the model's tests read (header only: each test is one
 * program): a file, a recording in resources/samples, or records written out by the test.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib/gstdio.h>
#include <unistd.h>

#include "test-util.h"
#include "ws-session.h"

static inline WsSession *
ws_test_load_file (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  WsSession *session = ws_session_load (file, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (session);
  return session;
}

static inline WsSession *
ws_test_load_sample (const char *name)
{
  g_autofree char *path = ws_test_sample (name);

  return ws_test_load_file (path);
}

/* `text` (JSON Lines) read as a session from a file of its own. */
static inline WsSession *
ws_test_load_text (const char *text)
{
  g_autofree char *path = NULL;
  int fd = g_file_open_tmp ("ws-trace-XXXXXX.jsonl", &path, NULL);
  WsSession *session;

  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  session = ws_test_load_file (path);
  g_unlink (path);
  return session;
}

/* `session` as ws_session_write writes it, in memory. */
static inline char *
ws_test_write_to_string (WsSession *session)
{
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr (GError) error = NULL;

  g_assert_true (ws_session_write (session, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
  g_output_stream_close (out, NULL, NULL);
  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
}

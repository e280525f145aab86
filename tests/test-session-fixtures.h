/* test-session-fixtures.h: records and helpers the hostile-input tests share (header only:
 * each test is one program).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "ws-session-private.h"

#define HELLO "{\"type\":\"hello\",\"t\":0,\"protocol\":1,\"runner\":\"0.1.0\"}\n"
#define RUN                                                                                    \
  "{\"type\":\"run\",\"t\":1,\"id\":1,\"kernel\":\"vector_add\",\"shape\":[1000],"              \
  "\"block\":[256,1,1],\"grid\":[4,1,1]}\n"
#define KERNEL                                                                                 \
  "{\"type\":\"activity\",\"t\":2,\"run\":1,\"phase\":\"sequence\",\"rep\":0,\"kind\":"        \
  "\"kernel\",\"start\":250,\"end\":450,\"name\":\"vector_add\",\"grid\":[4,1,1],"             \
  "\"block\":[256,1,1],\"stream\":7,\"correlation\":2}\n"
#define DONE "{\"type\":\"done\",\"t\":3,\"exit_code\":0}\n"

/* Under AddressSanitizer the process maps terabytes of shadow memory: no memory limit fits. */
#if defined(__SANITIZE_ADDRESS__)
#define WS_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WS_TEST_ASAN 1
#endif
#endif

static inline char *
temp_path (void)
{
  char *path = NULL;
  int fd = g_file_open_tmp ("ws-hostile-XXXXXX.jsonl", &path, NULL);

  g_assert_cmpint (fd, >=, 0);
  close (fd);
  return path;
}

static inline char *
write_temp (const char *data, gsize length)
{
  char *path = temp_path ();

  g_assert_true (g_file_set_contents (path, data, (gssize) length, NULL));
  return path;
}

static inline WsSession *
load_path (const char *path, GError **error)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);

  return ws_session_load (file, NULL, error);
}

static inline WsSession *
load_bytes (const char *data, gsize length, GError **error)
{
  g_autofree char *path = write_temp (data, length);
  WsSession *session = load_path (path, error);

  g_unlink (path);
  return session;
}

/* A session that has seen a hello and run 1, for feeding one line at a time. */
static inline WsSession *
fed_session (void)
{
  WsSession *session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_auto (GStrv) lines = g_strsplit (HELLO RUN, "\n", -1);

  for (guint i = 0; lines[i] != NULL && *lines[i] != '\0'; i++)
    g_assert_true (ws_session_feed_line (session, lines[i], -1, NULL));
  return session;
}

static inline WsProblem *
last_problem (WsSession *session)
{
  GPtrArray *problems = ws_session_get_problems (session);

  g_assert_cmpuint (problems->len, >, 0);
  return g_ptr_array_index (problems, problems->len - 1);
}

static inline char *
repeat (char c, gsize n)
{
  char *s = g_malloc (n + 1);

  memset (s, c, n);
  s[n] = '\0';
  return s;
}

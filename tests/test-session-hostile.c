/* test-session-hostile.c: files and lines a careless or hostile person could hand the reader
 * (deep nesting, binary data, endless lines, numbers out of range, odd encodings), each with
 * the exact answer: a clear message, no crash, bounded time and memory, the rest loaded.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ws-record.h"
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

static char *
temp_path (void)
{
  char *path = NULL;
  int fd = g_file_open_tmp ("ws-hostile-XXXXXX.jsonl", &path, NULL);

  g_assert_cmpint (fd, >=, 0);
  close (fd);
  return path;
}

static char *
write_temp (const char *data, gsize length)
{
  char *path = temp_path ();

  g_assert_true (g_file_set_contents (path, data, (gssize) length, NULL));
  return path;
}

static WsSession *
load_path (const char *path, GError **error)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);

  return ws_session_load (file, NULL, error);
}

static WsSession *
load_bytes (const char *data, gsize length, GError **error)
{
  g_autofree char *path = write_temp (data, length);
  WsSession *session = load_path (path, error);

  g_unlink (path);
  return session;
}

/* A session that has seen a hello and run 1, for feeding one line at a time. */
static WsSession *
fed_session (void)
{
  WsSession *session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_auto (GStrv) lines = g_strsplit (HELLO RUN, "\n", -1);

  for (guint i = 0; lines[i] != NULL && *lines[i] != '\0'; i++)
    g_assert_true (ws_session_feed_line (session, lines[i], -1, NULL));
  return session;
}

static char *
repeat (char c, gsize n)
{
  char *s = g_malloc (n + 1);

  memset (s, c, n);
  s[n] = '\0';
  return s;
}

/* A name given twice means its last value, as json-glib (which reads the hello, device and
 * kernel records again) takes it; depth is bounded. */
static void
test_record_shape (void)
{
  const char *text = "{\"a\":1,\"a\":2}";
  g_autoptr (WsRecord) r = ws_record_parse (text, strlen (text), NULL, NULL);
  GString *deep = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  WsRecord *d;

  g_assert_cmpint (ws_record_int (r, WS_RECORD_ROOT, "a", 0), ==, 2);
  for (int i = 0; i < WS_RECORD_MAX_DEPTH; i++)
    g_string_prepend_c (deep, '['), g_string_append_c (deep, ']');
  d = ws_record_parse (deep->str, deep->len, NULL, &error);
  g_assert_no_error (error);
  ws_record_free (d);
  g_string_prepend_c (deep, '['), g_string_append_c (deep, ']');
  g_assert_null (ws_record_parse (deep->str, deep->len, NULL, &error));
  g_assert_nonnull (strstr (error->message, "values nested deeper than 64 levels"));
  g_string_free (deep, TRUE);
}

/* The parser keeps integers exact up to 2^64 - 1, long numbers whole, and hands out no
 * number its C type cannot hold. */
static void
test_record_numbers (void)
{
  g_autofree char *zeros = repeat ('0', 80);
  g_autofree char *text = g_strdup_printf ("{\"big\":18446744073709551615,\"min\":-9223372036854775808,"
                                           "\"huge\":1e300,\"tiny\":0.%s1,\"half\":2.5,"
                                           "\"list\":[1e300,-1e300,7]}",
                                           zeros);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRecord) r = ws_record_parse (text, strlen (text), NULL, &error);
  gint64 list[3];

  g_assert_no_error (error);
  g_assert_cmpuint (ws_record_uint (r, WS_RECORD_ROOT, "big", 0), ==, G_MAXUINT64);
  g_assert_cmpint (ws_record_int (r, WS_RECORD_ROOT, "big", -1), ==, -1);
  g_assert_cmpint (ws_record_int (r, WS_RECORD_ROOT, "min", 0), ==, G_MININT64);
  g_assert_cmpuint (ws_record_uint (r, WS_RECORD_ROOT, "min", 7), ==, 7);
  g_assert_cmpint (ws_record_int (r, WS_RECORD_ROOT, "huge", -1), ==, -1);
  g_assert_cmpfloat (ws_record_double (r, WS_RECORD_ROOT, "huge", 0), ==, 1e300);
  /* 84 characters: all of them count. */
  g_assert_cmpfloat_with_epsilon (ws_record_double (r, WS_RECORD_ROOT, "tiny", 0) * 1e81, 1.0,
                                  1e-12);
  g_assert_cmpint (ws_record_int (r, WS_RECORD_ROOT, "half", 0), ==, 2);
  g_assert_cmpuint (ws_record_ints (r, WS_RECORD_ROOT, "list", list, 3), ==, 3);
  g_assert_cmpint (list[0], ==, 0);
  g_assert_cmpint (list[1], ==, 0);
  g_assert_cmpint (list[2], ==, 7);
  g_assert_cmpuint (ws_record_offset (r, ws_record_member (r, WS_RECORD_ROOT, "huge")), ==,
                    (guint) (strstr (text, "1e300") - text));
}

/* A million '[' in an activity line (the fast path) and in another record (the general
 * path), and 200,000 '{': each is one problem, and the lines after it load. */
static void
test_deep_nesting (void)
{
  const gsize depth = 1000000;
  g_autofree char *brackets = repeat ('[', depth);
  g_autofree char *braces = NULL;
  g_autoptr (GString) text = g_string_new (HELLO RUN);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSession) session = NULL;
  GPtrArray *problems;

  {
    GString *b = g_string_new (NULL);

    /* Five bytes a level: as many as fit in a line (WS_SESSION_MAX_LINE). */
    for (gsize i = 0; i < depth / 5; i++)
      g_string_append (b, "{\"a\":");
    braces = g_string_free (b, FALSE);
  }
  g_string_append_printf (text, "{\"type\":\"activity\",\"run\":1,\"kind\":\"kernel\",\"start\":1,"
                                "\"end\":2,\"x\":%s}\n",
                          brackets);
  g_string_append_printf (text, "{\"type\":\"a_later_record\",\"x\":%s}\n", brackets);
  g_string_append_printf (text, "{\"type\":\"a_later_record\",\"x\":%s}\n", braces);
  g_string_append (text, KERNEL DONE);
  session = load_bytes (text->str, text->len, &error);
  g_assert_no_error (error);
  problems = ws_session_get_problems (session);
  g_assert_cmpuint (problems->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      WsProblem *p = g_ptr_array_index (problems, i);

      g_assert_cmpuint (p->line, ==, 3 + i);
      g_assert_nonnull (strstr (p->message, "values nested deeper than 64 levels"));
    }
  g_assert_cmpuint (ws_session_get_n_activities (session), ==, 1);
  g_assert_true (ws_session_is_done (session, NULL, NULL));
}

/* 64 levels are read, 65 are not, whichever path reads them. */
static void
test_depth_limit (void)
{
  for (int levels = WS_RECORD_MAX_DEPTH - 1; levels <= WS_RECORD_MAX_DEPTH + 1; levels++)
    {
      /* The record itself is the first level. */
      g_autofree char *open = repeat ('[', (gsize) levels - 1);
      g_autofree char *close = repeat (']', (gsize) levels - 1);
      g_autofree char *fast = g_strdup_printf ("{\"type\":\"activity\",\"run\":1,\"kind\":\"kernel\","
                                               "\"start\":1,\"end\":2,\"x\":%s%s}",
                                               open, close);
      g_autofree char *general = g_strdup_printf ("{\"x\":%s%s,\"type\":\"activity\",\"run\":1,"
                                                  "\"kind\":\"kernel\",\"start\":1,\"end\":2}",
                                                  open, close);
      gboolean readable = levels <= WS_RECORD_MAX_DEPTH;
      g_autoptr (WsSession) session = fed_session ();
      g_autoptr (GError) error = NULL;
      g_autoptr (WsRecord) record = NULL;
      WsActivity a;
      guint32 run;

      g_test_message ("%d levels", levels);
      record = ws_record_parse (general, strlen (general), NULL, &error);
      g_assert_true ((record != NULL) == readable);
      if (!readable)
        g_assert_nonnull (strstr (error->message, "values nested deeper than 64 levels"));
      g_clear_error (&error);
      g_assert_true (_ws_session_parse_activity (fast, strlen (fast), &a, &run) == readable);
      g_assert_true (ws_session_feed_line (session, fast, -1, NULL) == readable);
      g_assert_true (ws_session_feed_line (session, general, -1, NULL) == readable);
      g_assert_cmpuint (ws_session_get_n_activities (session), ==, readable ? 2 : 0);
    }
}

/* The fast path takes only what the general path takes: junk in a field it skips is not let
 * through. */
static void
test_fast_path_strict (void)
{
  static const struct
  {
    const char *x;
    gboolean valid;
  } values[] = {
    { "tru", FALSE },     { "nul", FALSE },  { "[1,]", FALSE },    { "[1 2]", FALSE },
    { "1x", FALSE },      { "-", FALSE },    { "1.", FALSE },      { "1e", FALSE },
    { "\"\x01\"", FALSE }, { "1e400", FALSE }, { "[[1],[2", FALSE }, { "\"\xc3\x28\"", FALSE },
    { "true", TRUE },     { "null", TRUE },  { "[1,[2,[]]]", TRUE }, { "-1.5e-7", TRUE },
    { "[]", TRUE },       { "\"é\"", TRUE }, { "1E+20", TRUE },    { "\"a\\\"b\"", TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *line = g_strdup_printf ("{\"type\":\"activity\",\"run\":1,\"kind\":\"kernel\","
                                               "\"start\":1,\"end\":2,\"x\":%s}",
                                               values[i].x);
      g_autoptr (WsSession) session = fed_session ();
      WsActivity a;
      guint32 run;

      g_test_message ("%s", line);
      if (!values[i].valid)
        g_assert_false (_ws_session_parse_activity (line, strlen (line), &a, &run));
      g_assert_true (ws_session_feed_line (session, line, -1, NULL) == values[i].valid);
      g_assert_cmpuint (ws_session_get_n_activities (session), ==, values[i].valid);
      g_assert_cmpuint (ws_session_get_problems (session)->len, ==, !values[i].valid);
    }
}

/* A name given twice means its last value on both paths, as for json-glib. */
static void
test_duplicate_names (void)
{
  const char *line = "{\"type\":\"activity\",\"run\":1,\"kind\":\"memcpy\",\"start\":5,\"end\":9,"
                     "\"start\":1,\"kind\":\"kernel\"}";
  g_autofree char *moved = g_strdup_printf ("{\"x\":0,%s", line + 1);
  g_autoptr (WsSession) session = fed_session ();
  const WsActivity *a;
  guint n;

  g_assert_true (ws_session_feed_line (session, line, -1, NULL));
  g_assert_true (ws_session_feed_line (session, moved, -1, NULL));
  a = ws_run_get_activities (ws_session_find_run (session, 1), &n);
  g_assert_cmpuint (n, ==, 2);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpint (a[i].start, ==, 1);
      g_assert_cmpuint (a[i].kind, ==, WS_ACTIVITY_KERNEL);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/session-hostile/deep-nesting", test_deep_nesting);
  g_test_add_func ("/session-hostile/depth-limit", test_depth_limit);
  g_test_add_func ("/session-hostile/fast-path-strict", test_fast_path_strict);
  g_test_add_func ("/session-hostile/duplicate-names", test_duplicate_names);
  g_test_add_func ("/session-hostile/record-numbers", test_record_numbers);
  g_test_add_func ("/session-hostile/record-shape", test_record_shape);
  return g_test_run ();
}

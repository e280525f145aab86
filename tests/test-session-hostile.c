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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/session-hostile/record-numbers", test_record_numbers);
  g_test_add_func ("/session-hostile/record-shape", test_record_shape);
  return g_test_run ();
}

/* test-inject-json.c: the injection library's fast members (ws-inject-json.c) write exactly
 * the text of the runner's JSON writer (ws-json.c) that they stand in for: integers at every
 * edge, strings plain and not (escaped by the general writer), and milliseconds from whole
 * microseconds, over 200,000 random values each.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <math.h>

#include "ws-inject-private.h"

typedef void (*UintWriter) (WsJson *, const char *, uint64_t);

static char *
write_uint (UintWriter writer, uint64_t value)
{
  WsJson json;
  char *text;

  ws_json_init (&json);
  ws_json_begin_object (&json, NULL);
  writer (&json, "k", value);
  writer (&json, "again", value);
  ws_json_end_object (&json);
  text = g_strdup (json.data);
  ws_json_clear (&json);
  return text;
}

static void
general_uint (WsJson *json, const char *key, uint64_t value)
{
  ws_json_uint (json, key, value);
}

static void
fast_int (WsJson *json, const char *key, uint64_t value)
{
  _ws_jint (json, key, (int64_t) value);
}

static void
general_int (WsJson *json, const char *key, uint64_t value)
{
  ws_json_int (json, key, (int64_t) value);
}

static void
general_millis (WsJson *json, const char *key, uint64_t us)
{
  ws_json_double (json, key, (double) us / 1e3);
}

static void
assert_same (UintWriter fast, UintWriter general, uint64_t value)
{
  g_autofree char *a = write_uint (fast, value);
  g_autofree char *b = write_uint (general, value);

  if (g_strcmp0 (a, b) != 0)
    g_error ("%" G_GUINT64_FORMAT ": fast %s, general %s", value, a, b);
}

static uint64_t
random_u64 (GRand *rand)
{
  uint64_t v = ((uint64_t) g_rand_int (rand) << 32) | g_rand_int (rand);

  /* Every magnitude, not only the huge ones. */
  return v >> g_rand_int_range (rand, 0, 64);
}

static void
test_integers (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (20261201);
  const uint64_t edges[] = { 0, 1, 9, 10, 99, 100, 999999999, 1000000000, INT64_MAX,
                             (uint64_t) INT64_MAX + 1, UINT64_MAX - 1, UINT64_MAX };

  for (guint i = 0; i < G_N_ELEMENTS (edges); i++)
    {
      assert_same (_ws_juint, general_uint, edges[i]);
      assert_same (fast_int, general_int, edges[i]);
      assert_same (fast_int, general_int, (uint64_t) 0 - edges[i]);
    }
  for (guint i = 0; i < 200000; i++)
    {
      uint64_t v = random_u64 (rand);

      assert_same (_ws_juint, general_uint, v);
      assert_same (fast_int, general_int, v);
    }
}

/* Below 10¹² ms, where the library uses it: the shortest text that reads back. */
static void
test_millis (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  const uint64_t edges[] = { 0, 1, 5, 10, 100, 999, 1000, 1001, 1010, 1100, 123456789,
                             999999999999999ULL };

  for (guint i = 0; i < G_N_ELEMENTS (edges); i++)
    assert_same (_ws_jmillis, general_millis, edges[i]);
  for (guint i = 0; i < 200000; i++)
    assert_same (_ws_jmillis, general_millis, random_u64 (rand) % 1000000000000000ULL);
}

static char *
write_string (gboolean fast, const char *value)
{
  WsJson json;
  char *text;

  ws_json_init (&json);
  ws_json_begin_object (&json, NULL);
  if (fast)
    _ws_jstring (&json, "name", value);
  else
    ws_json_string (&json, "name", value);
  ws_json_end_object (&json);
  text = g_strdup (json.data);
  ws_json_clear (&json);
  return text;
}

static void
test_strings (void)
{
  const char *values[] = { "", "add_kernel", "__main__::add_kernel(Array<float, 1>)",
                           "quote \" and \\ backslash", "tab\tnewline\n", "\x1b]0;title\x07",
                           "µs 数组", "\x7f", NULL };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *a = write_string (TRUE, values[i]);
      g_autofree char *b = write_string (FALSE, values[i]);

      g_assert_cmpstr (a, ==, b);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/inject-json/integers", test_integers);
  g_test_add_func ("/inject-json/millis", test_millis);
  g_test_add_func ("/inject-json/strings", test_strings);
  return g_test_run ();
}

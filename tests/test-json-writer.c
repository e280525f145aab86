/* test-json-writer.c: the model's JSON writer: doubles read back as the same double in the
 * fewest digits, strings come out as valid JSON whatever they hold, integers exact, and the
 * compact and pretty layouts the session, the trace export and the CLI write.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <float.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "ws-json-writer.h"
#include "ws-record.h"

/* `value` written as a member, then read back by the model's parser and by json-glib. */
static char *
write_double (double value, double *read_by_record, double *read_by_json_glib)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (WsJsonWriter) w = ws_json_writer_new (out, FALSE);
  g_autoptr (WsRecord) record = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *o;

  ws_json_writer_begin_object (w, NULL);
  ws_json_writer_double (w, "v", value);
  ws_json_writer_end_object (w);
  record = ws_record_parse (out->str, out->len, NULL, &error);
  g_assert_no_error (error);
  *read_by_record = ws_record_double (record, WS_RECORD_ROOT, "v", NAN);
  g_assert_true (json_parser_load_from_data (parser, out->str, -1, &error));
  g_assert_no_error (error);
  o = json_node_get_object (json_parser_get_root (parser));
  *read_by_json_glib = json_node_get_value_type (json_object_get_member (o, "v")) == G_TYPE_INT64
                         ? (double) json_object_get_int_member (o, "v")
                         : json_object_get_double_member (o, "v");
  /* The text of the number alone: {"v":…} */
  return g_strndup (out->str + 5, out->len - 6);
}

static void
test_doubles_round_trip (void)
{
  const struct
  {
    double value;
    const char *text; /* the fewest digits */
  } cases[] = {
    { 0.1, "0.1" },
    { 1e-300, "1e-300" },
    { 5e-324, "5e-324" }, /* the smallest subnormal: 1 digit, not 15 */
    { 2.2250738585072014e-308, "2.2250738585072014e-308" }, /* DBL_MIN */
    { 1.7976931348623157e308, "1.7976931348623157e+308" },  /* DBL_MAX */
    { -0.0, "-0.0" }, /* "-0" would read back as the integer 0 */
    { 0.0, "0" },
    { 1000, "1000" },
    { 0.30000000000000004, "0.30000000000000004" },
    { 123456789012345680.0, "1.2345678901234568e+17" },
    { 4185.25, "4185.25" },
    { -1.5e-7, "-1.5e-07" },
    { 9007199254740993.0, "9007199254740992" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      double by_record, by_json_glib;
      g_autofree char *text = write_double (cases[i].value, &by_record, &by_json_glib);

      g_assert_cmpstr (text, ==, cases[i].text);
      g_assert_true (by_record == cases[i].value);
      g_assert_true (by_json_glib == cases[i].value);
      /* -0.0 keeps its sign. */
      g_assert_cmpint (signbit (by_record), ==, signbit (cases[i].value));
    }
}

/* Any double, not only the ones above: random bit patterns over the whole range. */
static void
test_doubles_random (void)
{
  GRand *rand = g_rand_new_with_seed (20261129);

  for (int i = 0; i < 20000; i++)
    {
      guint64 bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
      double value, by_record, by_json_glib;
      g_autofree char *text = NULL;

      memcpy (&value, &bits, sizeof value);
      if (!isfinite (value))
        continue;
      text = write_double (value, &by_record, &by_json_glib);
      g_assert_true (by_record == value);
      g_assert_true (by_json_glib == value);
      g_assert_cmpuint (strlen (text), <=, 24);
    }
  g_rand_free (rand);
}

static void
test_not_finite (void)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (WsJsonWriter) w = ws_json_writer_new (out, FALSE);

  ws_json_writer_begin_array (w, NULL);
  ws_json_writer_double (w, NULL, NAN);
  ws_json_writer_double (w, NULL, INFINITY);
  ws_json_writer_double (w, NULL, -INFINITY);
  ws_json_writer_end_array (w);
  g_assert_cmpstr (out->str, ==, "[null,null,null]");
}

static void
test_integers (void)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (WsJsonWriter) w = ws_json_writer_new (out, FALSE);

  ws_json_writer_begin_array (w, NULL);
  ws_json_writer_int (w, NULL, G_MININT64);
  ws_json_writer_int (w, NULL, G_MAXINT64);
  ws_json_writer_uint (w, NULL, G_MAXUINT64);
  ws_json_writer_decimal (w, NULL, 359762644, 3);
  ws_json_writer_decimal (w, NULL, 359762640, 3);
  ws_json_writer_decimal (w, NULL, 359762000, 3);
  ws_json_writer_decimal (w, NULL, -1005, 3);
  ws_json_writer_decimal (w, NULL, 5, 3);
  ws_json_writer_decimal (w, NULL, G_MININT64, 3);
  ws_json_writer_end_array (w);
  g_assert_cmpstr (out->str, ==,
                   "[-9223372036854775808,9223372036854775807,18446744073709551615,"
                   "359762.644,359762.64,359762,-1.005,0.005,-9223372036854775.808]");
}

/* `value` as a JSON string, read back by json-glib. */
static char *
round_trip_string (const char *value, char **text)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  ws_json_append_string (out, value);
  *text = g_strdup (out->str);
  g_assert_true (g_utf8_validate (out->str, -1, NULL));
  g_assert_true (json_parser_load_from_data (parser, out->str, -1, &error));
  g_assert_no_error (error);
  return g_strdup (json_node_get_string (json_parser_get_root (parser)));
}

static void
test_escaping (void)
{
  const struct
  {
    const char *value;
    const char *text;
  } cases[] = {
    { "plain", "\"plain\"" },
    { "a \"quote\" and a \\ backslash", "\"a \\\"quote\\\" and a \\\\ backslash\"" },
    { "tab\there\nnew line\rreturn", "\"tab\\there\\nnew line\\rreturn\"" },
    { "\b\f", "\"\\b\\f\"" },
    { "\x01\x1b[31m\x1f", "\"\\u0001\\u001b[31m\\u001f\"" },
    { "del\x7f", "\"del\\u007f\"" },
    { "向量加法 · µs", "\"向量加法 · µs\"" },
    /* C1 (CSI U+009B) and bidirectional controls (override, isolate, marks): escaped, so that
     * a terminal or a page shows them; the text reads back the same. */
    { "k\xc2\x9b" "2J\xe2\x80\xae" "evil\xe2\x81\xa6\xe2\x80\x8f\xd8\x9c",
      "\"k\\u009b2J\\u202eevil\\u2066\\u200f\\u061c\"" },
    /* Their neighbours are text: a dash, a no-break space, an arabic letter. */
    { "a\xe2\x80\x93" "b\xc2\xa0\xd8\xa8", "\"a\xe2\x80\x93" "b\xc2\xa0\xd8\xa8\"" },
    /* Beyond the BMP: as UTF-8, never as half a surrogate pair. */
    { "\xf0\x9f\x98\x80 \xf0\x90\x80\x80", "\"\xf0\x9f\x98\x80 \xf0\x90\x80\x80\"" },
    { "", "\"\"" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = NULL;
      g_autofree char *back = round_trip_string (cases[i].value, &text);

      g_assert_cmpstr (text, ==, cases[i].text);
      g_assert_cmpstr (back, ==, cases[i].value);
    }
}

/* Bytes that are not UTF-8 (a file name in another encoding) still make valid JSON. */
static void
test_invalid_utf8 (void)
{
  g_autofree char *text = NULL;
  g_autofree char *back = round_trip_string ("caf\xe9 \xff\xfe end", &text);

  g_assert_cmpstr (back, ==, "caf\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd end");
}

/* The CLI's report: two spaces a level, short lists on one line, empty containers closed. */
static void
test_pretty (void)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (WsJsonWriter) w = ws_json_writer_new (out, TRUE);

  ws_json_writer_begin_object (w, NULL);
  ws_json_writer_string (w, "file", "s.jsonl");
  ws_json_writer_begin_inline_array (w, "block");
  for (int i = 0; i < 3; i++)
    ws_json_writer_int (w, NULL, i == 0 ? 256 : 1);
  ws_json_writer_end_array (w);
  ws_json_writer_begin_array (w, "errors");
  ws_json_writer_end_array (w);
  ws_json_writer_begin_array (w, "runs");
  ws_json_writer_begin_object (w, NULL);
  ws_json_writer_null (w, "device");
  ws_json_writer_bool (w, "verified", TRUE);
  ws_json_writer_end_object (w);
  ws_json_writer_end_array (w);
  ws_json_writer_end_object (w);
  g_assert_cmpstr (out->str, ==,
                   "{\n"
                   "  \"file\": \"s.jsonl\",\n"
                   "  \"block\": [256, 1, 1],\n"
                   "  \"errors\": [],\n"
                   "  \"runs\": [\n"
                   "    {\n"
                   "      \"device\": null,\n"
                   "      \"verified\": true\n"
                   "    }\n"
                   "  ]\n"
                   "}");
}

/* Compact: JSON Lines records one after another, and an array read a line per element. */
static void
test_compact (void)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (WsJsonWriter) w = ws_json_writer_new (out, FALSE);

  for (int r = 0; r < 2; r++)
    {
      ws_json_writer_begin_object (w, NULL);
      ws_json_writer_string (w, "type", "progress");
      ws_json_writer_int (w, "done", r + 1);
      ws_json_writer_end_object (w);
      g_string_append_c (out, '\n');
    }
  ws_json_writer_begin_object (w, NULL);
  ws_json_writer_begin_array (w, "events");
  for (int e = 0; e < 2; e++)
    {
      ws_json_writer_newline (w);
      ws_json_writer_begin_object (w, NULL);
      ws_json_writer_int (w, "e", e);
      ws_json_writer_end_object (w);
    }
  ws_json_writer_newline (w);
  ws_json_writer_end_array (w);
  ws_json_writer_end_object (w);
  g_assert_cmpstr (out->str, ==,
                   "{\"type\":\"progress\",\"done\":1}\n"
                   "{\"type\":\"progress\",\"done\":2}\n"
                   "{\"events\":[\n{\"e\":0},\n{\"e\":1}\n]}");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json-writer/doubles/round-trip", test_doubles_round_trip);
  g_test_add_func ("/json-writer/doubles/random", test_doubles_random);
  g_test_add_func ("/json-writer/doubles/not-finite", test_not_finite);
  g_test_add_func ("/json-writer/integers", test_integers);
  g_test_add_func ("/json-writer/strings/escaping", test_escaping);
  g_test_add_func ("/json-writer/strings/invalid-utf8", test_invalid_utf8);
  g_test_add_func ("/json-writer/pretty", test_pretty);
  g_test_add_func ("/json-writer/compact", test_compact);
  return g_test_run ();
}

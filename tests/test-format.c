/* test-format.c: text for people: numbers in groups, durations, and text from files made safe
 * for a terminal.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "ws-format.h"
#include "ws-units.h"

static void
test_grouped (void)
{
  g_autofree char *zero = ws_units_grouped (0);
  g_autofree char *ten_million = ws_units_grouped (10000000);

  g_assert_cmpstr (zero, ==, "0");
  g_assert_cmpstr (ten_million, ==, "10,000,000");
}

static void
test_escape (void)
{
  const struct
  {
    const char *text;
    WsEscapeFlags keep;
    const char *want;
  } cases[] = {
    /* Sets the window title; clears the screen; a hyperlink (OSC 8). */
    { "k\033]0;pwned\007", WS_ESCAPE_KEEP_NONE, "k\\x1b]0;pwned\\x07" },
    { "\033[2J\033[H", WS_ESCAPE_KEEP_NONE, "\\x1b[2J\\x1b[H" },
    { "\033]8;;http://x\033\\link\033]8;;\033\\", WS_ESCAPE_KEEP_NONE,
      "\\x1b]8;;http://x\\x1b\\link\\x1b]8;;\\x1b\\" },
    /* A carriage return that would overwrite the line; DEL; NUL cannot be in a C string. */
    { "ok\rfake", WS_ESCAPE_KEEP_NEWLINE, "ok\\x0dfake" },
    { "a\177b", WS_ESCAPE_KEEP_NONE, "a\\x7fb" },
    /* C1 controls as UTF-8 (CSI U+009B), and as lone bytes, which are not UTF-8. */
    { "a\302\2332Jb", WS_ESCAPE_KEEP_NONE, "a\\u009b2Jb" },
    { "a\2332J", WS_ESCAPE_KEEP_NONE, "a\\x9b2J" },
    { "\377\376", WS_ESCAPE_KEEP_NONE, "\\xff\\xfe" },
    /* Bidirectional override and isolate (U+202E, U+2066). */
    { "add\342\200\256gnp.exe", WS_ESCAPE_KEEP_NONE, "add\\u202egnp.exe" },
    { "\342\201\246x", WS_ESCAPE_KEEP_NONE, "\\u2066x" },
    /* The marks, which move what stands around them (U+200F, U+200E, U+061C). */
    { "a\342\200\217b\342\200\216\330\234", WS_ESCAPE_KEEP_NONE, "a\\u200fb\\u200e\\u061c" },
    /* Newline and tab where the caller lays text out with them, escaped elsewhere. */
    { "a\nb\tc", WS_ESCAPE_KEEP_NEWLINE | WS_ESCAPE_KEEP_TAB, "a\nb\tc" },
    { "a\nb\tc", WS_ESCAPE_KEEP_NEWLINE, "a\nb\\x09c" },
    { "a\nb\tc", WS_ESCAPE_KEEP_NONE, "a\\x0ab\\x09c" },
    /* What people write stays as it is. */
    { "矩阵乘法，共享内存分块 — 37.4 µs ≈ 410³ ×", WS_ESCAPE_KEEP_NONE,
      "矩阵乘法，共享内存分块 — 37.4 µs ≈ 410³ ×" },
    { "", WS_ESCAPE_KEEP_NONE, "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = ws_format_escape_controls (cases[i].text, cases[i].keep);

      g_assert_cmpstr (got, ==, cases[i].want);
      g_assert_true (g_utf8_validate (got, -1, NULL));
    }
  {
    g_autofree char *none = ws_format_escape_controls (NULL, WS_ESCAPE_KEEP_NONE);

    g_assert_cmpstr (none, ==, "");
  }
}

/* One CSV field, whatever the text: quoted only where it must be, every character kept but
 * the controls, which are escaped. */
static void
test_csv_field (void)
{
  static const struct
  {
    const char *text;
    const char *want;
  } cases[] = {
    { "vector_add", "vector_add" },
    { "TILE=16, UNROLL=2", "\"TILE=16, UNROLL=2\"" },
    { "say \"hi\"", "\"say \"\"hi\"\"\"" },
    { "two\nlines", "\"two\nlines\"" },
    /* A carriage return, a C1 control, an override: shown, not obeyed. */
    { "cr\r", "cr\\x0d" },
    { "k\302\2332J\342\200\256x, y", "\"k\\u009b2J\\u202ex, y\"" },
    { "矩阵; 37.4 µs", "矩阵; 37.4 µs" },
    { "", "" },
    { NULL, "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GString) out = g_string_new ("x,");

      ws_format_append_csv_field (out, cases[i].text);
      g_assert_cmpstr (out->str + 2, ==, cases[i].want);
    }
}

/* Numbers in a CSV read back as the same double, in the shortest text that does, whatever
 * the locale's decimal point. */
static void
test_csv_number (void)
{
  const struct
  {
    double value;
    const char *want;
  } cases[] = {
    { 0.84, "0.84" },
    { 1000, "1000" },
    { 123456789012345, "123456789012345" },
    { 1e15, "1e+15" },
    { 1234567890123456, "1234567890123456" },
    { 0.1 + 0.2, "0.30000000000000004" },
    { 1e-4, "0.0001" },
    { 1e-8, "1e-08" },
    { -2.5, "-2.5" },
    { 5e-324, "5e-324" },
    { 0.0, "0" },
    { -0.0, "0" },
    { NAN, "" },
    { INFINITY, "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GString) out = g_string_new ("x,");

      ws_format_append_csv_number (out, cases[i].value);
      g_assert_cmpstr (out->str + 2, ==, cases[i].want);
      if (*cases[i].want != '\0')
        g_assert_cmpfloat (g_ascii_strtod (out->str + 2, NULL), ==, cases[i].value);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/format/grouped", test_grouped);
  g_test_add_func ("/format/escape", test_escape);
  g_test_add_func ("/format/csv-field", test_csv_field);
  g_test_add_func ("/format/csv-number", test_csv_number);
  return g_test_run ();
}

/* test-kernel-file-expr.c: the expressions of an own kernel's header (src/common/ws-expr.c):
 * their values, types and errors, and nesting capped rather than overflowing the stack.
 * No GPU.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "ws-expr.h"

static int
lookup (const char *name, size_t len, WsExprValue *v, void *data)
{
  (void) data;
  memset (v, 0, sizeof *v);
  if (len == 1 && name[0] == 'n')
    v->i = 1000, v->d = 1000;
  else if (len == 7 && strncmp (name, "block.x", 7) == 0)
    v->i = 256, v->d = 256;
  else if (len == 1 && name[0] == 'z')
    v->i = 0;
  else
    return 0;
  return 1;
}

static void
test_expr_values (void)
{
  static const struct
  {
    const char *text;
    double value;
    int real;
  } cases[] = {
    { "1 + 2 * 3", 7, 0 },
    { "(1 + 2) * 3", 9, 0 },
    { "7 / 2", 3, 0 },        /* C's integers */
    { "-7 / 2", -3, 0 },
    { "7 % 3", 1, 0 },
    { "7.0 / 2", 3.5, 1 },
    { "1e3", 1000, 1 },
    { "0x10", 16, 0 },
    { "ceil_div(n, block.x)", 4, 0 },
    { "ceil_div(1024, 256)", 4, 0 },
    { "ceil_div(0, 256)", 0, 0 },
    { "min(3, n, 2)", 2, 0 },
    { "max(3, 2.5)", 3, 1 },  /* a real argument makes it real, as in C */
    { "max(2, 2.5)", 2.5, 1 },
    { "n > 999 && n < 1001", 1, 0 },
    { "n == 1 || !z", 1, 0 },
    { "z ? 1 : 2", 2, 0 },
    { "n >= 1000 ? n / 10 : 0", 100, 0 },
    /* The untaken side is read, not judged. */
    { "z > 0 ? 10 / z : -1", -1, 0 },
    { "z != 0 && 10 / z > 1", 0, 0 },
    { "z == 0 || 10 / z > 1", 1, 0 },
    { "--n", 1000, 0 },
    { "2 * -3", -6, 0 },
    { "9223372036854775807", 9223372036854775807.0, 0 },
  };
  static const struct
  {
    const char *text;
    const char *message;
    size_t pos;
  } errors[] = {
    { "1 +", "ends where", 3 },
    { "(1 + 2", "expected ')'", 6 },
    { "1 2", "unexpected '2'", 2 },
    { "nn + 1", "unknown name 'nn'", 0 },
    { "block.w", "x, y or z", 5 },
    { "foo(1)", "no function 'foo'", 0 },
    { "ceil_div(1)", "two numbers", 0 },
    { "10 / z", "division by zero", 3 },
    { "10 % z", "by zero", 3 },
    { "9223372036854775807 + 1", "overflows", 20 },
    { "99999999999999999999", "too large", 0 },
    { "1.0f", "suffixes", 3 },
    { "1 < 2 < 3", "do not chain", 6 },
    { "2.5 % 2", "whole numbers", 4 },
    { "1 ? 2", "expected ':'", 5 },
    { "", "ends where", 0 },
    { "#", "not '#'", 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      WsExprValue v;
      WsExprError err;

      if (!ws_expr_eval (cases[i].text, lookup, NULL, 0, &v, &err))
        g_error ("%s: %s", cases[i].text, err.message);
      g_assert_cmpfloat (ws_expr_double (v), ==, cases[i].value);
      g_assert_cmpint (v.real, ==, cases[i].real);
    }
  for (guint i = 0; i < G_N_ELEMENTS (errors); i++)
    {
      WsExprValue v;
      WsExprError err;

      g_assert_false (ws_expr_eval (errors[i].text, lookup, NULL, 0, &v, &err));
      if (strstr (err.message, errors[i].message) == NULL)
        g_error ("%s: got “%s”, expected “%s”", errors[i].text, err.message, errors[i].message);
      g_assert_cmpuint (err.pos, ==, errors[i].pos);
    }
  /* Checking only: the values are unknown, so arithmetic cannot fail, but names can. */
  {
    WsExprValue v;
    WsExprError err;

    g_assert_true (ws_expr_eval ("10 / z + 9223372036854775807 * 2", lookup, NULL, 1, &v, &err));
    g_assert_false (ws_expr_eval ("10 / q", lookup, NULL, 1, &v, &err));
    g_assert_true (err.unknown_name);
  }
}

/* Nesting is capped: a million '(' or '-' is an error, not a stack overflow. */
static void
test_expr_depth (void)
{
  const char *prefixes[] = { "(", "-", "!", "min(1," };

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    {
      GString *text = g_string_new (NULL);
      WsExprValue v;
      WsExprError err;

      for (int j = 0; j < 1000000; j++)
        g_string_append (text, prefixes[i]);
      g_string_append (text, "1");
      g_assert_false (ws_expr_eval (text->str, lookup, NULL, 0, &v, &err));
      g_assert_nonnull (strstr (err.message, "nested deeper than"));
      g_string_free (text, TRUE);
    }
  {
    WsExprValue v;
    WsExprError err;
    GString *text = g_string_new (NULL);

    /* Just within the cap. */
    for (int j = 0; j < WS_EXPR_MAX_DEPTH - 2; j++)
      g_string_append_c (text, '(');
    g_string_append_c (text, '1');
    for (int j = 0; j < WS_EXPR_MAX_DEPTH - 2; j++)
      g_string_append_c (text, ')');
    g_assert_true (ws_expr_eval (text->str, lookup, NULL, 0, &v, &err));
    g_string_free (text, TRUE);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/kernel-file/expr/values", test_expr_values);
  g_test_add_func ("/kernel-file/expr/depth", test_expr_depth);
  return g_test_run ();
}

/* ws-expr.c: evaluating a header expression straight from its text.
 *
 *   expr  := or ('?' expr ':' expr)?
 *   or    := and ('||' and)*          and := cmp ('&&' cmp)*
 *   cmp   := sum (('==' | '!=' | '<' | '<=' | '>' | '>=') sum)?
 *   sum   := prod (('+' | '-') prod)*  prod := unary (('*' | '/' | '%') unary)*
 *   unary := ('-' | '+' | '!') unary | primary
 *   primary := NUMBER | NAME | NAME '(' expr (',' expr)* ')' | '(' expr ')'
 *
 * NAME is an identifier, optionally with .x, .y or .z (block.x). The untaken side of ?:,
 * && and || is still read (so that a typo there is found) but not judged: `n > 0 ? 10 / n
 * : 0` is fine at n = 0.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-expr.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  const char *text;
  size_t pos;
  int depth;
  int skip;         /* > 0: values are not judged (untaken branch, or check only) */
  WsExprLookup lookup;
  void *data;
  WsExprError *err;
  int failed;
} Parser;

static int
fail_at (Parser *p, size_t pos, const char *fmt, ...)
{
  va_list ap;

  if (p->failed)
    return 0;
  p->failed = 1;
  p->err->pos = pos;
  va_start (ap, fmt);
  vsnprintf (p->err->message, sizeof p->err->message, fmt, ap);
  va_end (ap);
  return 0;
}

/* An arithmetic trouble that only counts when the value is used. */
static int
value_fail (Parser *p, size_t pos, const char *what)
{
  if (p->skip > 0)
    return 1;
  return fail_at (p, pos, "%s", what);
}

static void
spaces (Parser *p)
{
  while (p->text[p->pos] == ' ' || p->text[p->pos] == '\t')
    p->pos++;
}

static int
peek2 (Parser *p, const char *op)
{
  spaces (p);
  return strncmp (p->text + p->pos, op, strlen (op)) == 0;
}

static WsExprValue
int_value (int64_t i)
{
  WsExprValue v = { 0, i, (double) i };

  return v;
}

static WsExprValue
real_value (double d)
{
  WsExprValue v = { 1, 0, d };

  return v;
}

double
ws_expr_double (WsExprValue v)
{
  return v.real ? v.d : (double) v.i;
}

int
ws_expr_whole (WsExprValue v, int64_t *out)
{
  if (!v.real)
    {
      *out = v.i;
      return 1;
    }
  if (!isfinite (v.d) || v.d != floor (v.d) || v.d < -9.2e18 || v.d > 9.2e18)
    return 0;
  *out = (int64_t) v.d;
  return 1;
}

static int truthy (WsExprValue v) { return v.real ? v.d != 0 : v.i != 0; }

static int parse_expr (Parser *p, WsExprValue *out);

static int
parse_number (Parser *p, WsExprValue *out)
{
  const char *s = p->text + p->pos;
  size_t len = 0;
  int real = 0;
  char buf[64];

  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    {
      uint64_t v = 0;

      len = 2;
      if (!isxdigit ((unsigned char) s[len]))
        return fail_at (p, p->pos, "a hexadecimal number needs digits after 0x");
      for (; isxdigit ((unsigned char) s[len]); len++)
        {
          int d = isdigit ((unsigned char) s[len]) ? s[len] - '0'
                                                   : tolower ((unsigned char) s[len]) - 'a' + 10;

          if (v > (UINT64_C (0x7fffffffffffffff) >> 4))
            return fail_at (p, p->pos, "the number is too large for 64-bit integers");
          v = v * 16 + (uint64_t) d;
        }
      p->pos += len;
      *out = int_value ((int64_t) v);
      return 1;
    }
  while (isdigit ((unsigned char) s[len]))
    len++;
  if (s[len] == '.')
    {
      real = 1;
      len++;
      while (isdigit ((unsigned char) s[len]))
        len++;
    }
  if ((s[len] == 'e' || s[len] == 'E')
      && (isdigit ((unsigned char) s[len + 1])
          || ((s[len + 1] == '-' || s[len + 1] == '+') && isdigit ((unsigned char) s[len + 2]))))
    {
      real = 1;
      len += 2;
      while (isdigit ((unsigned char) s[len]))
        len++;
    }
  if (isalpha ((unsigned char) s[len]) || s[len] == '_')
    return fail_at (p, p->pos + len, "a number runs into letters here (no suffixes such as "
                                     "1.0f or 10u: write 1.0 or 10)");
  if (len >= sizeof buf)
    return fail_at (p, p->pos, "the number is too long");
  memcpy (buf, s, len);
  buf[len] = '\0';
  errno = 0;
  if (real)
    {
      double d = strtod (buf, NULL);

      if (errno != 0 || !isfinite (d))
        return fail_at (p, p->pos, "the number %s is out of range", buf);
      *out = real_value (d);
    }
  else
    {
      unsigned long long v = strtoull (buf, NULL, 10);

      if (errno != 0 || v > (unsigned long long) INT64_MAX)
        return fail_at (p, p->pos, "the number %s is too large for 64-bit integers", buf);
      *out = int_value ((int64_t) v);
    }
  p->pos += len;
  return 1;
}

static int
ceil_div (Parser *p, size_t pos, WsExprValue a, WsExprValue b, WsExprValue *out)
{
  int64_t x, y, q;

  if (!ws_expr_whole (a, &x) || !ws_expr_whole (b, &y))
    return fail_at (p, pos, "ceil_div takes whole numbers");
  if (y <= 0)
    {
      *out = int_value (0);
      return value_fail (p, pos, "ceil_div: the divisor must be above 0");
    }
  q = x / y;
  if (x % y != 0 && x > 0)
    q++;
  *out = int_value (q);
  return 1;
}

static int
call (Parser *p, const char *name, size_t len, size_t pos, WsExprValue *out)
{
  WsExprValue args[8];
  int n = 0;

  p->pos++; /* '(' */
  spaces (p);
  if (p->text[p->pos] != ')')
    for (;;)
      {
        if (n == 8)
          return fail_at (p, p->pos, "a function takes at most 8 arguments");
        if (!parse_expr (p, &args[n++]))
          return 0;
        spaces (p);
        if (p->text[p->pos] == ',')
          {
            p->pos++;
            continue;
          }
        break;
      }
  spaces (p);
  if (p->text[p->pos] != ')')
    return fail_at (p, p->pos, "expected ',' or ')' in the call of %.*s", (int) len, name);
  p->pos++;
  if (len == 8 && strncmp (name, "ceil_div", 8) == 0)
    {
      if (n != 2)
        return fail_at (p, pos, "ceil_div takes two numbers: ceil_div(n, block.x)");
      return ceil_div (p, pos, args[0], args[1], out);
    }
  if ((len == 3 && strncmp (name, "min", 3) == 0) || (len == 3 && strncmp (name, "max", 3) == 0))
    {
      int is_min = name[1] == 'i';

      if (n < 2)
        return fail_at (p, pos, "%s takes two numbers or more", is_min ? "min" : "max");
      *out = args[0];
      for (int i = 1; i < n; i++)
        {
          double a = ws_expr_double (*out), b = ws_expr_double (args[i]);
          int take = is_min ? b < a : b > a;

          if (!out->real && !args[i].real)
            take = is_min ? args[i].i < out->i : args[i].i > out->i;
          if (take)
            *out = args[i];
          if (args[i].real && !out->real)
            *out = real_value (ws_expr_double (*out));
        }
      return 1;
    }
  return fail_at (p, pos, "there is no function '%.*s'; the functions are ceil_div, min and max",
                  (int) len, name);
}

static int
parse_primary (Parser *p, WsExprValue *out)
{
  const char *s;
  size_t start;

  spaces (p);
  start = p->pos;
  s = p->text + p->pos;
  if (*s == '(')
    {
      p->pos++;
      if (!parse_expr (p, out))
        return 0;
      spaces (p);
      if (p->text[p->pos] != ')')
        return fail_at (p, p->pos, "expected ')' to close the '(' at column %zu", start + 1);
      p->pos++;
      return 1;
    }
  if (isdigit ((unsigned char) *s) || (*s == '.' && isdigit ((unsigned char) s[1])))
    return parse_number (p, out);
  if (isalpha ((unsigned char) *s) || *s == '_')
    {
      size_t len = 0;

      while (isalnum ((unsigned char) s[len]) || s[len] == '_')
        len++;
      if (s[len] == '.')
        {
          if (!(s[len + 1] == 'x' || s[len + 1] == 'y' || s[len + 1] == 'z')
              || isalnum ((unsigned char) s[len + 2]) || s[len + 2] == '_')
            return fail_at (p, start + len, "after '%.*s.' comes x, y or z", (int) len, s);
          len += 2;
        }
      p->pos += len;
      spaces (p);
      if (p->text[p->pos] == '(')
        return call (p, s, len, start, out);
      if (!p->lookup (s, len, out, p->data))
        {
          p->err->unknown_name = 1;
          return fail_at (p, start, "unknown name '%.*s'", (int) (len < 64 ? len : 64), s);
        }
      return 1;
    }
  if (*s == '\0')
    return fail_at (p, start, "the expression ends where a number or a name was expected");
  return fail_at (p, start, "expected a number, a name or '(' here, not '%c'",
                  isprint ((unsigned char) *s) ? *s : '?');
}

static int
parse_unary (Parser *p, WsExprValue *out)
{
  char op;
  int ok;

  spaces (p);
  op = p->text[p->pos];
  if (op != '-' && op != '+' && op != '!')
    return parse_primary (p, out);
  if (++p->depth > WS_EXPR_MAX_DEPTH)
    return fail_at (p, p->pos, "the expression is nested deeper than %d levels",
                    WS_EXPR_MAX_DEPTH);
  p->pos++;
  ok = parse_unary (p, out);
  p->depth--;
  if (!ok)
    return 0;
  if (op == '!')
    *out = int_value (!truthy (*out));
  else if (op == '-')
    {
      if (out->real)
        out->d = -out->d;
      else if (out->i == INT64_MIN)
        return value_fail (p, p->pos, "the number overflows 64-bit integers");
      else
        *out = int_value (-out->i);
    }
  return 1;
}

/* a op b for + - * / %, with C's integer rules and overflow refused. */
static int
arith (Parser *p, size_t pos, char op, WsExprValue a, WsExprValue b, WsExprValue *out)
{
  if (a.real || b.real)
    {
      double x = ws_expr_double (a), y = ws_expr_double (b), r = 0;

      if (op == '%')
        return fail_at (p, pos, "%% takes whole numbers");
      if (op == '/' && y == 0)
        {
          *out = real_value (0);
          return value_fail (p, pos, "division by zero");
        }
      r = op == '+' ? x + y : op == '-' ? x - y : op == '*' ? x * y : x / y;
      *out = real_value (r);
      if (!isfinite (r))
        return value_fail (p, pos, "the result is too large");
      return 1;
    }
  {
    int64_t r = 0;
    int overflow = 0;

    switch (op)
      {
      case '+': overflow = __builtin_add_overflow (a.i, b.i, &r); break;
      case '-': overflow = __builtin_sub_overflow (a.i, b.i, &r); break;
      case '*': overflow = __builtin_mul_overflow (a.i, b.i, &r); break;
      default:
        if (b.i == 0)
          {
            *out = int_value (0);
            return value_fail (p, pos, op == '/' ? "division by zero" : "%% by zero");
          }
        if (a.i == INT64_MIN && b.i == -1)
          overflow = 1;
        else
          r = op == '/' ? a.i / b.i : a.i % b.i;
        break;
      }
    *out = int_value (overflow ? 0 : r);
    if (overflow)
      return value_fail (p, pos, "the result overflows 64-bit integers");
    return 1;
  }
}

static int
parse_prod (Parser *p, WsExprValue *out)
{
  if (!parse_unary (p, out))
    return 0;
  for (;;)
    {
      char op;
      size_t pos;
      WsExprValue b;

      spaces (p);
      op = p->text[p->pos];
      if (op != '*' && op != '/' && op != '%')
        return 1;
      pos = p->pos++;
      if (!parse_unary (p, &b) || !arith (p, pos, op, *out, b, out))
        return 0;
    }
}

static int
parse_sum (Parser *p, WsExprValue *out)
{
  if (!parse_prod (p, out))
    return 0;
  for (;;)
    {
      char op;
      size_t pos;
      WsExprValue b;

      spaces (p);
      op = p->text[p->pos];
      if (op != '+' && op != '-')
        return 1;
      pos = p->pos++;
      if (!parse_prod (p, &b) || !arith (p, pos, op, *out, b, out))
        return 0;
    }
}

static int
parse_cmp (Parser *p, WsExprValue *out)
{
  static const char *const ops[] = { "==", "!=", "<=", ">=", "<", ">" };
  WsExprValue b;
  int op = -1, r;

  if (!parse_sum (p, out))
    return 0;
  spaces (p);
  for (int i = 0; i < 6 && op < 0; i++)
    if (peek2 (p, ops[i]))
      op = i;
  if (op < 0)
    return 1;
  p->pos += strlen (ops[op]);
  if (!parse_sum (p, &b))
    return 0;
  if (out->real || b.real)
    {
      double x = ws_expr_double (*out), y = ws_expr_double (b);

      r = op == 0 ? x == y : op == 1 ? x != y : op == 2 ? x <= y : op == 3 ? x >= y
          : op == 4 ? x < y : x > y;
    }
  else
    {
      int64_t x = out->i, y = b.i;

      r = op == 0 ? x == y : op == 1 ? x != y : op == 2 ? x <= y : op == 3 ? x >= y
          : op == 4 ? x < y : x > y;
    }
  *out = int_value (r);
  spaces (p);
  if (strchr ("=!<>", p->text[p->pos]) != NULL && p->text[p->pos] != '\0')
    return fail_at (p, p->pos, "comparisons do not chain: write a < b && b < c");
  return 1;
}

/* Both kinds of logic: the right side is read, and judged only when it decides. */
static int
parse_logic (Parser *p, WsExprValue *out, int is_or)
{
  const char *op = is_or ? "||" : "&&";

  if (!(is_or ? parse_logic (p, out, 0) : parse_cmp (p, out)))
    return 0;
  while (peek2 (p, op))
    {
      WsExprValue b;
      int decided = is_or ? truthy (*out) : !truthy (*out), ok;

      p->pos += 2;
      p->skip += decided;
      ok = is_or ? parse_logic (p, &b, 0) : parse_cmp (p, &b);
      p->skip -= decided;
      if (!ok)
        return 0;
      *out = int_value (decided ? is_or : truthy (b));
    }
  return 1;
}

static int
parse_expr (Parser *p, WsExprValue *out)
{
  WsExprValue a, b;
  int cond, ok;

  if (++p->depth > WS_EXPR_MAX_DEPTH)
    return fail_at (p, p->pos, "the expression is nested deeper than %d levels",
                    WS_EXPR_MAX_DEPTH);
  ok = parse_logic (p, out, 1);
  if (ok && peek2 (p, "?"))
    {
      p->pos++;
      cond = truthy (*out);
      p->skip += !cond;
      ok = parse_expr (p, &a);
      p->skip -= !cond;
      spaces (p);
      if (ok && p->text[p->pos] != ':')
        ok = fail_at (p, p->pos, "expected ':' of the '?' here");
      if (ok)
        {
          p->pos++;
          p->skip += cond;
          ok = parse_expr (p, &b);
          p->skip -= cond;
          *out = cond ? a : b;
        }
    }
  p->depth--;
  return ok;
}

int
ws_expr_eval (const char *text, WsExprLookup lookup, void *data, int check_only,
              WsExprValue *out, WsExprError *err)
{
  Parser p = { text, 0, 0, check_only ? 1 : 0, lookup, data, err, 0 };
  WsExprValue v = { 0, 0, 0 };

  memset (err, 0, sizeof *err);
  if (!parse_expr (&p, &v))
    return 0;
  spaces (&p);
  if (text[p.pos] != '\0')
    return fail_at (&p, p.pos, "unexpected '%c' after the end of the expression",
                    isprint ((unsigned char) text[p.pos]) ? text[p.pos] : '?');
  *out = v;
  return 1;
}

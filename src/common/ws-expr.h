/* ws-expr.h: the expressions of a kernel file's header (docs/own-kernels.md), such as
 * ceil_div(n, block.x) or TILE * UNROLL <= 64: a recursive-descent evaluator over the text,
 * with no allocation and a cap on nesting, that needs neither GLib nor CUDA.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Parentheses, unary operators and function calls nested deeper than this are refused: the
 * evaluator recurses once per level. No header needs more than a few. */
#define WS_EXPR_MAX_DEPTH 32

/* A value: a whole number (int64, C's arithmetic: 7 / 2 is 3) or a real number (a literal
 * with a point or an exponent, or anything computed from one). */
typedef struct
{
  int real;
  int64_t i;
  double d;
} WsExprValue;

/* Looks up a name ("n", "block.x", "TILE"): 1 and the value when it is known, 0 when not. */
typedef int (*WsExprLookup) (const char *name, size_t len, WsExprValue *value, void *data);

typedef struct
{
  size_t pos;          /* byte offset in the text where it went wrong */
  int unknown_name;    /* the trouble is a name the lookup did not know */
  char message[192];
} WsExprError;

/* Evaluates `text` (NUL-terminated). With `check_only`, only the form and the names are
 * checked: division by zero and overflow are not errors then (the values are not known).
 * Returns 1 with the value, or 0 with `err` filled in. */
int ws_expr_eval (const char *text, WsExprLookup lookup, void *data, int check_only,
                  WsExprValue *out, WsExprError *err);

double ws_expr_double (WsExprValue v);
/* A whole number: an integer value, or a real one that is whole and in int64's range. */
int ws_expr_whole (WsExprValue v, int64_t *out);

#ifdef __cplusplus
}
#endif

/* ws-kernel-file-private.h: what the two halves of the header parser share.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-kernel-file.h"

/* Lines on which the keys that may be given once were given (0: not yet). */
typedef struct
{
  int kernel, title, description, size, block, grid, verify, tolerance, flops, bytes, options;
} Seen;

/* One line of the header being read: `start` is the line's text from its first byte, so that
 * a pointer into it gives the column in the file. */
typedef struct
{
  WsKernelFile *kf;
  int line;
  const char *start;
  int key_col, value_col;
  Seen *seen;
} Line;

static inline int
_ws_kf_col (const Line *ln, const char *p)
{
  return (int) (p - ln->start) + 1;
}

void _ws_kf_error (WsKernelFile *kf, int line, int column, const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));
const char *_ws_kf_skip (const char *p);
int _ws_kf_copy (char *dst, size_t cap, const char *p, size_t n);

/* ws-kernel-file.c: readers over one value. */
/* The end of the item that starts at p: the next comma outside parentheses and brackets. */
const char *_ws_kf_item_end (const char *p);
/* Fills e from [p, p + n), at the line's place of p; 0 after an error. */
int _ws_kf_take_expr (Line *ln, WsKfExpr *e, const char *p, size_t n, const char *what);
/* The length of the name at p; 0 when there is none. */
size_t _ws_kf_name_at (const char *p);
/* A number of [p, p + n): strtod's, finite, no hexadecimal, no inf or nan. */
int _ws_kf_number (const char *p, size_t n, double *out);

/* ws-kernel-file-keys.c: one reader per key; each reports its own errors. */
int _ws_kf_kernel_name (Line *ln, char *dst, size_t cap, const char *v, const char *key);
void _ws_kf_size (Line *ln, const char *v);
void _ws_kf_arg (Line *ln, const char *name, size_t name_len, const char *v);
void _ws_kf_param (Line *ln, const char *name, size_t name_len, const char *v);
int _ws_kf_block_dims (Line *ln, const char *p, int *rank, unsigned dims[3], const char *key);
void _ws_kf_grid (Line *ln, const char *v);
void _ws_kf_verify (Line *ln, const char *v);
void _ws_kf_tolerance (Line *ln, const char *v);
void _ws_kf_options (Line *ln, const char *v);

/* ws-kernel-file-check.c */
/* 0 (after an error) when `key` may be given once and already was. */
int _ws_kf_once (Line *ln, const char *key);
/* The checks that need the whole header; sorts the errors by line. */
void _ws_kf_check (WsKernelFile *kf, const char *text, size_t len);

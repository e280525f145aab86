/* ws-args-private.h: what the files of the runner's argument parser share (ws-args.c, the
 * options one by one; ws-args-lists.c, --sizes and --blocks; ws-args-values.c, the other
 * values; ws-args-check.c, the options together).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-args.h"

/* Fills err and returns 0, so that a refusal is one statement: return fail (err, …). */
int _ws_args_fail (WsArgError *err, WsErrorCode code, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));
#define fail _ws_args_fail

/* A whole number written as digits or in exponent form (1e7, 2.5e3); 0 when it is not one,
 * with *negative set when it is below zero. */
int _ws_args_parse_count (const char *s, size_t len, uint64_t *out, int *negative);

/* --sizes and --blocks: each replaces the list given before. */
int _ws_args_parse_sizes (WsOptions *opts, const char *value, WsArgError *err);
int _ws_args_parse_blocks (WsOptions *opts, const char *value, WsArgError *err);

/* A whole number from min to max. */
int _ws_args_parse_int (const char *option, const char *value, long min, long max, long *out,
                        WsArgError *err);
int _ws_args_parse_kernels (WsOptions *opts, const char *list, WsArgError *err);
int _ws_args_parse_transfers (WsOptions *opts, const char *list, WsArgError *err);
int _ws_args_parse_cpu (WsOptions *opts, const char *value, WsArgError *err);
int _ws_args_parse_param (WsOptions *opts, const char *value, WsArgError *err);
int _ws_args_parse_arch (WsOptions *opts, const char *value, WsArgError *err);

/* The options of own kernels with one another and with the rest. */
int _ws_args_check_own (WsOptions *opts, WsArgError *err);

/* ws-runner-trace-private.h: what the files of the runner's trace mode share: its options, the
 * points of a sweep, and the lookups of the program and of the injection library.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>

#include "ws-args.h"

#define WS_TRACE_MAX_PARAMS 8
#define WS_TRACE_MAX_VALUES 1000 /* values of one --sweep */
#define WS_TRACE_MAX_POINTS 1000 /* program runs of one sweep */
#define WS_TRACE_MAX_ENV 64

typedef struct
{
  char name[64];
  char *values[WS_TRACE_MAX_VALUES];
  int n_values;
} WsTraceParam;

typedef struct
{
  WsTraceParam params[WS_TRACE_MAX_PARAMS];
  int n_params;
  char *env_names[WS_TRACE_MAX_ENV];
  char *env_values[WS_TRACE_MAX_ENV]; /* may hold {NAME} of a parameter */
  int n_env;
  const char *cwd;                    /* NULL: the runner's; may hold {NAME} */
  double timeout_s;                   /* 0: none; per program run */
  int ceilings;                       /* measure the copy bandwidths after the program */
  int help;
  char **argv;                        /* the program and its arguments (borrowed) */
  int argc;
} WsTraceOptions;

/* Returns 1 when argv is usable; else 0 with err filled in (code bad_argument). */
int _ws_trace_parse (int argc, char **argv, WsTraceOptions *opts, WsArgError *err);
void _ws_trace_options_clear (WsTraceOptions *opts);

/* The number of program runs: the product of the sweeps' value counts (1 without a sweep). */
int _ws_trace_n_points (const WsTraceOptions *opts);
/* The value of each parameter at point `point` (0-based); the first --sweep varies slowest. */
void _ws_trace_point_values (const WsTraceOptions *opts, int point, const char **values);
/* `text` with every {NAME} of a parameter replaced by its value; malloc'd, NULL when out of
 * memory. */
char *_ws_trace_substitute (const WsTraceOptions *opts, const char *const *values,
                            const char *text);

/* The executable `name` stands for: itself when it holds a '/', else the first match on
 * PATH. 0 and *error (ENOENT: nowhere; EACCES: found but not executable, or a folder) when
 * there is none to run. */
int _ws_trace_find_program (const char *name, char *path, size_t len, int *error);

/* libwarpscope-inject.so: $WARPSCOPE_INJECT, else beside the runner in the build tree, else
 * where it is installed relative to the runner, else its configured install path. 0 when
 * none is there; `looked` then lists where it looked. */
int _ws_trace_find_inject (char *path, size_t len, char *looked, size_t looked_len);

extern const char _ws_trace_usage[];

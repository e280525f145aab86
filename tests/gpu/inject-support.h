/* inject-support.h: running a program under libwarpscope-inject and asking its trace
 * questions, for test-gpu-inject.c (no GLib: these tests build on GPU servers).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>

#include "gpu-support.h"

typedef struct
{
  char name[64];
  JValue **records; /* every line of the trace that parsed, in order */
  size_t len;
  size_t bad_lines; /* lines that are not JSON objects: interleaved or torn writes */
  int status;       /* waitpid's status */
  int timed_out;
  char *output;     /* the program's stdout and stderr */
} Trace;

/* Runs argv (argv[0] found on PATH) under the library, or untraced when `lib` is NULL, with
 * `env` ("NAME=VALUE" strings, NULL-terminated, may be NULL) added. */
void trace_run (Trace *t, const char *name, const char *lib, const char *const *argv,
                const char *const *env, int timeout_s);
void trace_free (Trace *t);

int trace_exited (const Trace *t, int code);
int trace_signaled (const Trace *t, int sig);

/* Records of a type (and, for activities, a kind; NULL: any), of one process (pid < 0: any). */
size_t trace_count (const Trace *t, const char *type, const char *kind, double pid);
const JValue *trace_nth (const Trace *t, const char *type, const char *kind, double pid,
                         size_t n);
/* The pids of the hello records, in order; returns how many (at most `max`). */
size_t trace_pids (const Trace *t, double *pids, size_t max);
/* Whether every record's pid is one of a hello's. */
int trace_pids_known (const Trace *t);
/* The last record of that process, which must be its trace_end. */
const JValue *trace_last (const Trace *t, double pid);

/* Kernels whose name contains `part` (NULL: any). */
size_t trace_kernels (const Trace *t, const char *part, double pid);
/* Copies of a direction ("htod"…), of `bytes` (< 0: any), of a host memory kind (NULL: any). */
size_t trace_copies (const Trace *t, const char *direction, double bytes, const char *host);
/* The API record with this correlation id, or NULL. */
const JValue *trace_api_of (const Trace *t, double pid, double correlation);
/* An NVTX record of this name ("range" or "mark"), or NULL. */
const JValue *trace_nvtx (const Trace *t, const char *nvtx, const char *name);

/* v[key] is [x, y, z]. */
int j_triple_is (const JValue *v, const char *key, int x, int y, int z);
/* The output contains `text`. */
int trace_said (const Trace *t, const char *text);

/* What was recorded, for a person reading a failed test's log. */
void trace_dump (const Trace *t);

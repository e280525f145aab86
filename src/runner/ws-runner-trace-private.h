/* ws-runner-trace-private.h: what the files of the runner's trace mode share: its options, the
 * points of a sweep, the lookups of the program and of the injection library, its state, a
 * program run, and the records it writes.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ws-args.h"
#include "ws-diagnose.h"
#include "ws-json.h"
#include "ws-protocol.h"

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

/* ---- the mode's state (ws-runner-trace.c) --------------------------------------------------- */

#define WS_TRACE_MAX_UUIDS 16

typedef struct
{
  WsJson json;
  uint64_t start_ns;
  int sig_pipe[2];
  volatile sig_atomic_t stop_signal; /* SIGINT, SIGTERM or SIGHUP received */
  char uuids[WS_TRACE_MAX_UUIDS][48];
  int n_uuids;
  uint64_t dropped_records;
  int output_failed;
} WsTraceState;

extern WsTraceState _ws_trace;

/* Where a program run's records arrive: the pipe its first process inherits, or one
 * process's connection to the trace socket. Each keeps its own partial line, so the records
 * of several processes never mix inside one. */
typedef struct
{
  int fd;              /* -1 once closed */
  char *line;
  size_t line_len, line_cap;
  int skipping;        /* inside a line longer than MAX_LINE */
} WsTraceStream;

/* One program run. */
typedef struct
{
  int id;
  pid_t pid;
  int own_group;
  WsTraceStream *streams; /* [0] the pipe, then the connections still open */
  int n_streams, streams_cap;
  int listen_fd;       /* the trace socket; -1 when there is none */
  char *socket_path;   /* WARPSCOPE_TRACE_SOCKET, in a folder of its own; NULL when none */
  uint64_t start_mono, end_mono, last_data;
  int exited, status;
  int timed_out, stopped, term_sent, kill_sent;
  uint64_t kill_at, give_up_at;
  int processes, ended, records, dropped_lines, connections;
} WsTraceChild;

/* ---- the records (ws-runner-trace-output.c) -------------------------------------------------- */

void _ws_trace_write_hello (const WsDriverInfo *driver, int argc, char **argv);
/* program_run 0: about no program run. */
void _ws_trace_write_error (int program_run, WsErrorSeverity severity, WsErrorCode code,
                            const char *message, const char *detail);
void _ws_trace_write_done (int runs, int failed, int exit_code);
void _ws_trace_write_program (const WsTraceOptions *o, int id, int of, const char *const *values,
                              char *const *argv, char *const *env_values, const char *cwd,
                              const char *path);
void _ws_trace_write_program_end (const WsTraceChild *c);
/* A program run that never started: its program record, why, and its end. */
void _ws_trace_write_not_started (int id);
/* "SIGSEGV" for SIGSEGV; NULL for a signal it does not name. */
const char *_ws_trace_signal_name (int sig);
/* The library's lines: whole ones relayed with "program_run", a partial one kept. */
void _ws_trace_relay_chunk (WsTraceChild *c, WsTraceStream *s, const char *data, size_t n);
void _ws_trace_relay_line (WsTraceChild *c, char *line, size_t len);

/* ---- the program (ws-runner-trace-child.c) --------------------------------------------------- */

/* SIGINT, SIGTERM and SIGHUP stop the program run; SIGCHLD wakes the loop. */
void _ws_trace_install_handlers (void);
/* Starts the program; 0 (reported) when it could not be. */
int _ws_trace_start_child (WsTraceChild *c, const char *path, char *const *argv,
                           char *const *env_values, const char *cwd, const WsTraceOptions *o,
                           const char *inject);
/* Runs the program to its end (or until stopped) and relays its records. */
void _ws_trace_follow_child (WsTraceChild *c, const WsTraceOptions *o);
void _ws_trace_free_strv (char **v);

/* ---- the streams (ws-runner-trace-streams.c) ------------------------------------------------- */

/* The socket every process of the run connects to (WARPSCOPE_TRACE_SOCKET), in a new folder
 * only this user may enter; 0 (c->socket_path NULL) with `why` when it cannot be made: the
 * pipe alone is then the way. */
int _ws_trace_listen (WsTraceChild *c, char *why, size_t len);
/* Adds a stream (the pipe, or a connection) read without blocking; 0 when out of memory. */
int _ws_trace_add_stream (WsTraceChild *c, int fd);
/* Streams still open. */
int _ws_trace_streams_open (const WsTraceChild *c);
/* Waits up to `timeout_ms` for the signal pipe, the socket and the streams; accepts the
 * connections waiting and relays what arrived. -1 when poll itself failed. */
int _ws_trace_poll_streams (WsTraceChild *c, int timeout_ms);
/* Closes every stream (a last line without its newline relayed) and the socket, its path and
 * folder removed. */
void _ws_trace_close_streams (WsTraceChild *c);

/* ws-trace-command.h: how a program of the user's is traced: the program and its arguments,
 * its folder and environment, a sweep over its own parameters, made into warpscope-runner
 * --trace's arguments; the one path the app's Trace a Program… and `warpscope-cli trace`
 * share. And the words both use for what happened: a program run's ending, its parameters,
 * its command, a kernel's grid, a kind of copy.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "ws-trace.h"

G_BEGIN_DECLS

typedef struct
{
  char **program;    /* the program and its arguments, {NAME} where a sweep substitutes */
  char *cwd;         /* NULL: the runner's own folder */
  char **env;        /* NAME=VALUE, given to the program besides the runner's environment */
  char **sweeps;     /* NAME=V1,V2,…: the program is run once per value (every combination) */
  char *timeout;     /* seconds a program run may take; NULL: no limit */
  gboolean no_ceilings; /* do not measure the GPU's copy bandwidths after the program */
} WsTraceCommand;

void ws_trace_command_clear (WsTraceCommand *command);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WsTraceCommand, ws_trace_command_clear)

/* Checks what a person typed, with a sentence saying what to change: a program is given, each
 * environment variable is NAME=VALUE with a name of letters, digits and _, each sweep is
 * NAME=V1,V2,… with no empty value and a name used as {NAME} somewhere. */
gboolean ws_trace_command_validate (const WsTraceCommand *command, GError **error);

/* warpscope-runner's arguments after its path: --trace, the options, --, the program. */
GPtrArray *ws_trace_command_runner_args (const WsTraceCommand *command);
/* The same with the runner's path first, NULL-terminated; NULL (and `error`) when the command
 * is not valid. */
char **ws_trace_command_build_argv (const WsTraceCommand *command, const char *runner,
                                    GError **error);

/* Splits a line as a shell would (quotes, backslashes), without running one: "python3
 * vadd.py --tpb {TPB}". NULL for a blank line or unbalanced quotes, with the reason. */
char **ws_trace_command_split (const char *line, GError **error);
/* "TPB=32,64 N=10": the words of a field of NAME=VALUE items, split at spaces. */
char **ws_trace_command_split_items (const char *text);

/* ---- words ------------------------------------------------------------------------------ */

/* "TPB=32, N=1000000"; "" without parameters. */
char *ws_trace_describe_params (const WsTraceProgram *program);
/* "python3 tests/gpu/programs/vector_add.py": the command line of the run. */
char *ws_trace_describe_command (WsTrace *trace, const WsTraceProgram *program);
/* The traced program's own source file, as it is now on this computer: the first argument of
 * the first program run's command that names a source file (a .py, .cu, .cpp, .cc or .c) and
 * is a file here, relative to the folder it ran in (a new path); NULL when there is none, with
 * `*why` (a new sentence, or NULL) saying what ran where, for a view that stays empty. */
char *ws_trace_find_program_file (WsTrace *trace, char **why);
/* "exited with status 0 after 4.12 s", "was ended by SIGSEGV after 1.20 s", "was stopped",
 * "was not started"; NULL while it runs. `format_duration` writes the time (ws_units_duration
 * when NULL). */
char *ws_trace_describe_ending (WsTrace *trace, const WsTraceProgram *program,
                                char *(*format_duration) (double ns));
/* What went wrong with a traced program, in plain words (translated) for the codes a person
 * meets — program_not_found, no_cuda_activity, cupti_in_use, no_driver — with the runner's
 * own sentence after it; the runner's sentence alone for any other code. */
char *ws_trace_describe_error (const WsRunnerError *error);
/* The trace's first error (a warning is none), its program runs' first, described; NULL:
 * none. */
char *ws_trace_describe_session_error (WsSession *session);
/* A span for people, in lines: what it is and how long it took ("add_kernel · 37.7 µs"),
 * then its facts (a kernel's grid, block, registers and stream; a copy's bytes, direction and
 * rate; an API call's result), then its program run and where it starts on the trace's axis. */
char *ws_trace_describe_span (WsTrace *trace, const WsSpan *span);
/* "2×2", "39063": a grid or a block, trailing 1s left out. */
char *ws_trace_format_dims (const guint32 dims[3]);
/* "host to device, pageable", "memset" */
char *ws_trace_describe_copy (const WsTraceCopy *copy);

G_END_DECLS

/* ws-cli.h: what the subcommands of warpscope-cli share: exit statuses, option parsing, messages,
 * reading sessions, and numbers written for people.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdio.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "ws-run.h"
#include "ws-format.h"
#include "ws-units.h"
#include "ws-session.h"
#include "ws-target.h"

G_BEGIN_DECLS

/* Exit statuses (docs/cli.md). `run` and `devices` pass on the runner's own 0–5. */
typedef enum
{
  WS_CLI_EXIT_OK = 0,
  WS_CLI_EXIT_FAILED = 1,      /* a file could not be read or written; the runner's 1 */
  WS_CLI_EXIT_USAGE = 2,       /* bad arguments; the runner's 2 */
  WS_CLI_EXIT_NO_GPU = 3,      /* the runner's 3: no usable GPU */
  WS_CLI_EXIT_RUNNER = 6,      /* the runner could not be started, crashed or stopped answering */
  WS_CLI_EXIT_INTERRUPTED = 130,
} WsCliExit;

/* Each subcommand: argv[0] is its name, its options and arguments follow. */
int ws_cli_run (int argc, char **argv);
int ws_cli_report (int argc, char **argv);
int ws_cli_devices (int argc, char **argv);
int ws_cli_kernels (int argc, char **argv);
int ws_cli_occupancy (int argc, char **argv);
int ws_cli_replay (int argc, char **argv);
int ws_cli_export (int argc, char **argv);
int ws_cli_trace (int argc, char **argv);
int ws_cli_targets (int argc, char **argv);
int ws_cli_merge (int argc, char **argv);
int ws_cli_check (int argc, char **argv);

/* ---- options and messages ---------------------------------------------------------------- */

/* A context whose --help names "warpscope-cli COMMAND"; `description` goes below the options. */
GOptionContext *ws_cli_context_new (const char *command, const char *parameters,
                                    const char *summary, const char *description,
                                    GOptionEntry *entries);
/* FALSE after printing the parser's message and the usage: the caller exits 2. */
gboolean ws_cli_parse (GOptionContext *context, const char *command, int *argc, char ***argv);
/* Prints "warpscope-cli COMMAND: MESSAGE", the usage line and where help is; returns 2. */
int ws_cli_usage_error (const char *command, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* "warpscope-cli COMMAND: MESSAGE" on stderr. */
void ws_cli_error (const char *command, const char *format, ...) G_GNUC_PRINTF (2, 3);
void ws_cli_warning (const char *command, const char *format, ...) G_GNUC_PRINTF (2, 3);

/* Loads a session; problems (unreadable lines, a missing done record) are printed as warnings.
 * The error names the file. */
WsSession *ws_cli_load_session (const char *command, const char *path, GError **error);

/* Where and how the runner is started, from run's, devices' and kernels' options. */
typedef struct
{
  const char *command;   /* for messages */
  const char *target;    /* a saved target's name (--target); NULL: none */
  const char *launcher;  /* a prefix typed by hand (--launcher); NULL: none */
  const char *runner;    /* the runner's path there; NULL: the target's, else found */
  guint timeout;         /* seconds without output before it is stopped; 0: never */
  gboolean verbose;      /* copy the runner's stderr */
  gboolean remote_shell; /* the launcher hands a command line to a remote shell (ssh's way) */
  /* When set, gets the runner's stderr as it arrives (then verbose does not repeat it). */
  void (*stderr_func) (const char *data, gsize length, gpointer user_data);
  gpointer stderr_data;
} WsCliRunnerOptions;

/* --target, --launcher, --remote-shell and --runner, as `devices` and `kernels` take them. */
typedef struct
{
  char *target;
  char *launcher;
  gboolean remote_shell;
  char *runner;
} WsCliRunnerArgs;

void ws_cli_runner_args_clear (WsCliRunnerArgs *args);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WsCliRunnerArgs, ws_cli_runner_args_clear)

/* ws-cli-target.c. A command's context (ws_cli_context_new) with the four options of `args`
 * first, then `entries`. */
GOptionContext *ws_cli_runner_context_new (const char *command, const char *summary,
                                           const char *description, WsCliRunnerArgs *args,
                                           const GOptionEntry *entries);
/* Where the options' runner is started: `args`' target, launcher, runner and remote shell. */
void ws_cli_runner_args_apply (const WsCliRunnerArgs *args, WsCliRunnerOptions *options);

/* ws-cli-target.c. The target the options name (--target, --launcher, else this computer),
 * with --runner applied; NULL after a message, with the exit status in `status`. */
WsTarget *ws_cli_resolve_target (const WsCliRunnerOptions *options, int *status);
/* Starts the runner on the target with `args` (after its path) and waits for it, calling
 * `session`'s signals as records arrive. Returns the runner's exit status, or
 * WS_CLI_EXIT_RUNNER (message printed) when it could not start or did not finish. */
int ws_cli_run_runner (const WsCliRunnerOptions *options, const char *const *args,
                       WsSession *session);
/* The same over several GPUs (`devices`: "all", "0,1,3", "0-3"), one runner each, merged into
 * `session` in plan order; WS_CLI_EXIT_RUNNER when one of them did not finish its share. */
int ws_cli_run_split (const WsCliRunnerOptions *options, const char *const *args,
                      const char *devices, WsSession *session);

/* Runner errors about the whole session (no_driver …) as "error: …" / "warning: …". */
void ws_cli_print_session_errors (FILE *out, WsSession *session, int width);

/* ---- terminal and text ------------------------------------------------------------------- */

/* Columns of the terminal `stream` writes to; 0 when it is not a terminal. */
int ws_cli_terminal_width (FILE *stream);
/* Display columns of UTF-8 text (wide characters count 2). */
gsize ws_cli_text_width (const char *text);
/* Appends `text` wrapped at `width` columns (0: no wrapping); the first line starts after
 * `first_indent` columns already written, later lines are indented by `indent` spaces. */
void ws_cli_append_wrapped (GString *out, const char *text, gsize first_indent, gsize indent,
                            gsize width);
/* Text for people: UTF-8 as is (g_print would convert it to the locale's charset), with the
 * control characters a file may have brought escaped (ws_format_escape_controls): every
 * table, report, list and message goes out through here. */
void ws_cli_write (FILE *out, const char *text);
/* Colours for a terminal: FALSE when `out` is not one, when NO_COLOR is set (and not empty)
 * or TERM is dumb. */
gboolean ws_cli_use_color (FILE *out);
/* A report's text as ws_cli_write writes it, each finding's severity in its colour when
 * ws_cli_use_color says so: high bold red, medium yellow, low cyan. */
void ws_cli_write_report (FILE *out, const char *text);
/* Help text laid out for people: every line longer than `width` columns wrapped, an option's
 * description under itself, other lines under their own indentation. */
char *ws_cli_wrap_help (const char *text, gsize width);
/* `text` wrapped to the terminal `out` writes to, at 80 columns when it is not one. */
void ws_cli_write_help (FILE *out, const char *text);
/* Data (CSV, JSON) exactly as it is. */
void ws_cli_write_data (FILE *out, const char *text);
/* Before the work: FALSE, after a usage error naming `option` ("-o"), when `output` cannot
 * be written (ws_file_check_writable): empty, a folder, a missing or read-only folder. */
gboolean ws_cli_check_output (const char *command, const char *option, const char *output);
/* Saves `session` to `output`, or, where that fails at the end (its folder removed while the
 * work ran, a full disk), to a file of its own in the cache or temporary folder, after an
 * error that names both and `what` was saved ("the session"); the path written, NULL when
 * nowhere could be (said too). */
char *ws_cli_save_session (const char *command, WsSession *session, const char *output,
                           const char *what);

/* ---- numbers for people ------------------------------------------------------------------ */

/* The median with its spread in the same unit: "38.0 µs (37.3–39.2)". */
char *ws_cli_format_stats (const WsStats *stats);
/* Only the median ("38.0 µs") and only the spread ("(37.3–39.2)", "" when none). */
char *ws_cli_format_stats_median (const WsStats *stats);
char *ws_cli_format_stats_spread (const WsStats *stats);

G_END_DECLS

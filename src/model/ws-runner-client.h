/* ws-runner-client.h: starts warpscope-runner (or a replay standing in for it) with an argv
 * vector, never a local shell, optionally behind a launcher prefix (ssh gpu-box, srun …),
 * and feeds its stdout into a session line by line as it arrives; a line longer than
 * WS_SESSION_MAX_LINE is left out as a problem. Shared by the app and the CLI.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ws-session.h"

G_BEGIN_DECLS

#define WS_TYPE_RUNNER_CLIENT (ws_runner_client_get_type ())
G_DECLARE_FINAL_TYPE (WsRunnerClient, ws_runner_client, WS, RUNNER_CLIENT, GObject)

WsRunnerClient *ws_runner_client_new (WsSession *session);

/* Stops a runner that prints nothing for this long (0: never); default 120 s. */
void ws_runner_client_set_timeout (WsRunnerClient *self, guint seconds);

/* How the launcher passes the runner's argv on. */
typedef enum
{
  /* A remote shell when one of the launcher's words is a program named `ssh` (the first
   * word, or one that follows a word that is not an option: `env X=1 ssh host`,
   * `sshpass -p P ssh host`); else direct. The default. */
  WS_LAUNCHER_AUTO,
  /* The launcher executes the argv it is given as it is (srun, env, nice). */
  WS_LAUNCHER_DIRECT,
  /* The launcher joins its arguments into a command line for a shell on another machine,
   * as ssh does: each of the runner's arguments (not the launcher's own words) is quoted
   * for that shell, so that it arrives exactly as given and nothing in it is run there. */
  WS_LAUNCHER_REMOTE_SHELL,
} WsLauncherKind;

void ws_runner_client_set_launcher_kind (WsRunnerClient *self, WsLauncherKind kind);
/* WS_LAUNCHER_AUTO's rule: whether one of the launcher's words, wherever it stands, is a
 * program named ssh (or autossh, rsh, remsh, slogin, dbclient). */
gboolean ws_launcher_is_ssh (const char *const *launcher);

/* Before start: the runner's stdin is a pipe held open until it has finished (else
 * /dev/null); a far side that watches its stdin (a target's ssh) then knows when we are gone.
 * ws_runner_client_close_stdin closes it sooner: the far side stops the runner, which still
 * sends its last records. */
void ws_runner_client_set_keep_stdin (WsRunnerClient *self, gboolean keep);
void ws_runner_client_close_stdin (WsRunnerClient *self);
/* While TRUE (a Slurm job waiting for resources) the inactivity timeout is held; it starts
 * again from zero when set back. */
void ws_runner_client_set_waiting (WsRunnerClient *self, gboolean waiting);

/* Signals: "finished" (below); "line" (const char *line): each line of stdout, after the
 * session has read it; "stderr" (const char *text): what arrived on stderr, as it came. */

/* Called with what the runner writes on stderr as it arrives, besides keeping it (a traced
 * program's own output comes that way); NULL stops it. */
typedef void (*WsRunnerClientOutputFunc) (const char *data, gsize length, gpointer user_data);
void ws_runner_client_set_stderr_func (WsRunnerClient *self, WsRunnerClientOutputFunc func,
                                       gpointer user_data);

/* Starts `argv` (launcher prefix first, when given) in a session and process group of its
 * own, with no terminal: whatever it starts (a shell, srun, ssh and what they start) is
 * stopped with it. "finished" follows once it has ended and its output has been read. */
gboolean ws_runner_client_start (WsRunnerClient *self, const char *const *launcher,
                                 const char *const *argv, GError **error);

/* Stops it: SIGTERM to its whole process group, then SIGKILL after a grace period (2 s). The
 * runs that completed stay. The inactivity timeout does the same. Once the group is killed
 * the client stops waiting for the end of its output, which a process outside the group may
 * hold open. */
void ws_runner_client_cancel (WsRunnerClient *self);
/* Stops it at once: SIGKILL to its process group (a second Ctrl+C). */
void ws_runner_client_kill (WsRunnerClient *self);

gboolean ws_runner_client_is_running (WsRunnerClient *self);
WsSession *ws_runner_client_get_session (WsRunnerClient *self);
/* What the runner wrote for people on stderr: all of it up to 128 KiB; beyond, the first and
 * the last 64 KiB with a line between them saying how many bytes were left out. */
const char *ws_runner_client_get_stderr (WsRunnerClient *self);
/* After "finished": NULL when the runner ended normally; else why it did not (crashed,
 * stopped answering, cancelled, could not start). */
const GError *ws_runner_client_get_error (WsRunnerClient *self);
int ws_runner_client_get_exit_status (WsRunnerClient *self);
/* After "finished": how many lines of the runner's stdout could not be used (not JSON, not a
 * record, longer than WS_SESSION_MAX_LINE). Each is one of the session's problems, the ones
 * added since the start, in order. A runner that prints them is not working as it should,
 * even when it exits 0. */
guint ws_runner_client_get_n_bad_lines (WsRunnerClient *self);
/* After "finished": what a person should hear although the run went on, or NULL. Lines the
 * launcher printed on stdout before the runner's hello that are not JSON (a banner, a
 * .bashrc's greeting through ssh) are skipped, not fed to the session, and said here once,
 * quoting the first: "The launcher printed 1 line before the runner started: “Welcome to
 * gpu-box” — ignored." More than 64 of them or 16 KiB is not a launcher that leaves stdout to
 * the runner: the runner is stopped, nothing of its output is read, and the error says how to
 * quiet the launcher. Files (report, replay, export) are read strictly: a line before the
 * hello that is not one makes a file not a session. */
const char *ws_runner_client_get_warning (WsRunnerClient *self);

/* The runner's path: $WARPSCOPE_RUNNER, else the build tree's when this program runs from the
 * build tree, else the installed one. NULL when none exists (Warpscope was built without
 * CUDA). */
char *ws_runner_find (void);
/* warpscope-cli's path, for replays, the same way ($WARPSCOPE_CLI). */
char *ws_cli_find (void);

G_END_DECLS

/* ws-runner-client-private.h: what the runner client's files share: its fields and the steps
 * of its process (ws-runner-client.c) that the reading of its stdout as lines
 * (ws-runner-client-lines.c) calls, and the texts it keeps and makes
 * (ws-runner-client-text.c: its stderr, bounded; a line quoted for a message).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "ws-runner-client.h"

G_BEGIN_DECLS

/* What a process wrote, as it came: all of it up to 2 × WS_KEPT_TEXT_PART bytes; beyond, the
 * first and the last WS_KEPT_TEXT_PART with a line between them saying how many bytes were left
 * out. Memory and time stay bounded however much arrives. */
#define WS_KEPT_TEXT_PART (64 * 1024)

typedef struct
{
  GString *head, *tail, *composed;
  guint64 total;
  gboolean dirty;
} WsKeptText;

void _ws_kept_text_init (WsKeptText *kept);
void _ws_kept_text_clear (WsKeptText *kept);
void _ws_kept_text_add (WsKeptText *kept, const char *data, gsize n);
const char *_ws_kept_text_get (WsKeptText *kept);
/* Its last `max` bytes (whole characters, "…" before them when cut), for a message: a person
 * needs the last words, not 128 KiB. */
char *_ws_kept_text_end (WsKeptText *kept, gsize max);

/* A line as a person may read it in a message: control characters (an escape sequence that
 * would retitle the terminal) as \xNN, bytes that are not UTF-8 replaced, at most `max`
 * characters, then "…". */
char *_ws_quote_line (const char *line, gsize length, guint max);
/* Only spaces and tabs. */
gboolean _ws_line_is_blank (const char *line, gsize length);

/* Bytes asked for per read of stdout and of stderr. */
#define READ_CHUNK (64 * 1024)
/* Before the runner's hello, at most this many lines and bytes that are not JSON are skipped
 * as a launcher's banner. */
#define BANNER_MAX_LINES 64
#define BANNER_MAX_BYTES (16 * 1024)

struct _WsRunnerClient
{
  GObject parent_instance;
  WsSession *session;
  GPid pid;                    /* the runner's first process; also its process group's id */
  gboolean started;
  GInputStream *out;
  GInputStream *err_in;
  GCancellable *cancellable;   /* the reads of both pipes */
  WsLauncherKind launcher_kind;

  char *chunk;                 /* READ_CHUNK + 1 bytes: the read in progress of stdout */
  char *err_chunk;
  GByteArray *partial;         /* a line split across reads */
  gboolean skipping;           /* inside a line longer than WS_SESSION_MAX_LINE */
  guint64 skipped;             /* its bytes so far */
  GError *fatal;               /* the session refused the stream (not a session) */
  guint problems_before;       /* the session's problems when the runner started */
  guint bad_lines;             /* problems added by the runner's stdout */
  guint banner_lines;          /* lines before the hello that are not JSON, skipped */
  gsize banner_bytes;
  char *banner_first;          /* the first of them, escaped, for the warning */
  gboolean banner_refused;     /* more than the limits: nothing more is read */
  char *warning;

  WsKeptText err;               /* stderr, bounded */
  WsRunnerClientOutputFunc err_func;
  gpointer err_func_data;

  int in_fd;                   /* the write end of the runner's stdin, when kept open; else -1 */
  gboolean keep_stdin;
  gboolean waiting;            /* the launcher waits for resources: no inactivity timeout */

  GError *error;
  guint timeout_seconds;
  guint timeout_id, kill_id, drain_id, close_id;
  int exit_status;
  int term_signal; /* 0 unless killed by a signal */
  gboolean stdout_done, stderr_done, process_done, running;
  gboolean done_seen;           /* the done record has arrived */
  gboolean cancelled, stopping, killed, abandoned, drained;
};

/* ws-runner-client.c */
/* Keeps `error` as the client's (taken) unless it has one already. */
void _ws_runner_client_set_error (WsRunnerClient *self, GError *error);
/* Output arrived: the runner is alive (from stdout: the inactivity timeout starts again). */
void _ws_runner_client_note_activity (WsRunnerClient *self, gboolean from_stdout);
/* SIGTERM to its process group, SIGKILL after the grace period. */
void _ws_runner_client_stop_group (WsRunnerClient *self);
/* The end, once the process has ended and both pipes are read: "finished". */
void _ws_runner_client_maybe_finish (WsRunnerClient *self);
/* The "line" signal, for a line the session has read. */
void _ws_runner_client_emit_line (WsRunnerClient *self, const char *line);

/* ws-runner-client-lines.c */
/* Reads stdout until it ends, feeding the session; holds the reference the caller took. */
void _ws_runner_client_read_stdout (WsRunnerClient *self);

G_END_DECLS

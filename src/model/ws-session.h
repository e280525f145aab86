/* ws-session.h: a Warpscope session: the runner's records, read line by line from a live
 * runner, a replay or a file, into devices, runs and their activities.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ws-span.h"
#include "ws-device.h"
#include "ws-hello.h"
#include "ws-kernel-entry.h"
#include "ws-run.h"

G_BEGIN_DECLS

/* The newest protocol this model reads (docs/protocol.md; the versions are src/protocol's):
 * the runner's, and the traced programs' that adds to it. */
#define WS_SESSION_PROTOCOL WS_PROTOCOL_TRACE

/* The longest line a reader takes, in bytes, without its newline: 1 MiB. The longest record
 * in the bundled recordings is about 1 KB (a timing record; a device record is as long), and
 * the runner's longest possible records (an error with its message and detail, a hello with
 * its arguments) stay within a few kilobytes: a thousandfold margin, and still little memory.
 * A longer line is not kept: before the hello the stream is refused (it cannot be a
 * session); after it the line is a problem and skipped, and the rest reads on. Whoever reads
 * a stream line by line (the runner client) discards such a line as it arrives and calls
 * ws_session_feed_overlong_line(). */
#define WS_SESSION_MAX_LINE (1024 * 1024)

/* At most this many problems are listed; further bad lines are counted
 * (ws_session_get_n_bad_lines()), and the last problem says how many there were. */
#define WS_SESSION_MAX_PROBLEMS 1000

/* What a session holds at most, each kept in memory whole: five times the largest sweep the
 * runner makes (10,000 configurations), and activities for as many runs of a traced sweep.
 * A file with more is refused when the bound is passed, with a message that says so. */
#define WS_SESSION_MAX_RUNS 50000
#define WS_SESSION_MAX_ACTIVITIES 10000000

#define WS_SESSION_ERROR (ws_session_error_quark ())
GQuark ws_session_error_quark (void);

typedef enum
{
  WS_SESSION_ERROR_EMPTY,           /* the file has no records at all */
  WS_SESSION_ERROR_NOT_A_SESSION,   /* its first record is not the runner's hello */
  WS_SESSION_ERROR_NEWER_PROTOCOL,  /* written by a newer Warpscope */
  WS_SESSION_ERROR_MALFORMED,       /* one line is not a record (the session goes on) */
  WS_SESSION_ERROR_TOO_LARGE,       /* more runs or activities than a session holds */
} WsSessionError;

typedef enum
{
  WS_SESSION_SOURCE_LIVE,      /* a runner on this machine, now */
  WS_SESSION_SOURCE_RECORDING, /* a file */
  WS_SESSION_SOURCE_REPLAY,    /* a recording played back with its pacing */
} WsSessionSource;

/* A line that could not be read, with where and why. */
typedef struct
{
  guint line;
  guint column;
  char *message;
} WsProblem;

#define WS_TYPE_SESSION (ws_session_get_type ())
G_DECLARE_FINAL_TYPE (WsSession, ws_session, WS, SESSION, GObject)

WsSession *ws_session_new (WsSessionSource source);

/* Reads a whole file, streaming. Fails only when the file cannot be a session (empty, not a
 * session, newer protocol, unreadable); a malformed line is recorded as a problem and the
 * rest still loads. */
WsSession *ws_session_load (GFile *file, GCancellable *cancellable, GError **error);
void ws_session_load_async (GFile *file, GCancellable *cancellable,
                            GAsyncReadyCallback callback, gpointer user_data);
WsSession *ws_session_load_finish (GAsyncResult *result, GError **error);

/* Feeds one line (without its newline) as it arrives. Returns FALSE with an error for a line
 * that was not used: WS_SESSION_ERROR_MALFORMED lines are also kept as problems; after a
 * fatal error (not a session, newer protocol) every further line is refused. */
gboolean ws_session_feed_line (WsSession *self, const char *line, gssize length,
                               GError **error);
/* Counts a line longer than WS_SESSION_MAX_LINE that the caller did not keep: a problem like
 * a malformed line (FALSE, WS_SESSION_ERROR_MALFORMED) or, before the hello, the end of the
 * session (WS_SESSION_ERROR_NOT_A_SESSION). ws_session_feed_line() does the same with a line
 * that long. */
gboolean ws_session_feed_overlong_line (WsSession *self, GError **error);
/* Counts a line the caller read but did not feed (a launcher's banner before the hello, which
 * the runner client skips), so that the lines after it keep their numbers in problems. */
void ws_session_skip_line (WsSession *self);
/* Marks the end of the stream: runs still waiting for results become incomplete. */
void ws_session_end (WsSession *self);

/* Writes the records again, in the protocol's order. */
gboolean ws_session_write (WsSession *self, GOutputStream *stream, GCancellable *cancellable,
                           GError **error);
/* Writes to a temporary file beside `file` and renames it over: never half a file. */
gboolean ws_session_save (WsSession *self, GFile *file, GCancellable *cancellable,
                          GError **error);

WsSessionSource ws_session_get_source (WsSession *self);
void ws_session_set_source (WsSession *self, WsSessionSource source);
GFile *ws_session_get_file (WsSession *self);
void ws_session_set_file (WsSession *self, GFile *file);

/* The hello record: protocol, runner version, date, host, driver/runtime/CUPTI versions;
 * NULL before it arrives. */
const WsHello *ws_session_get_hello (WsSession *self);
/* "2026-11-29" from the hello's time, or NULL. */
char *ws_session_dup_date (WsSession *self);

GListModel *ws_session_get_devices (WsSession *self); /* WsDevice */
WsDevice *ws_session_get_device (WsSession *self);    /* the first, or NULL */
/* The device that ran `run` (by the UUID or index it is tagged with, in a session merged
 * from runners on several GPUs); else the first, or NULL. */
WsDevice *ws_session_get_run_device (WsSession *self, WsRun *run);
GListModel *ws_session_get_runs (WsSession *self);    /* WsRun, in id order */
WsRun *ws_session_find_run (WsSession *self, int id);
/* The catalog entries ("kernel" records), in the order they came (WsKernelEntry). */
GListModel *ws_session_get_kernels (WsSession *self);
/* The entry of a kernel by name (the last one, when it came twice); NULL when unknown. */
WsKernelEntry *ws_session_find_kernel (WsSession *self, const char *name);
/* Session-level error records (WsRunnerError), e.g. no_driver. */
GPtrArray *ws_session_get_errors (WsSession *self);
/* Lines that could not be read (WsProblem), at most WS_SESSION_MAX_PROBLEMS of them, then
 * one that counts the rest. */
GPtrArray *ws_session_get_problems (WsSession *self);
/* How many lines could not be read, listed or not. */
guint ws_session_get_n_bad_lines (WsSession *self);
guint ws_session_get_n_activities (WsSession *self);
/* progress: done and total configurations; FALSE before the first progress record */
gboolean ws_session_get_progress (WsSession *self, int *done, int *total);
/* TRUE once the done record has arrived; then its exit code and dropped records. */
gboolean ws_session_is_done (WsSession *self, int *exit_code, gint64 *dropped_records);
/* A traced program's activity records arrive without a signal each, or a large program would
 * redraw every view thousands of times a second: whoever feeds a live trace asks now and
 * then, and the session says "changed" when its trace has grown since it last said so (TRUE
 * then; FALSE when it has not, or holds no trace). */
gboolean ws_session_notice_trace_growth (WsSession *self);

/* ---- an own kernel's records (docs/own-kernels.md) ---- */

/* One NVRTC compile of a variant of the kernel (a `compile` record). */
typedef struct
{
  char *kernel, *entry, *lowered, *arch, *nvrtc, *log;
  char *params;     /* "TILE=16", NULL when it has none */
  gboolean ok, cached, reference;
  double ms;
  int errors, warnings;
} WsCompileInfo;

/* One kind of error compute-sanitizer found at one place (a `memcheck` record). */
typedef struct
{
  char *tool, *kind, *message, *file, *kernel, *access, *space, *address, *detail;
  int line, size, count;
  gboolean has_thread;
  guint thread[3], block[3];
} WsMemcheckFinding;

GPtrArray *ws_session_get_compiles (WsSession *self);         /* WsCompileInfo */
/* What a check that found nothing says, in the same words in `warpscope-cli check` and
 * `run --memcheck` as in the app's Check and Memory Check: "m.cu: no errors; compiled 2
 * variants for sm_90 with NVRTC 13.0 (1 from the cache)" (`name`: the file checked), or
 * "compute-sanitizer found no errors in this configuration." */
char *ws_session_dup_clean_check_text (WsSession *self, const char *name, gboolean memcheck);
GPtrArray *ws_session_get_memcheck_findings (WsSession *self); /* WsMemcheckFinding */
/* The kernel file's text as the session recorded it (a `source` record), or NULL; its path
 * and SHA-256 as the runner gave them (either may be NULL). */
const char *ws_session_get_source_text (WsSession *self, const char **path,
                                        const char **sha256);

/* ---- queries for the views ---- */

typedef enum
{
  WS_SERIES_BY_SIZE,  /* one kernel, block and transfer mode over problem sizes */
  WS_SERIES_BY_BLOCK, /* one kernel, size and transfer mode over block shapes */
} WsSeriesKind;

typedef struct
{
  WsSeriesKind kind;
  char *label;      /* "matmul_tiled 16×16, pageable" */
  char *kernel;
  char *transfer;
  GPtrArray *runs;  /* WsRun, sorted by size or by threads per block */
} WsSeries;

void ws_series_free (WsSeries *series);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsSeries, ws_series_free)

/* Series with at least `min_runs` completed runs (WsSeries). */
GPtrArray *ws_session_get_series (WsSession *self, WsSeriesKind kind, guint min_runs);

/* Calls `func` for every activity that overlaps [start, end), run by run. */
typedef void (*WsActivityFunc) (WsRun *run, const WsSpan *activity, gpointer user_data);
void ws_session_foreach_in_window (WsSession *self, gint64 start, gint64 end,
                                   WsActivityFunc func, gpointer user_data);
/* Copy, kernel, overlap and idle time inside [start, end). */
void ws_session_get_window_totals (WsSession *self, gint64 start, gint64 end, WsTotals *totals);

G_END_DECLS

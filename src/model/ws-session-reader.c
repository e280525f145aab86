/* ws-session-reader.c: reading the runner's JSON Lines into a session, line by line, so that
 * a live runner and a 100 MB file go through the same code. Activity lines, nearly all of a
 * large session, take a fast path (ws-session-activity.c); anything it does not expect, and
 * every other record, goes to the general parser (ws-record.c), every number to its range
 * (ws-session-ranges.c), and the tree to the typed record it describes: one parse a line.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-session-private.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ws-device-private.h"
#include "ws-hello-private.h"
#include "ws-kernel-entry-private.h"
#include "ws-protocol.h"
#include "ws-record.h"
#include "ws-run-private.h"
#include "ws-span-private.h"
#include "ws-trace-private.h"

/* How the runner and the injection library begin an activity record: the fast path's cue. */
#define FAST_PATH_PREFIX "{\"" WS_KEY_TYPE "\":\"" WS_RECORD_TYPE_ACTIVITY "\""

/* ---- the general path -------------------------------------------------------------------- */

/* A sweep's activity: its times as written (the runner's axis is the session's). The record's
 * numbers were checked against their ranges (ws-session-ranges.c). */
static void
span_from_record (const WsRecord *r, WsSpan *a)
{
  WsRecordNode o = WS_RECORD_ROOT;

  _ws_span_from_record (r, a);
  a->start = ws_record_int (r, o, WS_KEY_START, 0);
  a->end = MAX (ws_record_int (r, o, WS_KEY_END, a->start), a->start);
}

/* Whether records naming run `id` may belong to a second run of that id: then they are not
 * the first's, which is kept as it was. */
static gboolean
announced_twice (WsSession *self, int id)
{
  return G_UNLIKELY (self->announced_twice != NULL)
         && g_hash_table_contains (self->announced_twice, GINT_TO_POINTER (id));
}

static void
add_activity (WsSession *self, const WsSpan *activity, guint32 run_id)
{
  WsRun *run = run_id ? ws_session_find_run (self, (int) run_id) : self->last_run;

  if (run == NULL || (run_id != 0 && announced_twice (self, (int) run_id)))
    return; /* an activity of no announced run, or of a contradicted one, has nowhere to go */
  _ws_run_append_activity (run, activity);
  self->n_activities++;
}

/* Every record but activities is kept as it was read, for writing back: fields this version
 * does not know included. */
static void
store (WsSession *self, const WsRecord *r, const char *type, int run, const char *text,
       gsize length)
{
  WsStoredRecord *stored = g_new0 (WsStoredRecord, 1);

  stored->type = g_intern_string (type);
  stored->run = run;
  stored->t = ws_record_double (r, WS_RECORD_ROOT, WS_KEY_T, NAN);
  stored->text = g_strndup (text, length);
  g_ptr_array_add (self->records, stored);
}

static gboolean
fail (WsSession *self, GError **error, WsSessionError code, const char *format, ...)
  G_GNUC_PRINTF (4, 5);

static gboolean
fail (WsSession *self, GError **error, WsSessionError code, const char *format, ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  if (code != WS_SESSION_ERROR_MALFORMED && self->fatal == NULL)
    self->fatal = g_error_new_literal (WS_SESSION_ERROR, code, message);
  g_set_error_literal (error, WS_SESSION_ERROR, code, message);
  return FALSE;
}

/* A traced program's stream (protocol 2): its records go to the session's trace. */
static void
start_trace (WsSession *self, const WsRecord *r)
{
  self->trace = _ws_trace_new ();
  _ws_trace_add_record (self->trace, self, WS_RECORD_TYPE_HELLO, r);
}

static gboolean
add_trace_record (WsSession *self, const WsRecord *r, const char *type, const char *text,
                  gsize length)
{
  store (self, r, type, 0, text, length);
  _ws_trace_add_record (self->trace, self, type, r);
  if (!g_str_equal (type, WS_RECORD_TYPE_ACTIVITY))
    g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_CHANGED], 0);
  return TRUE;
}

static gboolean
handle_hello (WsSession *self, const WsRecord *r, const char *type, const char *text, gsize length,
              guint *column, GError **error)
{
  WsRecordNode o = WS_RECORD_ROOT;
  g_autoptr (GError) range = NULL;
  gint64 protocol;

  if (!g_str_equal (type, WS_RECORD_TYPE_HELLO))
    return fail (self, error, WS_SESSION_ERROR_NOT_A_SESSION,
                 _("this is not a Warpscope session: its first record is \"%s\", not the "
                   "runner's hello"),
                 type);
  if (!_ws_session_check_ranges (r, type, text, length, column, &range))
    return fail (self, error, WS_SESSION_ERROR_NOT_A_SESSION,
                 _("this is not a Warpscope session: in its hello record, %s"), range->message);
  protocol = ws_record_int (r, o, WS_KEY_PROTOCOL, 0);
  if (protocol > WS_SESSION_PROTOCOL)
    return fail (self, error, WS_SESSION_ERROR_NEWER_PROTOCOL,
                 _("this session was written by a newer Warpscope (protocol %" PRId64
                   ", runner %s); this version reads protocol %d and older. Update Warpscope "
                   "to open it"),
                 protocol, ws_record_string (r, o, WS_KEY_RUNNER) ?: "unknown",
                 WS_SESSION_PROTOCOL);
  if (protocol < 1)
    return fail (self, error, WS_SESSION_ERROR_NOT_A_SESSION,
                 _("this is not a Warpscope session: its hello record names no protocol"));
  self->hello = _ws_hello_new_from_record (r);
  self->protocol = (int) protocol;
  if (self->hello->replay)
    self->source = WS_SESSION_SOURCE_REPLAY;
  store (self, r, type, 0, text, length);
  if (self->hello->trace)
    start_trace (self, r);
  g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_CHANGED], 0);
  return TRUE;
}

static void
add_kernel (WsSession *self, const WsRecord *r)
{
  g_autoptr (WsKernelEntry) entry = _ws_kernel_entry_new_from_record (r);
  const char *name = ws_kernel_entry_get_name (entry);

  /* An entry without a name names nothing a run could use. */
  if (name == NULL)
    return;
  g_list_store_append (self->kernels, entry);
  g_hash_table_replace (self->kernels_by_name, (gpointer) name, entry);
}

/* `column` gets where the trouble is when the record is refused. */
static gboolean
handle_record (WsSession *self, const WsRecord *r, const char *type, const char *text,
               gsize length, guint *column, GError **error)
{
  WsRecordNode o = WS_RECORD_ROOT;

  if (self->hello == NULL)
    return handle_hello (self, r, type, text, length, column, error);
  /* Every number the views will read is in its range, or the record is not used. */
  if (!_ws_session_check_ranges (r, type, text, length, column, error))
    return FALSE;

  if (self->trace != NULL && _ws_trace_takes (type))
    return add_trace_record (self, r, type, text, length);
  if (g_str_equal (type, WS_RECORD_TYPE_ACTIVITY))
    {
      WsSpan a;

      if (G_UNLIKELY (self->n_activities >= WS_SESSION_MAX_ACTIVITIES))
        return fail (self, error, WS_SESSION_ERROR_TOO_LARGE,
                     _("it holds more than %d activity records, the most a session may hold "
                       "in memory; trace fewer runs or a shorter program"),
                     WS_SESSION_MAX_ACTIVITIES);
      span_from_record (r, &a);
      add_activity (self, &a, a.run);
      return TRUE;
    }

  if (g_str_equal (type, WS_RECORD_TYPE_DEVICE))
    {
      g_autoptr (WsDevice) device = _ws_device_new_from_record (r);

      g_list_store_append (self->devices, device);
      store (self, r, type, 0, text, length);
      g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_CHANGED], 0);
    }
  else if (g_str_equal (type, WS_RECORD_TYPE_KERNEL))
    {
      store (self, r, type, 0, text, length);
      add_kernel (self, r);
    }
  else if (g_str_equal (type, WS_RECORD_TYPE_RUN))
    {
      g_autoptr (WsRun) run = NULL;
      int id = (int) ws_record_int (r, o, WS_KEY_ID, 0);

      if (ws_session_find_run (self, id) != NULL)
        {
          /* Two runs of one id contradict each other: the first is kept whole, and nothing
           * that names the id from here on (the second's launch, timing, verification,
           * activities) replaces a part of it. */
          if (self->announced_twice == NULL)
            self->announced_twice = g_hash_table_new (g_direct_hash, g_direct_equal);
          g_hash_table_add (self->announced_twice, GINT_TO_POINTER (id));
          /* An activity without a run id belongs to no run until the next is announced. */
          if (self->last_run != NULL)
            _ws_run_finish_activities (self->last_run);
          self->last_run = NULL;
          return fail (self, error, WS_SESSION_ERROR_MALFORMED,
                       _("run %d is announced twice: the second, and the records after it that "
                         "name run %d, are ignored; the first is kept"),
                       id, id);
        }
      if (G_UNLIKELY (g_hash_table_size (self->runs_by_id) >= WS_SESSION_MAX_RUNS))
        return fail (self, error, WS_SESSION_ERROR_TOO_LARGE,
                     _("it holds more than %d runs, the most a session may hold in memory (a "
                       "sweep of the runner makes at most 10,000); split it, or sweep fewer "
                       "configurations"),
                     WS_SESSION_MAX_RUNS);
      run = _ws_run_new_from_record (r);
      if (self->last_run != NULL)
        _ws_run_seal_activities (self->last_run);
      store (self, r, type, id, text, length);
      g_hash_table_insert (self->runs_by_id, GINT_TO_POINTER (id), run);
      g_list_store_append (self->runs, run);
      self->last_run = run;
      g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_RUN_ADDED], 0, run);
    }
  else if (g_str_equal (type, WS_RECORD_TYPE_LAUNCH) || g_str_equal (type, WS_RECORD_TYPE_TIMING)
           || g_str_equal (type, WS_RECORD_TYPE_VERIFY)
           || g_str_equal (type, WS_RECORD_TYPE_COUNTERS))
    {
      int id = (int) ws_record_int (r, o, WS_KEY_RUN, 0);
      WsRun *run = ws_session_find_run (self, id);

      if (run == NULL)
        return fail (self, error, WS_SESSION_ERROR_MALFORMED,
                     _("a %s record names run %d, which was never announced"), type, id);
      if (announced_twice (self, id))
        return fail (self, error, WS_SESSION_ERROR_MALFORMED,
                     _("a %s record names run %d after a second run %d was announced: it is "
                       "ignored, and the first run's is kept"),
                     type, id, id);
      store (self, r, type, id, text, length);
      _ws_run_set_record (run, type, r);
      g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_RUN_UPDATED], 0, run);
    }
  else if (g_str_equal (type, WS_RECORD_TYPE_ERROR))
    {
      WsRunnerError *e = _ws_runner_error_new_from_record (r);
      WsRun *run = e->run ? ws_session_find_run (self, e->run) : NULL;

      if (self->trace != NULL)
        _ws_trace_note_error (self->trace, r);
      store (self, r, type, e->run, text, length);
      if (run != NULL)
        {
          _ws_run_add_error (run, e);
          g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_RUN_UPDATED], 0, run);
        }
      else
        g_ptr_array_add (self->errors, e);
      g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_CHANGED], 0);
    }
  else if (g_str_equal (type, WS_RECORD_TYPE_PROGRESS))
    {
      store (self, r, type, 0, text, length);
      self->has_progress = TRUE;
      self->progress_done = (int) ws_record_int (r, o, WS_KEY_DONE, 0);
      self->progress_total = (int) ws_record_int (r, o, WS_KEY_TOTAL, 0);
      g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_CHANGED], 0);
    }
  else if (g_str_equal (type, WS_RECORD_TYPE_DONE))
    {
      store (self, r, type, 0, text, length);
      self->done = TRUE;
      self->exit_code = (int) ws_record_int (r, o, WS_KEY_EXIT_CODE, 0);
      self->dropped_records = ws_record_int (r, o, WS_KEY_DROPPED_RECORDS, 0);
      ws_session_end (self);
    }
  else
    {
      /* Other types (later protocols, hello repeated by a replay) are kept for writing back;
       * an own kernel's compile, memcheck and source records are also read. */
      store (self, r, type, 0, text, length);
      if (_ws_session_read_own (self, r, type))
        g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_CHANGED], 0);
    }
  return TRUE;
}

void
_ws_session_add_problem (WsSession *self, guint column, const char *message)
{
  WsProblem *problem;

  /* A file of a million bad lines must not cost a million messages. */
  if (++self->n_bad_lines > WS_SESSION_MAX_PROBLEMS)
    return;
  problem = g_new0 (WsProblem, 1);
  problem->line = self->line;
  problem->column = column;
  problem->message = g_strdup (message);
  g_ptr_array_add (self->problems, problem);
}

/* After the line was counted. */
static gboolean
refuse_overlong_line (WsSession *self, GError **error)
{
  g_autofree char *message = NULL;

  G_STATIC_ASSERT (WS_SESSION_MAX_LINE == 1024 * 1024);
  if (self->hello == NULL)
    return fail (self, error, WS_SESSION_ERROR_NOT_A_SESSION,
                 _("this is not a Warpscope session: line %u is longer than 1 MiB, and no "
                   "record is that long"),
                 self->line);
  message = g_strdup (_("the line is longer than 1 MiB, the most a reader takes (no record is "
                        "that long); it was skipped"));
  _ws_session_add_problem (self, 1, message);
  return fail (self, error, WS_SESSION_ERROR_MALFORMED, _("line %u: %s"), self->line, message);
}

gboolean
ws_session_feed_overlong_line (WsSession *self, GError **error)
{
  g_return_val_if_fail (WS_IS_SESSION (self), FALSE);

  self->line++;
  if (self->fatal != NULL)
    {
      g_set_error_literal (error, self->fatal->domain, self->fatal->code, self->fatal->message);
      return FALSE;
    }
  return refuse_overlong_line (self, error);
}

void
ws_session_skip_line (WsSession *self)
{
  g_return_if_fail (WS_IS_SESSION (self));
  self->line++;
}

static gboolean
is_blank (const char *line, gsize len)
{
  for (gsize i = 0; i < len; i++)
    if (line[i] != ' ' && line[i] != '\t')
      return FALSE;
  return TRUE;
}

gboolean
ws_session_feed_line (WsSession *self, const char *line, gssize length, GError **error)
{
  g_autoptr (WsRecord) record = NULL;
  g_autoptr (GError) local = NULL;
  const char *type;
  guint column = 0;
  gsize len;

  g_return_val_if_fail (WS_IS_SESSION (self), FALSE);
  g_return_val_if_fail (line != NULL, FALSE);

  len = length < 0 ? strlen (line) : (gsize) length;
  self->line++;
  if (self->fatal != NULL)
    {
      g_set_error_literal (error, self->fatal->domain, self->fatal->code, self->fatal->message);
      return FALSE;
    }
  while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
    len--;
  if (len > WS_SESSION_MAX_LINE)
    return refuse_overlong_line (self, error);
  /* A byte order mark, as some Windows editors write at the start of a UTF-8 file. */
  if (self->line == 1 && len >= 3 && memcmp (line, "\xEF\xBB\xBF", 3) == 0)
    line += 3, len -= 3;
  /* A line of only spaces and tabs is blank too: an editor that indents empty lines, a
   * script that pads its output. */
  if (is_blank (line, len))
    return TRUE;

  if (self->hello != NULL && self->trace == NULL && len > 20
      && memcmp (line, FAST_PATH_PREFIX, sizeof FAST_PATH_PREFIX - 1) == 0)
    {
      WsSpan a;
      guint32 run;

      if (_ws_session_parse_activity (line, len, &a, &run))
        {
          add_activity (self, &a, run);
          return TRUE;
        }
    }

  record = ws_record_parse (line, len, &column, &local);
  if (record == NULL)
    {
      if (self->hello == NULL)
        return fail (self, error, WS_SESSION_ERROR_NOT_A_SESSION,
                     _("this is not a Warpscope session: line %u is not JSON (%s)"), self->line,
                     local->message);
      _ws_session_add_problem (self, column, local->message);
      return fail (self, error, WS_SESSION_ERROR_MALFORMED, _("line %u, %s"), self->line,
                   local->message);
    }
  if (ws_record_type (record, WS_RECORD_ROOT) != WS_RECORD_OBJECT
      || (type = ws_record_string (record, WS_RECORD_ROOT, WS_KEY_TYPE)) == NULL)
    {
      const char *message = _("not a record: a record is a JSON object with a \"type\"");

      if (self->hello == NULL)
        return fail (self, error, WS_SESSION_ERROR_NOT_A_SESSION,
                     _("this is not a Warpscope session: line %u is not a record"), self->line);
      _ws_session_add_problem (self, 1, message);
      return fail (self, error, WS_SESSION_ERROR_MALFORMED, _("line %u: %s"), self->line,
                   message);
    }
  column = 1;
  if (!handle_record (self, record, type, line, len, &column, &local))
    {
      if (local->code == WS_SESSION_ERROR_MALFORMED)
        {
          _ws_session_add_problem (self, column, local->message);
          return fail (self, error, WS_SESSION_ERROR_MALFORMED, _("line %u: %s"), self->line,
                       local->message);
        }
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  return TRUE;
}

void
ws_session_end (WsSession *self)
{
  guint n;

  g_return_if_fail (WS_IS_SESSION (self));
  if (self->ended)
    return;
  self->ended = TRUE;
  n = g_list_model_get_n_items (G_LIST_MODEL (self->runs));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (G_LIST_MODEL (self->runs), i);

      _ws_run_seal_activities (run);
      if (ws_run_get_state (run) == WS_RUN_STATE_RUNNING)
        {
          _ws_run_mark_incomplete (run);
          g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_RUN_UPDATED], 0, run);
        }
    }
  if (self->n_bad_lines > WS_SESSION_MAX_PROBLEMS)
    {
      WsProblem *problem = g_new0 (WsProblem, 1);
      guint more = self->n_bad_lines - WS_SESSION_MAX_PROBLEMS;

      problem->line = self->line;
      problem->message = g_strdup_printf (
        g_dngettext (GETTEXT_PACKAGE, "and %u more line could not be read (only the first %u are listed)",
                     "and %u more lines could not be read (only the first %u are listed)", more),
        more, WS_SESSION_MAX_PROBLEMS);
      g_ptr_array_add (self->problems, problem);
    }
  if (self->trace != NULL)
    _ws_trace_end (self->trace, self->problems);
  /* The library's own trace file has no done record: its processes' trace_end close it. */
  if (!self->done && self->hello != NULL
      && (self->trace == NULL || _ws_trace_expects_done (self->trace)))
    {
      WsProblem *problem = g_new0 (WsProblem, 1);

      problem->line = self->line;
      problem->message = g_strdup (_("the stream ends before the runner finished (there is no "
                                     "done record): the last run may be incomplete"));
      g_ptr_array_add (self->problems, problem);
    }
  g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_CHANGED], 0);
}

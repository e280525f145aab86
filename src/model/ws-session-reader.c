/* ws-session-reader.c: reading the runner's JSON Lines into a session, line by line, so that
 * a live runner and a 100 MB file go through the same code. Activity lines, nearly all of a
 * large session, take a fast path (ws-session-activity.c); anything it does not expect goes
 * to the general parser (ws-record.c), and every number to its range (ws-session-ranges.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-session-private.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ws-json-util.h"
#include "ws-record.h"
#include "ws-trace-private.h"

/* ---- the general path -------------------------------------------------------------------- */

/* The record's numbers were checked against their ranges (ws-session-ranges.c): the casts
 * below cannot overflow. */
static void
activity_from_record (WsRecord *r, WsActivity *a, guint32 *run)
{
  WsRecordNode o = WS_RECORD_ROOT;
  gint64 v[3] = { 0, 0, 0 };
  const char *s;

  memset (a, 0, sizeof *a);
  *run = (guint32) ws_record_int (r, o, "run", 0);
  a->kind = ws_activity_kind_from_string (ws_record_string (r, o, "kind"));
  a->phase = ws_activity_phase_from_string (ws_record_string (r, o, "phase"));
  a->rep = (guint32) ws_record_int (r, o, "rep", 0);
  a->start = ws_record_int (r, o, "start", 0);
  a->end = MAX (ws_record_int (r, o, "end", a->start), a->start);
  a->bytes = (guint64) ws_record_int (r, o, "bytes", 0);
  a->stream = (guint32) ws_record_int (r, o, "stream", 0);
  a->correlation = (guint32) ws_record_int (r, o, "correlation", 0);
  a->direction = ws_copy_direction_from_string (ws_record_string (r, o, "direction"));
  a->host_memory = ws_host_memory_from_string (ws_record_string (r, o, "host_memory"));
  if ((s = ws_record_string (r, o, "name")) != NULL)
    a->name = g_intern_string (s);
  if ((s = ws_record_string (r, o, "sync")) != NULL
      || (s = ws_record_string (r, o, "overhead")) != NULL)
    a->detail = g_intern_string (s);
  if (ws_record_ints (r, o, "grid", v, 3) == 3)
    for (int i = 0; i < 3; i++)
      a->grid[i] = (guint32) v[i];
  if (ws_record_ints (r, o, "block", v, 3) == 3)
    for (int i = 0; i < 3; i++)
      a->block[i] = (guint32) v[i];
  a->registers = (guint16) ws_record_int (r, o, "registers", 0);
  a->static_smem = (guint32) ws_record_int (r, o, "static_smem", 0);
  a->dynamic_smem = (guint32) ws_record_int (r, o, "dynamic_smem", 0);
  a->threads = (guint16) ws_record_int (r, o, "threads", 0);
}

static void
add_activity (WsSession *self, const WsActivity *activity, guint32 run_id)
{
  WsRun *run = run_id ? ws_session_find_run (self, (int) run_id) : self->last_run;

  if (run == NULL)
    return; /* an activity of no announced run has nowhere to go */
  _ws_run_append_activity (run, activity);
  self->n_activities++;
}

static WsRunnerError *
error_from_record (WsRecord *r)
{
  WsRunnerError *e = g_new0 (WsRunnerError, 1);
  WsRecordNode o = WS_RECORD_ROOT;

  e->run = (int) ws_record_int (r, o, "run", 0);
  e->severity = g_strdup (ws_record_string (r, o, "severity") ?: "error");
  e->code = g_strdup (ws_record_string (r, o, "code") ?: "unknown");
  e->message = g_strdup (ws_record_string (r, o, "message") ?: "");
  e->detail = g_strdup (ws_record_string (r, o, "detail"));
  e->file = g_strdup (ws_record_string (r, o, "file"));
  e->line = (int) ws_record_int (r, o, "line", 0);
  e->column = (int) ws_record_int (r, o, "column", 0);
  return e;
}

/* The hello, device and kernel records are read again by json-glib, which might refuse a
 * corner of JSON that ws-record.c takes (none is known: unpaired surrogates were one): such
 * a record is refused rather than half kept. */
static const char not_plain_json[]
  = N_("the record uses a form of JSON this reader cannot keep (an unusual escape or number)");

/* The few records kept as json-glib objects (hello, device, kernel): their readers and the
 * views want JsonObject, and there are only a handful per session. */
static JsonObject *
json_object_of (const char *text, gsize length)
{
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  JsonNode *root;

  if (!json_parser_load_from_data (parser, text, (gssize) length, NULL)
      || (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  return json_object_ref (json_node_get_object (root));
}

static void
store (WsSession *self, const char *type, int run, const char *text, gsize length)
{
  WsStoredRecord *stored = g_new0 (WsStoredRecord, 1);

  stored->type = g_intern_string (type);
  stored->run = run;
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
start_trace (WsSession *self, WsRecord *r, const char *text, gsize length)
{
  self->trace = _ws_trace_new ();
  _ws_trace_add_record (self->trace, self, "hello", r, text, length);
}

static gboolean
add_trace_record (WsSession *self, WsRecord *r, const char *type, const char *text,
                  gsize length)
{
  store (self, type, 0, text, length);
  _ws_trace_add_record (self->trace, self, type, r, text, length);
  if (!g_str_equal (type, "activity"))
    g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_CHANGED], 0);
  return TRUE;
}

static gboolean
handle_hello (WsSession *self, WsRecord *r, const char *type, const char *text, gsize length,
              guint *column, GError **error)
{
  WsRecordNode o = WS_RECORD_ROOT;
  g_autoptr (GError) range = NULL;
  gint64 protocol;

  if (!g_str_equal (type, "hello"))
    return fail (self, error, WS_SESSION_ERROR_NOT_A_SESSION,
                 _("this is not a Warpscope session: its first record is \"%s\", not the "
                   "runner's hello"),
                 type);
  if (!_ws_session_check_ranges (r, type, text, length, column, &range))
    return fail (self, error, WS_SESSION_ERROR_NOT_A_SESSION,
                 _("this is not a Warpscope session: in its hello record, %s"), range->message);
  protocol = ws_record_int (r, o, "protocol", 0);
  if (protocol > WS_PROTOCOL_VERSION)
    return fail (self, error, WS_SESSION_ERROR_NEWER_PROTOCOL,
                 _("this session was written by a newer Warpscope (protocol %" PRId64
                   ", runner %s); this version reads protocol %d and older. Update Warpscope "
                   "to open it"),
                 protocol, ws_record_string (r, o, "runner") ?: "unknown", WS_PROTOCOL_VERSION);
  if (protocol < 1)
    return fail (self, error, WS_SESSION_ERROR_NOT_A_SESSION,
                 _("this is not a Warpscope session: its hello record names no protocol"));
  self->hello = json_object_of (text, length);
  if (self->hello == NULL)
    return fail (self, error, WS_SESSION_ERROR_NOT_A_SESSION,
                 _("this is not a Warpscope session: in its hello record, %s"),
                 _(not_plain_json));
  self->protocol = (int) protocol;
  /* warpscope-cli replay marks the hello of the recording it plays back. */
  if (ws_record_member (r, o, "replay") != WS_RECORD_NONE)
    self->source = WS_SESSION_SOURCE_REPLAY;
  store (self, type, 0, text, length);
  if (g_strcmp0 (ws_record_string (r, o, "source"), "trace") == 0)
    start_trace (self, r, text, length);
  g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_CHANGED], 0);
  return TRUE;
}

/* `column` gets where the trouble is when the record is refused. */
static gboolean
handle_record (WsSession *self, WsRecord *r, const char *type, const char *text, gsize length,
               guint *column, GError **error)
{
  WsRecordNode o = WS_RECORD_ROOT;

  if (self->hello == NULL)
    return handle_hello (self, r, type, text, length, column, error);
  /* Every number the views will read is in its range, or the record is not used. */
  if (!_ws_session_check_ranges (r, type, text, length, column, error))
    return FALSE;

  if (self->trace != NULL && _ws_trace_takes (type))
    return add_trace_record (self, r, type, text, length);
  if (g_str_equal (type, "activity"))
    {
      WsActivity a;
      guint32 run;

      activity_from_record (r, &a, &run);
      add_activity (self, &a, run);
      return TRUE;
    }

  if (g_str_equal (type, "device"))
    {
      g_autoptr (JsonObject) json = json_object_of (text, length);
      g_autoptr (WsDevice) device = NULL;

      if (json == NULL)
        return fail (self, error, WS_SESSION_ERROR_MALFORMED, "%s", _(not_plain_json));
      device = ws_device_new_from_json (json);
      g_list_store_append (self->devices, device);
      store (self, type, 0, text, length);
      g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_CHANGED], 0);
    }
  else if (g_str_equal (type, "kernel"))
    {
      JsonObject *json = json_object_of (text, length);
      const char *name = ws_record_string (r, o, "name");

      if (json == NULL)
        return fail (self, error, WS_SESSION_ERROR_MALFORMED, "%s", _(not_plain_json));
      store (self, type, 0, text, length);
      if (json != NULL && name != NULL)
        {
          g_hash_table_replace (self->kernels, g_strdup (name), json_object_ref (json));
          g_ptr_array_add (self->kernel_list, json);
        }
      else if (json != NULL)
        json_object_unref (json);
    }
  else if (g_str_equal (type, "run"))
    {
      g_autoptr (WsRun) run = NULL;
      int id = (int) ws_record_int (r, o, "id", 0);
      g_autofree char *line = g_strndup (text, length);

      if (ws_session_find_run (self, id) != NULL)
        return fail (self, error, WS_SESSION_ERROR_MALFORMED,
                     _("run %d is announced twice; the second is ignored"), id);
      run = _ws_run_new_from_record (r, line);
      if (self->last_run != NULL)
        _ws_run_finish_activities (self->last_run);
      store (self, type, id, text, length);
      g_hash_table_insert (self->runs_by_id, GINT_TO_POINTER (id), run);
      g_list_store_append (self->runs, run);
      self->last_run = run;
      g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_RUN_ADDED], 0, run);
    }
  else if (g_str_equal (type, "launch") || g_str_equal (type, "timing")
           || g_str_equal (type, "verify"))
    {
      int id = (int) ws_record_int (r, o, "run", 0);
      WsRun *run = ws_session_find_run (self, id);
      g_autofree char *line = NULL;

      if (run == NULL)
        return fail (self, error, WS_SESSION_ERROR_MALFORMED,
                     _("a %s record names run %d, which was never announced"), type, id);
      line = g_strndup (text, length);
      store (self, type, id, text, length);
      _ws_run_set_record (run, type, r, line);
      g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_RUN_UPDATED], 0, run);
    }
  else if (g_str_equal (type, "error"))
    {
      WsRunnerError *e = error_from_record (r);
      WsRun *run = e->run ? ws_session_find_run (self, e->run) : NULL;

      if (self->trace != NULL)
        _ws_trace_note_error (self->trace, r);
      store (self, type, e->run, text, length);
      if (run != NULL)
        {
          _ws_run_add_error (run, e);
          g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_RUN_UPDATED], 0, run);
        }
      else
        g_ptr_array_add (self->errors, e);
      g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_CHANGED], 0);
    }
  else if (g_str_equal (type, "progress"))
    {
      store (self, type, 0, text, length);
      self->has_progress = TRUE;
      self->progress_done = (int) ws_record_int (r, o, "done", 0);
      self->progress_total = (int) ws_record_int (r, o, "total", 0);
      g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_CHANGED], 0);
    }
  else if (g_str_equal (type, "done"))
    {
      store (self, type, 0, text, length);
      self->done = TRUE;
      self->exit_code = (int) ws_record_int (r, o, "exit_code", 0);
      self->dropped_records = ws_record_int (r, o, "dropped_records", 0);
      ws_session_end (self);
    }
  else
    {
      /* Other types (later protocols, hello repeated by a replay) are kept for writing back;
       * an own kernel's compile, memcheck and source records are also read. */
      store (self, type, 0, text, length);
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
  if (len == 0)
    return TRUE;

  if (self->hello != NULL && self->trace == NULL && len > 20
      && memcmp (line, "{\"type\":\"activity\"", 18) == 0)
    {
      WsActivity a;
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
      || (type = ws_record_string (record, WS_RECORD_ROOT, "type")) == NULL)
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

      _ws_run_finish_activities (run);
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

/* ws-session-reader.c: reading the runner's JSON Lines into a session, line by line, so that
 * a live runner and a 100 MB file go through the same code. Activity lines, nearly all of a
 * large session, take a fast path that reads the flat object directly; anything it does not
 * expect goes to json-glib.
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

/* ---- the fast path for activity records ------------------------------------------------- */

typedef struct
{
  const char *p, *end;
} Scanner;

static void
skip_ws (Scanner *s)
{
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\r'))
    s->p++;
}

static gboolean
expect (Scanner *s, char c)
{
  skip_ws (s);
  if (s->p >= s->end || *s->p != c)
    return FALSE;
  s->p++;
  return TRUE;
}

/* A string without escapes; points into the line. */
static gboolean
scan_string (Scanner *s, const char **start, gsize *len)
{
  const char *q;

  if (!expect (s, '"'))
    return FALSE;
  q = s->p;
  while (q < s->end && *q != '"')
    {
      if (*q == '\\')
        return FALSE;
      q++;
    }
  if (q >= s->end)
    return FALSE;
  *start = s->p;
  *len = (gsize) (q - s->p);
  s->p = q + 1;
  return TRUE;
}

static gboolean
scan_int (Scanner *s, gint64 *out)
{
  char *endp;

  skip_ws (s);
  if (s->p >= s->end || !(g_ascii_isdigit (*s->p) || *s->p == '-'))
    return FALSE;
  *out = g_ascii_strtoll (s->p, &endp, 10);
  if (endp == s->p || endp > s->end)
    return FALSE;
  /* A fraction or exponent is not an integer: let json-glib decide. */
  if (endp < s->end && (*endp == '.' || *endp == 'e' || *endp == 'E'))
    return FALSE;
  s->p = endp;
  return TRUE;
}

static gboolean
skip_value (Scanner *s)
{
  const char *str;
  gsize len;

  skip_ws (s);
  if (s->p >= s->end)
    return FALSE;
  switch (*s->p)
    {
    case '"':
      return scan_string (s, &str, &len);
    case '[':
      s->p++;
      for (;;)
        {
          skip_ws (s);
          if (s->p < s->end && *s->p == ']')
            {
              s->p++;
              return TRUE;
            }
          if (!skip_value (s))
            return FALSE;
          skip_ws (s);
          if (s->p < s->end && *s->p == ',')
            s->p++;
        }
    case '{':
      return FALSE;
    default:
      {
        const char *q = s->p;

        while (q < s->end && *q != ',' && *q != '}' && *q != ']' && *q != ' ')
          q++;
        if (q == s->p)
          return FALSE;
        s->p = q;
        return TRUE;
      }
    }
}

static gboolean
scan_triple (Scanner *s, guint32 out[3])
{
  if (!expect (s, '['))
    return FALSE;
  for (int i = 0; i < 3; i++)
    {
      gint64 v;

      if (!scan_int (s, &v))
        return FALSE;
      out[i] = (guint32) CLAMP (v, 0, G_MAXUINT32);
      if (i < 2 && !expect (s, ','))
        return FALSE;
    }
  return expect (s, ']');
}

static const char *
intern (const char *start, gsize len)
{
  char buf[256];

  if (len >= sizeof buf || !g_utf8_validate (start, (gssize) len, NULL))
    return NULL;
  memcpy (buf, start, len);
  buf[len] = '\0';
  return g_intern_string (buf);
}

#define KEY_IS(k) (klen == sizeof (k) - 1 && memcmp (key, k, klen) == 0)

gboolean
_ws_session_parse_activity (const char *line, gsize length, WsActivity *a, guint32 *run)
{
  Scanner s = { line, line + length };
  gboolean have_kind = FALSE;

  memset (a, 0, sizeof *a);
  *run = 0;
  if (!expect (&s, '{'))
    return FALSE;
  for (;;)
    {
      const char *key, *str;
      gsize klen, slen;
      gint64 v;

      if (!scan_string (&s, &key, &klen) || !expect (&s, ':'))
        return FALSE;
      skip_ws (&s);
      if (KEY_IS ("type"))
        {
          if (!scan_string (&s, &str, &slen) || slen != 8 || memcmp (str, "activity", 8) != 0)
            return FALSE;
        }
      else if (KEY_IS ("kind") || KEY_IS ("phase") || KEY_IS ("direction")
               || KEY_IS ("host_memory") || KEY_IS ("name") || KEY_IS ("sync")
               || KEY_IS ("overhead"))
        {
          const char *value;

          if (s.p < s.end && *s.p == 'n')
            {
              if (!skip_value (&s))
                return FALSE;
              goto next;
            }
          if (!scan_string (&s, &str, &slen) || (value = intern (str, slen)) == NULL)
            return FALSE;
          if (KEY_IS ("kind"))
            a->kind = ws_activity_kind_from_string (value), have_kind = TRUE;
          else if (KEY_IS ("phase"))
            a->phase = ws_activity_phase_from_string (value);
          else if (KEY_IS ("direction"))
            a->direction = ws_copy_direction_from_string (value);
          else if (KEY_IS ("host_memory"))
            a->host_memory = ws_host_memory_from_string (value);
          else if (KEY_IS ("name"))
            a->name = value;
          else
            a->detail = value;
        }
      else if (KEY_IS ("grid") || KEY_IS ("block"))
        {
          if (!scan_triple (&s, KEY_IS ("grid") ? a->grid : a->block))
            return FALSE;
        }
      else if (KEY_IS ("run") || KEY_IS ("rep") || KEY_IS ("start") || KEY_IS ("end")
               || KEY_IS ("bytes") || KEY_IS ("stream") || KEY_IS ("correlation")
               || KEY_IS ("registers") || KEY_IS ("static_smem") || KEY_IS ("dynamic_smem")
               || KEY_IS ("threads"))
        {
          if (!scan_int (&s, &v))
            return FALSE;
          if (KEY_IS ("run"))
            *run = (guint32) CLAMP (v, 0, G_MAXUINT32);
          else if (KEY_IS ("rep"))
            a->rep = (guint16) CLAMP (v, 0, G_MAXUINT16);
          else if (KEY_IS ("start"))
            a->start = v;
          else if (KEY_IS ("end"))
            a->end = v;
          else if (KEY_IS ("bytes"))
            a->bytes = (guint64) MAX (v, 0);
          else if (KEY_IS ("stream"))
            a->stream = (guint32) CLAMP (v, 0, G_MAXUINT32);
          else if (KEY_IS ("correlation"))
            a->correlation = (guint32) CLAMP (v, 0, G_MAXUINT32);
          else if (KEY_IS ("registers"))
            a->registers = (guint16) CLAMP (v, 0, G_MAXUINT16);
          else if (KEY_IS ("static_smem"))
            a->static_smem = (guint32) CLAMP (v, 0, G_MAXUINT32);
          else if (KEY_IS ("dynamic_smem"))
            a->dynamic_smem = (guint32) CLAMP (v, 0, G_MAXUINT32);
          else
            a->threads = (guint16) CLAMP (v, 0, G_MAXUINT16);
        }
      else if (!skip_value (&s)) /* "t" and fields of later protocols */
        return FALSE;
    next:
      skip_ws (&s);
      if (s.p < s.end && *s.p == ',')
        {
          s.p++;
          continue;
        }
      if (!expect (&s, '}'))
        return FALSE;
      skip_ws (&s);
      return s.p == s.end && have_kind && a->end >= a->start;
    }
}

/* ---- the general path -------------------------------------------------------------------- */

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
  a->rep = (guint16) ws_record_int (r, o, "rep", 0);
  a->start = ws_record_int (r, o, "start", 0);
  a->end = MAX (ws_record_int (r, o, "end", a->start), a->start);
  a->bytes = (guint64) MAX (ws_record_int (r, o, "bytes", 0), 0);
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
  return e;
}

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
handle_record (WsSession *self, WsRecord *r, const char *type, const char *text, gsize length,
               GError **error)
{
  WsRecordNode o = WS_RECORD_ROOT;

  if (self->hello == NULL)
    {
      gint64 protocol;

      if (!g_str_equal (type, "hello"))
        return fail (self, error, WS_SESSION_ERROR_NOT_A_SESSION,
                     _("this is not a Warpscope session: its first record is \"%s\", not the "
                       "runner's hello"),
                     type);
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
      g_autoptr (WsDevice) device = json ? ws_device_new_from_json (json) : NULL;

      if (device != NULL)
        g_list_store_append (self->devices, device);
      store (self, type, 0, text, length);
      g_signal_emit (self, _ws_session_signals[WS_SESSION_SIGNAL_CHANGED], 0);
    }
  else if (g_str_equal (type, "kernel"))
    {
      JsonObject *json = json_object_of (text, length);
      const char *name = ws_record_string (r, o, "name");

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
    /* Other types (later protocols, hello repeated by a replay) are kept for writing back. */
    store (self, type, 0, text, length);
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
      WsProblem *problem;

      if (self->hello == NULL)
        return fail (self, error, WS_SESSION_ERROR_NOT_A_SESSION,
                     _("this is not a Warpscope session: line %u is not JSON (%s)"), self->line,
                     local->message);
      problem = g_new0 (WsProblem, 1);
      problem->line = self->line;
      problem->column = column;
      problem->message = g_strdup (local->message);
      g_ptr_array_add (self->problems, problem);
      return fail (self, error, WS_SESSION_ERROR_MALFORMED, _("line %u, %s"), problem->line,
                   problem->message);
    }
  if (ws_record_type (record, WS_RECORD_ROOT) != WS_RECORD_OBJECT
      || (type = ws_record_string (record, WS_RECORD_ROOT, "type")) == NULL)
    {
      WsProblem *problem;

      if (self->hello == NULL)
        return fail (self, error, WS_SESSION_ERROR_NOT_A_SESSION,
                     _("this is not a Warpscope session: line %u is not a record"), self->line);
      problem = g_new0 (WsProblem, 1);
      problem->line = self->line;
      problem->column = 1;
      problem->message = g_strdup (_("not a record: a record is a JSON object with a \"type\""));
      g_ptr_array_add (self->problems, problem);
      return fail (self, error, WS_SESSION_ERROR_MALFORMED, _("line %u: %s"), problem->line,
                   problem->message);
    }
  if (!handle_record (self, record, type, line, len, &local))
    {
      if (local->code == WS_SESSION_ERROR_MALFORMED)
        {
          WsProblem *problem = g_new0 (WsProblem, 1);

          problem->line = self->line;
          problem->column = 1;
          problem->message = g_strdup (local->message);
          g_ptr_array_add (self->problems, problem);
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

/* ---- files -------------------------------------------------------------------------------- */

WsSession *
ws_session_load (GFile *file, GCancellable *cancellable, GError **error)
{
  g_autoptr (WsSession) self = NULL;
  g_autoptr (GFileInputStream) in = NULL;
  g_autofree char *name = NULL;
  const gsize block = 1 << 20;
  gsize have = 0, cap = 2 * block;
  g_autofree char *buf = NULL;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  name = g_file_get_parse_name (file);
  in = g_file_read (file, cancellable, error);
  if (in == NULL)
    return NULL;
  self = ws_session_new (WS_SESSION_SOURCE_RECORDING);
  ws_session_set_file (self, file);

  /* Read in large blocks and hand each line to the session where it lies: no copy per line. */
  buf = g_malloc (cap);
  for (;;)
    {
      g_autoptr (GError) local = NULL;
      gssize got;
      gsize start = 0;
      gboolean eof;

      if (cap - have < block)
        buf = g_realloc (buf, cap = have + 2 * block);
      got = g_input_stream_read (G_INPUT_STREAM (in), buf + have, block, cancellable, &local);
      if (got < 0)
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", name);
          return NULL;
        }
      have += (gsize) got;
      eof = got == 0;
      for (;;)
        {
          char *nl = memchr (buf + start, '\n', have - start);
          gsize len;

          if (nl == NULL && !(eof && start < have))
            break;
          len = nl ? (gsize) (nl - (buf + start)) : have - start;
          if (!ws_session_feed_line (self, buf + start, (gssize) len, &local)
              && local->code != WS_SESSION_ERROR_MALFORMED)
            {
              g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", name);
              return NULL;
            }
          g_clear_error (&local);
          start += len + (nl ? 1 : 0);
          if (nl == NULL)
            break;
        }
      memmove (buf, buf + start, have - start);
      have -= start;
      if (eof)
        break;
    }
  if (self->hello == NULL)
    {
      g_set_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_EMPTY,
                   _("%s: the file is empty: it holds no records"), name);
      return NULL;
    }
  ws_session_end (self);
  return g_steal_pointer (&self);
}

static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;
  WsSession *session = ws_session_load (task_data, cancellable, &error);

  if (session == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, session, g_object_unref);
}

void
ws_session_load_async (GFile *file, GCancellable *cancellable, GAsyncReadyCallback callback,
                       gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, ws_session_load_async);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, load_thread);
}

WsSession *
ws_session_load_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

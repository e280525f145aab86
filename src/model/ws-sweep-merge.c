/* ws-sweep-merge.c: runners' streams merged into one session in plan order. Each line is
 * classified (its type, the run it is about), held while runs before it are still to come,
 * and fed to the session when its turn comes; run records gain the device that ran them.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-sweep-merge.h"

#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ws-json-writer.h"
#include "ws-protocol.h"
#include "ws-record.h"
#include "ws-session-private.h"

typedef struct
{
  char *label;
  int device_hint;       /* the GPU it was asked for; -1 unknown */
  char *hello;           /* its hello line */
  char *host;
  int device;            /* its device record's index; -1 before one */
  char *device_uuid;
  GPtrArray *preamble;   /* lines before its first run (device, kernel, session errors) */
  gboolean started;      /* its first run, progress or done has come: the preamble is whole */
  gboolean ended;
  int current;           /* the run its last line was about; 0 none, -1 one being dropped */
  int max_id;            /* the highest run id it has announced */
  int runs;              /* runs announced */
  gboolean has_progress;
  int progress_done, progress_total;
  gboolean has_done;
  int exit_code;
  gint64 done_runs, done_failed, dropped;
} Stream;

typedef struct
{
  GPtrArray *lines;
  gboolean complete;
} Pending;

struct _WsSweepMerge
{
  WsSession *out;
  guint n;
  Stream *streams;
  gboolean round_robin;
  gboolean released;       /* the hello, devices and catalog are out: runs may follow */
  gboolean hello_out;      /* a hello went out: the session can take records */
  gboolean finished, cancelled;
  int head;                /* the next run id to go out */
  int max_id;
  GHashTable *pending;     /* run id → Pending */
  GHashTable *owner;       /* run id → stream + 1 */
  GHashTable *kernels_out; /* names of the catalog entries written */
  int progress_done, progress_total;
  double t;                /* the latest "t" seen, for the records written here */
  GPtrArray *problems;     /* char * */
};

static void
pending_free (Pending *p)
{
  g_ptr_array_unref (p->lines);
  g_free (p);
}

WsSweepMerge *
ws_sweep_merge_new (WsSession *out, guint n_streams, gboolean round_robin)
{
  WsSweepMerge *self = g_new0 (WsSweepMerge, 1);

  g_return_val_if_fail (WS_IS_SESSION (out), NULL);
  g_return_val_if_fail (n_streams > 0, NULL);
  self->out = g_object_ref (out);
  self->n = n_streams;
  self->round_robin = round_robin;
  self->streams = g_new0 (Stream, n_streams);
  for (guint i = 0; i < n_streams; i++)
    {
      self->streams[i].preamble = g_ptr_array_new_with_free_func (g_free);
      self->streams[i].device = self->streams[i].device_hint = -1;
      self->streams[i].label = g_strdup_printf ("%u", i);
    }
  self->head = 1;
  self->pending = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) pending_free);
  self->owner = g_hash_table_new (NULL, NULL);
  self->kernels_out = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->problems = g_ptr_array_new_with_free_func (g_free);
  self->progress_done = self->progress_total = -1;
  return self;
}

void
ws_sweep_merge_free (WsSweepMerge *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n; i++)
    {
      g_free (self->streams[i].label);
      g_free (self->streams[i].hello);
      g_free (self->streams[i].host);
      g_free (self->streams[i].device_uuid);
      g_ptr_array_unref (self->streams[i].preamble);
    }
  g_free (self->streams);
  g_hash_table_unref (self->pending);
  g_hash_table_unref (self->owner);
  g_hash_table_unref (self->kernels_out);
  g_ptr_array_unref (self->problems);
  g_object_unref (self->out);
  g_free (self);
}

void
ws_sweep_merge_set_stream (WsSweepMerge *self, guint stream, const char *label, int device)
{
  g_return_if_fail (stream < self->n);
  g_free (self->streams[stream].label);
  self->streams[stream].label = g_strdup (label);
  self->streams[stream].device_hint = device;
}

/* ---- writing ----------------------------------------------------------------------------- */

static void
emit (WsSweepMerge *self, const char *line)
{
  if (self->hello_out)
    ws_session_feed_line (self->out, line, -1, NULL);
}

/* `line` (a JSON object) with `members` (",\"a\":1") added before its closing brace. */
static char *
with_members (const char *line, const char *members)
{
  const char *end = line + strlen (line);

  while (end > line && g_ascii_isspace (end[-1]))
    end--;
  if (end == line || end[-1] != '}')
    return g_strdup (line);
  return g_strdup_printf ("%.*s%s}", (int) (end - 1 - line), line, members);
}

/* How the runner begins a record of a type: the cue for lines read without parsing. */
#define TYPE_PREFIX(type) "{\"" WS_KEY_TYPE "\":\"" type "\""

/* A record of the merge's own (progress, error, done), in the runner's layout: type and t
 * first. End it with end_record. */
static WsJsonWriter *
begin_record (WsSweepMerge *self, GString *out, const char *type)
{
  WsJsonWriter *json = ws_json_writer_new (out, FALSE);

  ws_json_writer_begin_object (json, NULL);
  ws_json_writer_string (json, WS_KEY_TYPE, type);
  ws_json_writer_double (json, WS_KEY_T, self->t);
  return json;
}

static char *
end_record (WsJsonWriter *json, GString *out)
{
  ws_json_writer_end_object (json);
  ws_json_writer_free (json);
  return g_string_free (out, FALSE);
}

static void
emit_progress (WsSweepMerge *self)
{
  int done = 0, total = 0;
  g_autofree char *line = NULL;
  GString *out;
  WsJsonWriter *json;

  if (!self->released)
    return;
  for (guint i = 0; i < self->n; i++)
    {
      Stream *s = &self->streams[i];

      if (s->has_progress)
        done += s->progress_done, total += s->progress_total;
      else if (s->ended)
        done += s->runs, total += s->runs;
      else
        return; /* a share whose size is not known yet */
    }
  if (done == self->progress_done && total == self->progress_total)
    return;
  self->progress_done = done;
  self->progress_total = total;
  out = g_string_new (NULL);
  json = begin_record (self, out, WS_RECORD_TYPE_PROGRESS);
  ws_json_writer_int (json, WS_KEY_DONE, done);
  ws_json_writer_int (json, WS_KEY_TOTAL, total);
  line = end_record (json, out);
  emit (self, line);
}

/* The hello of the first stream that has one, then every stream's devices (each with its
 * host when the runners ran on several), the catalog entries once, and what else came before
 * the runs. */
static void
release (WsSweepMerge *self)
{
  gboolean several_hosts = FALSE;
  const char *first_host = NULL;

  for (guint i = 0; i < self->n; i++)
    if (!self->streams[i].started && !self->streams[i].ended)
      return;
  self->released = TRUE;
  for (guint i = 0; i < self->n; i++)
    {
      const char *host = self->streams[i].host;

      if (host != NULL && first_host != NULL && !g_str_equal (host, first_host))
        several_hosts = TRUE;
      if (first_host == NULL)
        first_host = host;
    }
  for (guint i = 0; i < self->n; i++)
    if (self->streams[i].hello != NULL)
      {
        g_autofree char *member = g_strdup_printf (",\"split\":{\"runners\":%u}", self->n);
        g_autofree char *hello = with_members (self->streams[i].hello, member);

        self->hello_out = TRUE;
        emit (self, hello);
        break;
      }
  for (guint pass = 0; pass < 3; pass++)
    for (guint i = 0; i < self->n; i++)
      {
        Stream *s = &self->streams[i];

        for (guint l = 0; l < s->preamble->len; l++)
          {
            const char *line = g_ptr_array_index (s->preamble, l);
            gboolean device = g_str_has_prefix (line, TYPE_PREFIX (WS_RECORD_TYPE_DEVICE));
            gboolean kernel = g_str_has_prefix (line, TYPE_PREFIX (WS_RECORD_TYPE_KERNEL));

            if ((pass == 0 && !device) || (pass == 1 && !kernel) || (pass == 2 && (device || kernel)))
              continue;
            if (kernel)
              {
                g_autoptr (WsRecord) r = ws_record_parse (line, strlen (line), NULL, NULL);
                const char *name
                  = r != NULL ? ws_record_string (r, WS_RECORD_ROOT, WS_KEY_NAME) : NULL;

                if (name == NULL || g_hash_table_contains (self->kernels_out, name))
                  continue;
                g_hash_table_add (self->kernels_out, g_strdup (name));
              }
            if (device && several_hosts && s->host != NULL)
              {
                GString *member = g_string_new (",\"" WS_KEY_HOST "\":");
                g_autofree char *tagged = NULL;

                ws_json_append_string (member, s->host);
                tagged = with_members (line, member->str);
                g_string_free (member, TRUE);
                emit (self, tagged);
              }
            else
              emit (self, line);
          }
        if (pass == 2)
          g_ptr_array_set_size (s->preamble, 0);
      }
}

static Pending *
pending_of (WsSweepMerge *self, int id)
{
  Pending *p = g_hash_table_lookup (self->pending, GINT_TO_POINTER (id));

  if (p == NULL)
    {
      p = g_new0 (Pending, 1);
      p->lines = g_ptr_array_new_with_free_func (g_free);
      g_hash_table_insert (self->pending, GINT_TO_POINTER (id), p);
    }
  return p;
}

/* Whether run `id` will never come: no stream that could hold it is still going. */
static gboolean
can_skip (WsSweepMerge *self, int id)
{
  if (self->round_robin)
    {
      Stream *s = &self->streams[(guint) (id - 1) % self->n];

      return s->ended || s->max_id > id;
    }
  for (guint i = 0; i < self->n; i++)
    if (!self->streams[i].ended && self->streams[i].max_id < id)
      return FALSE;
  return TRUE;
}

/* Writes the runs whose turn has come, in id order. */
static void
drain (WsSweepMerge *self)
{
  if (!self->released)
    return;
  while (self->head <= self->max_id || g_hash_table_size (self->pending) > 0)
    {
      Pending *p = g_hash_table_lookup (self->pending, GINT_TO_POINTER (self->head));

      if (p != NULL)
        {
          for (guint i = 0; i < p->lines->len; i++)
            emit (self, g_ptr_array_index (p->lines, i));
          g_ptr_array_set_size (p->lines, 0);
          if (!p->complete)
            break; /* its stream sends the rest live */
          g_hash_table_remove (self->pending, GINT_TO_POINTER (self->head));
        }
      else if (!can_skip (self, self->head))
        break;
      self->head++;
    }
}

static void
complete (WsSweepMerge *self, Stream *s)
{
  if (s->current > 0)
    pending_of (self, s->current)->complete = TRUE;
  s->current = 0;
}

/* ---- reading ----------------------------------------------------------------------------- */

static double
t_of (const char *line)
{
  const char *p = strstr (line, "\"t\":");

  return p != NULL ? g_ascii_strtod (p + 4, NULL) : 0;
}

/* A run record of `s`, tagged with its device unless it names one. */
static char *
tag_run (Stream *s, WsRecord *record, const char *line)
{
  g_autoptr (GString) members = g_string_new (NULL);

  if (s->device < 0 && s->device_hint < 0)
    return g_strdup (line);
  if (ws_record_member (record, WS_RECORD_ROOT, WS_KEY_DEVICE) != WS_RECORD_NONE)
    return g_strdup (line);
  g_string_append_printf (members, ",\"" WS_KEY_DEVICE "\":%d",
                          s->device >= 0 ? s->device : s->device_hint);
  if (s->device_uuid != NULL)
    {
      g_string_append (members, ",\"" WS_KEY_DEVICE_UUID "\":");
      ws_json_append_string (members, s->device_uuid);
    }
  return with_members (line, members->str);
}

static void
take_run_line (WsSweepMerge *self, guint stream, const char *type, int id, WsRecord *record,
               const char *line)
{
  Stream *s = &self->streams[stream];
  gpointer owner;

  if (g_str_equal (type, WS_RECORD_TYPE_RUN))
    {
      complete (self, s);
      owner = g_hash_table_lookup (self->owner, GINT_TO_POINTER (id));
      if (owner != NULL || id < self->head || id <= 0)
        {
          /* Translators: a run id, then the name of the stream (a file) that has it again. */
          g_ptr_array_add (self->problems,
                           g_strdup_printf (_("run %1$d is in %2$s as well as in an earlier one: "
                                              "it is left out of %2$s"),
                                            id, s->label));
          s->current = -1;
          return;
        }
      g_hash_table_insert (self->owner, GINT_TO_POINTER (id), GUINT_TO_POINTER (stream + 1));
      s->current = id;
      s->runs++;
      s->max_id = MAX (s->max_id, id);
      self->max_id = MAX (self->max_id, id);
      g_ptr_array_add (pending_of (self, id)->lines, tag_run (s, record, line));
      return;
    }
  if (s->current == -1 && (id == 0 || id > self->max_id))
    return; /* the rest of a run left out */
  if (GPOINTER_TO_UINT (g_hash_table_lookup (self->owner, GINT_TO_POINTER (id))) != stream + 1)
    return; /* a record of a run this stream never announced */
  if (id != s->current)
    complete (self, s);
  if (id < self->head)
    emit (self, line); /* late news of a run already written */
  else
    g_ptr_array_add (pending_of (self, id)->lines, g_strdup (line));
}

static void
take_hello_or_device (Stream *s, const char *type, WsRecord *record, const char *line)
{
  if (g_str_equal (type, WS_RECORD_TYPE_HELLO))
    {
      if (s->hello == NULL)
        {
          s->hello = g_strdup (line);
          s->host = g_strdup (ws_record_string (record, WS_RECORD_ROOT, WS_KEY_HOST));
        }
      return;
    }
  if (s->device < 0)
    {
      s->device = (int) ws_record_int (record, WS_RECORD_ROOT, WS_KEY_INDEX, -1);
      s->device_uuid = g_strdup (ws_record_string (record, WS_RECORD_ROOT, WS_KEY_UUID));
    }
  g_ptr_array_add (s->preamble, g_strdup (line));
}

void
ws_sweep_merge_feed (WsSweepMerge *self, guint stream, const char *line, gsize length)
{
  g_autofree char *text = g_strndup (line, length);
  g_autoptr (WsRecord) record = NULL;
  Stream *s;
  const char *type;
  int id = 0;

  g_return_if_fail (stream < self->n);
  s = &self->streams[stream];
  if (s->ended || s->has_done || self->finished)
    return;
  self->t = MAX (self->t, t_of (text));
  if (g_str_has_prefix (text, TYPE_PREFIX (WS_RECORD_TYPE_ACTIVITY)))
    {
      WsSpan a;
      guint32 run;

      if (_ws_session_parse_activity (text, length, &a, &run))
        {
          take_run_line (self, stream, "activity", (int) run, NULL, text);
          drain (self);
          return;
        }
    }
  record = ws_record_parse (text, length, NULL, NULL);
  if (record == NULL || (type = ws_record_string (record, WS_RECORD_ROOT, WS_KEY_TYPE)) == NULL)
    return; /* the stream's own session has counted it as a problem */
  if (g_str_equal (type, WS_RECORD_TYPE_RUN))
    id = (int) ws_record_int (record, WS_RECORD_ROOT, WS_KEY_ID, 0);
  else if (!g_str_equal (type, WS_RECORD_TYPE_HELLO)
           && !g_str_equal (type, WS_RECORD_TYPE_DEVICE))
    id = (int) ws_record_int (record, WS_RECORD_ROOT, WS_KEY_RUN, 0);

  if (g_str_equal (type, WS_RECORD_TYPE_HELLO) || g_str_equal (type, WS_RECORD_TYPE_DEVICE))
    take_hello_or_device (s, type, record, text);
  else if (g_str_equal (type, WS_RECORD_TYPE_PROGRESS))
    {
      complete (self, s);
      s->has_progress = TRUE;
      s->progress_done = (int) ws_record_int (record, WS_RECORD_ROOT, WS_KEY_DONE, 0);
      s->progress_total = (int) ws_record_int (record, WS_RECORD_ROOT, WS_KEY_TOTAL, 0);
      s->started = TRUE;
    }
  else if (g_str_equal (type, WS_RECORD_TYPE_DONE))
    {
      complete (self, s);
      s->has_done = s->started = TRUE;
      s->exit_code = (int) ws_record_int (record, WS_RECORD_ROOT, WS_KEY_EXIT_CODE, 0);
      s->done_runs = ws_record_int (record, WS_RECORD_ROOT, WS_KEY_RUNS, 0);
      s->done_failed = ws_record_int (record, WS_RECORD_ROOT, WS_KEY_FAILED, 0);
      s->dropped = ws_record_int (record, WS_RECORD_ROOT, WS_KEY_DROPPED_RECORDS, 0);
    }
  else if (id > 0 || g_str_equal (type, WS_RECORD_TYPE_RUN))
    {
      s->started = TRUE;
      take_run_line (self, stream, type, id, record, text);
    }
  else if (!self->released)
    g_ptr_array_add (s->preamble, g_steal_pointer (&text));
  else if (!g_str_equal (type, WS_RECORD_TYPE_KERNEL)
           || !g_hash_table_contains (self->kernels_out,
                                      ws_record_string (record, WS_RECORD_ROOT, WS_KEY_NAME) ?: ""))
    emit (self, text); /* session-level news after the runs began */

  if (g_str_equal (type, WS_RECORD_TYPE_KERNEL) && self->released)
    g_hash_table_add (self->kernels_out,
                      g_strdup (ws_record_string (record, WS_RECORD_ROOT, WS_KEY_NAME) ?: ""));
  if (!self->released)
    release (self);
  drain (self);
  emit_progress (self);
}

/* ---- the end ----------------------------------------------------------------------------- */

static char *
error_record (WsSweepMerge *self, Stream *s, const char *reason)
{
  GString *out = g_string_new (NULL);
  WsJsonWriter *json = begin_record (self, out, WS_RECORD_TYPE_ERROR);
  g_autofree char *message = NULL;
  int device = s->device >= 0 ? s->device : s->device_hint;

  /* Translators: the runner (such as “GPU 1”), then why it stopped. */
  message = g_strdup_printf (_("%1$s stopped before its share of the sweep was done: %2$s The "
                               "runs it did not finish are missing; the other runners' runs "
                               "are kept."),
                             s->label, reason);
  ws_json_writer_null (json, WS_KEY_RUN);
  ws_json_writer_string (json, WS_KEY_SEVERITY,
                         ws_error_severity_to_string (WS_ERROR_SEVERITY_ERROR));
  ws_json_writer_string (json, WS_KEY_CODE, ws_error_code_to_string (WS_ERROR_RUNNER_FAILED));
  if (device >= 0)
    ws_json_writer_int (json, WS_KEY_DEVICE, device);
  ws_json_writer_string (json, WS_KEY_MESSAGE, message);
  ws_json_writer_null (json, WS_KEY_DETAIL);
  return end_record (json, out);
}

static void
finish (WsSweepMerge *self)
{
  int exit_code = 0;
  gint64 runs = 0, failed = 0, dropped = 0;
  g_autofree char *line = NULL;
  GString *out;
  WsJsonWriter *json;

  self->finished = TRUE;
  drain (self);
  emit_progress (self);
  if (self->cancelled)
    return;
  for (guint i = 0; i < self->n; i++)
    {
      Stream *s = &self->streams[i];

      /* A share that ended without its done record lost runs: as a refused run would. */
      exit_code = MAX (exit_code, s->has_done ? s->exit_code : 1);
      runs += s->has_done ? s->done_runs : s->runs;
      failed += s->done_failed;
      dropped += s->dropped;
    }
  out = g_string_new (NULL);
  json = begin_record (self, out, WS_RECORD_TYPE_DONE);
  ws_json_writer_int (json, WS_KEY_RUNS, runs);
  ws_json_writer_int (json, WS_KEY_FAILED, failed);
  ws_json_writer_int (json, WS_KEY_DROPPED_RECORDS, dropped);
  ws_json_writer_int (json, WS_KEY_EXIT_CODE, exit_code);
  line = end_record (json, out);
  emit (self, line);
}

void
ws_sweep_merge_end_stream (WsSweepMerge *self, guint stream, const GError *failure)
{
  Stream *s;
  gboolean all_ended = TRUE;

  g_return_if_fail (stream < self->n);
  s = &self->streams[stream];
  if (s->ended)
    return;
  s->ended = TRUE;
  complete (self, s);
  if (failure != NULL || !s->has_done)
    {
      g_autofree char *record = error_record (self, s,
                                              failure != NULL
                                                ? failure->message
                                                : _("its runner ended without its done record."));

      if (self->released)
        emit (self, record);
      else
        g_ptr_array_add (s->preamble, g_steal_pointer (&record));
    }
  if (!self->released)
    release (self);
  drain (self);
  emit_progress (self);
  for (guint i = 0; i < self->n; i++)
    all_ended = all_ended && self->streams[i].ended;
  if (all_ended && !self->finished)
    finish (self);
}

void
ws_sweep_merge_set_cancelled (WsSweepMerge *self)
{
  self->cancelled = TRUE;
}

gboolean
ws_sweep_merge_is_finished (WsSweepMerge *self)
{
  return self->finished;
}

GPtrArray *
ws_sweep_merge_get_problems (WsSweepMerge *self)
{
  return self->problems;
}

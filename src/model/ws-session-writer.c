/* ws-session-writer.c: writing a session back as the runner's JSON Lines: every record as it
 * was read (fields this version does not know included), activities rebuilt from the model
 * and placed where the runner puts them, before their run's results.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-session-private.h"

#include <math.h>
#include <string.h>

#include "ws-file.h"
#include "ws-json-writer.h"
#include "ws-protocol.h"

static void
triple (WsJsonWriter *j, const char *key, const guint32 v[3])
{
  ws_json_writer_begin_array (j, key);
  for (int i = 0; i < 3; i++)
    ws_json_writer_uint (j, NULL, v[i]);
  ws_json_writer_end_array (j);
}

/* Omitted when NULL, as the runner leaves out what it does not know of an activity. */
static void
string (WsJsonWriter *j, const char *key, const char *value)
{
  if (value != NULL)
    ws_json_writer_string (j, key, value);
}

/* The fields of an activity in the order the runner writes them (src/runner/ws-output.c). */
static void
append_activity (WsJsonWriter *j, guint32 run, const WsSpan *a, double t)
{
  ws_json_writer_begin_object (j, NULL);
  ws_json_writer_string (j, WS_KEY_TYPE, WS_RECORD_TYPE_ACTIVITY);
  ws_json_writer_double (j, WS_KEY_T, t);
  ws_json_writer_uint (j, WS_KEY_RUN, run);
  ws_json_writer_string (j, WS_KEY_PHASE, ws_activity_phase_to_string (a->phase));
  ws_json_writer_uint (j, WS_KEY_REP, a->rep);
  ws_json_writer_string (j, WS_KEY_KIND, ws_activity_kind_to_string (a->kind));
  ws_json_writer_int (j, WS_KEY_START, a->start);
  ws_json_writer_int (j, WS_KEY_END, a->end);
  switch (a->kind)
    {
    case WS_ACTIVITY_MEMCPY:
      string (j, WS_KEY_DIRECTION, ws_copy_direction_to_string (a->direction));
      ws_json_writer_uint (j, WS_KEY_BYTES, a->bytes);
      string (j, WS_KEY_HOST_MEMORY, ws_host_memory_to_string (a->host_memory));
      ws_json_writer_uint (j, WS_KEY_STREAM, a->stream);
      break;
    case WS_ACTIVITY_MEMSET:
      ws_json_writer_uint (j, WS_KEY_BYTES, a->bytes);
      ws_json_writer_uint (j, WS_KEY_STREAM, a->stream);
      break;
    case WS_ACTIVITY_KERNEL:
      string (j, WS_KEY_NAME, a->name);
      triple (j, WS_KEY_GRID, a->grid);
      triple (j, WS_KEY_BLOCK, a->block);
      ws_json_writer_uint (j, WS_KEY_REGISTERS, a->registers);
      ws_json_writer_uint (j, WS_KEY_STATIC_SMEM, a->static_smem);
      ws_json_writer_uint (j, WS_KEY_DYNAMIC_SMEM, a->dynamic_smem);
      ws_json_writer_uint (j, WS_KEY_STREAM, a->stream);
      break;
    case WS_ACTIVITY_SYNC:
      string (j, WS_KEY_SYNC, a->detail);
      ws_json_writer_uint (j, WS_KEY_STREAM, a->stream);
      break;
    case WS_ACTIVITY_OVERHEAD:
      string (j, WS_KEY_OVERHEAD, a->detail);
      break;
    case WS_ACTIVITY_CPU:
      string (j, WS_KEY_NAME, a->name);
      ws_json_writer_uint (j, WS_KEY_THREADS, a->threads);
      break;
    default:
      string (j, WS_KEY_NAME, a->name);
      break;
    }
  if (a->kind != WS_ACTIVITY_CPU)
    ws_json_writer_uint (j, WS_KEY_CORRELATION, a->correlation);
  ws_json_writer_end_object (j);
}

typedef struct
{
  GOutputStream *stream;
  GCancellable *cancellable;
  GString *buffer;
  WsJsonWriter *json;  /* into buffer */
  GHashTable *written; /* runs whose activities are out */
  GPtrArray *announced; /* runs whose run record is out (WsRun, borrowed) */
  double t;            /* the t of the last record written */
} Writer;

static gboolean
flush_buffer (Writer *w, gboolean force, GError **error)
{
  gsize written;

  if (!force && w->buffer->len < (1 << 20))
    return TRUE;
  if (!g_output_stream_write_all (w->stream, w->buffer->str, w->buffer->len, &written,
                                  w->cancellable, error))
    return FALSE;
  g_string_truncate (w->buffer, 0);
  return TRUE;
}

static gboolean
write_activities (Writer *w, WsRun *run, GError **error)
{
  guint n;
  const WsSpan *a;

  if (run == NULL || g_hash_table_contains (w->written, run))
    return TRUE;
  g_hash_table_add (w->written, run);
  a = ws_run_get_activities (run, &n);
  for (guint i = 0; i < n; i++)
    {
      append_activity (w->json, (guint32) ws_run_get_id (run), &a[i], w->t);
      g_string_append_c (w->buffer, '\n');
      if (!flush_buffer (w, FALSE, error))
        return FALSE;
    }
  return TRUE;
}

/* The activities still to write of the runs announced so far: a run announced after a done
 * record (two recordings one after the other) has its activities after its run record, or
 * a reader would find them before the run they belong to and drop them. */
static gboolean
write_announced (Writer *w, GError **error)
{
  for (guint i = 0; i < w->announced->len; i++)
    if (!write_activities (w, g_ptr_array_index (w->announced, i), error))
      return FALSE;
  return TRUE;
}

static gboolean
write_remaining (WsSession *self, Writer *w, GError **error)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->runs));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (G_LIST_MODEL (self->runs), i);

      if (!write_activities (w, run, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
ws_session_write (WsSession *self, GOutputStream *stream, GCancellable *cancellable,
                  GError **error)
{
  Writer w = { stream, cancellable, g_string_sized_new (1 << 20), NULL,
               g_hash_table_new (g_direct_hash, g_direct_equal), g_ptr_array_new (), 0 };
  WsRun *previous = NULL;
  gboolean ok = TRUE;

  g_return_val_if_fail (WS_IS_SESSION (self), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  w.json = ws_json_writer_new (w.buffer, FALSE);
  for (guint i = 0; ok && i < self->records->len; i++)
    {
      WsStoredRecord *record = g_ptr_array_index (self->records, i);
      const char *type = record->type;

      /* Activities go before their run's results, as the runner prints them. */
      if (g_str_equal (type, WS_RECORD_TYPE_VERIFY) || g_str_equal (type, WS_RECORD_TYPE_TIMING)
          || g_str_equal (type, WS_RECORD_TYPE_ERROR))
        ok = write_activities (&w, ws_session_find_run (self, record->run), error);
      else if (g_str_equal (type, WS_RECORD_TYPE_RUN))
        {
          ok = write_activities (&w, previous, error);
          previous = ws_session_find_run (self, record->run);
          if (previous != NULL)
            g_ptr_array_add (w.announced, previous);
        }
      else if (g_str_equal (type, WS_RECORD_TYPE_DONE))
        ok = write_announced (&w, error);
      if (!ok)
        break;
      if (!isnan (record->t))
        w.t = record->t;
      /* Written back exactly as read. */
      g_string_append (w.buffer, record->text);
      g_string_append_c (w.buffer, '\n');
      ok = flush_buffer (&w, FALSE, error);
    }
  if (ok)
    ok = write_remaining (self, &w, error) && flush_buffer (&w, TRUE, error);
  ws_json_writer_free (w.json);
  g_string_free (w.buffer, TRUE);
  g_hash_table_unref (w.written);
  g_ptr_array_unref (w.announced);
  return ok;
}

typedef struct
{
  WsSession *session;
  GCancellable *cancellable;
} SaveData;

static gboolean
save_cb (GOutputStream *stream, gpointer user_data, GError **error)
{
  SaveData *data = user_data;

  return ws_session_write (data->session, stream, data->cancellable, error);
}

gboolean
ws_session_save (WsSession *self, GFile *file, GCancellable *cancellable, GError **error)
{
  SaveData data = { self, cancellable };

  g_return_val_if_fail (WS_IS_SESSION (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  /* Written whole or not at all: a crash or a full disk never leaves half a session behind. */
  if (!ws_file_write_atomic (file, save_cb, &data, error))
    return FALSE;
  ws_session_set_file (self, file);
  return TRUE;
}

/* ws-session-writer.c: writing a session back as the runner's JSON Lines: every record as it
 * was read (fields this version does not know included), activities rebuilt from the model
 * and placed where the runner puts them, before their run's results.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-session-private.h"

#include <string.h>

#include "ws-file.h"
#include "ws-json-util.h"

static void
append_triple (GString *s, const char *key, const guint32 v[3])
{
  g_string_append_printf (s, ",\"%s\":[%u,%u,%u]", key, v[0], v[1], v[2]);
}

static void
append_string (GString *s, const char *key, const char *value)
{
  if (value == NULL)
    return;
  g_string_append_printf (s, ",\"%s\":", key);
  _ws_json_append_string (s, value);
}

static void
append_activity (GString *s, guint32 run, const WsActivity *a, double t)
{
  g_string_append (s, "{\"type\":\"activity\",\"t\":");
  _ws_json_append_double (s, t);
  g_string_append_printf (s,
                          ",\"run\":%u,\"phase\":\"%s\",\"rep\":%u,"
                          "\"kind\":\"%s\",\"start\":%" G_GINT64_FORMAT ",\"end\":%" G_GINT64_FORMAT,
                          run, ws_activity_phase_to_string (a->phase), a->rep,
                          ws_activity_kind_to_string (a->kind), a->start, a->end);
  switch (a->kind)
    {
    case WS_ACTIVITY_MEMCPY:
      append_string (s, "direction", ws_copy_direction_to_string (a->direction));
      g_string_append_printf (s, ",\"bytes\":%" G_GUINT64_FORMAT, a->bytes);
      append_string (s, "host_memory", ws_host_memory_to_string (a->host_memory));
      g_string_append_printf (s, ",\"stream\":%u", a->stream);
      break;
    case WS_ACTIVITY_MEMSET:
      g_string_append_printf (s, ",\"bytes\":%" G_GUINT64_FORMAT ",\"stream\":%u", a->bytes,
                              a->stream);
      break;
    case WS_ACTIVITY_KERNEL:
      append_string (s, "name", a->name);
      append_triple (s, "grid", a->grid);
      append_triple (s, "block", a->block);
      g_string_append_printf (s, ",\"registers\":%u,\"static_smem\":%u,\"dynamic_smem\":%u"
                                 ",\"stream\":%u",
                              a->registers, a->static_smem, a->dynamic_smem, a->stream);
      break;
    case WS_ACTIVITY_SYNC:
      append_string (s, "sync", a->detail);
      g_string_append_printf (s, ",\"stream\":%u", a->stream);
      break;
    case WS_ACTIVITY_OVERHEAD:
      append_string (s, "overhead", a->detail);
      break;
    case WS_ACTIVITY_CPU:
      append_string (s, "name", a->name);
      g_string_append_printf (s, ",\"threads\":%u", a->threads);
      break;
    default:
      append_string (s, "name", a->name);
      break;
    }
  if (a->kind != WS_ACTIVITY_CPU)
    g_string_append_printf (s, ",\"correlation\":%u", a->correlation);
  g_string_append (s, "}\n");
}

typedef struct
{
  GOutputStream *stream;
  GCancellable *cancellable;
  GString *buffer;
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

/* The record's t, for the activities written after it. */
static double
t_of (const char *text, double fallback)
{
  const char *p = strstr (text, "\"t\":");

  return p ? g_ascii_strtod (p + 4, NULL) : fallback;
}

static gboolean
write_activities (Writer *w, WsRun *run, GError **error)
{
  guint n;
  const WsActivity *a;

  if (run == NULL || g_hash_table_contains (w->written, run))
    return TRUE;
  g_hash_table_add (w->written, run);
  a = ws_run_get_activities (run, &n);
  for (guint i = 0; i < n; i++)
    {
      append_activity (w->buffer, (guint32) ws_run_get_id (run), &a[i], w->t);
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
  Writer w = { stream, cancellable, g_string_sized_new (1 << 20),
               g_hash_table_new (g_direct_hash, g_direct_equal), g_ptr_array_new (), 0 };
  WsRun *previous = NULL;
  gboolean ok = TRUE;

  g_return_val_if_fail (WS_IS_SESSION (self), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  for (guint i = 0; ok && i < self->records->len; i++)
    {
      WsStoredRecord *record = g_ptr_array_index (self->records, i);
      const char *type = record->type;

      /* Activities go before their run's results, as the runner prints them. */
      if (g_str_equal (type, "verify") || g_str_equal (type, "timing") || g_str_equal (type, "error"))
        ok = write_activities (&w, ws_session_find_run (self, record->run), error);
      else if (g_str_equal (type, "run"))
        {
          ok = write_activities (&w, previous, error);
          previous = ws_session_find_run (self, record->run);
          if (previous != NULL)
            g_ptr_array_add (w.announced, previous);
        }
      else if (g_str_equal (type, "done"))
        ok = write_announced (&w, error);
      if (!ok)
        break;
      w.t = t_of (record->text, w.t);
      /* Written back exactly as read. */
      g_string_append (w.buffer, record->text);
      g_string_append_c (w.buffer, '\n');
      ok = flush_buffer (&w, FALSE, error);
    }
  if (ok)
    ok = write_remaining (self, &w, error) && flush_buffer (&w, TRUE, error);
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

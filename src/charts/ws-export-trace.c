/* ws-export-trace.c: a session as Chrome trace-event JSON, for Perfetto and chrome://tracing:
 * a process per GPU (and one for the host's CPU reference runs), a thread per stream and kind
 * of work so that overlapping spans never share a track, times in µs with every ns kept.
 * One event a line, through the model's JSON writer.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ws-export-private.h"
#include "ws-json-writer.h"

/* Spans on one track must nest or follow each other; CUPTI's timestamps of consecutive work
 * on one stream can overlap by a few ns, and a sync waits while a kernel runs. A track is a
 * pid, a name and, when a span would overlap the last one, an overflow number. */
typedef struct
{
  int pid;
  char *name;
  int sort;        /* order of tracks within the process */
  int tid;
  gint64 last_end; /* of the latest span placed on it */
} Track;

typedef struct
{
  WsRun *run;
  const WsSpan *activity;
} Item;

typedef struct
{
  WsSession *session;
  GPtrArray *tracks;    /* Track, in the order they were made */
  GHashTable *by_name;  /* "pid|name" → GPtrArray of its Tracks, overflow ones after it */
  int next_tid;
  int gpu_pid, host_pid;
  GString *out;
  WsJsonWriter *json; /* into out */
  GOutputStream *stream;
} Writer;

static void
track_free (Track *track)
{
  g_free (track->name);
  g_free (track);
}

static int
compare_items (gconstpointer a, gconstpointer b)
{
  const Item *x = a, *y = b;

  if (x->activity->start != y->activity->start)
    return x->activity->start < y->activity->start ? -1 : 1;
  return x->activity < y->activity ? -1 : x->activity > y->activity;
}

static char *
track_name (const WsSpan *a, int *sort)
{
  switch ((WsActivityKind) a->kind)
    {
    case WS_ACTIVITY_KERNEL:
      *sort = 2;
      return g_strdup_printf (_("Stream %u · kernels"), a->stream);
    case WS_ACTIVITY_MEMCPY:
      switch ((WsCopyDirection) a->direction)
        {
        case WS_COPY_HTOD:
          *sort = 1;
          return g_strdup_printf (_("Stream %u · H2D copies"), a->stream);
        case WS_COPY_DTOH:
          *sort = 3;
          return g_strdup_printf (_("Stream %u · D2H copies"), a->stream);
        default:
          *sort = 4;
          return g_strdup_printf (_("Stream %u · %s copies"), a->stream,
                                  ws_copy_direction_to_string (a->direction));
        }
    case WS_ACTIVITY_MEMSET:
      *sort = 5;
      return g_strdup_printf (_("Stream %u · memset"), a->stream);
    case WS_ACTIVITY_SYNC:
      *sort = 6;
      return g_strdup_printf (_("Stream %u · sync"), a->stream);
    case WS_ACTIVITY_CPU:
      *sort = 0;
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "CPU reference · %u thread",
                                           "CPU reference · %u threads", a->threads),
                              a->threads);
    case WS_ACTIVITY_OVERHEAD:
    case WS_ACTIVITY_OTHER:
    default:
      *sort = 7;
      return g_strdup (_("CUPTI overhead"));
    }
}

static gboolean
flush (Writer *w, gboolean force, GError **error)
{
  if (!force && w->out->len < (1 << 20))
    return TRUE;
  if (!g_output_stream_write_all (w->stream, w->out->str, w->out->len, NULL, NULL, error))
    return FALSE;
  g_string_truncate (w->out, 0);
  return TRUE;
}

/* Each event on a line of its own, so that the file reads (and diffs) an event at a time. */
static void
begin_event (Writer *w)
{
  ws_json_writer_newline (w->json);
  ws_json_writer_begin_object (w->json, NULL);
}

static void
metadata (Writer *w, int pid, int tid, const char *what, const char *key, const char *name,
          int sort)
{
  WsJsonWriter *j = w->json;

  begin_event (w);
  ws_json_writer_string (j, "ph", "M");
  ws_json_writer_int (j, "pid", pid);
  if (tid >= 0)
    ws_json_writer_int (j, "tid", tid);
  ws_json_writer_string (j, "name", what);
  ws_json_writer_begin_object (j, "args");
  if (name)
    ws_json_writer_string (j, key, name);
  else
    ws_json_writer_int (j, key, sort);
  ws_json_writer_end_object (j);
  ws_json_writer_end_object (j);
}

static Track *
place (Writer *w, const WsSpan *a)
{
  int pid = a->kind == WS_ACTIVITY_CPU ? w->host_pid : w->gpu_pid;
  int sort;
  g_autofree char *name = track_name (a, &sort);
  g_autofree char *key = g_strdup_printf ("%d|%s", pid, name);
  GPtrArray *same = g_hash_table_lookup (w->by_name, key);
  Track *fit = NULL;

  if (same == NULL)
    {
      same = g_ptr_array_new ();
      g_hash_table_insert (w->by_name, g_steal_pointer (&key), same);
    }
  for (guint i = 0; i < same->len && fit == NULL; i++)
    {
      Track *t = g_ptr_array_index (same, i);

      if (t->last_end <= a->start)
        fit = t;
    }
  if (fit == NULL)
    {
      fit = g_new0 (Track, 1);
      fit->pid = pid;
      fit->name = same->len ? g_strdup_printf ("%s (%u)", name, same->len + 1) : g_strdup (name);
      fit->sort = sort * 100 + (int) same->len;
      fit->tid = w->next_tid++;
      g_ptr_array_add (same, fit);
      g_ptr_array_add (w->tracks, fit);
    }
  fit->last_end = MAX (fit->last_end, a->end);
  return fit;
}

static void
int_array (WsJsonWriter *j, const char *key, const guint32 v[3])
{
  ws_json_writer_begin_array (j, key);
  for (int i = 0; i < 3; i++)
    ws_json_writer_uint (j, NULL, v[i]);
  ws_json_writer_end_array (j);
}

static void
event (Writer *w, WsRun *run, const WsSpan *a, const Track *track)
{
  WsJsonWriter *j = w->json;
  const WsLaunch *launch = ws_run_get_launch (run);
  const char *name;

  switch ((WsActivityKind) a->kind)
    {
    case WS_ACTIVITY_KERNEL:
    case WS_ACTIVITY_CPU:
      name = a->name ? a->name : ws_activity_kind_to_string (a->kind);
      break;
    case WS_ACTIVITY_MEMCPY:
      name = a->direction == WS_COPY_HTOD   ? "H2D copy"
             : a->direction == WS_COPY_DTOH ? "D2H copy"
                                            : "copy";
      break;
    case WS_ACTIVITY_SYNC:
    case WS_ACTIVITY_OVERHEAD:
      name = a->detail ? a->detail : ws_activity_kind_to_string (a->kind);
      break;
    case WS_ACTIVITY_MEMSET:
    case WS_ACTIVITY_OTHER:
    default:
      name = ws_activity_kind_to_string (a->kind);
      break;
    }
  begin_event (w);
  ws_json_writer_string (j, "ph", "X");
  ws_json_writer_string (j, "name", name ? name : "activity");
  ws_json_writer_string (j, "cat", ws_activity_kind_to_string (a->kind));
  ws_json_writer_int (j, "pid", track->pid);
  ws_json_writer_int (j, "tid", track->tid);
  /* µs with the ns as exact decimals: 359762644 ns → 359762.644. */
  ws_json_writer_decimal (j, "ts", a->start, 3);
  ws_json_writer_decimal (j, "dur", MAX (0, a->end - a->start), 3);
  ws_json_writer_begin_object (j, "args");
  ws_json_writer_int (j, "run", ws_run_get_id (run));
  ws_json_writer_uint (j, "rep", a->rep);
  ws_json_writer_string (j, "phase", ws_activity_phase_to_string (a->phase));
  ws_json_writer_int (j, "start_ns", a->start);
  ws_json_writer_int (j, "end_ns", a->end);
  if (a->kind != WS_ACTIVITY_CPU)
    {
      ws_json_writer_uint (j, "stream", a->stream);
      ws_json_writer_uint (j, "correlation", a->correlation);
    }
  switch ((WsActivityKind) a->kind)
    {
    case WS_ACTIVITY_MEMCPY:
      ws_json_writer_uint (j, "bytes", a->bytes);
      ws_json_writer_double (j, "GB/s", ws_span_gbs (a));
      ws_json_writer_string (j, "direction", ws_copy_direction_to_string (a->direction));
      if (a->host_memory != WS_HOST_MEMORY_NONE)
        ws_json_writer_string (j, "host_memory", ws_host_memory_to_string (a->host_memory));
      break;
    case WS_ACTIVITY_MEMSET:
      ws_json_writer_uint (j, "bytes", a->bytes);
      break;
    case WS_ACTIVITY_KERNEL:
      int_array (j, "grid", a->grid);
      int_array (j, "block", a->block);
      ws_json_writer_uint (j, "registers", a->registers);
      ws_json_writer_uint (j, "static_smem", a->static_smem);
      ws_json_writer_uint (j, "dynamic_smem", a->dynamic_smem);
      if (launch)
        {
          ws_json_writer_double (j, "occupancy", launch->occupancy);
          if (launch->limiter)
            ws_json_writer_string (j, "limiter", launch->limiter);
        }
      break;
    case WS_ACTIVITY_CPU:
      ws_json_writer_uint (j, "threads", a->threads);
      break;
    case WS_ACTIVITY_SYNC:
    case WS_ACTIVITY_OVERHEAD:
    case WS_ACTIVITY_OTHER:
    default:
      break;
    }
  ws_json_writer_end_object (j);
  ws_json_writer_end_object (j);
}

static gboolean
write_trace_cb (GOutputStream *stream, gpointer user_data, GError **error)
{
  Writer *w = user_data;
  WsSession *session = w->session;
  GListModel *runs = ws_session_get_runs (session);
  WsDevice *device = ws_session_get_device (session);
  const WsHello *hello = ws_session_get_hello (session);
  g_autoptr (GArray) items = g_array_new (FALSE, FALSE, sizeof (Item));
  g_autofree char *date = ws_session_dup_date (session);
  g_autofree char *gpu_name = NULL;
  const char *host = hello ? hello->host : NULL;
  WsJsonWriter *j = w->json;

  w->stream = stream;
  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);
      guint n;
      const WsSpan *a = ws_run_get_activities (run, &n);

      for (guint j = 0; j < n; j++)
        {
          Item item = { run, &a[j] };

          g_array_append_val (items, item);
        }
    }
  /* Runs follow each other, but a track must see its spans in time order across runs. */
  g_array_sort (items, compare_items);

  /* One GPU per session: the device record the runs were made on. */
  w->gpu_pid = 1 + (device ? MAX (ws_device_get_info (device)->index, 0) : 0);
  w->host_pid = w->gpu_pid + 1000;
  gpu_name = device ? g_strdup_printf (_("GPU %d: %s"), ws_device_get_info (device)->index,
                                       ws_device_get_name (device))
                    : g_strdup (_("GPU"));

  ws_json_writer_begin_object (j, NULL);
  ws_json_writer_string (j, "displayTimeUnit", "ns");
  ws_json_writer_begin_object (j, "otherData");
  ws_json_writer_string (j, "generator", "Warpscope " WS_VERSION);
  if (device)
    ws_json_writer_string (j, "device", ws_device_get_name (device));
  if (date)
    ws_json_writer_string (j, "recorded", date);
  if (host)
    ws_json_writer_string (j, "host", host);
  ws_json_writer_end_object (j);
  ws_json_writer_begin_array (j, "traceEvents");
  for (guint i = 0; i < items->len; i++)
    {
      Item *item = &g_array_index (items, Item, i);
      const Track *track = place (w, item->activity);

      event (w, item->run, item->activity, track);
      if (!flush (w, FALSE, error))
        return FALSE;
    }

  /* Names last: they need every track, and viewers read the whole file first anyway. */
  metadata (w, w->gpu_pid, -1, "process_name", "name", gpu_name, 0);
  metadata (w, w->gpu_pid, -1, "process_sort_index", "sort_index", NULL, 0);
  {
    g_autofree char *host_name = host ? g_strdup_printf (_("Host %s: CPU reference"), host)
                                      : g_strdup (_("Host: CPU reference"));
    gboolean host_used = FALSE;

    for (guint i = 0; i < w->tracks->len; i++)
      host_used |= ((Track *) g_ptr_array_index (w->tracks, i))->pid == w->host_pid;
    if (host_used)
      {
        metadata (w, w->host_pid, -1, "process_name", "name", host_name, 0);
        metadata (w, w->host_pid, -1, "process_sort_index", "sort_index", NULL, 1);
      }
  }
  for (guint i = 0; i < w->tracks->len; i++)
    {
      Track *t = g_ptr_array_index (w->tracks, i);

      metadata (w, t->pid, t->tid, "thread_name", "name", t->name, 0);
      metadata (w, t->pid, t->tid, "thread_sort_index", "sort_index", NULL, t->sort);
    }
  ws_json_writer_newline (j);
  ws_json_writer_end_array (j);
  ws_json_writer_end_object (j);
  g_string_append_c (w->out, '\n');
  return flush (w, TRUE, error);
}

/* write_trace_cb for `session`, to `stream`, else atomically to `file`. */
static gboolean
with_writer (WsSession *session, GOutputStream *stream, GFile *file, GError **error)
{
  Writer w = { 0 };
  gboolean ok;

  w.session = session;
  w.tracks = g_ptr_array_new_with_free_func ((GDestroyNotify) track_free);
  w.by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                     (GDestroyNotify) g_ptr_array_unref);
  w.next_tid = 1;
  w.out = g_string_sized_new (1 << 20);
  w.json = ws_json_writer_new (w.out, FALSE);
  ok = stream != NULL ? write_trace_cb (stream, &w, error)
                      : ws_file_write_atomic (file, write_trace_cb, &w, error);
  ws_json_writer_free (w.json);
  g_hash_table_unref (w.by_name);
  g_ptr_array_unref (w.tracks);
  g_string_free (w.out, TRUE);
  return ok;
}

gboolean
ws_export_trace (WsSession *session, GFile *file, GError **error)
{
  g_return_val_if_fail (WS_IS_SESSION (session), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  return with_writer (session, NULL, file, error);
}

gboolean
ws_export_trace_to_stream (WsSession *session, GOutputStream *stream, GError **error)
{
  g_return_val_if_fail (WS_IS_SESSION (session), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);
  return with_writer (session, stream, NULL, error);
}

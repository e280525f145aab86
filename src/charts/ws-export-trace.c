/* ws-export-trace.c: a session as Chrome trace-event JSON, for Perfetto and chrome://tracing:
 * a process per GPU (and one for the host's CPU reference runs), a thread per stream and kind
 * of work so that overlapping spans never share a track, times in µs with every ns kept.
 * Written by hand: json-glib 1.6's generator writes some doubles as invalid JSON.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ws-export-private.h"
#include "ws-json-util.h"

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
  const WsActivity *activity;
} Item;

typedef struct
{
  WsSession *session;
  GPtrArray *tracks;    /* Track, in the order they were made */
  GHashTable *by_name;  /* "pid|name" → GPtrArray of its Tracks, overflow ones after it */
  int next_tid;
  int gpu_pid, host_pid;
  GString *out;
  GOutputStream *stream;
  gboolean first;
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

/* µs with the ns as three exact decimals: 359762644 ns → 359762.644. */
static void
append_us (GString *out, gint64 ns)
{
  gint64 a = ns < 0 ? -ns : ns;
  gint64 frac = a % 1000;

  if (ns < 0)
    g_string_append_c (out, '-');
  g_string_append_printf (out, "%" G_GINT64_FORMAT, a / 1000);
  if (frac != 0)
    {
      char digits[4];

      g_snprintf (digits, sizeof digits, "%03d", (int) frac);
      /* Trailing zeros add nothing: 0.960 → 0.96. */
      for (int i = 2; i > 0 && digits[i] == '0'; i--)
        digits[i] = '\0';
      g_string_append_printf (out, ".%s", digits);
    }
}

static char *
track_name (const WsActivity *a, int *sort)
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

static void
begin_event (Writer *w)
{
  g_string_append (w->out, w->first ? "\n" : ",\n");
  w->first = FALSE;
}

static void
metadata (Writer *w, int pid, int tid, const char *what, const char *key, const char *name,
          int sort)
{
  begin_event (w);
  g_string_append_printf (w->out, "{\"ph\":\"M\",\"pid\":%d,", pid);
  if (tid >= 0)
    g_string_append_printf (w->out, "\"tid\":%d,", tid);
  g_string_append_printf (w->out, "\"name\":\"%s\",\"args\":{\"%s\":", what, key);
  if (name)
    _ws_json_append_string (w->out, name);
  else
    g_string_append_printf (w->out, "%d", sort);
  g_string_append (w->out, "}}");
}

static Track *
place (Writer *w, const WsActivity *a)
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
int_array (GString *out, const char *key, const guint32 v[3])
{
  g_string_append_printf (out, ",\"%s\":[%u,%u,%u]", key, v[0], v[1], v[2]);
}

static void
event (Writer *w, WsRun *run, const WsActivity *a, const Track *track)
{
  GString *o = w->out;
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
  g_string_append (o, "{\"ph\":\"X\",\"name\":");
  _ws_json_append_string (o, name ? name : "activity");
  g_string_append (o, ",\"cat\":");
  _ws_json_append_string (o, ws_activity_kind_to_string (a->kind));
  g_string_append_printf (o, ",\"pid\":%d,\"tid\":%d,\"ts\":", track->pid, track->tid);
  append_us (o, a->start);
  g_string_append (o, ",\"dur\":");
  append_us (o, MAX (0, a->end - a->start));
  g_string_append_printf (o, ",\"args\":{\"run\":%d,\"rep\":%u,\"phase\":", ws_run_get_id (run),
                          a->rep);
  _ws_json_append_string (o, ws_activity_phase_to_string (a->phase));
  g_string_append (o, ",\"start_ns\":");
  g_string_append_printf (o, "%" G_GINT64_FORMAT ",\"end_ns\":%" G_GINT64_FORMAT, a->start,
                          a->end);
  if (a->kind != WS_ACTIVITY_CPU)
    g_string_append_printf (o, ",\"stream\":%u,\"correlation\":%u", a->stream, a->correlation);
  switch ((WsActivityKind) a->kind)
    {
    case WS_ACTIVITY_MEMCPY:
      g_string_append_printf (o, ",\"bytes\":%" G_GUINT64_FORMAT ",\"GB/s\":", a->bytes);
      _ws_json_append_double (o, ws_activity_gbs (a));
      g_string_append (o, ",\"direction\":");
      _ws_json_append_string (o, ws_copy_direction_to_string (a->direction));
      if (a->host_memory != WS_HOST_MEMORY_NONE)
        {
          g_string_append (o, ",\"host_memory\":");
          _ws_json_append_string (o, ws_host_memory_to_string (a->host_memory));
        }
      break;
    case WS_ACTIVITY_MEMSET:
      g_string_append_printf (o, ",\"bytes\":%" G_GUINT64_FORMAT, a->bytes);
      break;
    case WS_ACTIVITY_KERNEL:
      int_array (o, "grid", a->grid);
      int_array (o, "block", a->block);
      g_string_append_printf (o, ",\"registers\":%u,\"static_smem\":%u,\"dynamic_smem\":%u",
                              a->registers, a->static_smem, a->dynamic_smem);
      if (launch)
        {
          g_string_append (o, ",\"occupancy\":");
          _ws_json_append_double (o, launch->occupancy);
          if (launch->limiter)
            {
              g_string_append (o, ",\"limiter\":");
              _ws_json_append_string (o, launch->limiter);
            }
        }
      break;
    case WS_ACTIVITY_CPU:
      g_string_append_printf (o, ",\"threads\":%u", a->threads);
      break;
    case WS_ACTIVITY_SYNC:
    case WS_ACTIVITY_OVERHEAD:
    case WS_ACTIVITY_OTHER:
    default:
      break;
    }
  g_string_append (o, "}}");
}

static gboolean
write_trace_cb (GOutputStream *stream, gpointer user_data, GError **error)
{
  Writer *w = user_data;
  WsSession *session = w->session;
  GListModel *runs = ws_session_get_runs (session);
  WsDevice *device = ws_session_get_device (session);
  JsonObject *hello = ws_session_get_hello (session);
  g_autoptr (GArray) items = g_array_new (FALSE, FALSE, sizeof (Item));
  g_autofree char *date = ws_session_dup_date (session);
  g_autofree char *gpu_name = NULL;
  const char *host = hello && json_object_has_member (hello, "host")
                         ? json_object_get_string_member (hello, "host")
                         : NULL;

  w->stream = stream;
  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);
      guint n;
      const WsActivity *a = ws_run_get_activities (run, &n);

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

  g_string_append (w->out, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":");
  _ws_json_append_string (w->out, "Warpscope " WS_VERSION);
  if (device)
    {
      g_string_append (w->out, ",\"device\":");
      _ws_json_append_string (w->out, ws_device_get_name (device));
    }
  if (date)
    {
      g_string_append (w->out, ",\"recorded\":");
      _ws_json_append_string (w->out, date);
    }
  if (host)
    {
      g_string_append (w->out, ",\"host\":");
      _ws_json_append_string (w->out, host);
    }
  g_string_append (w->out, "},\"traceEvents\":[");
  w->first = TRUE;
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
  g_string_append (w->out, "\n]}\n");
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
  ok = stream != NULL ? write_trace_cb (stream, &w, error)
                      : ws_file_write_atomic (file, write_trace_cb, &w, error);
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

/* fuzz-session.c: the session reader, fed a stream line by line and loaded from a file, then
 * every query the views make, the analysis, and the session written back and read again.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "fuzz-support.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "ws-analysis.h"
#include "ws-span-lanes.h"

static char *load_path;
static int load_fd = -1;

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  g_autoptr (GError) error = NULL;

  ws_fuzz_init_glib ();
  load_fd = g_file_open_tmp ("warpscope-fuzz-XXXXXX.jsonl", &load_path, &error);
  g_assert_no_error (error);
  /* Removed at once: the file lives on through its descriptor, at /proc/self/fd/N. */
  g_unlink (load_path);
  g_free (load_path);
  load_path = g_strdup_printf ("/proc/self/fd/%d", load_fd);
  return 0;
}

static void
window_cb (WsRun *run, const WsSpan *activity, gpointer user_data)
{
  guint *n = user_data;

  g_assert (activity->end >= activity->start);
  (*n)++;
}

static void
query (WsSession *session)
{
  GListModel *runs = ws_session_get_runs (session);
  guint n_runs = g_list_model_get_n_items (runs);
  gint64 start, end;
  int done, total, exit_code;
  gint64 dropped;
  g_autofree char *date = ws_session_dup_date (session);
  GListModel *kernels = ws_session_get_kernels (session);
  g_autoptr (GPtrArray) findings = NULL;

  g_assert (date == NULL || g_utf8_validate (date, -1, NULL));
  for (guint i = 0; i < g_list_model_get_n_items (kernels); i++)
    {
      g_autoptr (GObject) entry = g_list_model_get_item (kernels, i);

      g_assert (entry != NULL);
    }
  ws_session_get_device (session);
  ws_session_get_progress (session, &done, &total);
  ws_session_is_done (session, &exit_code, &dropped);
  g_assert (ws_session_get_problems (session)->len <= WS_SESSION_MAX_PROBLEMS + 2);

  for (guint i = 0; i < n_runs; i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);
      g_autofree char *block = ws_run_dup_block_label (run);
      g_autofree char *phrase = ws_run_dup_block_phrase (run);
      g_autofree char *size = ws_run_dup_size_label (run);
      const WsSpan *a;
      guint n;
      WsTotals totals;

      g_assert (ws_session_find_run (session, ws_run_get_id (run)) != NULL);
      g_assert (block != NULL && phrase != NULL && size != NULL);
      g_assert (g_utf8_validate (size, -1, NULL));
      a = ws_run_get_activities (run, &n);
      for (guint j = 1; j < n; j++)
        g_assert (a[j - 1].start <= a[j].start);
      if (n > 0)
        g_assert (ws_run_find_activity (run, a[0].start) <= n);
      ws_run_get_totals (run, &totals);
      ws_run_get_kernel_ns (run);
      ws_run_get_config (run);
      ws_run_get_launch (run);
      ws_run_get_timing (run);
      ws_run_get_verify (run);
    }

  for (int kind = WS_SERIES_BY_SIZE; kind <= WS_SERIES_BY_BLOCK; kind++)
    {
      g_autoptr (GPtrArray) series = ws_session_get_series (session, kind, 2);

      for (guint i = 0; i < series->len; i++)
        {
          WsSeries *s = g_ptr_array_index (series, i);
          double crossover;

          if (kind == WS_SERIES_BY_SIZE)
            ws_analysis_find_crossover (s, TRUE, FALSE, &crossover);
          else
            ws_analysis_rank_blocks (s, NULL);
        }
    }

  if (ws_session_get_time_range (session, &start, &end))
    {
      WsTotals totals;
      guint n = 0;

      g_assert (start <= end);
      ws_session_foreach_in_window (session, start, end + 1, window_cb, &n);
      ws_session_get_window_totals (session, start, start + (end - start) / 2, &totals);
    }

  findings = ws_analyze_session (session);
  for (guint i = 0; i < findings->len; i++)
    {
      WsFinding *f = g_ptr_array_index (findings, i);

      g_assert (f->title != NULL && g_utf8_validate (f->title, -1, NULL));
    }
}

/* Written back and read again, the session has the same runs and activities. */
static void
round_trip (WsSession *session)
{
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (WsSession) again = NULL;
  gsize size;
  const guint8 *data;

  if (ws_session_get_hello (session) == NULL)
    return;
  g_assert (ws_session_write (session, out, NULL, &error));
  g_assert (g_output_stream_close (out, NULL, NULL));
  bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
  data = g_bytes_get_data (bytes, &size);
  again = ws_fuzz_session_from_lines (data, size);
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (again)), ==,
                    g_list_model_get_n_items (ws_session_get_runs (session)));
  g_assert_cmpuint (ws_session_get_n_activities (again), ==,
                    ws_session_get_n_activities (session));
}

/* ws_session_load() reads the same lines, after its check of the first bytes. */
static void
load (const uint8_t *data, size_t size, WsSession *fed)
{
  g_autoptr (GFile) file = g_file_new_for_path (load_path);
  g_autoptr (WsSession) loaded = NULL;
  g_autoptr (GError) error = NULL;

  g_assert (ftruncate (load_fd, 0) == 0);
  g_assert (pwrite (load_fd, data, size, 0) == (ssize_t) size);
  loaded = ws_session_load (file, NULL, &error);
  if (loaded == NULL)
    {
      g_assert (error != NULL);
      return;
    }
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (loaded)), ==,
                    g_list_model_get_n_items (ws_session_get_runs (fed)));
  g_assert_cmpuint (ws_session_get_n_activities (loaded), ==, ws_session_get_n_activities (fed));
  g_assert_cmpuint (ws_session_get_n_bad_lines (loaded), ==, ws_session_get_n_bad_lines (fed));
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (WsSession) session = ws_fuzz_session_from_lines (data, size);

  query (session);
  round_trip (session);
  load (data, size, session);
  return 0;
}

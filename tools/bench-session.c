/* bench-session.c: how long a session of a million activity records takes to load, and how much
 * memory it holds (docs/benchmarks.md, "Session model"). A measurement, not a test.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * It builds the session from a bundled recording: the header records once, then the runs
 * again and again with new ids until the activity records reach the count asked for, then the
 * done record. The runs are real records, so every path of the reader (the fast path for
 * activities, the general parser and the typed records for the rest) takes its real share.
 *
 *   bench-session [--activities N] [--recording FILE] [--long-runs] [--keep FILE] [--analyze]
 */
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ws-session-analysis.h"
#include "ws-session.h"

typedef struct
{
  const char *key; /* "\"run\":" */
  gint64 offset;
} Shift;

/* Copies `line`, adding each key's offset to the integer that follows the key. */
static void
append_shifted (GString *out, const char *line, const Shift *shifts, guint n_shifts)
{
  const char *p = line;

  for (;;)
    {
      const char *hit = NULL;
      const Shift *shift = NULL;

      for (guint k = 0; k < n_shifts; k++)
        {
          const char *h = strstr (p, shifts[k].key);

          if (h != NULL && (hit == NULL || h < hit))
            hit = h, shift = &shifts[k];
        }
      if (hit == NULL)
        {
          g_string_append (out, p);
          return;
        }
      hit += strlen (shift->key);
      g_string_append_len (out, p, hit - p);
      p = hit;
      if (g_ascii_isdigit (*p))
        {
          char *end;
          gint64 v = g_ascii_strtoll (p, &end, 10);

          g_string_append_printf (out, "%" G_GINT64_FORMAT, v + shift->offset);
          p = end;
        }
    }
}

/* Writes the session: with `long_runs` FALSE, copy c of the recording's runs gets ids shifted
 * by c × the largest id (many runs, as a long sweep has); with TRUE, the runs stay those of
 * the recording and each copy adds its activity records again, later in time (few runs with
 * very many repetitions). */
static gboolean
write_session (const char *recording, const char *path, guint64 want, gboolean long_runs,
               guint64 *activities, guint *runs, GError **error)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GPtrArray) head = g_ptr_array_new ();
  g_autoptr (GPtrArray) body = g_ptr_array_new ();
  const char *done = NULL;
  guint64 per_copy = 0;
  gint64 max_id = 0, t_min = G_MAXINT64, t_max = G_MININT64;
  g_autoptr (GString) chunk = g_string_new (NULL);
  FILE *f;

  if (!g_file_get_contents (recording, &text, NULL, error))
    return FALSE;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];

      if (*l == '\0')
        continue;
      if (strstr (l, "\"type\":\"done\"") != NULL)
        done = l;
      else if (strstr (l, "\"type\":\"hello\"") || strstr (l, "\"type\":\"device\"")
               || strstr (l, "\"type\":\"kernel\""))
        g_ptr_array_add (head, (gpointer) l);
      else
        {
          g_ptr_array_add (body, (gpointer) l);
          if (strstr (l, "\"type\":\"activity\"") != NULL)
            {
              const char *s = strstr (l, "\"start\":"), *e = strstr (l, "\"end\":");

              per_copy++;
              if (s != NULL && e != NULL)
                {
                  t_min = MIN (t_min, g_ascii_strtoll (s + 8, NULL, 10));
                  t_max = MAX (t_max, g_ascii_strtoll (e + 6, NULL, 10));
                }
            }
          else if (strstr (l, "\"type\":\"run\"") != NULL)
            {
              const char *id = strstr (l, "\"id\":");

              if (id != NULL)
                max_id = MAX (max_id, g_ascii_strtoll (id + 5, NULL, 10));
            }
        }
    }
  if (per_copy == 0 || max_id == 0 || t_max < t_min)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s has no runs with activities",
                   recording);
      return FALSE;
    }

  f = g_fopen (path, "w");
  if (f == NULL)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "%s: %s", path,
                   g_strerror (errno));
      return FALSE;
    }
  for (guint i = 0; i < head->len; i++)
    fprintf (f, "%s\n", (const char *) g_ptr_array_index (head, i));
  *activities = 0;
  *runs = 0;
  for (guint64 copy = 0; *activities < want; copy++)
    {
      gint64 id_offset = long_runs ? 0 : (gint64) copy * max_id;
      gint64 t_offset = long_runs ? (gint64) copy * (t_max - t_min + 1) : 0;
      const Shift shifts[] = {
        { "\"run\":", id_offset },   { "\"id\":", id_offset }, { "\"from_run\":", id_offset },
        { "\"start\":", t_offset }, { "\"end\":", t_offset },
      };

      g_string_truncate (chunk, 0);
      for (guint i = 0; i < body->len; i++)
        {
          const char *l = g_ptr_array_index (body, i);

          if (long_runs && copy > 0 && strstr (l, "\"type\":\"activity\"") == NULL)
            continue;
          append_shifted (chunk, l, shifts, G_N_ELEMENTS (shifts));
          g_string_append_c (chunk, '\n');
        }
      fwrite (chunk->str, 1, chunk->len, f);
      *activities += per_copy;
      if (!long_runs || copy == 0)
        *runs += (guint) max_id;
    }
  if (done != NULL)
    fprintf (f, "%s\n", done);
  if (fclose (f) != 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "%s: %s", path,
                   g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

static double
peak_rss_mb (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0; /* kilobytes on Linux */
}

/* User + system time so far: on a shared machine it varies less than the wall clock. */
static double
cpu_seconds (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec
         + usage.ru_stime.tv_usec / 1e6;
}

/* The session's own analysis, whole (what the app's thread does), then what the table asks of
 * it for every row (a scroll from top to bottom), then one run changed as a live run changes
 * it. */
static void
time_session_analysis (WsSession *session)
{
  WsSessionAnalysis *analysis = ws_session_get_analysis (session);
  GListModel *runs = ws_session_get_runs (session);
  guint n = g_list_model_get_n_items (runs), found = 0;
  g_autoptr (WsRun) last = n > 0 ? g_list_model_get_item (runs, n - 1) : NULL;
  gint64 t0 = g_get_monotonic_time (), t1;

  ws_session_analysis_ensure (analysis);
  t1 = g_get_monotonic_time ();
  g_print ("session analysis %.2f s, %u fastest configurations\n", (t1 - t0) / 1e6,
           ws_session_analysis_get_fastest (analysis)->len);
  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);

      found += ws_session_analysis_get_run_findings (analysis, run)->len;
    }
  t1 = g_get_monotonic_time ();
  g_print ("every row's findings %.2f ms (%.0f ns a row), %u findings\n", (t1 - t0) / 1e3,
           n > 0 ? (t1 - t0) * 1e3 / n : 0, found);
  if (last == NULL)
    return;
  t0 = g_get_monotonic_time ();
  g_signal_emit_by_name (session, "run-updated", last);
  t1 = g_get_monotonic_time ();
  g_print ("one run updated  %.2f ms, %u findings of its own\n", (t1 - t0) / 1e3,
           ws_session_analysis_get_run_findings (analysis, last)->len);
}

int
main (int argc, char **argv)
{
  gint64 want = 1000000;
  g_autofree char *recording = NULL;
  g_autofree char *keep = NULL;
  gboolean analyze = FALSE;
  gboolean long_runs = FALSE;
  GOptionEntry entries[] = {
    { "activities", 'n', 0, G_OPTION_ARG_INT64, &want, "Activity records to generate", "N" },
    { "recording", 'r', 0, G_OPTION_ARG_FILENAME, &recording, "Recording to replicate", "FILE" },
    { "keep", 'k', 0, G_OPTION_ARG_FILENAME, &keep, "Write the session here and keep it", "FILE" },
    { "long-runs", 'l', 0, G_OPTION_ARG_NONE, &long_runs,
      "Keep the recording's runs and repeat their activities", NULL },
    { "analyze", 'a', 0, G_OPTION_ARG_NONE, &analyze, "Also time ws_analyze_session", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("- time loading a large session");
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  g_autoptr (GFile) file = NULL;
  g_autoptr (WsSession) session = NULL;
  guint64 activities = 0;
  guint runs = 0;
  gint64 t0, t1;
  double rss_before, size_mb, cpu0, cpu1;
  GStatBuf st;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (recording == NULL)
    recording = g_build_filename (g_getenv ("WS_SAMPLES_DIR") ?: WS_SAMPLES_DIR,
                                  "vector-add-sizes-h200.jsonl", NULL);
  if (keep != NULL)
    path = g_strdup (keep);
  else
    {
      int fd = g_file_open_tmp ("ws-bench-XXXXXX.jsonl", &path, &error);

      if (fd < 0)
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      close (fd);
    }
  if (!write_session (recording, path, (guint64) MAX (want, 1), long_runs, &activities, &runs,
                      &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  size_mb = g_stat (path, &st) == 0 ? st.st_size / 1e6 : 0;

  rss_before = peak_rss_mb ();
  file = g_file_new_for_path (path);
  cpu0 = cpu_seconds ();
  t0 = g_get_monotonic_time ();
  session = ws_session_load (file, NULL, &error);
  t1 = g_get_monotonic_time ();
  cpu1 = cpu_seconds ();
  if (keep == NULL)
    g_unlink (path);
  if (session == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }

  g_print ("recording        %s\n", recording);
  g_print ("session          %" G_GUINT64_FORMAT " activity records, %u runs, %.1f MB\n",
           activities, runs, size_mb);
  g_print ("read back        %u activities, %u runs, %u problems\n",
           ws_session_get_n_activities (session),
           g_list_model_get_n_items (ws_session_get_runs (session)),
           ws_session_get_problems (session)->len);
  g_print ("ws_session_load  %.2f s (%.0f MB/s), %.2f s of CPU time\n", (t1 - t0) / 1e6,
           size_mb / ((t1 - t0) / 1e6), cpu1 - cpu0);
  g_print ("peak RSS         %.0f MB (%.0f MB before loading)\n", peak_rss_mb (), rss_before);

  if (analyze)
    {
      g_autoptr (GPtrArray) findings = NULL;

      cpu0 = cpu_seconds ();
      t0 = g_get_monotonic_time ();
      findings = ws_analyze_session (session);
      t1 = g_get_monotonic_time ();
      cpu1 = cpu_seconds ();
      g_print ("ws_analyze_session %.2f s (%.2f s of CPU time), %u findings; peak RSS %.0f MB\n",
               (t1 - t0) / 1e6, cpu1 - cpu0, findings->len, peak_rss_mb ());
      time_session_analysis (session);
    }
  return ws_session_get_n_activities (session) == activities ? 0 : 1;
}

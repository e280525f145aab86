/* test-session-analysis.c: the session's one analysis: run by run as a live session grows it
 * finds what a whole analysis finds, in a thread as on the spot, and the fastest
 * configurations of the bundled recordings.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE /* gettid */
#include <errno.h>
#include <glib.h>
#include <string.h>
#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

#include "test-util.h"
#include "ws-background.h"
#include "ws-session-analysis.h"
#include "ws-trace.h"

static char *
sample (const char *name)
{
  return g_build_filename (g_getenv ("WS_SAMPLES_DIR"), name, NULL);
}

static WsSession *
load (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  WsSession *session = ws_session_load (file, NULL, &error);

  g_assert_no_error (error);
  return session;
}

/* Everything an analysis found, written out: two analyses agree when these agree. */
static void
describe_findings (GString *out, GPtrArray *findings)
{
  for (guint i = 0; i < findings->len; i++)
    {
      const WsFinding *f = g_ptr_array_index (findings, i);

      g_string_append_printf (out, "  %d %s %s | %s | %s | %s | %s | %g %g | %u\n", f->run, f->id,
                              ws_severity_to_string (f->severity), f->title, f->numbers,
                              f->cause ? f->cause : "", f->fix ? f->fix : "", f->value,
                              f->threshold, f->activities ? f->activities->len : 0);
    }
}

static void
describe_runs (GString *out, const char *what, GPtrArray *runs)
{
  g_string_append_printf (out, " %s", what);
  for (guint i = 0; i < runs->len; i++)
    g_string_append_printf (out, " %d", ws_run_get_id (g_ptr_array_index (runs, i)));
}

static char *
describe (WsSessionAnalysis *analysis)
{
  GString *out = g_string_new (NULL);
  WsSession *session = ws_session_analysis_get_session (analysis);
  GListModel *runs = ws_session_get_runs (session);
  g_autoptr (GPtrArray) all = ws_session_analysis_dup_findings (analysis);
  GPtrArray *fastest = ws_session_analysis_get_fastest (analysis);
  GPtrArray *crossovers = ws_session_analysis_get_crossovers (analysis);

  g_assert_true (ws_session_analysis_is_ready (analysis));
  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);

      g_string_append_printf (out, "run %d\n", ws_run_get_id (run));
      describe_findings (out, ws_session_analysis_get_run_findings (analysis, run));
    }
  g_string_append (out, "session\n");
  describe_findings (out, ws_session_analysis_get_session_findings (analysis));
  g_string_append_printf (out, "all %u\n", all->len);
  for (int kind = WS_SERIES_BY_SIZE; kind <= WS_SERIES_BY_BLOCK; kind++)
    {
      GPtrArray *series = ws_session_analysis_get_series (analysis, kind);

      for (guint i = 0; i < series->len; i++)
        {
          WsSeries *s = g_ptr_array_index (series, i);
          GPtrArray *tied = NULL;
          WsRun *best = ws_session_analysis_get_ranking (analysis, s, &tied);
          double size = 0;
          gboolean crosses = ws_session_analysis_get_crossover (analysis, s, TRUE, FALSE, &size);

          g_string_append_printf (out, "series %d %s best %d crosses %d %.6g", kind, s->label,
                                  best ? ws_run_get_id (best) : 0, crosses, size);
          describe_runs (out, "runs", s->runs);
          if (tied != NULL)
            describe_runs (out, "tied", tied);
          g_string_append_c (out, '\n');
        }
    }
  for (guint i = 0; i < fastest->len; i++)
    {
      WsFastest *f = g_ptr_array_index (fastest, i);
      g_autofree char *text = ws_fastest_dup_summary (f);

      g_string_append_printf (out, "fastest %s | %s | %d %d %u best %d", f->label, text,
                              f->by_end_to_end, f->block_sweep, f->n_runs,
                              ws_run_get_id (f->best));
      describe_runs (out, "tied", f->tied);
      describe_runs (out, "others", f->others);
      g_string_append_c (out, '\n');
    }
  for (guint i = 0; i < crossovers->len; i++)
    {
      WsCrossover *x = g_ptr_array_index (crossovers, i);

      g_string_append_printf (out, "crossover %s", x->series->label);
      for (int a = 0; a < 2; a++)
        for (int e = 0; e < 2; e++)
          g_string_append_printf (out, " %d %.6g %.6g %.6g %.6g", x->found[a][e], x->size[a][e],
                                  x->lowest[a][e], x->highest[a][e], x->best[a][e]);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

static guint
count_changes (WsSessionAnalysis *analysis, guint *changes)
{
  return ++*changes;
}

/* Every recording, fed line by line into a session that is analysed from its first line on,
 * ends with what a whole analysis of the file finds, and with what ws_analyze_session finds. */
static void
test_incremental_matches_whole (void)
{
  g_autoptr (GPtrArray) names = ws_test_list_dir (g_getenv ("WS_SAMPLES_DIR"), ".jsonl");
  guint compared = 0;

  for (guint n = 0; n < names->len; n++)
    {
      g_autofree char *path = sample (g_ptr_array_index (names, n));
      g_autofree char *contents = NULL;
      g_auto (GStrv) lines = NULL;
      g_autoptr (WsSession) live = ws_session_new (WS_SESSION_SOURCE_LIVE);
      g_autoptr (WsSession) whole = load (path);
      g_autoptr (GPtrArray) old = NULL;
      g_autoptr (GPtrArray) now = NULL;
      WsSessionAnalysis *growing = ws_session_get_analysis (live);
      g_autofree char *a = NULL, *b = NULL;
      GString *flat = g_string_new (NULL);
      guint changes = 0;

      /* A trace is analysed apart; a memory check's recording has no runs to analyse. */
      if (ws_session_get_trace (whole) != NULL
          || g_list_model_get_n_items (ws_session_get_runs (whole)) == 0)
        {
          g_string_free (flat, TRUE);
          continue;
        }
      ws_session_analysis_ensure (growing);
      g_signal_connect (growing, "changed", G_CALLBACK (count_changes), &changes);
      g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
      lines = g_strsplit (contents, "\n", -1);
      for (guint i = 0; lines[i] != NULL; i++)
        if (*lines[i] != '\0')
          ws_session_feed_line (live, lines[i], -1, NULL);
      ws_session_end (live);
      g_assert_cmpuint (changes, >, 0);

      ws_session_analysis_ensure (ws_session_get_analysis (whole));
      a = describe (growing);
      b = describe (ws_session_get_analysis (whole));
      g_assert_cmpstr (a, ==, b);

      /* The old way of finding it all, once. */
      old = ws_analyze_session (whole);
      now = ws_session_analysis_dup_findings (ws_session_get_analysis (whole));
      describe_findings (flat, old);
      {
        g_autoptr (GString) mine = g_string_new (NULL);

        describe_findings (mine, now);
        g_assert_cmpstr (mine->str, ==, flat->str);
      }
      g_string_free (flat, TRUE);
      compared++;
    }
  g_assert_cmpuint (compared, >=, 10);
}

/* A run that completes after later ones (results out of order) still lands in its place: the
 * series and the fastest groups keep run order, as a whole analysis has them. */
static void
test_incremental_out_of_order (void)
{
  g_autofree char *path = sample ("vector-add-blocks-h200.jsonl");
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (WsSession) live = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autoptr (WsSession) whole = load (path);
  g_autoptr (GPtrArray) held = g_ptr_array_new ();
  g_autofree char *a = NULL, *b = NULL;

  ws_session_analysis_ensure (ws_session_get_analysis (live));
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  /* The first run's results (all but its run record) arrive last. */
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];

      if (*l == '\0')
        continue;
      if (strstr (l, "\"run\":1,") != NULL && strstr (l, "\"type\":\"run\"") == NULL
          && strstr (l, "\"type\":\"done\"") == NULL)
        g_ptr_array_add (held, (gpointer) l);
      else if (strstr (l, "\"type\":\"done\"") != NULL)
        {
          for (guint k = 0; k < held->len; k++)
            ws_session_feed_line (live, g_ptr_array_index (held, k), -1, NULL);
          ws_session_feed_line (live, l, -1, NULL);
        }
      else
        ws_session_feed_line (live, l, -1, NULL);
    }
  g_assert_cmpuint (held->len, >, 0);
  ws_session_end (live);
  ws_session_analysis_ensure (ws_session_get_analysis (whole));
  a = describe (ws_session_get_analysis (live));
  b = describe (ws_session_get_analysis (whole));
  g_assert_cmpstr (a, ==, b);
}

static void
ready_cb (WsSessionAnalysis *analysis, GParamSpec *pspec, gboolean *ready)
{
  *ready = TRUE;
}

/* A loaded session analysed in a thread: nothing until it is ready, then the same as on the
 * spot. */
static void
test_thread (void)
{
  g_autofree char *path = sample ("matmul-ladder-h200.jsonl");
  g_autoptr (WsSession) session = load (path);
  g_autoptr (WsSession) other = load (path);
  WsSessionAnalysis *analysis = ws_session_get_analysis (session);
  g_autoptr (WsRun) first = g_list_model_get_item (ws_session_get_runs (session), 0);
  g_autofree char *a = NULL, *b = NULL;
  gboolean ready = FALSE;

  g_assert_true (ws_session_get_analysis (session) == analysis);
  g_signal_connect (analysis, "notify::ready", G_CALLBACK (ready_cb), &ready);
  ws_session_analysis_start (analysis);
  g_assert_true (ws_session_analysis_is_pending (analysis));
  g_assert_false (ws_session_analysis_is_ready (analysis));
  g_assert_null (ws_session_analysis_get_run_findings (analysis, first));
  g_assert_cmpuint (ws_session_analysis_get_fastest (analysis)->len, ==, 0);
  /* Asked for on the spot while a thread is at it: nothing is analysed twice. */
  ws_session_analysis_ensure (analysis);
  g_assert_false (ws_session_analysis_is_ready (analysis));
  while (!ready)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (ws_session_analysis_is_pending (analysis));
  g_assert_nonnull (ws_session_analysis_get_run_findings (analysis, first));
  ws_session_analysis_ensure (ws_session_get_analysis (other));
  a = describe (analysis);
  b = describe (ws_session_get_analysis (other));
  g_assert_cmpstr (a, ==, b);
}

/* The fastest configurations of the bundled recordings, as the report names them. */
static void
test_fastest_samples (void)
{
  g_autofree char *blocks_path = sample ("vector-add-blocks-h200.jsonl");
  g_autofree char *ladder_path = sample ("matmul-ladder-h200.jsonl");
  g_autoptr (WsSession) blocks = load (blocks_path);
  g_autoptr (WsSession) ladder = load (ladder_path);
  WsSessionAnalysis *analysis = ws_session_get_analysis (blocks);
  GPtrArray *fastest;
  WsFastest *f;
  g_autofree char *text = NULL;

  ws_session_analysis_ensure (analysis);
  fastest = ws_session_analysis_get_fastest (analysis);
  g_assert_cmpuint (fastest->len, ==, 1);
  f = g_ptr_array_index (fastest, 0);
  g_assert_true (f->block_sweep);
  g_assert_false (f->by_end_to_end);
  g_assert_cmpuint (f->n_runs, ==, 32);
  g_assert_cmpuint (ws_run_get_config (f->best)->threads_per_block, ==, 256);
  g_assert_cmpuint (f->tied->len, ==, 4);
  text = ws_fastest_dup_summary (f);
  g_assert_cmpstr (text, ==, "vector_add n = 10,000,000 at block 256 — 37.5 µs (4 more within "
                             "its spread)");

  /* Several kernels of one problem: the best of each other kernel beside it. */
  analysis = ws_session_get_analysis (ladder);
  ws_session_analysis_ensure (analysis);
  fastest = ws_session_analysis_get_fastest (analysis);
  g_assert_cmpuint (fastest->len, >, 0);
  for (guint i = 0; i < fastest->len; i++)
    {
      f = g_ptr_array_index (fastest, i);
      g_assert_false (f->block_sweep);
      g_assert_cmpuint (f->others->len, >, 0);
      for (guint k = 0; k < f->others->len; k++)
        g_assert_cmpfloat (ws_run_get_kernel_ns (g_ptr_array_index (f->others, k)), >=,
                           ws_run_get_kernel_ns (f->best));
    }
}

/* The analysis's thread, and the timeline's, leave the CPU to the main loop: a thread of
 * their own at nice 10 above the process's, and the task completes in the main context. */
typedef struct
{
  GThread *thread;
  int nice;
  gboolean done;
} Background;

static void
background_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Background *b = data;

  b->thread = g_thread_self ();
#ifdef __linux__
  errno = 0;
  b->nice = getpriority (PRIO_PROCESS, (id_t) gettid ());
#endif
  g_task_return_boolean (task, TRUE);
}

static void
background_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Background *b = data;

  g_assert_true (g_task_propagate_boolean (G_TASK (result), NULL));
  g_assert_true (g_thread_self () != b->thread);
  b->done = TRUE;
}

static void
test_background (void)
{
  Background b = { 0 };
  g_autoptr (GTask) task = g_task_new (NULL, NULL, background_done_cb, &b);

  g_task_set_task_data (task, &b, NULL);
  ws_task_run_in_background (task, background_thread);
  g_clear_object (&task);
  while (!b.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (b.thread);
#ifdef __linux__
  /* The test itself may run niced: the thread is 10 lower, up to the kernel's 19. */
  g_assert_cmpint (b.nice, ==, MIN (19, getpriority (PRIO_PROCESS, 0) + 10));
#endif
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/session-analysis/incremental", test_incremental_matches_whole);
  g_test_add_func ("/session-analysis/out-of-order", test_incremental_out_of_order);
  g_test_add_func ("/session-analysis/thread", test_thread);
  g_test_add_func ("/session-analysis/background", test_background);
  g_test_add_func ("/session-analysis/fastest", test_fastest_samples);
  return g_test_run ();
}

/* test-sweep.c: a sweep spread over several GPUs: --devices parsed, streams merged in plan
 * order whatever order they arrive in (a prefix of the plan at every moment), each run tagged
 * with its GPU and judged against that GPU, progress over all, a failing GPU leaving the
 * others' runs, duplicates refused, and the split run against a stand-in runner that answers
 * as three GPUs: merged, stopped, failing.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "test-standin.h"
#include "test-util.h"
#include "ws-analysis.h"
#include "ws-session.h"
#include "ws-sweep-merge.h"
#include "ws-sweep-split.h"

#define N_GPUS 3

static WsSession *
load (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  WsSession *session = ws_session_load (file, NULL, &error);

  g_assert_no_error (error);
  return session;
}

static char *
make_dir (void)
{
  return g_dir_make_tmp ("ws-sweep-XXXXXX", NULL);
}

static void
remove_dir (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_remove (path);
    }
  g_rmdir (dir);
}

/* The ids of the session's runs in the order it holds them. */
static GArray *
run_ids (WsSession *session)
{
  GListModel *runs = ws_session_get_runs (session);
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (int));

  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);
      int id = ws_run_get_id (run);

      g_array_append_val (ids, id);
    }
  return ids;
}

/* ---- --devices --------------------------------------------------------------------------- */

static void
test_devices_parse (void)
{
  const struct
  {
    const char *text;
    const char *want; /* the indices joined by commas, "all", or NULL for an error */
  } cases[] = {
    { "all", "all" }, { "0", "0" }, { "0,1,3", "0,1,3" }, { "0-3", "0,1,2,3" },
    { "0-1,4", "0,1,4" }, { "7,2", "7,2" }, { "", NULL }, { "1,,2", NULL }, { "3-1", NULL },
    { "0,0", NULL }, { "0-2,1", NULL }, { "x", NULL }, { "-1", NULL }, { "1024", NULL },
    { "1e3", NULL }, { "0,", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GArray) devices = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (GString) got = g_string_new (NULL);
      gboolean all = FALSE;
      gboolean ok = ws_devices_parse (cases[i].text, &devices, &all, &error);

      if (cases[i].want == NULL)
        {
          g_assert_false (ok);
          g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
          g_assert_nonnull (strstr (error->message, "--devices"));
          continue;
        }
      g_assert_no_error (error);
      if (all)
        g_string_append (got, "all");
      for (guint j = 0; devices != NULL && j < devices->len; j++)
        g_string_append_printf (got, "%s%d", j > 0 ? "," : "", g_array_index (devices, int, j));
      g_assert_cmpstr (got->str, ==, cases[i].want);
    }
}

/* ---- merging ----------------------------------------------------------------------------- */

static void
feed_file (WsSweepMerge *merge, guint stream, const char *path, guint max_lines)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL && i < max_lines; i++)
    if (*lines[i] != '\0')
      ws_sweep_merge_feed (merge, stream, lines[i], strlen (lines[i]));
}

/* The shares of three GPUs, fed in the worst order (the last GPU's first, whole): nothing is
 * written before the plan's first run; at the end the session holds every run of the
 * recording in plan order with the same records, each tagged with its GPU. */
static void
test_merge_plan_order (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *sample_path = standin_sample_path ();
  g_autoptr (WsSession) sample = load (sample_path);
  g_autoptr (WsSession) out = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autoptr (WsSweepMerge) merge = ws_sweep_merge_new (out, N_GPUS, TRUE);
  g_autoptr (GArray) ids = NULL;
  GListModel *runs;
  int done = 0, total = 0, code = -1;
  guint n;

  standin_write_shares (dir, N_GPUS, FALSE);
  for (int k = N_GPUS - 1; k >= 0; k--)
    {
      g_autofree char *path = g_strdup_printf ("%s/share-%d-of-%d.jsonl", dir, k, N_GPUS);

      feed_file (merge, (guint) k, path, G_MAXUINT);
      /* Run 1 is GPU 0's: until it has come, no run may be written. */
      if (k > 0)
        g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (out)), ==, 0);
      ws_sweep_merge_end_stream (merge, (guint) k, NULL);
    }
  g_assert_true (ws_sweep_merge_is_finished (merge));
  g_assert_true (ws_session_is_done (out, &code, NULL));
  g_assert_cmpint (code, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_devices (out)), ==, N_GPUS);
  runs = ws_session_get_runs (out);
  n = g_list_model_get_n_items (runs);
  g_assert_cmpuint (n, ==, g_list_model_get_n_items (ws_session_get_runs (sample)));
  ids = run_ids (out);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);
      WsRun *original = ws_session_find_run (sample, (int) i + 1);
      g_autofree char *uuid = standin_uuid (i % N_GPUS);
      guint n_a = 0, n_b = 0;

      g_assert_cmpint (g_array_index (ids, int, i), ==, (int) i + 1);
      g_assert_cmpint (ws_run_get_config (run)->device, ==, (int) (i % N_GPUS));
      g_assert_cmpstr (ws_run_get_config (run)->device_uuid, ==, uuid);
      g_assert_cmpint (ws_run_get_state (run), ==, ws_run_get_state (original));
      ws_run_get_activities (run, &n_a);
      ws_run_get_activities (original, &n_b);
      g_assert_cmpuint (n_a, ==, n_b);
      g_assert_cmpfloat (ws_run_get_timing (run)->kernel.median, ==,
                         ws_run_get_timing (original)->kernel.median);
      /* Its own GPU's record, found by the UUID it is tagged with. */
      g_assert_cmpstr (ws_device_get_info (ws_session_get_run_device (out, run))->uuid, ==,
                       uuid);
    }
  g_assert_true (ws_session_get_progress (out, &done, &total));
  g_assert_cmpint (done, ==, (int) n);
  g_assert_cmpint (total, ==, (int) n);
  g_assert_cmpuint (ws_session_get_problems (out)->len, ==, 0);
  remove_dir (dir);
}

/* Lines arriving as three runners print them, interleaved: at every moment the session holds
 * runs 1…k, never a gap, and the progress never goes back. */
static void
test_merge_prefix (void)
{
  g_autofree char *dir = make_dir ();
  g_autoptr (WsSession) out = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autoptr (WsSweepMerge) merge = ws_sweep_merge_new (out, N_GPUS, TRUE);
  char **lines[N_GPUS] = { NULL };
  guint at[N_GPUS] = { 0 };
  gboolean more = TRUE;
  int last_done = 0;

  standin_write_shares (dir, N_GPUS, FALSE);
  for (guint k = 0; k < N_GPUS; k++)
    {
      g_autofree char *path = g_strdup_printf ("%s/share-%u-of-%d.jsonl", dir, k, N_GPUS);
      g_autofree char *text = NULL;

      g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
      lines[k] = g_strsplit (text, "\n", -1);
    }
  /* GPU 2 runs fastest, GPU 0 slowest: three lines of GPU 2 for one of GPU 0. */
  for (guint step = 0; more; step++)
    {
      more = FALSE;
      for (guint k = 0; k < N_GPUS; k++)
        for (guint repeat = 0; repeat <= k; repeat++)
          {
            const char *line = lines[k][at[k]];
            g_autoptr (GArray) ids = NULL;
            int done = 0, total = 0;

            if (line == NULL)
              continue;
            more = TRUE;
            at[k]++;
            if (*line != '\0')
              ws_sweep_merge_feed (merge, k, line, strlen (line));
            if (lines[k][at[k]] == NULL)
              ws_sweep_merge_end_stream (merge, k, NULL);
            ids = run_ids (out);
            for (guint i = 0; i < ids->len; i++)
              g_assert_cmpint (g_array_index (ids, int, i), ==, (int) i + 1);
            if (ws_session_get_progress (out, &done, &total))
              {
                g_assert_cmpint (done, >=, last_done);
                g_assert_cmpint (total, ==, 32);
                last_done = done;
              }
          }
    }
  g_assert_cmpint (last_done, ==, 32);
  g_assert_true (ws_session_is_done (out, NULL, NULL));
  for (guint k = 0; k < N_GPUS; k++)
    g_strfreev (g_steal_pointer (&lines[k]));
  remove_dir (dir);
}

/* GPU 1 stops after a few lines: the others' runs are all there, its finished runs too, an
 * error record says which GPU stopped and why, and the done record's status is not 0. */
static void
test_merge_failed_stream (void)
{
  g_autofree char *dir = make_dir ();
  g_autoptr (WsSession) out = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autoptr (WsSweepMerge) merge = ws_sweep_merge_new (out, N_GPUS, TRUE);
  g_autoptr (GError) failure = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED,
                                                    "The runner crashed (Segmentation fault).");
  GListModel *runs = ws_session_get_runs (out);
  GPtrArray *errors;
  guint others = 0, of_gpu1 = 0;
  int code = 0;

  standin_write_shares (dir, N_GPUS, FALSE);
  ws_sweep_merge_set_stream (merge, 1, "GPU 1", 1);
  for (guint k = 0; k < N_GPUS; k++)
    {
      g_autofree char *path = g_strdup_printf ("%s/share-%u-of-%d.jsonl", dir, k, N_GPUS);

      /* 300 lines: a few of its runs, the last one cut short. */
      feed_file (merge, k, path, k == 1 ? 300 : G_MAXUINT);
      ws_sweep_merge_end_stream (merge, k, k == 1 ? failure : NULL);
    }
  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);

      if (ws_run_get_config (run)->device == 1)
        of_gpu1++;
      else
        {
          g_assert_cmpint (ws_run_get_state (run), ==, WS_RUN_STATE_COMPLETE);
          others++;
        }
    }
  g_assert_cmpuint (others, ==, 32 - 11);
  g_assert_cmpuint (of_gpu1, >, 0);
  g_assert_cmpuint (of_gpu1, <, 11);
  errors = ws_session_get_errors (out);
  g_assert_cmpuint (errors->len, ==, 1);
  g_assert_cmpint (((WsRunnerError *) g_ptr_array_index (errors, 0))->code, ==,
                   WS_ERROR_RUNNER_FAILED);
  g_assert_nonnull (strstr (((WsRunnerError *) g_ptr_array_index (errors, 0))->message, "GPU 1"));
  g_assert_nonnull (strstr (((WsRunnerError *) g_ptr_array_index (errors, 0))->message,
                            "Segmentation fault"));
  g_assert_true (ws_session_is_done (out, &code, NULL));
  g_assert_cmpint (code, ==, 1);
  remove_dir (dir);
}

/* Files gathered after the fact: two copies of one share hold the same runs; the second
 * copy's are left out with a message, not announced twice. */
static void
test_merge_duplicates (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *path = NULL;
  g_autoptr (WsSession) out = ws_session_new (WS_SESSION_SOURCE_RECORDING);
  g_autoptr (WsSweepMerge) merge = ws_sweep_merge_new (out, 2, FALSE);

  standin_write_shares (dir, 2, FALSE);
  path = g_strdup_printf ("%s/share-0-of-2.jsonl", dir);
  ws_sweep_merge_set_stream (merge, 1, "copy.jsonl", -1);
  for (guint k = 0; k < 2; k++)
    {
      feed_file (merge, k, path, G_MAXUINT);
      ws_sweep_merge_end_stream (merge, k, NULL);
    }
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (out)), ==, 16);
  g_assert_cmpuint (ws_session_get_problems (out)->len, ==, 0);
  g_assert_cmpuint (ws_sweep_merge_get_problems (merge)->len, ==, 16);
  g_assert_nonnull (strstr (g_ptr_array_index (ws_sweep_merge_get_problems (merge), 0),
                            "copy.jsonl"));
  remove_dir (dir);
}

/* ---- the split, with a stand-in runner ----------------------------------------------------- */

typedef struct
{
  GMainLoop *loop;
  gboolean finished;
  gboolean cancel_on_run;
  WsSweepSplit *split;
} Wait;

static void
finished_cb (WsSweepSplit *split, gpointer data)
{
  Wait *w = data;

  w->finished = TRUE;
  g_main_loop_quit (w->loop);
}

static void
run_added_cb (WsSession *session, WsRun *run, gpointer data)
{
  Wait *w = data;

  if (w->cancel_on_run)
    {
      w->cancel_on_run = FALSE;
      ws_sweep_split_cancel (w->split);
    }
}

static gboolean
guard_cb (gpointer data)
{
  g_error ("the split did not finish in time");
  return G_SOURCE_REMOVE;
}

static WsSweepSplit *
split_run (const char *runner, WsSession *session, guint n, gboolean cancel)
{
  g_autoptr (WsTarget) target = ws_target_new_local ();
  g_autoptr (GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr (GError) error = NULL;
  WsSweepSplit *split;
  const char *const args[] = { "--kernel", "vector_add", "--blocks", "32:1024:+32", NULL };
  int devices[8];
  Wait w = { loop, FALSE, cancel, NULL };
  guint guard;

  for (guint i = 0; i < n; i++)
    devices[i] = (int) i;
  ws_target_set_runner (target, runner);
  split = ws_sweep_split_new (target, session);
  w.split = split;
  g_signal_connect (split, "finished", G_CALLBACK (finished_cb), &w);
  g_signal_connect (session, "run-added", G_CALLBACK (run_added_cb), &w);
  g_assert_true (ws_sweep_split_start (split, args, devices, n, &error));
  g_assert_no_error (error);
  g_assert_true (ws_sweep_split_is_running (split));
  guard = g_timeout_add_seconds (60, guard_cb, NULL);
  g_main_loop_run (loop);
  g_source_remove (guard);
  g_assert_true (w.finished);
  g_assert_false (ws_sweep_split_is_running (split));
  g_signal_handlers_disconnect_by_data (session, &w);
  g_signal_handlers_disconnect_by_data (split, &w);
  return split;
}

/* Three runners, each told its GPU and its share, merged into the recording's 32 runs. */
static void
test_split_merged (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *runner = NULL;
  g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autoptr (WsSweepSplit) split = NULL;
  g_autoptr (GArray) ids = NULL;

  standin_write_shares (dir, N_GPUS, FALSE);
  runner = standin_write_runner (dir, N_GPUS, 0, NULL);
  split = split_run (runner, session, N_GPUS, FALSE);
  g_assert_null (ws_sweep_split_get_error (split));
  g_assert_cmpuint (ws_sweep_split_get_n_failed (split), ==, 0);
  g_assert_cmpint (ws_sweep_split_get_exit_status (split), ==, 0);
  ids = run_ids (session);
  g_assert_cmpuint (ids->len, ==, 32);
  for (guint i = 0; i < ids->len; i++)
    g_assert_cmpint (g_array_index (ids, int, i), ==, (int) i + 1);
  for (guint k = 0; k < N_GPUS; k++)
    {
      g_autofree char *path = g_strdup_printf ("%s/args-%u", dir, k);
      g_autofree char *args = NULL;
      g_autofree char *want = g_strdup_printf ("--kernel\nvector_add\n--blocks\n32:1024:+32\n"
                                               "--device\n%u\n--shard\n%u/%d\n",
                                               k, k, N_GPUS);

      g_assert_true (g_file_get_contents (path, &args, NULL, NULL));
      g_assert_cmpstr (args, ==, want);
      g_assert_cmpstr (ws_sweep_split_get_label (split, k), ==,
                       k == 0 ? "GPU 0" : k == 1 ? "GPU 1" : "GPU 2");
    }
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_devices (session)), ==, N_GPUS);
  g_assert_true (ws_session_is_done (session, NULL, NULL));
  remove_dir (dir);
}

/* GPU 1's runner dies after its first lines: the split says so, names GPU 1, and keeps every
 * run of GPUs 0 and 2. */
static void
test_split_one_fails (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *runner = NULL;
  g_autofree char *cli = standin_cli_path ();
  g_autofree char *extra = NULL;
  g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autoptr (WsSweepSplit) split = NULL;
  GListModel *runs = ws_session_get_runs (session);
  guint others = 0;

  standin_write_shares (dir, N_GPUS, FALSE);
  extra = g_strdup_printf ("if [ $k = 1 ]; then '%s' replay --speed 0 '%s/share-1-of-3.jsonl' "
                           "| head -n 200; echo 'GPU fell off the bus' >&2; exit 4; fi",
                           cli, dir);
  runner = standin_write_runner (dir, N_GPUS, 0, extra);
  split = split_run (runner, session, N_GPUS, FALSE);
  g_assert_cmpuint (ws_sweep_split_get_n_failed (split), ==, 1);
  g_assert_nonnull (ws_sweep_split_get_error (split));
  g_assert_true (g_str_has_prefix (ws_sweep_split_get_error (split)->message, "GPU 1: "));
  g_assert_nonnull (strstr (ws_sweep_split_get_error (split)->message, "fell off the bus"));
  g_assert_null (ws_sweep_split_get_runner_error (split, 0));
  g_assert_nonnull (ws_sweep_split_get_runner_error (split, 1));
  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);

      if (ws_run_get_config (run)->device != 1)
        {
          g_assert_cmpint (ws_run_get_state (run), ==, WS_RUN_STATE_COMPLETE);
          others++;
        }
    }
  g_assert_cmpuint (others, ==, 32 - 11);
  remove_dir (dir);
}

/* Stop during the first run: every runner ends, none is left, the runs so far are kept. */
static void
test_split_cancel (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *runner = NULL;
  g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autoptr (WsSweepSplit) split = NULL;
  gint64 start = g_get_monotonic_time ();

  standin_write_shares (dir, N_GPUS, FALSE);
  runner = standin_write_runner (dir, N_GPUS, 1, NULL);
  split = split_run (runner, session, N_GPUS, TRUE);
  /* The recording takes 12 s at its own pace. */
  g_assert_cmpfloat ((g_get_monotonic_time () - start) / 1e6, <, 6);
  g_assert_cmpuint (ws_sweep_split_get_n_failed (split), ==, 0);
  g_assert_false (ws_session_is_done (session, NULL, NULL));
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (session)), <, 32);
  for (guint k = 0; k < N_GPUS; k++)
    {
      int pid = standin_pid (dir, k);

      g_assert_cmpint (pid, >, 0);
      g_assert_false (standin_pid_alive (pid));
      g_assert_error (ws_target_job_get_error (ws_sweep_split_get_job (split, k)), G_IO_ERROR,
                      G_IO_ERROR_CANCELLED);
    }
  remove_dir (dir);
}

/* A share of a sweep is judged against its own GPU: the ceilings of device 1, not device 0. */
static void
test_run_device_ceilings (void)
{
  g_autofree char *dir = make_dir ();
  g_autoptr (WsSession) out = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autoptr (WsSweepMerge) merge = ws_sweep_merge_new (out, 2, TRUE);
  g_autoptr (WsRun) run1 = NULL, run2 = NULL;
  double f1 = 0, f2 = 0, c1 = 0, c2 = 0;

  standin_write_shares (dir, 2, FALSE);
  for (guint k = 0; k < 2; k++)
    {
      g_autofree char *path = g_strdup_printf ("%s/share-%u-of-2.jsonl", dir, k);
      g_autofree char *text = NULL;

      g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
      /* GPU 1 measured twice the copy bandwidth. */
      if (k == 1)
        {
          g_autoptr (GString) s = g_string_new (text);

          g_string_replace (s, "\"bandwidth_measured_gbs\":", "\"bandwidth_measured_gbs\":2", 1);
          g_assert_true (g_file_set_contents (path, s->str, -1, NULL));
        }
      feed_file (merge, k, path, G_MAXUINT);
      ws_sweep_merge_end_stream (merge, k, NULL);
    }
  run1 = g_list_model_get_item (ws_session_get_runs (out), 0);
  run2 = g_list_model_get_item (ws_session_get_runs (out), 1);
  g_assert_cmpint (ws_run_get_config (run2)->device, ==, 1);
  ws_analysis_get_ceiling (out, run1, &f1, &c1);
  ws_analysis_get_ceiling (out, run2, &f2, &c2);
  g_assert_cmpfloat (c1, >, 0);
  g_assert_cmpfloat (c2, >, c1 * 1.5);
  remove_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sweep/devices-parse", test_devices_parse);
  g_test_add_func ("/sweep/merge/plan-order", test_merge_plan_order);
  g_test_add_func ("/sweep/merge/prefix", test_merge_prefix);
  g_test_add_func ("/sweep/merge/failed-stream", test_merge_failed_stream);
  g_test_add_func ("/sweep/merge/duplicates", test_merge_duplicates);
  g_test_add_func ("/sweep/merge/run-device-ceilings", test_run_device_ceilings);
  g_test_add_func ("/sweep/split/merged", test_split_merged);
  g_test_add_func ("/sweep/split/one-fails", test_split_one_fails);
  g_test_add_func ("/sweep/split/cancel", test_split_cancel);
  return g_test_run ();
}

/* test-runner-client.c: the runner client against stand-in runners (small shell scripts): the
 * session it feeds, the inactivity timeout, cancel and kill, SIGTERM then SIGKILL, launchers
 * whose children keep the pipes open, bounded stderr and lines, arguments through a remote
 * shell, and no process left behind.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>

#include "test-util.h"
#include "ws-runner-client.h"

#define SAMPLE "vector-add-sizes-h200.jsonl"

/* ---- stand-ins --------------------------------------------------------------------------- */

static char *
sample_path (void)
{
  return ws_test_sample (SAMPLE);
}

static guint
sample_runs (void)
{
  g_autofree char *path = sample_path ();
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (WsSession) session = ws_session_load (file, NULL, NULL);

  g_assert_nonnull (session);
  return g_list_model_get_n_items (ws_session_get_runs (session));
}

/* The lines of the recording the stand-ins print. */
static guint
sample_lines (void)
{
  g_autofree char *path = sample_path ();
  g_autofree char *text = NULL;
  guint n = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  for (const char *p = text; *p != '\0'; p++)
    n += *p == '\n';
  return n;
}

/* A script in `dir`; "@SAMPLE@" and "@DIR@" in `body` stand for the recording and `dir`. */
static char *
write_script (const char *dir, const char *name, const char *body)
{
  return ws_test_write_script (dir, name, body, SAMPLE);
}

/* ---- running the client ------------------------------------------------------------------ */

typedef struct
{
  WsSession *session;
  WsRunnerClient *client;
  GMainLoop *loop;
  gboolean finished;
  gboolean cancel_on_first_run, kill_after_cancel;
  gint64 started, cancelled_at, ended;
} Run;

static void
run_clear (Run *r)
{
  g_clear_object (&r->client);
  g_clear_object (&r->session);
  g_clear_pointer (&r->loop, g_main_loop_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

static void
finished_cb (WsRunnerClient *client, gpointer data)
{
  Run *r = data;

  r->finished = TRUE;
  r->ended = g_get_monotonic_time ();
  g_main_loop_quit (r->loop);
}

static void
run_added_cb (WsSession *session, WsRun *run, gpointer data)
{
  Run *r = data;

  if (!r->cancel_on_first_run || r->cancelled_at != 0)
    return;
  r->cancelled_at = g_get_monotonic_time ();
  ws_runner_client_cancel (r->client);
  if (r->kill_after_cancel)
    ws_runner_client_kill (r->client);
}

static gboolean
guard_cb (gpointer data)
{
  Run *r = data;

  g_main_loop_quit (r->loop);
  return G_SOURCE_REMOVE;
}

static void
run_start (Run *r, const char *const *launcher, const char *const *argv, guint timeout,
           WsLauncherKind kind)
{
  g_autoptr (GError) error = NULL;

  r->session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  r->client = ws_runner_client_new (r->session);
  r->loop = g_main_loop_new (NULL, FALSE);
  ws_runner_client_set_timeout (r->client, timeout);
  ws_runner_client_set_launcher_kind (r->client, kind);
  g_signal_connect (r->client, "finished", G_CALLBACK (finished_cb), r);
  g_signal_connect (r->session, "run-added", G_CALLBACK (run_added_cb), r);
  r->started = g_get_monotonic_time ();
  g_assert_true (ws_runner_client_start (r->client, launcher, argv, &error));
  g_assert_no_error (error);
}

/* Runs the main loop until "finished", or fails the test after `limit` seconds: a client
 * that hangs is the defect these tests look for. */
static void
run_wait (Run *r, double limit)
{
  guint guard = g_timeout_add ((guint) (limit * 1000), guard_cb, r);

  g_main_loop_run (r->loop);
  if (!r->finished)
    g_error ("the client did not finish within %.1f s", limit);
  g_source_remove (guard);
  g_assert_false (ws_runner_client_is_running (r->client));
}

static double
seconds (gint64 from, gint64 to)
{
  return (double) (to - from) / G_USEC_PER_SEC;
}

static void
run_script (Run *r, const char *script, guint timeout)
{
  const char *argv[] = { script, "--kernel", "vector_add", NULL };

  run_start (r, NULL, argv, timeout, WS_LAUNCHER_AUTO);
}

static guint
count_state (WsSession *session, WsRunState state)
{
  GListModel *runs = ws_session_get_runs (session);
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);

      n += ws_run_get_state (run) == state;
    }
  return n;
}

/* The first runs of the recording, then a silence no runner would keep. */
#define HEAD_THEN_HANG "echo $$ > '@DIR@/pgid'\nhead -n 300 '@SAMPLE@'\nsleep 100000\n"

/* ---- tests ------------------------------------------------------------------------------- */

static void
test_whole_recording (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-client-XXXXXX", NULL);
  g_autofree char *script = write_script (dir, "runner.sh",
                                          "echo $$ > '@DIR@/pgid'\n"
                                          "printf 'a word on stderr' >&2\n"
                                          "cat '@SAMPLE@'\n");
  g_auto (Run) r = { 0 };
  int exit_code = -1;

  run_script (&r, script, 10);
  run_wait (&r, 10);
  g_assert_no_error ((GError *) ws_runner_client_get_error (r.client));
  g_assert_cmpint (ws_runner_client_get_exit_status (r.client), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (r.session)), ==,
                    sample_runs ());
  g_assert_true (ws_session_is_done (r.session, &exit_code, NULL));
  g_assert_cmpint (exit_code, ==, 0);
  g_assert_cmpuint (ws_runner_client_get_n_bad_lines (r.client), ==, 0);
  g_assert_cmpstr (ws_runner_client_get_stderr (r.client), ==, "a word on stderr");
  g_assert_true (ws_test_wait_group_gone (ws_test_read_number (dir, "pgid"), 3));
  ws_test_remove_dir (dir);
}

/* The runner is a shell whose child keeps stdout open: the timeout stops the whole group,
 * and the runs that completed stay. */
static void
test_timeout (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-client-XXXXXX", NULL);
  g_autofree char *script = write_script (dir, "runner.sh", HEAD_THEN_HANG);
  g_auto (Run) r = { 0 };
  const GError *error;

  run_script (&r, script, 1);
  run_wait (&r, 8);
  g_assert_cmpfloat (seconds (r.started, r.ended), >=, 0.9);
  error = ws_runner_client_get_error (r.client);
  g_assert_error ((GError *) error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
  g_assert_nonnull (strstr (error->message, "1 seconds"));
  g_assert_cmpuint (count_state (r.session, WS_RUN_STATE_COMPLETE), >, 0);
  g_assert_cmpuint (count_state (r.session, WS_RUN_STATE_RUNNING), ==, 0);
  g_assert_true (ws_test_wait_group_gone (ws_test_read_number (dir, "pgid"), 3));
  ws_test_remove_dir (dir);
}

static void
test_cancel (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-client-XXXXXX", NULL);
  g_autofree char *script = write_script (dir, "runner.sh", HEAD_THEN_HANG);
  g_auto (Run) r = { 0 };

  r.cancel_on_first_run = TRUE;
  run_script (&r, script, 0);
  run_wait (&r, 8);
  g_assert_cmpint (r.cancelled_at, >, 0);
  /* SIGTERM is enough for a shell and a sleep: no grace period waited for. */
  g_assert_cmpfloat (seconds (r.cancelled_at, r.ended), <, 1.5);
  g_assert_error ((GError *) ws_runner_client_get_error (r.client), G_IO_ERROR,
                  G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (r.session)), >, 0);
  g_assert_true (ws_test_wait_group_gone (ws_test_read_number (dir, "pgid"), 3));
  ws_test_remove_dir (dir);
}

/* A group that ignores SIGTERM gets SIGKILL after the grace period; kill does not wait. */
static void
test_term_then_kill (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-client-XXXXXX", NULL);
  g_autofree char *script = write_script (dir, "runner.sh", "trap '' TERM\n" HEAD_THEN_HANG);

  {
    g_auto (Run) r = { 0 };

    r.cancel_on_first_run = TRUE;
    run_script (&r, script, 0);
    run_wait (&r, 10);
    g_assert_cmpfloat (seconds (r.cancelled_at, r.ended), >=, 1.8);
    g_assert_cmpfloat (seconds (r.cancelled_at, r.ended), <, 4.5);
    g_assert_cmpint (ws_runner_client_get_exit_status (r.client), ==, 128 + SIGKILL);
    g_assert_error ((GError *) ws_runner_client_get_error (r.client), G_IO_ERROR,
                    G_IO_ERROR_CANCELLED);
    g_assert_true (ws_test_wait_group_gone (ws_test_read_number (dir, "pgid"), 3));
  }
  {
    g_auto (Run) r = { 0 };

    r.cancel_on_first_run = TRUE;
    r.kill_after_cancel = TRUE;
    run_script (&r, script, 0);
    run_wait (&r, 10);
    g_assert_cmpfloat (seconds (r.cancelled_at, r.ended), <, 1.5);
    g_assert_cmpint (ws_runner_client_get_exit_status (r.client), ==, 128 + SIGKILL);
    g_assert_true (ws_test_wait_group_gone (ws_test_read_number (dir, "pgid"), 3));
  }
  ws_test_remove_dir (dir);
}

/* Launchers whose children hold stdout open after the runner's done record: one that waits
 * for its child, one that has exited and left it behind. The session is complete, the
 * runner's status is the done record's, and nothing is left running. */
static void
test_launcher_holds_stdout (void)
{
  const char *const wrappers[] = {
    "echo $$ > '@DIR@/pgid'\n\"$@\"\nsleep 100000\n",
    "echo $$ > '@DIR@/pgid'\n\"$@\"\nsleep 100000 &\nexit 0\n",
    /* A wrapper that exits 143 from its trap when it is stopped, as the sbatch script does:
     * the done record's status stands, not the trap's. */
    "echo $$ > '@DIR@/pgid'\ntrap 'exit 143' TERM\n\"$@\"\nsleep 100000 &\nwait\n",
  };
  g_autofree char *dir = g_dir_make_tmp ("ws-client-XXXXXX", NULL);
  g_autofree char *runner = write_script (dir, "runner.sh", "cat '@SAMPLE@'\n");

  for (guint i = 0; i < G_N_ELEMENTS (wrappers); i++)
    {
      g_autofree char *name = g_strdup_printf ("wrapper-%u.sh", i);
      g_autofree char *wrapper = write_script (dir, name, wrappers[i]);
      const char *launcher[] = { wrapper, NULL };
      const char *argv[] = { runner, NULL };
      g_auto (Run) r = { 0 };

      /* No inactivity timeout: only the end of the stream may end it. */
      run_start (&r, launcher, argv, 0, WS_LAUNCHER_AUTO);
      run_wait (&r, 8);
      g_assert_no_error ((GError *) ws_runner_client_get_error (r.client));
      g_assert_cmpint (ws_runner_client_get_exit_status (r.client), ==, 0);
      g_assert_cmpuint (count_state (r.session, WS_RUN_STATE_COMPLETE), ==, sample_runs ());
      g_assert_true (ws_test_wait_group_gone (ws_test_read_number (dir, "pgid"), 3));
    }
  ws_test_remove_dir (dir);
}

/* A process that left the group keeps stdout open: once the group is killed the client stops
 * waiting for it. */
static void
test_escaped_child (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-client-XXXXXX", NULL);
  g_autofree char *script = NULL;
  g_autofree char *setsid = g_find_program_in_path ("setsid");
  g_auto (Run) r = { 0 };
  int escaped;

  if (setsid == NULL)
    {
      g_test_skip ("setsid (util-linux) is not installed");
      ws_test_remove_dir (dir);
      return;
    }
  script = write_script (dir, "runner.sh",
                         "echo $$ > '@DIR@/pgid'\n"
                         "head -n 300 '@SAMPLE@'\n"
                         "setsid sleep 100000 &\n"
                         "echo $! > '@DIR@/escaped'\n"
                         "sleep 100000\n");
  run_script (&r, script, 1);
  run_wait (&r, 10);
  g_assert_error ((GError *) ws_runner_client_get_error (r.client), G_IO_ERROR,
                  G_IO_ERROR_TIMED_OUT);
  g_assert_cmpuint (count_state (r.session, WS_RUN_STATE_COMPLETE), >, 0);
  g_assert_true (ws_test_wait_group_gone (ws_test_read_number (dir, "pgid"), 3));
  /* What escaped the group is the test's to end. */
  escaped = ws_test_read_number (dir, "escaped");
  g_assert_cmpint (escaped, >, 1);
  kill (escaped, SIGKILL);
  ws_test_remove_dir (dir);
}

static glong
peak_kib (void)
{
  struct rusage usage;

  g_assert_cmpint (getrusage (RUSAGE_SELF, &usage), ==, 0);
  return usage.ru_maxrss;
}

/* 100 MB on stderr: the first and the last 64 KiB are kept, with what was left out between
 * them, and the memory does not grow with it. */
static void
test_stderr_bounded (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-client-XXXXXX", NULL);
  g_autofree char *script = write_script (dir, "runner.sh",
                                          "echo $$ > '@DIR@/pgid'\n"
                                          "printf BEGIN >&2\n"
                                          "head -c 100000000 /dev/zero | tr '\\000' e >&2\n"
                                          "printf END >&2\n"
                                          "cat '@SAMPLE@'\n");
  g_auto (Run) r = { 0 };
  glong before = peak_kib ();
  const char *err, *mark;
  guint64 left_out;

  run_script (&r, script, 10);
  run_wait (&r, 30);
  err = ws_runner_client_get_stderr (r.client);
  g_assert_true (g_str_has_prefix (err, "BEGINeee"));
  g_assert_true (g_str_has_suffix (err, "eeeEND"));
  g_assert_cmpuint (strlen (err), <, 2 * 64 * 1024 + 100);
  mark = strstr (err, "\n… ");
  g_assert_nonnull (mark);
  left_out = g_ascii_strtoull (mark + strlen ("\n… "), NULL, 10);
  /* Every byte is either shown or counted: head, left out, tail. */
  g_assert_cmpuint ((gsize) (mark - err) + left_out + strlen (strchr (mark + 1, '\n') + 1), ==,
                    100000000 + strlen ("BEGIN") + strlen ("END"));
  g_assert_cmpint (peak_kib () - before, <, 64 * 1024);
  g_assert_true (ws_test_wait_group_gone (ws_test_read_number (dir, "pgid"), 3));
  ws_test_remove_dir (dir);
}

/* A runner that exits early is quoted in the message by the end of its stderr: its last
 * words, not 20 kB. */
static void
test_early_exit (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-client-XXXXXX", NULL);
  g_autofree char *script = write_script (dir, "runner.sh",
                                          "head -n 300 '@SAMPLE@'\n"
                                          "head -c 20000 /dev/zero | tr '\\000' e >&2\n"
                                          "printf 'LAST WORDS' >&2\n"
                                          "exit 3\n");
  g_auto (Run) r = { 0 };
  const GError *error;

  run_script (&r, script, 10);
  run_wait (&r, 10);
  error = ws_runner_client_get_error (r.client);
  g_assert_error ((GError *) error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "status 3"));
  g_assert_true (g_str_has_suffix (error->message, "eeeLAST WORDS"));
  g_assert_cmpuint (strlen (error->message), <, 4096 + 200);
  g_assert_cmpint (ws_runner_client_get_exit_status (r.client), ==, 3);
  g_assert_cmpuint (count_state (r.session, WS_RUN_STATE_COMPLETE), >, 0);
  ws_test_remove_dir (dir);
}

/* Lines longer than WS_SESSION_MAX_LINE after the hello are left out as problems, one a
 * stream without a newline at its end; one of exactly the limit is read. The memory stays
 * near the limit. */
static void
test_long_lines (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-client-XXXXXX", NULL);
  g_autofree char *body = g_strdup_printf ("echo $$ > '@DIR@/pgid'\n"
                                           "cat '@SAMPLE@'\n"
                                           "head -c 100000000 /dev/zero | tr '\\000' a\n"
                                           "echo\n"
                                           "head -c %d /dev/zero | tr '\\000' b\n"
                                           "echo\n"
                                           "head -c %d /dev/zero | tr '\\000' c\n",
                                           WS_SESSION_MAX_LINE, WS_SESSION_MAX_LINE + 1);
  g_autofree char *script = write_script (dir, "runner.sh", body);
  g_auto (Run) r = { 0 };
  glong before = peak_kib ();
  GPtrArray *problems;
  WsProblem *first, *at_limit, *last;

  run_script (&r, script, 10);
  run_wait (&r, 30);
  g_assert_no_error ((GError *) ws_runner_client_get_error (r.client));
  g_assert_cmpuint (count_state (r.session, WS_RUN_STATE_COMPLETE), ==, sample_runs ());
  g_assert_cmpuint (ws_runner_client_get_n_bad_lines (r.client), ==, 3);
  problems = ws_session_get_problems (r.session);
  g_assert_cmpuint (problems->len, ==, 3);
  first = g_ptr_array_index (problems, 0);
  at_limit = g_ptr_array_index (problems, 1);
  last = g_ptr_array_index (problems, 2);
  g_assert_cmpuint (first->line, ==, sample_lines () + 1);
  g_assert_nonnull (strstr (first->message, "skipped"));
  g_assert_nonnull (strstr (first->message, "1 MiB"));
  /* Exactly the limit is a line like any other (here not JSON). */
  g_assert_null (strstr (at_limit->message, "skipped"));
  g_assert_nonnull (strstr (last->message, "skipped"));
  g_assert_cmpuint (last->line, ==, at_limit->line + 1);
  /* A reader that kept the 100 MB line would pass 100 MB; what is allowed is a few lines of
   * the limit and room for the rest of the process, which under the sanitizers (redzones,
   * freed blocks held in quarantine, the state of the tests before) varies by megabytes from
   * one build to the next: 20 MB were seen. */
  g_assert_cmpint (peak_kib () - before, <, 3 * WS_SESSION_MAX_LINE / 1024 + 32 * 1024);
  g_assert_true (ws_test_wait_group_gone (ws_test_read_number (dir, "pgid"), 3));
  ws_test_remove_dir (dir);
}

/* Lines that are not records make problems, counted for the caller, even when the runner
 * exits 0; output that is not a session at all is an error. */
static void
test_bad_lines (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-client-XXXXXX", NULL);
  g_autofree char *nan = write_script (dir, "nan.sh", "cat '@SAMPLE@'\necho NaN\necho '[1]'\n");
  g_autofree char *record = write_script (dir, "record.sh", "echo '{\"motd\":1}'\n"
                                                            "cat '@SAMPLE@'\n");

  {
    g_auto (Run) r = { 0 };

    run_script (&r, nan, 10);
    run_wait (&r, 10);
    g_assert_no_error ((GError *) ws_runner_client_get_error (r.client));
    g_assert_cmpuint (ws_runner_client_get_n_bad_lines (r.client), ==, 2);
  }
  {
    g_auto (Run) r = { 0 };
    const GError *error;

    /* JSON before the hello is the runner's, not a launcher's banner: not a session. */
    run_script (&r, record, 10);
    run_wait (&r, 10);
    error = ws_runner_client_get_error (r.client);
    g_assert_error ((GError *) error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_assert_nonnull (strstr (error->message, "not a record"));
    g_assert_null (ws_runner_client_get_warning (r.client));
  }
  ws_test_remove_dir (dir);
}

/* A launcher's banner before the hello (a .bashrc's greeting through ssh) is skipped and said
 * once, its control characters escaped; the runs are read, the runner's lines keep their
 * numbers. A launcher that prints more than 64 lines or 16 KiB is refused with how to quiet
 * it, and nothing of the output is read. */
static void
test_banner (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-client-XXXXXX", NULL);
  g_autofree char *one = write_script (dir, "one.sh", "echo 'Welcome to gpu-box'\n"
                                                      "cat '@SAMPLE@'\n");
  g_autofree char *two = write_script (dir, "two.sh", "printf '\\033]0;owned\\007 motd\\r\\n'\n"
                                                      "echo '   '\necho 'Last login: today'\n"
                                                      "cat '@SAMPLE@'\necho NaN\n");
  g_autofree char *lines = write_script (dir, "lines.sh", "for i in $(seq 65); do echo motd; done\n"
                                                          "cat '@SAMPLE@'\n");
  g_autofree char *bytes = write_script (dir, "bytes.sh", "head -c 20000 /dev/zero | tr '\\0' x\n"
                                                          "echo\ncat '@SAMPLE@'\n");
  const char *refused[] = { lines, bytes };

  {
    g_auto (Run) r = { 0 };

    run_script (&r, one, 10);
    run_wait (&r, 10);
    g_assert_no_error ((GError *) ws_runner_client_get_error (r.client));
    g_assert_cmpstr (ws_runner_client_get_warning (r.client), ==,
                     "The launcher printed 1 line before the runner started: “Welcome to "
                     "gpu-box” — ignored.");
    g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (r.session)), ==,
                      sample_runs ());
    g_assert_cmpuint (ws_runner_client_get_n_bad_lines (r.client), ==, 0);
    g_assert_true (ws_session_is_done (r.session, NULL, NULL));
  }
  {
    g_auto (Run) r = { 0 };
    WsProblem *nan;

    run_script (&r, two, 10);
    run_wait (&r, 10);
    g_assert_no_error ((GError *) ws_runner_client_get_error (r.client));
    g_assert_cmpstr (ws_runner_client_get_warning (r.client), ==,
                     "The launcher printed 2 lines before the runner started, the first: "
                     "“\\x1b]0;owned\\x07 motd” — ignored.");
    g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (r.session)), ==,
                      sample_runs ());
    /* After 3 lines of the launcher's (one blank) and the recording. */
    g_assert_cmpuint (ws_runner_client_get_n_bad_lines (r.client), ==, 1);
    nan = g_ptr_array_index (ws_session_get_problems (r.session), 0);
    g_assert_cmpuint (nan->line, ==, 3 + sample_lines () + 1);
  }
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_auto (Run) r = { 0 };
      const GError *error;

      run_script (&r, refused[i], 10);
      run_wait (&r, 10);
      error = ws_runner_client_get_error (r.client);
      g_assert_error ((GError *) error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_assert_nonnull (strstr (error->message, "The launcher printed more than 64 lines or 16 "
                                                "KiB before the runner started"));
      g_assert_nonnull (strstr (error->message, "ssh -q"));
      g_assert_null (ws_session_get_hello (r.session));
      g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (r.session)), ==, 0);
      g_assert_null (ws_runner_client_get_warning (r.client));
    }
  ws_test_remove_dir (dir);
}

/* What ssh does: drops its options and the host, joins the rest with spaces and hands it to a
 * shell. */
static const char fake_ssh[]
  = "while [ $# -gt 0 ]; do\n"
    "  case \"$1\" in -o|-p|-l|-i) shift 2 ;; -*) shift ;; *) break ;; esac\n"
    "done\n"
    "shift\n"
    "exec sh -c \"$*\"\n";

static void
assert_arrived (const char *dir, const char *const *argv)
{
  g_autofree char *path = g_build_filename (dir, "args", NULL);
  g_autofree char *got = NULL;
  g_autoptr (GString) want = g_string_new (NULL);

  for (guint i = 1; argv[i] != NULL; i++)
    g_string_append_printf (want, "%s\n", argv[i]);
  g_assert_true (g_file_get_contents (path, &got, NULL, NULL));
  g_assert_cmpstr (got, ==, want->str);
  g_remove (path);
}

static void
test_remote_shell (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-client-XXXXXX", NULL);
  g_autofree char *bin = g_build_filename (dir, "bin", NULL);
  g_autofree char *spaced = g_build_filename (dir, "my runner", NULL);
  g_autofree char *ssh = NULL, *other = NULL, *runner = NULL;
  g_autofree char *touch_x = g_strdup_printf ("vector_add;touch %s/x", dir);
  g_autofree char *touch_y = g_strdup_printf ("$(touch %s/y)", dir);
  g_autofree char *touch_z = g_strdup_printf ("`touch %s/z` | touch %s/z", dir, dir);
  g_autofree char *x = g_build_filename (dir, "x", NULL);
  g_autofree char *y = g_build_filename (dir, "y", NULL);
  g_autofree char *z = g_build_filename (dir, "z", NULL);
  const char *argv[] = { NULL, "--kernel", touch_x, "--sizes", touch_y, touch_z, "it's",
                         "", "two  spaces", "\"quoted\" \\ *", "line\nbreak", NULL };

  g_assert_cmpint (g_mkdir (bin, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (spaced, 0755), ==, 0);
  ssh = write_script (bin, "ssh", fake_ssh);
  other = write_script (bin, "remote-sh", fake_ssh);
  runner = write_script (spaced, "runner.sh",
                         "printf '%s\\n' \"$@\" > '@DIR@/../args'\ncat '@SAMPLE@'\n");
  argv[0] = runner;

  {
    /* ssh by its name, with options before the host; and behind another program. */
    const char *launchers[][6] = {
      { ssh, "-o", "BatchMode=yes", "-p", "22", "gpu-box" },
      { "env", "WS_X=1", ssh, "gpu-box", NULL },
    };

    for (guint i = 0; i < G_N_ELEMENTS (launchers); i++)
      {
        g_autofree const char **launcher = g_new0 (const char *, 7);
        g_auto (Run) r = { 0 };

        memcpy (launcher, launchers[i], sizeof launchers[i]);
        run_start (&r, launcher, argv, 10, WS_LAUNCHER_AUTO);
        run_wait (&r, 10);
        g_assert_no_error ((GError *) ws_runner_client_get_error (r.client));
        assert_arrived (dir, argv);
      }
  }
  {
    /* Another remote shell, named in the API. */
    const char *launcher[] = { other, "gpu-box", NULL };
    g_auto (Run) r = { 0 };

    run_start (&r, launcher, argv, 10, WS_LAUNCHER_REMOTE_SHELL);
    run_wait (&r, 10);
    g_assert_no_error ((GError *) ws_runner_client_get_error (r.client));
    assert_arrived (dir, argv);
  }
  {
    /* A launcher that executes its argv (env) gets the words unquoted. */
    const char *launcher[] = { "env", "WS_X=1", NULL };
    g_auto (Run) r = { 0 };

    run_start (&r, launcher, argv, 10, WS_LAUNCHER_AUTO);
    run_wait (&r, 10);
    g_assert_no_error ((GError *) ws_runner_client_get_error (r.client));
    assert_arrived (dir, argv);
  }
  /* Nothing in the arguments ran on the far side. */
  g_assert_false (g_file_test (x, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (y, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (z, G_FILE_TEST_EXISTS));
  ws_test_remove_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/runner-client/whole-recording", test_whole_recording);
  g_test_add_func ("/runner-client/timeout", test_timeout);
  g_test_add_func ("/runner-client/cancel", test_cancel);
  g_test_add_func ("/runner-client/term-then-kill", test_term_then_kill);
  g_test_add_func ("/runner-client/launcher-holds-stdout", test_launcher_holds_stdout);
  g_test_add_func ("/runner-client/escaped-child", test_escaped_child);
  g_test_add_func ("/runner-client/stderr-bounded", test_stderr_bounded);
  g_test_add_func ("/runner-client/early-exit", test_early_exit);
  g_test_add_func ("/runner-client/long-lines", test_long_lines);
  g_test_add_func ("/runner-client/bad-lines", test_bad_lines);
  g_test_add_func ("/runner-client/banner", test_banner);
  g_test_add_func ("/runner-client/remote-shell", test_remote_shell);
  return g_test_run ();
}

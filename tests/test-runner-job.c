/* test-runner-job.c: the contract every WsRunnerJob keeps (one runner on a target, a sweep
 * split over two GPUs, a program here started as given), against a stand-in runner: Stop
 * before the start does nothing and the job still starts; Stop while it runs ends every
 * runner with the runs so far kept and no failure; "finished" comes exactly once, "running"
 * turns on and off once; a runner that fails is the job's error, and a start that fails is
 * the start's.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "test-standin.h"
#include "ws-program-job.h"
#include "ws-runner-job.h"
#include "ws-sweep-split.h"
#include "ws-target-job.h"

#define N_GPUS 2

typedef struct
{
  const char *name;
  guint n_runners;
  WsRunnerJob *(*make) (WsTarget *target, WsSession *session);
} Kind;

static WsRunnerJob *
make_target_job (WsTarget *target, WsSession *session)
{
  return WS_RUNNER_JOB (ws_target_job_new (target, session));
}

static WsRunnerJob *
make_split (WsTarget *target, WsSession *session)
{
  const int devices[N_GPUS] = { 0, 1 };
  WsSweepSplit *split = ws_sweep_split_new (target, session);

  ws_sweep_split_set_devices (split, devices, N_GPUS);
  return WS_RUNNER_JOB (split);
}

/* The stand-in runner is the program, as a replay's warpscope-cli is. */
static WsRunnerJob *
make_program_job (WsTarget *target, WsSession *session)
{
  return WS_RUNNER_JOB (ws_program_job_new (target, session));
}

static const Kind kinds[] = {
  { "target-job", 1, make_target_job },
  { "sweep-split", N_GPUS, make_split },
  { "program-job", 1, make_program_job },
};

/* What a job did, counted from its signals. */
typedef struct
{
  const Kind *kind;
  char *dir;
  WsTarget *target;
  WsSession *session;
  WsRunnerJob *job;
  GMainLoop *loop;
  guint finished, running_on, running_off;
} Fixture;

static void
finished_cb (WsRunnerJob *job, gpointer data)
{
  Fixture *f = data;

  f->finished++;
  g_assert_false (ws_runner_job_is_running (job));
  g_main_loop_quit (f->loop);
}

static void
running_cb (WsRunnerJob *job, GParamSpec *pspec, gpointer data)
{
  Fixture *f = data;

  if (ws_runner_job_is_running (job))
    f->running_on++;
  else
    f->running_off++;
}

/* A stand-in runner for each of N_GPUS shares of the bundled recording; `speed` 0 replays it
 * at once, 1 at its own pace (12 s); `extra` runs before the replay. */
static void
fixture_set_up (Fixture *f, gconstpointer data, double speed, const char *extra)
{
  g_autofree char *runner = NULL;

  f->kind = data;
  f->dir = g_dir_make_tmp ("ws-runner-job-XXXXXX", NULL);
  standin_write_shares (f->dir, N_GPUS, FALSE);
  runner = standin_write_runner (f->dir, N_GPUS, speed, extra);
  f->target = ws_target_new_local ();
  ws_target_set_runner (f->target, runner);
  f->session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  f->job = f->kind->make (f->target, f->session);
  f->loop = g_main_loop_new (NULL, FALSE);
  g_signal_connect (f->job, "finished", G_CALLBACK (finished_cb), f);
  g_signal_connect (f->job, "notify::running", G_CALLBACK (running_cb), f);
}

static void
fixture_tear_down (Fixture *f)
{
  g_autoptr (GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  g_signal_handlers_disconnect_by_data (f->job, f);
  g_clear_object (&f->job);
  g_clear_object (&f->session);
  g_clear_object (&f->target);
  g_clear_pointer (&f->loop, g_main_loop_unref);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);

      g_remove (path);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
}

static gboolean
guard_cb (gpointer data)
{
  g_error ("the job did not finish in time");
  return G_SOURCE_REMOVE;
}

static gboolean
quit_cb (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

/* Runs the loop for `ms`, so that a second "finished" would have come. */
static void
spin (Fixture *f, guint ms)
{
  g_timeout_add (ms, quit_cb, f->loop);
  g_main_loop_run (f->loop);
}

static void
wait_finished (Fixture *f)
{
  guint guard = g_timeout_add_seconds (60, guard_cb, NULL);

  while (f->finished == 0)
    g_main_loop_run (f->loop);
  g_source_remove (guard);
}

static void
start (Fixture *f)
{
  g_autoptr (GError) error = NULL;
  const char *const args[] = { "--kernel", "vector_add", NULL };

  g_assert_true (ws_runner_job_start (f->job, args, &error));
  g_assert_no_error (error);
  g_assert_true (ws_runner_job_is_running (f->job));
  g_assert_cmpuint (f->running_on, ==, 1);
}

/* After the end: once, and nothing more however it is poked. */
static void
assert_finished_once (Fixture *f)
{
  g_assert_cmpuint (f->finished, ==, 1);
  ws_runner_job_cancel (f->job);
  ws_runner_job_kill (f->job);
  spin (f, 300);
  g_assert_cmpuint (f->finished, ==, 1);
  g_assert_cmpuint (f->running_on, ==, 1);
  g_assert_cmpuint (f->running_off, ==, 1);
  g_assert_false (ws_runner_job_is_running (f->job));
  g_assert_cmpuint (ws_runner_job_get_n_clients (f->job), ==, f->kind->n_runners);
}

/* Stop and kill before the start: nothing happens, and the start then works to the end. */
static void
test_cancel_before_start (gconstpointer data)
{
  Fixture f = { 0 };

  fixture_set_up (&f, data, 0, NULL);
  ws_runner_job_cancel (f.job);
  ws_runner_job_kill (f.job);
  spin (&f, 100);
  g_assert_cmpuint (f.finished, ==, 0);
  g_assert_cmpuint (f.running_on + f.running_off, ==, 0);
  g_assert_false (ws_runner_job_is_running (f.job));
  start (&f);
  wait_finished (&f);
  assert_finished_once (&f);
  g_assert_no_error ((GError *) ws_runner_job_get_error (f.job));
  g_assert_cmpint (ws_runner_job_get_exit_status (f.job), ==, 0);
  g_assert_true (ws_session_is_done (f.session, NULL, NULL));
  fixture_tear_down (&f);
}

static gboolean
all_started (Fixture *f)
{
  for (guint k = 0; k < f->kind->n_runners; k++)
    if (!standin_pid_alive (standin_pid (f->dir, k)))
      return FALSE;
  return TRUE;
}

/* Stop while the runners replay at their own pace: each is stopped, none is left, the runs so
 * far are kept, and a stop is no failure. */
static void
test_cancel_while_running (gconstpointer data)
{
  Fixture f = { 0 };
  gint64 begun;
  const GError *error;

  fixture_set_up (&f, data, 1, NULL);
  start (&f);
  while (!all_started (&f))
    spin (&f, 20);
  begun = g_get_monotonic_time ();
  ws_runner_job_cancel (f.job);
  /* A second Stop while it stops changes nothing. */
  ws_runner_job_cancel (f.job);
  wait_finished (&f);
  /* The recording takes 12 s at its own pace; SIGTERM is answered at once. */
  g_assert_cmpfloat ((g_get_monotonic_time () - begun) / 1e6, <, 6);
  assert_finished_once (&f);
  error = ws_runner_job_get_error (f.job);
  if (error != NULL)
    g_assert_error ((GError *) error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_false (ws_session_is_done (f.session, NULL, NULL));
  for (guint k = 0; k < f.kind->n_runners; k++)
    g_assert_false (standin_pid_alive (standin_pid (f.dir, k)));
  fixture_tear_down (&f);
}

/* A runner that exits before its work is done: the job's error says what it said. */
static void
test_error_propagated (gconstpointer data)
{
  Fixture f = { 0 };
  const GError *error;

  fixture_set_up (&f, data, 0, "echo 'GPU fell off the bus' >&2; exit 4");
  start (&f);
  wait_finished (&f);
  assert_finished_once (&f);
  error = ws_runner_job_get_error (f.job);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "fell off the bus"));
  g_assert_cmpint (ws_runner_job_get_exit_status (f.job), ==, 4);
  fixture_tear_down (&f);
}

/* A runner that cannot be started: the start fails with why, and nothing is to finish. */
static void
test_start_fails (gconstpointer data)
{
  Fixture f = { 0 };
  g_autoptr (GError) error = NULL;
  g_autofree char *missing = NULL;

  fixture_set_up (&f, data, 0, NULL);
  missing = g_build_filename (f.dir, "no-such-runner", NULL);
  ws_target_set_runner (f.target, missing);
  g_assert_false (ws_runner_job_start (f.job, (const char *const[]) { "--list", NULL }, &error));
  g_assert_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_NO_RUNNER);
  g_assert_nonnull (strstr (error->message, "no-such-runner"));
  g_assert_false (ws_runner_job_is_running (f.job));
  ws_runner_job_cancel (f.job);
  spin (&f, 200);
  g_assert_cmpuint (f.finished, ==, 0);
  g_assert_cmpuint (f.running_on + f.running_off, ==, 0);
  fixture_tear_down (&f);
}

int
main (int argc, char **argv)
{
  static const struct
  {
    const char *name;
    GTestDataFunc func;
  } tests[] = {
    { "cancel-before-start", test_cancel_before_start },
    { "cancel-while-running", test_cancel_while_running },
    { "error-propagated", test_error_propagated },
    { "start-fails", test_start_fails },
  };

  g_test_init (&argc, &argv, NULL);
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    for (guint t = 0; t < G_N_ELEMENTS (tests); t++)
      {
        g_autofree char *path = g_strdup_printf ("/runner-job/%s/%s", kinds[k].name,
                                                 tests[t].name);

        g_test_add_data_func (path, &kinds[k], tests[t].func);
      }
  return g_test_run ();
}

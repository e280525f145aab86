/* test-target-job.c: what comes back from a target: the far side's runner checked against its
 * hello, launchers' failures in plain words, and jobs run with stand-ins for srun and squeue
 * (one that waits for resources given up with squeue's reason, one that gets them in time, an
 * old runner stopped at its hello, srun not installed).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "test-standin.h"
#include "test-util.h"
#include "ws-hello-private.h"
#include "ws-record.h"
#include "ws-target-job.h"
#include "ws-target.h"

/* ---- what comes back --------------------------------------------------------------------- */

/* The model's reading of a hello record, as a session gets it. */
static WsHello *
hello_of (const char *text)
{
  g_autoptr (WsRecord) record = ws_record_parse (text, strlen (text), NULL, NULL);

  g_assert_nonnull (record);
  return _ws_hello_new_from_record (record);
}

static void
test_check_hello (void)
{
  g_autoptr (WsTarget) target = ws_target_new ("gpu-box", WS_TARGET_SSH);
  const struct
  {
    const char *hello;
    const char *message; /* NULL: accepted */
  } cases[] = {
    { "{\"protocol\":1,\"runner\":\"" WS_RUNNER_MIN_VERSION "\"}", NULL },
    { "{\"protocol\":1,\"runner\":\"9.1.0\"}", NULL },
    { "{\"protocol\":1,\"runner\":\"test\"}", NULL },
    { "{\"protocol\":1,\"runner\":\"0.0.9\"}",
      "warpscope-runner 0.0.9 on gpu-box speaks protocol 1; this Warpscope needs "
      "warpscope-runner " WS_RUNNER_MIN_VERSION " or newer" },
    { "{\"protocol\":99,\"runner\":\"7.0.0\"}",
      "warpscope-runner 7.0.0 on gpu-box speaks protocol 99; this Warpscope reads protocol" },
  };

  ws_target_set_host (target, "gpu-box");
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (WsHello) hello = hello_of (cases[i].hello);
      g_autoptr (GError) error = NULL;
      gboolean ok = ws_target_check_hello (target, hello, &error);

      if (cases[i].message == NULL)
        {
          g_assert_true (ok);
          continue;
        }
      g_assert_false (ok);
      g_assert_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_RUNNER_VERSION);
      g_assert_true (g_str_has_prefix (error->message, cases[i].message));
    }
}

static void
test_explain_failure (void)
{
  g_autoptr (WsTarget) ssh = ws_target_new ("box", WS_TARGET_SSH);
  g_autoptr (WsTarget) srun = ws_target_new ("cl", WS_TARGET_SLURM_SRUN);
  const struct
  {
    WsTarget *target;
    int status;
    const char *said;
    int code; /* -1: not recognised */
    const char *message;
  } cases[] = {
    { ssh, 255, "ssh: Could not resolve hostname gpu-box: Name or service not known\n",
      WS_TARGET_ERROR_UNREACHABLE, "gpu-box cannot be found" },
    { ssh, 255, "ssh: connect to host gpu-box port 22: Connection refused\n",
      WS_TARGET_ERROR_UNREACHABLE, "port 22: Connection refused" },
    { ssh, 255, "ssh: connect to host 10.0.0.9 port 22: Connection timed out\n",
      WS_TARGET_ERROR_UNREACHABLE, "cannot be reached" },
    { ssh, 255, "Warning: x\nme@gpu-box: Permission denied (publickey).\n",
      WS_TARGET_ERROR_REFUSED, "Permission denied (publickey)" },
    { ssh, 255, "Host key verification failed.\n", WS_TARGET_ERROR_REFUSED, "host key" },
    { ssh, 255, "kex_exchange_identification: read: Connection reset by peer\n",
      WS_TARGET_ERROR_UNREACHABLE, "Connection reset by peer" },
    { ssh, 127, "warpscope: 1: warpscope-runner: not found\n", WS_TARGET_ERROR_NO_RUNNER,
      "there is no warpscope-runner" },
    { ssh, 126, "sh: 1: /opt/r: Permission denied\n", WS_TARGET_ERROR_NO_RUNNER,
      "cannot be started" },
    { ssh, 4, "warpscope-runner: kernel fault\n", -1, NULL },
    { srun, 1, "srun: error: invalid partition specified: nosuch\n"
               "srun: error: Unable to allocate resources: Invalid partition name specified\n",
      WS_TARGET_ERROR_REFUSED, "Slurm has no partition “nosuch”" },
    { srun, 1, "srun: error: Unable to allocate resources: Requested node configuration is "
               "not available\n",
      WS_TARGET_ERROR_REFUSED, "no node of the cluster" },
    { srun, 1, "srun: error: Unable to allocate resources: Job violates accounting/QOS policy\n",
      WS_TARGET_ERROR_REFUSED, "Job violates accounting/QOS policy" },
    { srun, 2, "slurmstepd: error: execve(): /opt/r: No such file or directory\n",
      WS_TARGET_ERROR_NO_RUNNER, "could not start the runner" },
    { srun, 127, "sh: 1: srun: not found\n", WS_TARGET_ERROR_NO_RUNNER,
      "Slurm's commands are not there" },
  };

  ws_target_set_host (ssh, "gpu-box");
  ws_target_set_slurm_options (srun, (const char *const[]) { "-p", "nosuch", NULL });
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = ws_target_explain_failure (cases[i].target, cases[i].status,
                                                            cases[i].said);

      if (cases[i].code < 0)
        {
          g_assert_null (error);
          continue;
        }
      g_assert_error (error, WS_TARGET_ERROR, cases[i].code);
      if (strstr (error->message, cases[i].message) == NULL)
        g_error ("case %u: “%s” does not say “%s”", i, error->message, cases[i].message);
    }
}

static void
test_pending_words (void)
{
  g_autoptr (WsTarget) target = ws_target_new ("cl", WS_TARGET_SLURM_SRUN);
  g_autoptr (GError) a = ws_target_pending_error (target, "12", 60, "Resources\n");
  g_autoptr (GError) b = ws_target_pending_error (target, "12", 1, "Licenses");
  g_autoptr (GError) c = ws_target_pending_error (target, "12", 5, NULL);
  g_autofree char *id = ws_target_parse_pending ("srun: job 123 queued and waiting for "
                                                 "resources");

  g_assert_cmpstr (id, ==, "123");
  g_assert_null (ws_target_parse_pending ("srun: job queued and waiting for resources"));
  g_assert_null (ws_target_parse_pending ("srun: job 12 has been allocated resources"));
  g_assert_true (ws_target_parse_allocated ("srun: job 12 has been allocated resources"));
  g_assert_false (ws_target_parse_allocated ("srun: job 12 queued and waiting for resources"));
  g_assert_nonnull (strstr (a->message, "after 60 seconds"));
  g_assert_nonnull (strstr (a->message, "Resources: the GPUs"));
  g_assert_nonnull (strstr (b->message, "after 1 second "));
  g_assert_nonnull (strstr (b->message, "reason Licenses."));
  g_assert_nonnull (strstr (c->message, "Slurm job 12 was still waiting"));
}

/* ---- jobs, with stand-ins for srun and squeue --------------------------------------------- */

typedef struct
{
  GMainLoop *loop;
  guint status_changes;
  gboolean finished;
} Wait;

static void
job_finished_cb (WsTargetJob *job, gpointer data)
{
  Wait *w = data;

  w->finished = TRUE;
  g_main_loop_quit (w->loop);
}

static void
status_cb (WsTargetJob *job, GParamSpec *pspec, gpointer data)
{
  ((Wait *) data)->status_changes++;
}

static gboolean
guard_cb (gpointer data)
{
  g_error ("the job did not finish in time");
  return G_SOURCE_REMOVE;
}

static WsTargetJob *
job_run (WsTarget *target, WsSession *session, const char *bin, guint *status_changes)
{
  g_autoptr (GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_strdup_printf ("%s:%s", bin, g_getenv ("PATH"));
  g_autofree char *old = g_strdup (g_getenv ("PATH"));
  WsTargetJob *job = ws_target_job_new (target, session);
  Wait w = { loop, 0, FALSE };
  guint guard;

  g_setenv ("PATH", path, TRUE);
  g_signal_connect (job, "finished", G_CALLBACK (job_finished_cb), &w);
  g_signal_connect (job, "notify::status", G_CALLBACK (status_cb), &w);
  g_assert_true (ws_target_job_start (job, (const char *const[]) { "--list", NULL }, &error));
  g_assert_no_error (error);
  guard = g_timeout_add_seconds (30, guard_cb, NULL);
  g_main_loop_run (loop);
  g_source_remove (guard);
  /* Kept while it ran: squeue is looked for when it is asked. */
  g_setenv ("PATH", old, TRUE);
  g_assert_true (w.finished);
  g_signal_handlers_disconnect_by_data (job, &w);
  if (status_changes != NULL)
    *status_changes = w.status_changes;
  return job;
}

/* A job that stays pending is given up after the target's timeout, with squeue's reason, and
 * srun is stopped (it cancels the job). */
static void
test_job_pending (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-target-XXXXXX", NULL);
  g_autoptr (WsTarget) target = ws_target_new ("cl", WS_TARGET_SLURM_SRUN);
  g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autoptr (WsTargetJob) job = NULL;
  g_autofree char *squeue_args = NULL;
  gint64 start = g_get_monotonic_time ();
  guint changes = 0;

  g_free (ws_test_write_script (dir, "srun",
                                "echo $$ > '@DIR@/srun-pid'\n"
                                "echo 'srun: job 42 queued and waiting for resources' >&2\n"
                                "exec sleep 100\n",
                                NULL));
  g_free (ws_test_write_script (dir, "squeue",
                                "echo \"$@\" > '@DIR@/squeue-args'\necho Priority\n", NULL));
  ws_target_set_runner (target, "/r");
  ws_target_set_pending_timeout (target, 1);
  job = job_run (target, session, dir, &changes);
  g_assert_error (ws_target_job_get_error (job), WS_TARGET_ERROR, WS_TARGET_ERROR_PENDING);
  g_assert_nonnull (strstr (ws_target_job_get_error (job)->message, "Slurm job 42"));
  g_assert_nonnull (strstr (ws_target_job_get_error (job)->message, "reason Priority"));
  g_assert_cmpstr (ws_target_job_get_slurm_job (job), ==, "42");
  g_assert_cmpfloat ((g_get_monotonic_time () - start) / 1e6, <, 10);
  /* Waiting, then not. */
  g_assert_cmpuint (changes, ==, 2);
  g_assert_null (ws_target_job_get_status (job));
  {
    g_autofree char *args_path = g_build_filename (dir, "squeue-args", NULL);

    g_assert_true (g_file_get_contents (args_path, &squeue_args, NULL, NULL));
  }
  g_assert_cmpstr (squeue_args, ==, "-h -j 42 -o %r\n");
  {
    g_autofree char *pid_path = g_build_filename (dir, "srun-pid", NULL);
    g_autofree char *pid = NULL;

    g_assert_true (g_file_get_contents (pid_path, &pid, NULL, NULL));
    g_assert_false (standin_pid_alive (atoi (pid)));
  }
  ws_test_remove_dir (dir);
}

/* A job that gets its resources runs to the end, with the inactivity timeout held while it
 * waited: a pending longer than the timeout is not a runner that stopped answering. */
static void
test_job_allocated (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-target-XXXXXX", NULL);
  g_autofree char *sample = standin_sample_path ();
  g_autofree char *body = g_strdup_printf ("echo 'srun: job 5 queued and waiting for resources' "
                                           ">&2\nsleep 2\n"
                                           "echo 'srun: job 5 has been allocated resources' "
                                           ">&2\ncat '%s'\n",
                                           sample);
  g_autoptr (WsTarget) target = ws_target_new ("cl", WS_TARGET_SLURM_SRUN);
  g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autoptr (WsTargetJob) job = NULL;
  guint changes = 0;

  g_free (ws_test_write_script (dir, "srun", body, NULL));
  ws_target_set_runner (target, "/r");
  ws_target_set_pending_timeout (target, 30);
  {
    g_autoptr (GMainLoop) loop = g_main_loop_new (NULL, FALSE);
    g_autofree char *path = g_strdup_printf ("%s:%s", dir, g_getenv ("PATH"));
    g_autofree char *old = g_strdup (g_getenv ("PATH"));
    Wait w = { loop, 0, FALSE };
    guint guard;

    job = ws_target_job_new (target, session);
    ws_target_job_set_timeout (job, 1);
    g_signal_connect (job, "finished", G_CALLBACK (job_finished_cb), &w);
    g_signal_connect (job, "notify::status", G_CALLBACK (status_cb), &w);
    g_setenv ("PATH", path, TRUE);
    g_assert_true (ws_target_job_start (job, (const char *const[]) { "--list", NULL }, NULL));
    g_setenv ("PATH", old, TRUE);
    guard = g_timeout_add_seconds (30, guard_cb, NULL);
    g_main_loop_run (loop);
    g_source_remove (guard);
    changes = w.status_changes;
  }
  g_assert_no_error ((GError *) ws_target_job_get_error (job));
  g_assert_true (ws_session_is_done (session, NULL, NULL));
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (session)), ==, 32);
  g_assert_cmpuint (changes, ==, 2);
  ws_test_remove_dir (dir);
}

/* A runner older than this Warpscope needs is stopped at its hello, with the reason. */
static void
test_job_old_runner (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-target-XXXXXX", NULL);
  g_autofree char *runner = ws_test_write_script (dir, "runner.sh",
                                                  "echo $$ > '@DIR@/pid'\n"
                                                  "echo '{\"type\":\"hello\",\"t\":0,"
                                                  "\"protocol\":1,\"runner\":\"0.0.1\"}'\n"
                                                  "exec sleep 100\n",
                                                  NULL);
  g_autoptr (WsTarget) target = ws_target_new_local ();
  g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autoptr (WsTargetJob) job = NULL;
  g_autofree char *pid_path = g_build_filename (dir, "pid", NULL);
  g_autofree char *pid = NULL;

  ws_target_set_runner (target, runner);
  job = job_run (target, session, dir, NULL);
  g_assert_error (ws_target_job_get_error (job), WS_TARGET_ERROR,
                  WS_TARGET_ERROR_RUNNER_VERSION);
  g_assert_nonnull (strstr (ws_target_job_get_error (job)->message,
                            "warpscope-runner 0.0.1 on this computer"));
  g_assert_true (g_file_get_contents (pid_path, &pid, NULL, NULL));
  g_assert_false (standin_pid_alive (atoi (pid)));
  ws_test_remove_dir (dir);
}

/* srun that is not installed: said so, nothing started. */
static void
test_job_no_srun (void)
{
  g_autoptr (WsTarget) target = ws_target_new ("cl", WS_TARGET_SLURM_SRUN);
  g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autoptr (WsTargetJob) job = ws_target_job_new (target, session);
  g_autoptr (GError) error = NULL;
  g_autofree char *old = g_strdup (g_getenv ("PATH"));

  g_setenv ("PATH", "/nonexistent", TRUE);
  g_assert_false (ws_target_job_start (job, (const char *const[]) { "--list", NULL }, &error));
  g_setenv ("PATH", old, TRUE);
  g_assert_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_NO_RUNNER);
  g_assert_nonnull (strstr (error->message, "Slurm's commands are not installed"));
  g_assert_false (ws_target_job_is_running (job));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/target/check-hello", test_check_hello);
  g_test_add_func ("/target/explain-failure", test_explain_failure);
  g_test_add_func ("/target/pending-words", test_pending_words);
  g_test_add_func ("/target/job/pending", test_job_pending);
  g_test_add_func ("/target/job/allocated", test_job_allocated);
  g_test_add_func ("/target/job/old-runner", test_job_old_runner);
  g_test_add_func ("/target/job/no-srun", test_job_no_srun);
  return g_test_run ();
}

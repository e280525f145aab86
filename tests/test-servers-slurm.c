/* test-servers-slurm.c: warpscope-cli against a real one-node Slurm cluster (munged,
 * slurmctld and slurmd started and stopped by tests/servers/with-servers.sh) where srun runs
 * `warpscope-cli replay` standing in for the runner as a job step: arguments arriving intact,
 * an unknown partition and a job that stays pending put plainly (with squeue's reason), a
 * batch job through sbatch --wait, Stop cancelling the job, a sweep over two jobs each with
 * its own GPU, and a job array's result files merged into one session.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "test-servers.h"
#include "test-standin.h"

static void
add_target (const char *const *args)
{
  g_auto (Result) r = { 0 };

  cli (&r, args);
  g_assert_cmpint (r.status, ==, 0);
}

/* The jobs the cluster still has (squeue's ids), "" when none. A job whose srun has returned
 * may stay listed a moment while slurmd ends its step (state COMPLETING): asked again for up
 * to 10 s before a job counts as left behind. */
static char *
jobs_left (void)
{
  gint64 until = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  for (;;)
    {
      g_autofree char *out = NULL;

      g_assert_true (g_spawn_command_line_sync ("squeue -h -o %i", &out, NULL, NULL, NULL));
      g_strstrip (out);
      if (*out == '\0' || g_get_monotonic_time () > until)
        return g_steal_pointer (&out);
      g_usleep (200 * 1000);
    }
}

/* The job's runner: its arguments to job-args, its pid to job-pid, then a replay. */
static char *
job_runner (const char *name, const char *sample, double speed)
{
  return replay_runner (name, "job", sample, speed);
}

/* srun hands its argv to the job step: the words arrive as they were given. */
static void
test_srun_run (void)
{
  g_autofree char *runner = job_runner ("job.sh", "vector-add-sizes-h200.jsonl", 0);
  g_autofree char *kernel = g_strdup_printf ("vector_add;touch %s/x", dir);
  g_autofree char *sizes = g_strdup_printf ("$(touch %s/y) it's \"a\"", dir);
  g_autofree char *want = g_strdup_printf ("--kernel\n%s\n--sizes\n%s\n", kernel, sizes);
  g_autofree char *args_path = g_build_filename (dir, "job-args", NULL);
  g_autofree char *got = NULL;
  g_autofree char *saved = g_build_filename (dir, "srun.jsonl", NULL);
  g_autofree char *x = g_build_filename (dir, "x", NULL);
  g_autofree char *left = NULL;
  g_auto (Result) devices = { 0 };
  g_auto (Result) r = { 0 };

  add_target ((const char *const[]) { "targets", "add", "cluster", "--srun", "-p debug",
                                      "--runner", runner, NULL });
  cli (&devices, (const char *const[]) { "devices", "--target", "cluster", NULL });
  g_assert_cmpint (devices.status, ==, 0);
  g_assert_nonnull (strstr (devices.out, "NVIDIA H200"));
  cli (&r, (const char *const[]) { "run", "--target", "cluster", "--kernel", kernel, "--sizes",
                                   sizes, "-q", "-o", "srun.jsonl", NULL });
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_file_get_contents (args_path, &got, NULL, NULL));
  g_assert_cmpstr (got, ==, want);
  g_assert_false (g_file_test (x, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_runs (saved), ==, 12);
  left = jobs_left ();
  g_assert_cmpstr (left, ==, "");
  g_test_message ("devices through srun: %.3f s", devices.seconds);
}

static void
test_unknown_partition (void)
{
  g_auto (Result) r = { 0 };

  add_target ((const char *const[]) { "targets", "add", "nopart", "--srun", "-p nosuch",
                                      "--runner", "/bin/true", NULL });
  cli (&r, (const char *const[]) { "kernels", "--target", "nopart", NULL });
  g_assert_cmpint (r.status, ==, 6);
  g_assert_nonnull (strstr (r.err, "Slurm has no partition “nosuch”"));
  g_assert_nonnull (strstr (r.err, "invalid partition specified"));
}

/* A job that waits past the target's pending timeout is cancelled, with squeue's reason. */
static void
test_pending (void)
{
  g_autofree char *left = NULL;
  g_auto (Result) r = { 0 };

  add_target ((const char *const[]) { "targets", "add", "later", "--srun",
                                      "--begin=now+3600", "--pending-timeout", "2", "--runner",
                                      "/bin/true", NULL });
  cli (&r, (const char *const[]) { "kernels", "--target", "later", NULL });
  g_assert_cmpint (r.status, ==, 6);
  g_assert_nonnull (strstr (r.err, "is waiting for resources…"));
  g_assert_nonnull (strstr (r.err, "was still waiting after 2 seconds and was cancelled"));
  g_assert_nonnull (strstr (r.err, "reason BeginTime"));
  g_assert_cmpfloat (r.seconds, <, 15);
  for (int i = 0; i < 50; i++)
    {
      g_free (left);
      left = jobs_left ();
      if (*left == '\0')
        break;
      g_usleep (100000);
    }
  g_assert_cmpstr (left, ==, "");
}

/* sbatch --wait: the job's output followed into the session; its files removed. */
static void
test_sbatch (void)
{
  g_autofree char *runner = job_runner ("job.sh", "vector-add-sizes-h200.jsonl", 0);
  g_autofree char *jobs = g_build_filename (dir, "jobs", NULL);
  g_autofree char *saved = g_build_filename (dir, "sbatch.jsonl", NULL);
  g_autoptr (GPtrArray) files = NULL;
  g_auto (Result) r = { 0 };

  add_target ((const char *const[]) { "targets", "add", "batch", "--sbatch", "-p debug",
                                      "--job-dir", jobs, "--runner", runner, NULL });
  cli (&r, (const char *const[]) { "run", "--target", "batch", "--kernel", "vector_add", "-o",
                                   "sbatch.jsonl", NULL });
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "run 12:"));
  g_assert_cmpuint (count_runs (saved), ==, 12);
  files = ws_test_list_dir (jobs, "");
  g_assert_cmpuint (files->len, ==, 0);
  g_test_message ("a run through sbatch --wait: %.3f s", r.seconds);
}

/* Ctrl+C cancels the job step; nothing of it is left on the cluster. */
static void
test_stop (void)
{
  g_autofree char *slow = job_runner ("slow.sh", "vector-add-blocks-h200.jsonl", 1);
  g_autofree char *left = NULL;
  const char *env[] = { targets_env, NULL };
  g_auto (Background) b = { 0 };
  int pid;

  add_target ((const char *const[]) { "targets", "add", "slow", "--srun", "", "--runner", slow,
                                      NULL });
  background_start (&b, (const char *const[]) { "run", "--target", "slow", "--kernel",
                                                "vector_add", "-o", "slow.jsonl", NULL },
                    env, dir);
  background_wait_for (&b, "run 2:", 20);
  pid = ws_test_read_number (dir, "job-pid");
  kill (b.pid, SIGINT);
  g_assert_cmpint (background_wait (&b, 15), ==, 130);
  for (int i = 0; i < 50 && standin_pid_alive (pid); i++)
    g_usleep (100000);
  g_assert_false (standin_pid_alive (pid));
  for (int i = 0; i < 100; i++)
    {
      g_free (left);
      left = jobs_left ();
      if (*left == '\0')
        break;
      g_usleep (100000);
    }
  g_assert_cmpstr (left, ==, "");
}

static void
assert_merged (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (WsSession) session = ws_session_load (file, NULL, NULL);
  GListModel *runs;

  g_assert_nonnull (session);
  runs = ws_session_get_runs (session);
  g_assert_cmpuint (g_list_model_get_n_items (runs), ==, 32);
  for (guint i = 0; i < 32; i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);
      g_autofree char *uuid = standin_uuid (i % 2);

      g_assert_cmpint (ws_run_get_id (run), ==, (int) i + 1);
      /* Each job saw its GPU as device 0: the UUID tells them apart. */
      g_assert_cmpint (ws_run_get_config (run)->device, ==, 0);
      g_assert_cmpstr (ws_run_get_config (run)->device_uuid, ==, uuid);
      g_assert_cmpstr (ws_device_get_info (ws_session_get_run_device (session, run))->uuid, ==,
                       uuid);
    }
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_devices (session)), ==, 2);
}

/* --devices 0-1 on Slurm: two jobs, each with --device 0 and its share, merged. */
static void
test_split (void)
{
  g_autofree char *runner = standin_write_runner (dir, 2, 0, NULL);
  g_autofree char *saved = g_build_filename (dir, "split.jsonl", NULL);
  g_auto (Result) r = { 0 };

  standin_write_shares (dir, 2, TRUE);
  add_target ((const char *const[]) { "targets", "add", "two", "--srun", "-p debug",
                                      "--runner", runner, NULL });
  cli (&r, (const char *const[]) { "run", "--target", "two", "--kernel", "vector_add",
                                   "--devices", "0-1", "-q", "-o", "split.jsonl", NULL });
  g_assert_cmpint (r.status, ==, 0);
  assert_merged (saved);
  for (guint k = 0; k < 2; k++)
    {
      g_autofree char *path = g_strdup_printf ("%s/args-%u", dir, k);
      g_autofree char *args = NULL;
      g_autofree char *want = g_strdup_printf ("--kernel\nvector_add\n--device\n0\n--shard\n"
                                               "%u/2\n", k);

      g_assert_true (g_file_get_contents (path, &args, NULL, NULL));
      g_assert_cmpstr (args, ==, want);
    }
  g_test_message ("a split over 2 srun jobs: %.3f s", r.seconds);
}

/* The job array of docs/scaling.md: tools/warpscope-array.sbatch writes one result file per
 * task, and merge puts them back together. */
static void
test_job_array (void)
{
  g_autofree char *runner = standin_write_runner (dir, 2, 0, NULL);
  g_autofree char *script = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "tools",
                                              "warpscope-array.sbatch", NULL);
  g_autofree char *parts = g_build_filename (dir, "parts", NULL);
  g_autofree char *part0 = g_build_filename (parts, "part-0.jsonl", NULL);
  g_autofree char *part1 = g_build_filename (parts, "part-1.jsonl", NULL);
  g_autofree char *merged = g_build_filename (dir, "array.jsonl", NULL);
  g_auto (GStrv) env = g_get_environ ();
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (Result) r = { 0 };
  int status = 0;
  gint64 start = g_get_monotonic_time ();
  char *argv[] = { "sbatch", "--wait", "--array=0-1", "-p", "debug", "-o", "/dev/null", script,
                   parts, "--kernel", "vector_add", NULL };

  standin_write_shares (dir, 2, TRUE);
  env = g_environ_setenv (env, "WARPSCOPE_RUNNER", runner, TRUE);
  g_assert_true (g_spawn_sync (dir, argv, env, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
                               &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, &error))
    g_error ("sbatch: %s\n%s%s", error->message, out, err);
  g_test_message ("a job array of 2 tasks, sbatch --wait: %.3f s",
                  (g_get_monotonic_time () - start) / 1e6);
  cli (&r, (const char *const[]) { "merge", part1, part0, "-o", merged, NULL });
  g_assert_cmpint (r.status, ==, 0);
  assert_merged (merged);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!servers_ready ("slurm", "SLURM_CONF"))
    return 77;
  g_test_add_func ("/servers/slurm/srun-run", test_srun_run);
  g_test_add_func ("/servers/slurm/unknown-partition", test_unknown_partition);
  g_test_add_func ("/servers/slurm/pending", test_pending);
  g_test_add_func ("/servers/slurm/sbatch", test_sbatch);
  g_test_add_func ("/servers/slurm/stop", test_stop);
  g_test_add_func ("/servers/slurm/split", test_split);
  g_test_add_func ("/servers/slurm/job-array", test_job_array);
  return g_test_run ();
}

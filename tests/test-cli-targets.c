/* test-cli-targets.c: warpscope-cli's targets (saved, listed, removed, refused when they
 * cannot work; run --target through one), run --devices over a stand-in runner that answers
 * as three GPUs (one session in plan order, `all` found from --device-info, a failing GPU,
 * Ctrl+C stopping every runner), and merge putting the shares of a job array back together.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "test-cli.h"
#include "test-standin.h"

#define N_GPUS 3

static char *
targets_env (const char *dir)
{
  return g_strdup_printf ("WARPSCOPE_TARGETS=%s/targets.conf", dir);
}

/* targets add, list and remove, each kind; what cannot work is refused with exit 2. */
static void
test_targets_saved (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *env_targets = targets_env (dir);
  g_autofree char *conf = g_build_filename (dir, "targets.conf", NULL);
  const char *env[] = { env_targets, NULL };
  const struct
  {
    const char *args[14];
    int status;
    const char *says; /* on stdout for 0, else on stderr */
  } steps[] = {
    { { "targets", "add", "gpu-box", "--ssh", "me@gpu", "--port", "2222", "--ssh-options",
        "-i '/k/my key'", "--runner", "/opt/ws/warpscope-runner", "--env", "A=1", NULL },
      0, "ssh -p 2222 -i '/k/my key' me@gpu" },
    { { "targets", "add", "cl", "--srun", "-p gpu --gres=gpu:1", "--host", "login",
        "--pending-timeout", "30", NULL },
      0, "ssh login srun -p gpu --gres=gpu:1" },
    { { "targets", "add", "batch", "--sbatch", "-p long", "--job-dir", "/scratch/j", NULL },
      0, "sbatch --wait -p long" },
    { { "targets", "add", "gpu-box", "--ssh", "other", NULL }, 2, "already" },
    { { "targets", "add", "x", NULL }, 2, "--ssh HOST" },
    { { "targets", "add", "x", "--ssh", "h", "--srun", "-p gpu", NULL }, 2, "one of" },
    { { "targets", "add", "local", "--ssh", "h", NULL }, 2, "kept for this computer" },
    { { "targets", "add", "x", "--ssh", "h", "--env", "NOPE", NULL }, 2, "NAME=VALUE" },
    { { "targets", "add", "x", "--srun", "-p 'gpu", NULL }, 2, "cannot be split" },
    { { "targets", "add", "x", "--ssh", "h", "--port", "99999", NULL }, 2, "--port" },
    { { "targets", NULL }, 0, "gpu-box" },
    { { "targets", "remove", "local", NULL }, 2, "cannot be removed" },
    { { "targets", "remove", "nope", NULL }, 2, "there are: local, gpu-box, cl, batch" },
    { { "targets", "remove", "batch", NULL }, 0, "" },
    { { "targets", "frob", NULL }, 2, "list, add" },
    { { "devices", "--target", "nope", NULL }, 2, "there is no target “nope”" },
    { { "kernels", "--target", "cl", "--launcher", "ssh x", NULL }, 2, "give one of them" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      g_auto (Result) r = { 0 };

      run_cli_full (&r, steps[i].args, env, dir);
      if (r.status != steps[i].status)
        g_error ("step %u: exit %d, not %d: %s%s", i, r.status, steps[i].status, r.out, r.err);
      g_assert_nonnull (strstr (steps[i].status == 0 ? r.out : r.err, steps[i].says));
    }
  {
    g_auto (Result) r = { 0 };

    run_cli_full (&r, (const char *const[]) { "targets", "list", NULL }, env, dir);
    g_assert_nonnull (strstr (r.out, "cl "));
    g_assert_null (strstr (r.out, "batch"));
    g_assert_nonnull (strstr (r.out, conf));
  }
  /* A file that cannot be read is named, and not written over. */
  g_assert_true (g_file_set_contents (conf, "[x]\nkind=telnet\n", -1, NULL));
  {
    g_auto (Result) r = { 0 };
    g_autofree char *after = NULL;

    run_cli_full (&r, (const char *const[]) { "targets", "add", "y", "--ssh", "h", NULL }, env,
                  dir);
    g_assert_cmpint (r.status, ==, 1);
    g_assert_nonnull (strstr (r.err, conf));
    g_assert_true (g_file_get_contents (conf, &after, NULL, NULL));
    g_assert_cmpstr (after, ==, "[x]\nkind=telnet\n");
  }
  remove_dir (dir);
}

/* run --target through a saved launcher: the runner starts behind it. */
static void
test_run_target_command (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *env_targets = targets_env (dir);
  g_autofree char *sample = sample_path ("vector-add-sizes-h200.jsonl");
  g_autofree char *runner = write_stand_in (dir, sample, 0);
  g_autofree char *launcher = NULL;
  const char *env[] = { env_targets, NULL };
  g_auto (Result) add = { 0 };
  g_auto (Result) r = { 0 };

  run_cli_full (&add, (const char *const[]) { "targets", "add", "wrap", "--command",
                                              "env WS_TEST_LAUNCHER=saved", "--runner", runner,
                                              NULL },
                env, dir);
  g_assert_cmpint (add.status, ==, 0);
  run_cli_full (&r, (const char *const[]) { "run", "--target", "wrap", "--kernel", "vector_add",
                                            "-q", "-o", "s.jsonl", NULL },
                env, dir);
  g_assert_cmpint (r.status, ==, 0);
  launcher = g_build_filename (dir, "launcher", NULL);
  {
    g_autofree char *text = NULL;

    g_assert_true (g_file_get_contents (launcher, &text, NULL, NULL));
    g_assert_cmpstr (text, ==, "saved");
  }
  remove_dir (dir);
}

static char *
standin_env (const char *dir, double speed, const char *extra)
{
  g_autofree char *runner = standin_write_runner (dir, N_GPUS, speed, extra);

  standin_write_shares (dir, N_GPUS, FALSE);
  return g_strdup_printf ("WARPSCOPE_RUNNER=%s", runner);
}

static void
assert_plan_order (const char *path, guint want_runs)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (WsSession) session = ws_session_load (file, NULL, NULL);
  GListModel *runs;

  g_assert_nonnull (session);
  runs = ws_session_get_runs (session);
  g_assert_cmpuint (g_list_model_get_n_items (runs), ==, want_runs);
  for (guint i = 0; i < want_runs; i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);

      g_assert_cmpint (ws_run_get_id (run), ==, (int) i + 1);
      g_assert_cmpint (ws_run_get_config (run)->device, ==, (int) (i % N_GPUS));
    }
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_devices (session)), ==, N_GPUS);
}

/* --devices 0-2 and --devices all: one session, in plan order, every run on its GPU; the CPU
 * baselines of runners sharing a host are warned about unless there are none. */
static void
test_run_devices (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *env_runner = standin_env (dir, 0, NULL);
  g_autofree char *out = g_build_filename (dir, "s.jsonl", NULL);
  const char *env[] = { env_runner, NULL };
  const char *specs[] = { "0-2", "all" };

  for (guint i = 0; i < G_N_ELEMENTS (specs); i++)
    {
      g_auto (Result) r = { 0 };

      run_cli_full (&r, (const char *const[]) { "run", "--kernel", "vector_add", "--devices",
                                                specs[i], "-o", "s.jsonl",
                                                i == 1 ? "--cpu" : NULL, "none", NULL },
                    env, dir);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_nonnull (strstr (r.out, "run 32: vector_add n = 10,000,000, block 1024, "
                                       "pageable, GPU 1 — "));
      g_assert_nonnull (strstr (r.out, "Saved 32 runs to s.jsonl"));
      g_assert_true ((strstr (r.err, "CPU baselines") != NULL) == (i == 0));
      assert_plan_order (out, 32);
    }
  remove_dir (dir);
}

/* GPU 1 fails: exit 6, a message naming it, the session saved with the others' runs. */
static void
test_run_devices_failure (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *env_runner = standin_env (dir, 0, "[ $k = 1 ] && echo 'no such GPU' >&2 "
                                                     "&& exit 5");
  const char *env[] = { env_runner, NULL };
  g_auto (Result) r = { 0 };
  g_auto (Result) bad = { 0 };

  run_cli_full (&r, (const char *const[]) { "run", "--kernel", "vector_add", "--devices",
                                            "0,1,2", "-q", "-o", "s.jsonl", NULL },
                env, dir);
  g_assert_cmpint (r.status, ==, 6);
  g_assert_nonnull (strstr (r.err, "warpscope-cli run: GPU 1: The runner exited (status 5)"));
  g_assert_nonnull (strstr (r.err, "no such GPU"));
  g_assert_nonnull (strstr (r.err, "runner_failed"));
  g_assert_nonnull (strstr (r.out, "Saved 21 runs to s.jsonl"));

  run_cli_full (&bad, (const char *const[]) { "run", "--kernel", "vector_add", "--devices",
                                              "1", "--device", "1", NULL },
                env, dir);
  g_assert_cmpint (bad.status, ==, 2);
  remove_dir (dir);
}

/* Ctrl+C stops every runner; the runs so far are saved. */
static void
test_run_devices_interrupt (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *env_runner = standin_env (dir, 1, NULL);
  const char *env[] = { env_runner, NULL };
  g_auto (Background) b = { 0 };

  background_start (&b, (const char *const[]) { "run", "--kernel", "vector_add", "--devices",
                                                "0-2", "-o", "s.jsonl", NULL },
                    env, dir);
  background_wait_for (&b, "run 2:", 20);
  kill (b.pid, SIGINT);
  g_assert_cmpint (background_wait (&b, 10), ==, 130);
  g_assert_nonnull (strstr (b.err->str, "interrupted"));
  g_assert_nonnull (strstr (b.out->str, "Saved"));
  for (guint k = 0; k < N_GPUS; k++)
    g_assert_false (standin_pid_alive (standin_pid (dir, k)));
  remove_dir (dir);
}

/* merge: the shares back into the recording, runs in plan order; its own input refused. */
static void
test_merge (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *sample = sample_path (STANDIN_SAMPLE);
  g_autofree char *merged = g_build_filename (dir, "merged.jsonl", NULL);
  g_autofree char *not_session = write_temp (dir, "x.jsonl", "hello\n", -1);
  g_auto (Result) r = { 0 };
  g_auto (Result) a = { 0 };
  g_auto (Result) b = { 0 };
  g_auto (Result) same = { 0 };
  g_auto (Result) bad = { 0 };

  standin_write_shares (dir, N_GPUS, FALSE);
  /* In any order. */
  run_cli_full (&r, (const char *const[]) { "merge", "share-2-of-3.jsonl", "share-0-of-3.jsonl",
                                            "share-1-of-3.jsonl", "-o", "merged.jsonl", NULL },
                NULL, dir);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Merged 32 runs from 3 files into merged.jsonl"));
  assert_plan_order (merged, 32);
  /* The same report as the recording's, run for run. */
  run_cli_full (&a, (const char *const[]) { "report", "--format", "csv", merged, NULL }, NULL,
                NULL);
  run_cli_full (&b, (const char *const[]) { "report", "--format", "csv", sample, NULL }, NULL,
                NULL);
  g_assert_cmpstr (a.out, ==, b.out);

  run_cli_full (&same, (const char *const[]) { "merge", "share-0-of-3.jsonl", "-o",
                                               "share-0-of-3.jsonl", NULL },
                NULL, dir);
  g_assert_cmpint (same.status, ==, 2);
  run_cli_full (&bad, (const char *const[]) { "merge", "share-0-of-3.jsonl", not_session, "-o",
                                              "m.jsonl", NULL },
                NULL, dir);
  g_assert_cmpint (bad.status, ==, 1);
  g_assert_nonnull (strstr (bad.err, "x.jsonl"));
  remove_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/targets/saved", test_targets_saved);
  g_test_add_func ("/cli/targets/run-command", test_run_target_command);
  g_test_add_func ("/cli/devices/merged", test_run_devices);
  g_test_add_func ("/cli/devices/failure", test_run_devices_failure);
  g_test_add_func ("/cli/devices/interrupt", test_run_devices_interrupt);
  g_test_add_func ("/cli/merge", test_merge);
  return g_test_run ();
}

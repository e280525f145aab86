/* test-servers-ssh.c: warpscope-cli against a real sshd on 127.0.0.1 (started and stopped by
 * tests/servers/with-servers.sh, with a key made for the test) and `warpscope-cli replay` as
 * the runner on the far side: devices, kernels and run through a saved target, arguments
 * with ; $() quotes and spaces arriving intact, what ssh says when it fails put plainly, a
 * runner too old stopped at its hello, Stop reaching the far side, a sweep split over a
 * stand-in that answers as three GPUs, and the app's environment probe through a saved target.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <netinet/in.h>
#include <sys/socket.h>

#include "test-servers.h"
#include "test-standin.h"
#include "ws-environment.h"
#include "ws-target-list.h"

/* A port nothing listens on: bound to find it, then closed. */
static int
unused_port (void)
{
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t length = sizeof addr;
  int fd = socket (AF_INET, SOCK_STREAM, 0);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (getsockname (fd, (struct sockaddr *) &addr, &length), ==, 0);
  close (fd);
  return ntohs (addr.sin_port);
}

/* Saves a target NAME for this sshd with `key` and the far side's runner `runner`. */
static void
add_target (const char *name, int port, const char *key, const char *runner)
{
  g_autofree char *port_text = g_strdup_printf ("%d", port);
  g_autofree char *options = g_strdup_printf ("-i %s -o IdentitiesOnly=yes -o "
                                              "UserKnownHostsFile=%s -o "
                                              "StrictHostKeyChecking=accept-new",
                                              key, g_getenv ("WS_SSH_KNOWN_HOSTS"));
  g_auto (Result) r = { 0 };

  cli (&r, (const char *const[]) { "targets", "add", name, "--ssh", "127.0.0.1", "--port",
                                   port_text, "--ssh-options", options, "--runner", runner,
                                   NULL });
  g_assert_cmpint (r.status, ==, 0);
}

static int
sshd_port (void)
{
  return atoi (g_getenv ("WS_SSH_PORT"));
}

/* The far side's runner: its arguments to far-args, its pid to far-pid, then a replay. */
static char *
far_runner (const char *name, const char *sample, double speed)
{
  return replay_runner (name, "far", sample, speed);
}

static void
test_devices_and_kernels (void)
{
  g_autofree char *runner = far_runner ("far.sh", "vector-add-sizes-h200.jsonl", 0);
  g_autofree char *args_path = g_build_filename (dir, "far-args", NULL);
  g_autofree char *args = NULL;
  g_auto (Result) devices = { 0 };
  g_auto (Result) kernels = { 0 };

  add_target ("box", sshd_port (), g_getenv ("WS_SSH_KEY"), runner);
  cli (&devices, (const char *const[]) { "devices", "--target", "box", NULL });
  g_assert_cmpint (devices.status, ==, 0);
  g_assert_nonnull (strstr (devices.out, "GPU 0: NVIDIA H200"));
  g_assert_true (g_file_get_contents (args_path, &args, NULL, NULL));
  g_assert_cmpstr (args, ==, "--device-info\n");
  cli (&kernels, (const char *const[]) { "kernels", "--target", "box", NULL });
  g_assert_cmpint (kernels.status, ==, 0);
  g_assert_nonnull (strstr (kernels.out, "vector_add"));
  g_test_message ("devices through ssh: %.3f s; kernels: %.3f s", devices.seconds,
                  kernels.seconds);
}

/* ; $() `` quotes, backslashes, spaces and an empty word reach the far side's runner as they
 * were given, and nothing in them runs there. */
static void
test_arguments_intact (void)
{
  g_autofree char *kernel = g_strdup_printf ("vector_add;touch %s/x", dir);
  g_autofree char *sizes = g_strdup_printf ("$(touch %s/y)", dir);
  g_autofree char *blocks = g_strdup_printf ("`touch %s/z` it's \"a\" b\\c", dir);
  g_autofree char *want = g_strdup_printf ("--kernel\n%s\n--sizes\n%s\n--blocks\n%s\n--seed\n\n",
                                           kernel, sizes, blocks);
  g_autofree char *args_path = g_build_filename (dir, "far-args", NULL);
  g_autofree char *got = NULL;
  g_autofree char *saved = g_build_filename (dir, "s.jsonl", NULL);
  g_auto (Result) r = { 0 };

  cli (&r, (const char *const[]) { "run", "--target", "box", "--kernel", kernel, "--sizes",
                                   sizes, "--blocks", blocks, "--seed", "", "-q", "-o", "s.jsonl",
                                   NULL });
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_file_get_contents (args_path, &got, NULL, NULL));
  g_assert_cmpstr (got, ==, want);
  for (const char *const *f = (const char *const[]) { "x", "y", "z", NULL }; *f != NULL; f++)
    {
      g_autofree char *p = g_build_filename (dir, *f, NULL);

      g_assert_false (g_file_test (p, G_FILE_TEST_EXISTS));
    }
  g_assert_cmpuint (count_runs (saved), ==, 12);
}

/* What ssh says when it cannot get there, in plain words, with its own line quoted. */
static void
test_failures (void)
{
  g_autofree char *runner = far_runner ("far.sh", "vector-add-sizes-h200.jsonl", 0);
  g_autofree char *wrong_key = g_build_filename (dir, "wrong_key", NULL);
  g_autofree char *keygen = g_strdup_printf ("ssh-keygen -q -t ed25519 -N '' -f %s", wrong_key);
  const struct
  {
    const char *target;
    const char *says[2];
  } cases[] = {
    { "refused", { "refused the connection", "Connection refused" } },
    { "nokey", { "refused the login", "Permission denied (publickey" } },
    { "norunner", { "there is no warpscope-runner at “/nonexistent/warpscope-runner” on "
                    "127.0.0.1", "not found" } },
  };

  g_assert_true (g_spawn_command_line_sync (keygen, NULL, NULL, NULL, NULL));
  add_target ("refused", unused_port (), g_getenv ("WS_SSH_KEY"), runner);
  add_target ("nokey", sshd_port (), wrong_key, runner);
  add_target ("norunner", sshd_port (), g_getenv ("WS_SSH_KEY"), "/nonexistent/warpscope-runner");
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (Result) r = { 0 };

      cli (&r, (const char *const[]) { "devices", "--target", cases[i].target, NULL });
      g_assert_cmpint (r.status, ==, 6);
      for (guint j = 0; j < 2; j++)
        if (strstr (r.err, cases[i].says[j]) == NULL)
          g_error ("%s: “%s” does not say “%s”", cases[i].target, r.err, cases[i].says[j]);
    }
}

/* A runner older than this Warpscope drives is stopped at its hello, and says what to do. */
static void
test_old_runner (void)
{
  g_autofree char *old = write_script (dir, "old.sh",
                                       "echo $$ > '@DIR@/old-pid'\n"
                                       "echo '{\"type\":\"hello\",\"t\":0,\"protocol\":1,"
                                       "\"runner\":\"0.0.9\",\"host\":\"far\"}'\n"
                                       "exec sleep 100\n");
  g_auto (Result) r = { 0 };

  add_target ("old", sshd_port (), g_getenv ("WS_SSH_KEY"), old);
  cli (&r, (const char *const[]) { "kernels", "--target", "old", NULL });
  g_assert_cmpint (r.status, ==, 6);
  g_assert_nonnull (strstr (r.err, "warpscope-runner 0.0.9 on 127.0.0.1 speaks protocol 1; "
                                   "this Warpscope needs warpscope-runner"));
  /* Stopped there once the connection is gone, which takes the far side a moment. */
  for (int i = 0; i < 50 && standin_pid_alive (ws_test_read_number (dir, "old-pid")); i++)
    g_usleep (100000);
  g_assert_false (standin_pid_alive (ws_test_read_number (dir, "old-pid")));
}

/* Ctrl+C here stops the runner there: the watchdog sees the connection's stdin end. */
static void
test_stop_reaches_far_side (void)
{
  g_autofree char *slow = far_runner ("slow.sh", "vector-add-blocks-h200.jsonl", 1);
  const char *env[] = { targets_env, NULL };
  g_auto (Background) b = { 0 };
  gint64 start;
  int pid;

  add_target ("slow", sshd_port (), g_getenv ("WS_SSH_KEY"), slow);
  background_start (&b, (const char *const[]) { "run", "--target", "slow", "--kernel",
                                                "vector_add", "-o", "slow.jsonl", NULL },
                    env, dir);
  background_wait_for (&b, "run 2:", 20);
  pid = ws_test_read_number (dir, "far-pid");
  g_assert_true (standin_pid_alive (pid));
  kill (b.pid, SIGINT);
  start = g_get_monotonic_time ();
  g_assert_cmpint (background_wait (&b, 10), ==, 130);
  for (int i = 0; i < 50 && standin_pid_alive (pid); i++)
    g_usleep (100000);
  g_assert_false (standin_pid_alive (pid));
  g_test_message ("stopped through ssh in %.2f s",
                  (g_get_monotonic_time () - start) / 1e6);
  g_assert_nonnull (strstr (b.out->str, "Saved"));
}

/* A sweep over the far side's three GPUs (all, from its --device-info), one session in plan
 * order. */
static void
test_split (void)
{
  g_autofree char *runner = standin_write_runner (dir, 3, 0, NULL);
  g_autofree char *saved = g_build_filename (dir, "split.jsonl", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (saved);
  g_autoptr (WsSession) session = NULL;
  g_auto (Result) r = { 0 };
  GListModel *runs;

  standin_write_shares (dir, 3, FALSE);
  add_target ("three", sshd_port (), g_getenv ("WS_SSH_KEY"), runner);
  cli (&r, (const char *const[]) { "run", "--target", "three", "--kernel", "vector_add",
                                   "--devices", "all", "--cpu", "none", "-q", "-o",
                                   "split.jsonl", NULL });
  g_assert_cmpint (r.status, ==, 0);
  session = ws_session_load (file, NULL, NULL);
  runs = ws_session_get_runs (session);
  g_assert_cmpuint (g_list_model_get_n_items (runs), ==, 32);
  for (guint i = 0; i < 32; i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);

      g_assert_cmpint (ws_run_get_id (run), ==, (int) i + 1);
      g_assert_cmpint (ws_run_get_config (run)->device, ==, (int) (i % 3));
    }
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_devices (session)), ==, 3);
  g_test_message ("a split over 3 runners through ssh: %.3f s", r.seconds);
}

static gboolean
probe_answered (WsEnvironment *environment)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (ws_environment_get_state (environment) == WS_ENVIRONMENT_PROBING
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  return ws_environment_get_state (environment) != WS_ENVIRONMENT_PROBING;
}

/* The app's probe, through a target saved by the CLI and read as the app reads it: the GPU,
 * the kernels and the sentences come from the far side; a key sshd refuses is shown in ssh's
 * words under a heading that names the target. */
static void
test_environment_probe (void)
{
  g_autofree char *runner = far_runner ("far.sh", "vector-add-sizes-h200.jsonl", 0);
  g_autofree char *wrong_key = g_build_filename (dir, "probe_wrong_key", NULL);
  g_autofree char *keygen = g_strdup_printf ("ssh-keygen -q -t ed25519 -N '' -f %s", wrong_key);
  g_autofree char *path = g_build_filename (dir, "targets.conf", NULL);
  g_autoptr (WsTargetList) list = NULL;
  g_autoptr (WsEnvironment) environment = ws_environment_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (g_spawn_command_line_sync (keygen, NULL, NULL, NULL, NULL));
  add_target ("probe-box", sshd_port (), g_getenv ("WS_SSH_KEY"), runner);
  add_target ("probe-nokey", sshd_port (), wrong_key, runner);
  list = ws_target_list_load (path, &error);
  g_assert_no_error (error);

  ws_environment_set_target (environment, ws_target_list_find (list, "probe-box"));
  ws_environment_probe (environment);
  g_assert_true (probe_answered (environment));
  g_assert_cmpint (ws_environment_get_state (environment), ==, WS_ENVIRONMENT_READY);
  g_assert_cmpstr (ws_environment_get_title (environment), ==, "Ready to Run on the NVIDIA H200");
  g_assert_true (g_str_has_prefix (ws_environment_get_summary (environment),
                                   "probe-box · NVIDIA H200 · driver supports CUDA "));
  g_assert_nonnull (strstr (ws_environment_get_description (environment),
                            "Target: probe-box (ssh -p "));

  ws_environment_set_target (environment, ws_target_list_find (list, "probe-nokey"));
  g_assert_true (probe_answered (environment));
  g_assert_cmpint (ws_environment_get_state (environment), ==, WS_ENVIRONMENT_UNUSABLE);
  g_assert_cmpstr (ws_environment_get_title (environment), ==, "probe-nokey Refused");
  g_assert_nonnull (strstr (ws_environment_get_description (environment),
                            "Permission denied (publickey"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!servers_ready ("ssh", "WS_SSH_PORT"))
    return 77;
  g_test_add_func ("/servers/ssh/devices-and-kernels", test_devices_and_kernels);
  g_test_add_func ("/servers/ssh/arguments-intact", test_arguments_intact);
  g_test_add_func ("/servers/ssh/failures", test_failures);
  g_test_add_func ("/servers/ssh/old-runner", test_old_runner);
  g_test_add_func ("/servers/ssh/stop-reaches-far-side", test_stop_reaches_far_side);
  g_test_add_func ("/servers/ssh/split", test_split);
  g_test_add_func ("/servers/ssh/environment-probe", test_environment_probe);
  return g_test_run ();
}

/* test-target-argv.c: targets: the argv each kind spawns (arguments reaching the far side
 * exactly, run there by a stand-in for the remote shell; srun given them as they are; the
 * sbatch wrapper against stand-ins for sbatch, squeue and scancel), their checks, and the key
 * file of saved targets.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-standin.h"
#include "test-util.h"
#include "ws-target-list.h"
#include "ws-target.h"

/* Words a far side must receive as they are: a shell would run, split or expand them. */
static const char *const hostile[] = { "--kernel", "vector_add;touch @DIR@/x", "--sizes",
                                       "$(touch @DIR@/y)", "--blocks", "it's \"a\" b",
                                       "`touch @DIR@/z`", "a\\b", "", NULL };

static GStrv
hostile_args (const char *dir)
{
  GStrv args = g_new0 (char *, G_N_ELEMENTS (hostile));

  for (guint i = 0; hostile[i] != NULL; i++)
    {
      g_autoptr (GString) s = g_string_new (hostile[i]);

      g_string_replace (s, "@DIR@", dir, 0);
      args[i] = g_string_free (g_steal_pointer (&s), FALSE);
    }
  return args;
}

/* Runs `argv` with `path_dir` first in PATH and its stdin a pipe held open (as the runner
 * client holds it), and returns its stdout; the exit status must be 0. */
static char *
spawn_out (char **argv, const char *path_dir)
{
  g_auto (GStrv) env = g_get_environ ();
  g_autofree char *path = g_strdup_printf ("%s:%s", path_dir, g_getenv ("PATH"));
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  int in_fd = -1, out_fd = -1, status = 0;
  GPid pid;
  char buf[4096];
  ssize_t n;

  env = g_environ_setenv (env, "PATH", path, TRUE);
  g_assert_true (g_spawn_async_with_pipes (NULL, argv, env,
                                           G_SPAWN_SEARCH_PATH_FROM_ENVP | G_SPAWN_DO_NOT_REAP_CHILD, NULL,
                                           NULL, &pid, &in_fd, &out_fd, NULL, &error));
  g_assert_no_error (error);
  while ((n = read (out_fd, buf, sizeof buf)) > 0)
    g_string_append_len (out, buf, n);
  close (out_fd);
  close (in_fd);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* ---- argv -------------------------------------------------------------------------------- */

/* ssh gets its options, "--", the host, and one command line for the far shell, in which every
 * word of ours is quoted: a stand-in ssh that hands it to sh -c (as sshd hands it to the login
 * shell) makes the runner receive exactly what was given, and runs nothing. */
static void
test_argv_ssh (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-target-XXXXXX", NULL);
  g_autofree char *bin = g_build_filename (dir, "bin", NULL);
  g_autofree char *runner = ws_test_write_script (dir, "runner.sh", "printf '%s\\n' \"$@\"\n",
                                                  NULL);
  g_autoptr (WsTarget) target = ws_target_new ("box", WS_TARGET_SSH);
  g_auto (GStrv) args = hostile_args (dir);
  g_auto (GStrv) argv = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  g_autoptr (GString) want = g_string_new (NULL);
  const char *opts[] = { "-i", "/k/key", NULL };
  const char *env[] = { "WS_A=x y", NULL };
  guint n;

  ws_target_set_host (target, "gpu-box");
  ws_target_set_port (target, 2222);
  ws_target_set_ssh_options (target, opts);
  ws_target_set_runner (target, runner);
  argv = ws_target_build_argv (target, (const char *const *) args, &error);
  g_assert_no_error (error);
  n = g_strv_length (argv);
  g_assert_cmpstr (argv[0], ==, "ssh");
  g_assert_true (g_strv_contains ((const char *const *) argv, "BatchMode=yes"));
  g_assert_cmpstr (argv[n - 6], ==, "2222");
  g_assert_cmpstr (argv[n - 5], ==, "-i");
  g_assert_cmpstr (argv[n - 2], ==, "gpu-box");
  g_assert_cmpstr (argv[n - 3], ==, "--");
  g_assert_true (g_str_has_prefix (argv[n - 1], "exec 'sh' '-c' "));

  /* Through a stand-in ssh (its last word to sh -c), stdin kept open as the client does. */
  g_assert_cmpint (g_mkdir (bin, 0755), ==, 0);
  g_free (ws_test_write_script (bin, "ssh", "for a; do last=$a; done\nexec sh -c \"$last\"\n",
                                NULL));
  for (guint i = 0; args[i] != NULL; i++)
    g_string_append_printf (want, "%s\n", args[i]);
  out = spawn_out (argv, bin);
  g_assert_cmpstr (out, ==, want->str);
  for (const char *const *f = (const char *const[]) { "x", "y", "z", NULL }; *f != NULL; f++)
    {
      g_autofree char *p = g_build_filename (dir, *f, NULL);

      g_assert_false (g_file_test (p, G_FILE_TEST_EXISTS));
    }

  /* The environment goes through env, quoted too. */
  ws_target_set_environment (target, env);
  g_strfreev (argv);
  argv = ws_target_build_argv (target, (const char *const[]) { "--list", NULL }, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (argv[g_strv_length (argv) - 1], "'env' 'WS_A=x y' "));
  ws_test_remove_dir (dir);
}

/* When the connection's stdin ends (Stop here, or this computer gone), the far side stops a
 * runner that would otherwise go on forever: sshd itself signals nothing to it. */
static void
test_ssh_watchdog (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-target-XXXXXX", NULL);
  g_autofree char *bin = g_build_filename (dir, "bin", NULL);
  g_autofree char *runner = ws_test_write_script (dir, "runner.sh",
                                                  "echo $$ > '@DIR@/pid.tmp'\n"
                                                  "mv '@DIR@/pid.tmp' '@DIR@/pid'\n"
                                                  "exec sleep 1000\n",
                                                  NULL);
  g_autofree char *pid_path = g_build_filename (dir, "pid", NULL);
  g_autoptr (WsTarget) target = ws_target_new ("box", WS_TARGET_SSH);
  g_auto (GStrv) argv = NULL;
  g_auto (GStrv) env = g_get_environ ();
  g_autofree char *path = NULL;
  g_autofree char *pid_text = NULL;
  g_autoptr (GError) error = NULL;
  int in_fd = -1, status = 0;
  GPid pid;
  gint64 closed;

  g_assert_cmpint (g_mkdir (bin, 0755), ==, 0);
  g_free (ws_test_write_script (bin, "ssh", "for a; do last=$a; done\nexec sh -c \"$last\"\n",
                                NULL));
  ws_target_set_host (target, "gpu-box");
  ws_target_set_runner (target, runner);
  argv = ws_target_build_argv (target, (const char *const[]) { "--list", NULL }, &error);
  path = g_strdup_printf ("%s:%s", bin, g_getenv ("PATH"));
  env = g_environ_setenv (env, "PATH", path, TRUE);
  g_assert_true (g_spawn_async_with_pipes (NULL, argv, env,
                                           G_SPAWN_SEARCH_PATH_FROM_ENVP | G_SPAWN_DO_NOT_REAP_CHILD, NULL,
                                           NULL, &pid, &in_fd, NULL, NULL, &error));
  g_assert_no_error (error);
  for (int i = 0; i < 500 && !g_file_test (pid_path, G_FILE_TEST_EXISTS); i++)
    g_usleep (10000);
  g_assert_true (g_file_get_contents (pid_path, &pid_text, NULL, NULL));
  /* Held open, the runner goes on. */
  g_usleep (300000);
  g_assert_true (standin_pid_alive (atoi (pid_text)));
  closed = g_get_monotonic_time ();
  close (in_fd);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_cmpfloat ((g_get_monotonic_time () - closed) / 1e6, <, 3);
  for (int i = 0; i < 300 && standin_pid_alive (atoi (pid_text)); i++)
    g_usleep (10000);
  g_assert_false (standin_pid_alive (atoi (pid_text)));
  ws_test_remove_dir (dir);
}

/* srun execs its argv on the node: the words go as they are. */
static void
test_argv_srun (void)
{
  g_autoptr (WsTarget) target = ws_target_new ("cluster", WS_TARGET_SLURM_SRUN);
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) argv = NULL;
  const char *opts[] = { "-p", "gpu", "--gres=gpu:1", NULL };
  const char *want[] = { "srun", "--job-name=warpscope", "--ntasks=1", "-p", "gpu",
                         "--gres=gpu:1", "/opt/ws/warpscope-runner", "--sizes", "$(x) 'y'",
                         NULL };

  ws_target_set_slurm_options (target, opts);
  ws_target_set_runner (target, "/opt/ws/warpscope-runner");
  argv = ws_target_build_argv (target, (const char *const[]) { "--sizes", "$(x) 'y'", NULL },
                               &error);
  g_assert_no_error (error);
  g_assert_true (g_strv_equal ((const char *const *) argv, want));
  g_assert_false (ws_target_needs_stdin (target));

  /* From a login node: ssh in front, the srun line quoted for its shell; squeue likewise. */
  ws_target_set_host (target, "login");
  g_strfreev (argv);
  argv = ws_target_build_argv (target, (const char *const[]) { "--list", NULL }, &error);
  g_assert_cmpstr (argv[0], ==, "ssh");
  g_assert_nonnull (strstr (argv[g_strv_length (argv) - 1],
                            "'srun' '--job-name=warpscope' '--ntasks=1' '-p' 'gpu'"));
  g_assert_true (ws_target_needs_stdin (target));
  g_strfreev (argv);
  argv = ws_target_build_squeue_argv (target, "42");
  g_assert_cmpstr (argv[0], ==, "ssh");
  g_assert_nonnull (strstr (argv[g_strv_length (argv) - 1], "'squeue' '-h' '-j' '42' '-o' '%r'"));
}

/* A launcher typed by hand: words of a remote shell are quoted, others go as they are; the
 * description shows the command. */
static void
test_argv_command (void)
{
  g_autoptr (WsTarget) target = ws_target_new ("wrap", WS_TARGET_COMMAND);
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) argv = NULL;
  g_autofree char *description = NULL;
  const char *launcher[] = { "env", "X=1", NULL };

  ws_target_set_launcher (target, launcher);
  ws_target_set_runner (target, "/r");
  argv = ws_target_build_argv (target, (const char *const[]) { "a b", NULL }, &error);
  g_assert_true (g_strv_equal ((const char *const *) argv,
                               (const char *const[]) { "env", "X=1", "/r", "a b", NULL }));
  ws_target_set_remote_shell (target, TRUE);
  g_strfreev (argv);
  argv = ws_target_build_argv (target, (const char *const[]) { "a b", NULL }, &error);
  g_assert_true (g_strv_equal ((const char *const *) argv,
                               (const char *const[]) { "env", "X=1", "'/r'", "'a b'", NULL }));
  description = ws_target_dup_description (target);
  g_assert_cmpstr (description, ==, "env X=1");

  /* A launcher that ends in ssh is a remote shell, whatever stands before ssh and whatever
   * the target was saved with. */
  {
    const char *const wrapped[][6] = {
      { "nice", "-5", "ssh", "box", NULL },
      { "env", "-i", "/usr/bin/ssh", "box", NULL },
      { "timeout", "-s", "KILL", "60", "ssh", NULL },
      { "sshpass", "-f", "pw", "autossh", "box", NULL },
    };

    for (guint i = 0; i < G_N_ELEMENTS (wrapped); i++)
      {
        guint n = g_strv_length ((char **) wrapped[i]);

        ws_target_set_launcher (target, wrapped[i]);
        ws_target_set_remote_shell (target, FALSE);
        g_strfreev (argv);
        argv = ws_target_build_argv (target, (const char *const[]) { "$(x)", NULL }, &error);
        g_assert_no_error (error);
        g_assert_cmpstr (argv[n], ==, "'/r'");
        g_assert_cmpstr (argv[n + 1], ==, "'$(x)'");
      }
  }
}

/* The sbatch wrapper against stand-ins: the job's output, written by a stand-in sbatch in
 * the background, reaches stdout as it grows; the job waits (squeue says PENDING) and the
 * wrapper says so in Slurm's words; its status comes back; the files are removed. */
static void
test_argv_sbatch (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-target-XXXXXX", NULL);
  g_autofree char *bin = g_build_filename (dir, "bin", NULL);
  g_autofree char *jobs = g_build_filename (dir, "jobs", NULL);
  g_autofree char *runner = ws_test_write_script (dir, "runner.sh",
                                                  "printf 'arg:%s\\n' \"$@\"\n"
                                                  "echo 'runner news' >&2\n"
                                                  "echo '{\"type\":\"done\",\"exit_code\":3}'\n"
                                                  "exit 3\n",
                                                  NULL);
  g_autoptr (WsTarget) target = ws_target_new ("batch", WS_TARGET_SLURM_SBATCH);
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) argv = NULL;
  g_auto (GStrv) env = g_get_environ ();
  g_autofree char *path = NULL;
  g_autofree char *out = NULL, *err = NULL, *sbatch_args = NULL;
  g_autoptr (GPtrArray) left = NULL;
  int status = 0;

  g_assert_cmpint (g_mkdir (bin, 0755), ==, 0);
  /* sbatch --wait: the id at once, the job after a pending second, its output to -o. */
  g_free (ws_test_write_script (bin, "sbatch",
                                "printf '%s\\n' \"$@\" > '@DIR@/sbatch-args'\n"
                                "for a; do case $a in --wrap=*) cmd=${a#--wrap=} ;; esac;"
                                " done\n"
                                "while [ $# -gt 0 ]; do case $1 in -o) out=$2 ;; -e) err=$2 ;;"
                                " esac; shift; done\n"
                                "echo 7\n: > '@DIR@/pending'\nsleep 1.5\nrm '@DIR@/pending'\n"
                                "sh -c \"$cmd\" > \"$out\" 2> \"$err\"; rc=$?\n"
                                "sleep 1.2\nexit $rc\n",
                                NULL));
  g_free (ws_test_write_script (bin, "squeue",
                                "if [ -e '@DIR@/pending' ]; then echo PENDING;"
                                " else echo RUNNING; fi\n",
                                NULL));
  g_free (ws_test_write_script (bin, "scancel", "echo \"$@\" > '@DIR@/scancelled'\n", NULL));
  ws_target_set_slurm_options (target, (const char *const[]) { "-p", "gpu", NULL });
  ws_target_set_runner (target, runner);
  ws_target_set_job_dir (target, jobs);
  argv = ws_target_build_argv (target, (const char *const[]) { "it's", "$(x)", NULL }, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (argv[0], ==, "sh");
  path = g_strdup_printf ("%s:%s", bin, g_getenv ("PATH"));
  env = g_environ_setenv (env, "PATH", path, TRUE);
  g_assert_true (g_spawn_sync (NULL, argv, env, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 3);
  g_assert_cmpstr (out, ==, "arg:it's\narg:$(x)\n{\"type\":\"done\",\"exit_code\":3}\n");
  g_assert_nonnull (strstr (err, "sbatch: job 7 queued and waiting for resources"));
  g_assert_nonnull (strstr (err, "sbatch: job 7 has been allocated resources"));
  g_assert_nonnull (strstr (err, "runner news"));
  {
    g_autofree char *args_path = g_build_filename (bin, "sbatch-args", NULL);

    g_assert_true (g_file_get_contents (args_path, &sbatch_args, NULL, NULL));
  }
  g_assert_nonnull (strstr (sbatch_args, "--wait\n--parsable\n--job-name=warpscope\n"));
  g_assert_nonnull (strstr (sbatch_args, "\n-p\ngpu\n--wrap="));
  left = ws_test_list_dir (jobs, "");
  g_assert_cmpuint (left->len, ==, 0);
  ws_test_remove_dir (dir);
}

static void
test_validate (void)
{
  const struct
  {
    const char *name;
    WsTargetKind kind;
    const char *host;
    const char *env;
    const char *message; /* NULL: valid */
  } cases[] = {
    { "gpu-box", WS_TARGET_SSH, "gpu-box", NULL, NULL },
    { "gpu-box", WS_TARGET_SSH, NULL, NULL, "needs a host" },
    { "x", WS_TARGET_SSH, "-oProxyCommand=touch x", NULL, "starts with" },
    { "a b", WS_TARGET_SLURM_SRUN, NULL, NULL, "cannot name a target" },
    { "-x", WS_TARGET_SLURM_SRUN, NULL, NULL, "cannot name a target" },
    { "local", WS_TARGET_SLURM_SRUN, NULL, NULL, "kept for this computer" },
    { "c", WS_TARGET_SLURM_SRUN, NULL, "1X=2", "NAME=VALUE" },
    { "c", WS_TARGET_SLURM_SRUN, NULL, "X", "NAME=VALUE" },
    { "c", WS_TARGET_SLURM_SRUN, NULL, "CUDA_VISIBLE_DEVICES=0", NULL },
    { "c", WS_TARGET_COMMAND, NULL, NULL, "needs the command" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (WsTarget) t = ws_target_new (cases[i].name, cases[i].kind);
      g_autoptr (GError) error = NULL;
      const char *env[] = { cases[i].env, NULL };

      ws_target_set_host (t, cases[i].host);
      if (cases[i].env != NULL)
        ws_target_set_environment (t, env);
      if (cases[i].message == NULL)
        {
          g_assert_true (ws_target_validate (t, &error));
          g_assert_no_error (error);
          continue;
        }
      g_assert_false (ws_target_validate (t, &error));
      g_assert_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, cases[i].message));
      /* Nothing is spawned from a target that cannot work. */
      g_assert_null (ws_target_build_argv (t, (const char *const[]) { "--list", NULL }, NULL));
    }
}

/* ---- saved ------------------------------------------------------------------------------- */

static void
items_changed_cb (GListModel *model, guint position, guint removed, guint added, gpointer data)
{
  (*(guint *) data)++;
}

static void
test_list_saved (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-target-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "sub", "targets.conf", NULL);
  g_autoptr (WsTargetList) list = ws_target_list_load (path, NULL);
  g_autoptr (WsTargetList) back = NULL;
  g_autoptr (WsTarget) ssh = ws_target_new ("gpu-box", WS_TARGET_SSH);
  g_autoptr (WsTarget) sbatch = ws_target_new ("cluster", WS_TARGET_SLURM_SBATCH);
  g_autoptr (WsTarget) again = ws_target_new ("gpu-box", WS_TARGET_SSH);
  g_autoptr (GError) error = NULL;
  const char *opts[] = { "-J", "gw;x", "-o", "A=b c", NULL };
  const char *env[] = { "A=1", "B=two words", NULL };
  WsTarget *t;
  guint changes = 0;

  /* No file yet: only this computer. */
  g_assert_nonnull (list);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 1);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (list)) == WS_TYPE_TARGET);
  g_signal_connect (list, "items-changed", G_CALLBACK (items_changed_cb), &changes);
  ws_target_set_host (ssh, "me@gpu.example.org");
  ws_target_set_host (again, "other");
  ws_target_set_port (ssh, 2222);
  ws_target_set_ssh_options (ssh, opts);
  ws_target_set_runner (ssh, "/opt/ws/bin/warpscope-runner");
  ws_target_set_environment (ssh, env);
  ws_target_set_slurm_options (sbatch, (const char *const[]) { "-p", "gpu", NULL });
  ws_target_set_host (sbatch, "login");
  ws_target_set_pending_timeout (sbatch, 0);
  ws_target_set_job_dir (sbatch, "/scratch/me/jobs");
  g_assert_true (ws_target_list_add (list, ssh, &error));
  g_assert_true (ws_target_list_add (list, sbatch, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (changes, ==, 2);
  g_assert_false (ws_target_list_add (list, again, &error));
  g_assert_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_EXISTS);
  g_clear_error (&error);
  g_assert_true (ws_target_list_save (list, &error));
  g_assert_no_error (error);

  back = ws_target_list_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (back)), ==, 3);
  t = ws_target_list_find (back, "gpu-box");
  g_assert_nonnull (t);
  g_assert_cmpint (ws_target_get_kind (t), ==, WS_TARGET_SSH);
  g_assert_cmpstr (ws_target_get_host (t), ==, "me@gpu.example.org");
  g_assert_cmpuint (ws_target_get_port (t), ==, 2222);
  g_assert_true (g_strv_equal (ws_target_get_ssh_options (t), opts));
  g_assert_true (g_strv_equal (ws_target_get_environment (t), env));
  g_assert_cmpstr (ws_target_get_runner (t), ==, "/opt/ws/bin/warpscope-runner");
  t = ws_target_list_find (back, "cluster");
  g_assert_cmpuint (ws_target_get_pending_timeout (t), ==, 0);
  g_assert_cmpstr (ws_target_get_job_dir (t), ==, "/scratch/me/jobs");
  g_assert_cmpstr (ws_target_get_host (t), ==, "login");

  g_assert_false (ws_target_list_remove (back, "local", &error));
  g_clear_error (&error);
  g_assert_false (ws_target_list_remove (back, "nope", &error));
  g_assert_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "gpu-box"));
  g_clear_error (&error);
  g_assert_true (ws_target_list_remove (back, "gpu-box", &error));
  g_assert_true (ws_target_list_save (back, &error));
  g_clear_object (&back);
  back = ws_target_list_load (path, &error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (back)), ==, 2);
  g_assert_null (ws_target_list_find (back, "gpu-box"));
  ws_test_remove_dir (dir);
}

/* A file that cannot be used is refused by name, and left as it is. */
static void
test_list_bad_file (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-target-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "targets.conf", NULL);
  const char *texts[] = {
    "[box]\nkind=telnet\n", "[box]\nkind=ssh\n", "[box]\nkind=ssh\nhost=h\nport=70000\n",
    "not a key file\n", "[local]\nkind=ssh\nhost=h\n",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *after = NULL;

      g_assert_true (g_file_set_contents (path, texts[i], -1, NULL));
      g_assert_null (ws_target_list_load (path, &error));
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, path));
      g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
      g_assert_cmpstr (after, ==, texts[i]);
    }
  ws_test_remove_dir (dir);
}

/* ---- the far side's scripts, as they were -------------------------------------------------- */

/* Each target's argv, one word a line (escaped), for every kind a script goes into: ssh with
 * its watchdog, srun and sbatch on the login node through ssh, sbatch here, a command with a
 * remote shell. */
static char *
describe_argvs (void)
{
  const char *opts[] = { "-i", "/k/key", NULL };
  const char *slurm[] = { "--gres=gpu:1", "-p", "it's", NULL };
  const char *env[] = { "WS_A=x y", NULL };
  const char *launcher[] = { "nice", "ssh", "gpu-box", NULL };
  const char *args[] = { "--kernel", "vector_add;touch x", "--sizes", "$(touch y)", "--blocks",
                         "it's \"a\" b", "`touch z`", "a\\b", "", NULL };
  const struct
  {
    const char *name;
    WsTargetKind kind;
    const char *host, *job_dir;
  } cases[] = {
    { "ssh", WS_TARGET_SSH, "gpu-box", NULL },
    { "srun-ssh", WS_TARGET_SLURM_SRUN, "login", NULL },
    { "sbatch", WS_TARGET_SLURM_SBATCH, NULL, "/scratch/j" },
    { "sbatch-ssh", WS_TARGET_SLURM_SBATCH, "login", NULL },
    { "command", WS_TARGET_COMMAND, NULL, NULL },
  };
  GString *out = g_string_new (NULL);

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (WsTarget) target = ws_target_new (cases[c].name, cases[c].kind);
      g_autoptr (GError) error = NULL;
      g_auto (GStrv) argv = NULL;

      if (cases[c].host != NULL)
        {
          ws_target_set_host (target, cases[c].host);
          ws_target_set_port (target, 2222);
          ws_target_set_ssh_options (target, opts);
        }
      if (cases[c].kind == WS_TARGET_COMMAND)
        ws_target_set_launcher (target, launcher);
      else if (cases[c].kind != WS_TARGET_SSH)
        ws_target_set_slurm_options (target, slurm);
      ws_target_set_job_dir (target, cases[c].job_dir);
      ws_target_set_environment (target, env);
      ws_target_set_runner (target, "/opt/ws/bin/warpscope-runner");
      argv = ws_target_build_argv (target, args, &error);
      g_assert_no_error (error);
      g_string_append_printf (out, "# %s\n", cases[c].name);
      for (guint i = 0; argv[i] != NULL; i++)
        {
          g_autofree char *word = g_strescape (argv[i], NULL);

          g_string_append_printf (out, "%s\n", word);
        }
    }
  return g_string_free (out, FALSE);
}

/* The scripts read from the model's resources make the argv they made as C strings, to the
 * byte (tests/target-argv.expected was written by the build that still had the strings). */
static void
test_argv_scripts (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "target-argv.expected", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *got = describe_argvs ();

  g_assert_true (g_file_get_contents (path, &expected, NULL, NULL));
  g_assert_cmpstr (got, ==, expected);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/target/argv/ssh", test_argv_ssh);
  g_test_add_func ("/target/argv/ssh-watchdog", test_ssh_watchdog);
  g_test_add_func ("/target/argv/srun", test_argv_srun);
  g_test_add_func ("/target/argv/command", test_argv_command);
  g_test_add_func ("/target/argv/sbatch", test_argv_sbatch);
  g_test_add_func ("/target/argv/scripts", test_argv_scripts);
  g_test_add_func ("/target/validate", test_validate);
  g_test_add_func ("/target/list/saved", test_list_saved);
  g_test_add_func ("/target/list/bad-file", test_list_bad_file);
  return g_test_run ();
}

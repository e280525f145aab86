/* test-target.c: targets: the argv each kind spawns (arguments reaching the far side exactly,
 * run there by a stand-in for the remote shell; srun given them as they are; the sbatch
 * wrapper against stand-ins for sbatch, squeue and scancel), their checks, the key file of
 * saved targets, the far side's runner checked against its hello, launchers' failures in
 * plain words, and a job that waits for resources given up with squeue's reason.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-standin.h"
#include "test-util.h"
#include "ws-hello-private.h"
#include "ws-record.h"
#include "ws-target-job.h"
#include "ws-target-list.h"
#include "ws-target.h"

/* Words a far side must receive as they are: a shell would run, split or expand them. */
static const char *const hostile[] = { "--kernel", "vector_add;touch @DIR@/x", "--sizes",
                                       "$(touch @DIR@/y)", "--blocks", "it's \"a\" b",
                                       "`touch @DIR@/z`", "a\\b", "", NULL };

static char *
make_dir (void)
{
  return g_dir_make_tmp ("ws-target-XXXXXX", NULL);
}

static void
remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_remove (child);
    }
  g_rmdir (path);
}

static char *
write_script (const char *dir, const char *name, const char *body)
{
  g_autoptr (GString) text = g_string_new ("#!/bin/sh\n");
  char *path = g_build_filename (dir, name, NULL);

  g_string_append (text, body);
  g_string_replace (text, "@DIR@", dir, 0);
  g_assert_true (g_file_set_contents (path, text->str, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return path;
}

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
  g_autofree char *dir = make_dir ();
  g_autofree char *bin = g_build_filename (dir, "bin", NULL);
  g_autofree char *runner = write_script (dir, "runner.sh", "printf '%s\\n' \"$@\"\n");
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
  g_free (write_script (bin, "ssh", "for a; do last=$a; done\nexec sh -c \"$last\"\n"));
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
  remove_tree (dir);
}

/* When the connection's stdin ends (Stop here, or this computer gone), the far side stops a
 * runner that would otherwise go on forever: sshd itself signals nothing to it. */
static void
test_ssh_watchdog (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *bin = g_build_filename (dir, "bin", NULL);
  g_autofree char *runner = write_script (dir, "runner.sh",
                                          "echo $$ > '@DIR@/pid.tmp'\n"
                                          "mv '@DIR@/pid.tmp' '@DIR@/pid'\nexec sleep 1000\n");
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
  g_free (write_script (bin, "ssh", "for a; do last=$a; done\nexec sh -c \"$last\"\n"));
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
  remove_tree (dir);
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
}

/* The sbatch wrapper against stand-ins: the job's output, written by a stand-in sbatch in
 * the background, reaches stdout as it grows; the job waits (squeue says PENDING) and the
 * wrapper says so in Slurm's words; its status comes back; the files are removed. */
static void
test_argv_sbatch (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *bin = g_build_filename (dir, "bin", NULL);
  g_autofree char *jobs = g_build_filename (dir, "jobs", NULL);
  g_autofree char *runner = write_script (dir, "runner.sh",
                                          "printf 'arg:%s\\n' \"$@\"\necho 'runner news' >&2\n"
                                          "echo '{\"type\":\"done\",\"exit_code\":3}'\nexit 3\n");
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
  g_free (write_script (bin, "sbatch",
                        "printf '%s\\n' \"$@\" > '@DIR@/sbatch-args'\n"
                        "for a; do case $a in --wrap=*) cmd=${a#--wrap=} ;; esac; done\n"
                        "while [ $# -gt 0 ]; do case $1 in -o) out=$2 ;; -e) err=$2 ;; esac;"
                        " shift; done\n"
                        "echo 7\n: > '@DIR@/pending'\nsleep 1.5\nrm '@DIR@/pending'\n"
                        "sh -c \"$cmd\" > \"$out\" 2> \"$err\"; rc=$?\nsleep 1.2\nexit $rc\n"));
  g_free (write_script (bin, "squeue",
                        "if [ -e '@DIR@/pending' ]; then echo PENDING; else echo RUNNING; fi\n"));
  g_free (write_script (bin, "scancel", "echo \"$@\" > '@DIR@/scancelled'\n"));
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
  remove_tree (dir);
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
  g_autofree char *dir = make_dir ();
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
  remove_tree (dir);
}

/* A file that cannot be used is refused by name, and left as it is. */
static void
test_list_bad_file (void)
{
  g_autofree char *dir = make_dir ();
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
  remove_tree (dir);
}

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
  g_autofree char *dir = make_dir ();
  g_autoptr (WsTarget) target = ws_target_new ("cl", WS_TARGET_SLURM_SRUN);
  g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autoptr (WsTargetJob) job = NULL;
  g_autofree char *squeue_args = NULL;
  gint64 start = g_get_monotonic_time ();
  guint changes = 0;

  g_free (write_script (dir, "srun", "echo $$ > '@DIR@/srun-pid'\n"
                                     "echo 'srun: job 42 queued and waiting for resources' >&2\n"
                                     "exec sleep 100\n"));
  g_free (write_script (dir, "squeue", "echo \"$@\" > '@DIR@/squeue-args'\necho Priority\n"));
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
  remove_tree (dir);
}

/* A job that gets its resources runs to the end, with the inactivity timeout held while it
 * waited: a pending longer than the timeout is not a runner that stopped answering. */
static void
test_job_allocated (void)
{
  g_autofree char *dir = make_dir ();
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

  g_free (write_script (dir, "srun", body));
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
  remove_tree (dir);
}

/* A runner older than this Warpscope needs is stopped at its hello, with the reason. */
static void
test_job_old_runner (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *runner = write_script (dir, "runner.sh",
                                          "echo $$ > '@DIR@/pid'\n"
                                          "echo '{\"type\":\"hello\",\"t\":0,\"protocol\":1,"
                                          "\"runner\":\"0.0.1\"}'\nexec sleep 100\n");
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
  remove_tree (dir);
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
  g_test_add_func ("/target/argv/ssh", test_argv_ssh);
  g_test_add_func ("/target/argv/ssh-watchdog", test_ssh_watchdog);
  g_test_add_func ("/target/argv/srun", test_argv_srun);
  g_test_add_func ("/target/argv/command", test_argv_command);
  g_test_add_func ("/target/argv/sbatch", test_argv_sbatch);
  g_test_add_func ("/target/validate", test_validate);
  g_test_add_func ("/target/list/saved", test_list_saved);
  g_test_add_func ("/target/list/bad-file", test_list_bad_file);
  g_test_add_func ("/target/check-hello", test_check_hello);
  g_test_add_func ("/target/explain-failure", test_explain_failure);
  g_test_add_func ("/target/pending-words", test_pending_words);
  g_test_add_func ("/target/job/pending", test_job_pending);
  g_test_add_func ("/target/job/allocated", test_job_allocated);
  g_test_add_func ("/target/job/old-runner", test_job_old_runner);
  g_test_add_func ("/target/job/no-srun", test_job_no_srun);
  return g_test_run ();
}

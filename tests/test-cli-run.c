/* test-cli-run.c: warpscope-cli with a runner: replays standing in for it, run against stand-in
 * runners (options passed through, launchers, saved sessions, exit statuses, runners that
 * die), and run, devices and kernels with the real runner and no driver.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <locale.h>
#include <sys/stat.h>

#include "test-cli.h"

/* ---- replay ------------------------------------------------------------------------------ */

static void
test_replay_fast (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *path = sample_path (samples[i]);
      const char *args[] = { "replay", "--speed", "0", path, NULL };
      g_autofree char *original = NULL;
      g_auto (GStrv) want = NULL;
      g_auto (GStrv) got = NULL;
      g_auto (Result) r = { 0 };
      g_autoptr (JsonNode) hello = NULL;
      g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_LIVE);
      g_autofree char *head = NULL;
      JsonObject *replay;

      run_cli (&r, args);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_true (g_file_get_contents (path, &original, NULL, NULL));
      want = g_strsplit (original, "\n", -1);
      got = g_strsplit (r.out, "\n", -1);
      g_assert_cmpuint (g_strv_length (got), ==, g_strv_length (want));
      /* The hello gains the marker and keeps every member it had. */
      hello = parse_json (got[0]);
      replay = json_object_get_object_member (json_node_get_object (hello), "replay");
      g_assert_nonnull (replay);
      g_assert_cmpstr (json_object_get_string_member (replay, "file"), ==, samples[i]);
      g_assert_cmpfloat (json_object_get_double_member (replay, "speed"), ==, 0);
      head = g_strndup (want[0], strlen (want[0]) - 1);
      g_assert_true (g_str_has_prefix (got[0], head));
      for (guint j = 1; want[j] != NULL; j++)
        g_assert_cmpstr (got[j], ==, want[j]);

      /* The model reads it as a replay of the same runs. */
      for (guint j = 0; got[j] != NULL; j++)
        if (*got[j] != '\0')
          g_assert_true (ws_session_feed_line (session, got[j], -1, NULL));
      g_assert_cmpint (ws_session_get_source (session), ==, WS_SESSION_SOURCE_REPLAY);
      g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (session)), ==,
                        count_runs (path));
      g_assert_true (ws_session_is_done (session, NULL, NULL));
    }
}


/* A 600 ms recording played at twice its speed takes about 300 ms. */
static void
test_replay_pacing (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *path = write_temp (dir, "paced.jsonl", paced, -1);
  const char *twice[] = { "replay", "--speed", "2", path, NULL };
  const char *fast[] = { "replay", "--speed", "0", path, NULL };
  g_auto (Result) r = { 0 };
  g_auto (Result) f;

  run_cli (&r, twice);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpfloat (r.seconds, >=, 0.29);
  g_assert_cmpfloat (r.seconds, <, 0.29 + 1.5);
  g_assert_nonnull (strstr (r.out, "\"speed\":2}"));
  run_cli (&f, fast);
  g_assert_cmpint (f.status, ==, 0);
  g_assert_cmpfloat (f.seconds, <, 0.29);
  remove_dir (dir);
}

static void
test_replay_errors (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.jsonl", NULL);
  g_autofree char *empty = write_temp (dir, "empty.jsonl", "", 0);
  g_autofree char *cut = write_temp (dir, "cut.jsonl", paced, strstr (paced, "{\"type\":\"done\"") - paced);
  const char *bad_speed[] = { "replay", "--speed", "-1", missing, NULL };
  struct
  {
    const char *path;
    const char *message;
    gboolean prints;
  } cases[] = {
    { missing, "missing.jsonl", FALSE },
    { empty, "empty", FALSE },
    { cut, "done record", TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *args[] = { "replay", "--speed", "0", cases[i].path, NULL };
      g_auto (Result) r = { 0 };

      run_cli (&r, args);
      g_assert_cmpint (r.status, ==, 1);
      g_assert_nonnull (strstr (r.err, cases[i].message));
      g_assert_cmpint (*r.out != '\0', ==, cases[i].prints);
    }
  {
    g_auto (Result) r = { 0 };

    run_cli (&r, bad_speed);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "--speed"));
  }
  remove_dir (dir);
}

/* A line that names "done" and nests a million levels deep is copied like any other: the
 * done check reads it with the model's parser, which stops at 64 levels, where json-glib
 * would recurse a million times and overflow the stack. */
static void
test_replay_deep_nesting (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  const char *done = strstr (paced, "{\"type\":\"done\"");
  g_autoptr (GString) text = g_string_new_len (paced, done - paced);
  g_autofree char *path = NULL;
  g_auto (Result) r = { 0 };

  g_string_append (text, "{\"type\":\"note\",\"done\":");
  for (int i = 0; i < 1000000; i++)
    g_string_append_c (text, '[');
  g_string_append_c (text, '\n');
  g_string_append (text, done);
  path = write_temp (dir, "deep.jsonl", text->str, (gssize) text->len);
  {
    const char *args[] = { "replay", "--speed", "0", path, NULL };

    run_cli (&r, args);
  }
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "[[[[[[[[\n{\"type\":\"done\""));
  remove_dir (dir);
}


/* ---- run and devices --------------------------------------------------------------------- */


static void
test_run_stand_in (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *recording = sample_path ("vector-add-sizes-h200.jsonl");
  g_autofree char *runner = write_stand_in (dir, recording, 0);
  g_autofree char *env_runner = g_strdup_printf ("WARPSCOPE_RUNNER=%s", runner);
  g_autofree char *output = g_build_filename (dir, "session.jsonl", NULL);
  g_autofree char *args_path = g_build_filename (dir, "args", NULL);
  g_autofree char *launcher_path = g_build_filename (dir, "launcher", NULL);
  g_autofree char *args_text = NULL;
  g_autofree char *launcher_text = NULL;
  const char *env[] = { env_runner, NULL };
  const char *args[] = { "run", "--kernel", "vector_add", "--sizes", "1e3:1e8:x10",
                         "--transfer", "pageable,pinned", "--reps", "10", "--cache", "cold",
                         "--no-trace", "-o", output, "--launcher",
                         "env WS_TEST_LAUNCHER=through", NULL };
  g_auto (Result) r = { 0 };
  g_autoptr (GFile) file = g_file_new_for_path (output);
  g_autoptr (WsSession) saved = NULL;
  g_autoptr (GError) error = NULL;
  int exit_code = -1;

  run_cli_full (&r, args, env, dir);
  g_assert_cmpint (r.status, ==, 0);
  /* The options went through as they were, behind the launcher, with no shell between. */
  g_assert_true (g_file_get_contents (args_path, &args_text, NULL, NULL));
  g_assert_cmpstr (args_text, ==,
                   "--kernel\nvector_add\n--sizes\n1e3:1e8:x10\n--transfer\npageable,pinned\n"
                   "--reps\n10\n--cache\ncold\n--no-trace\n");
  g_assert_true (g_file_get_contents (launcher_path, &launcher_text, NULL, NULL));
  g_assert_cmpstr (launcher_text, ==, "through");
  /* A line per run, then where it was saved. */
  g_assert_nonnull (strstr (r.out, "run 12: vector_add n = 100,000,000, block 256, pinned"));
  g_assert_nonnull (strstr (r.out, "Saved 12 runs"));
  /* The speedup names the baseline it is against. */
  g_assert_nonnull (strstr (r.out, "the speed of the CPU baseline, hand-written, 1 thread)"));
  g_assert_null (strstr (r.out, "the speed of 1 CPU thread"));
  /* No terminal here: no progress bar. */
  g_assert_null (strstr (r.err, "\r"));

  saved = ws_session_load (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (saved)), ==, 12);
  g_assert_true (ws_session_is_done (saved, &exit_code, NULL));
  g_assert_cmpint (exit_code, ==, 0);
  remove_dir (dir);
}

/* The runner's status is the CLI's: 1 when a run failed, and the runs are still saved; with no
 * -o the file is named after the time. */
static void
test_run_status (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *recording = sample_path ("matmul-naive-blocks-h200.jsonl");
  g_autofree char *runner = write_stand_in (dir, recording, 1);
  g_autofree char *env_runner = g_strdup_printf ("WARPSCOPE_RUNNER=%s", runner);
  const char *env[] = { env_runner, NULL };
  const char *args[] = { "run", "--kernel", "matmul_naive", "--quiet", NULL };
  g_auto (Result) r = { 0 };
  g_autoptr (GDir) d = NULL;
  const char *name;
  guint saved = 0;

  run_cli_full (&r, args, env, dir);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_null (strstr (r.out, "run 1:"));
  d = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, "warpscope-") && g_str_has_suffix (name, ".jsonl")
        && strlen (name) == strlen ("warpscope-YYYYMMDD-HHMMSS.jsonl"))
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);

        g_assert_cmpuint (count_runs (path), ==, 19);
        saved++;
      }
  g_assert_cmpuint (saved, ==, 1);
  remove_dir (dir);
}

/* A runner that dies without its done record: status 6, the runs so far kept. */
static void
test_run_crash (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *cut = write_temp (dir, "cut.jsonl", paced, strstr (paced, "{\"type\":\"done\"") - paced);
  g_autofree char *runner = write_stand_in (dir, cut, 0);
  g_autofree char *env_runner = g_strdup_printf ("WARPSCOPE_RUNNER=%s", runner);
  const char *env[] = { env_runner, NULL };
  const char *args[] = { "run", "--kernel", "vector_add", NULL };
  const char *missing[] = { "run", "--kernel", "vector_add", "--runner", "/nonexistent/runner",
                            NULL };
  g_auto (Result) r = { 0 };
  g_auto (Result) m;

  run_cli_full (&r, args, env, dir);
  g_assert_cmpint (r.status, ==, 6);
  g_assert_nonnull (strstr (r.err, "before it finished"));
  run_cli_full (&m, missing, NULL, dir);
  g_assert_cmpint (m.status, ==, 6);
  g_assert_nonnull (strstr (m.err, "/nonexistent/runner"));
  remove_dir (dir);
}

static void
test_run_no_driver (void)
{
  const char *runner = g_getenv ("WS_RUNNER");
  g_autofree char *dir = NULL;
  g_autofree char *env_runner = NULL;
  const char *args[] = { "run", "--kernel", "vector_add", "--sizes", "1000", NULL };

  if (runner == NULL)
    {
      g_test_skip ("warpscope-runner is not built here (no CUDA toolkit)");
      return;
    }
  dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  env_runner = g_strdup_printf ("WARPSCOPE_RUNNER=%s", runner);
  {
    const char *env[] = { env_runner, "WARPSCOPE_LIBCUDA=/nonexistent", NULL };
    g_auto (Result) r = { 0 };
    g_autoptr (GDir) d = NULL;

    run_cli_full (&r, args, env, dir);
    g_assert_cmpint (r.status, ==, 3);
    g_assert_nonnull (strstr (r.err, "no_driver"));
    g_assert_nonnull (strstr (r.err, "No NVIDIA driver"));
    /* Nothing ran: no session file to clutter the directory. */
    d = g_dir_open (dir, 0, NULL);
    g_assert_null (g_dir_read_name (d));
  }
  remove_dir (dir);
}

static void
test_kernels (void)
{
  const char *runner = g_getenv ("WS_RUNNER");
  g_autofree char *env_runner = NULL;
  const char *args[] = { "kernels", NULL };
  g_auto (Result) r = { 0 };

  if (runner == NULL)
    {
      g_test_skip ("warpscope-runner is not built here (no CUDA toolkit)");
      return;
    }
  /* The catalog needs no GPU. */
  env_runner = g_strdup_printf ("WARPSCOPE_RUNNER=%s", runner);
  {
    const char *env[] = { env_runner, "WARPSCOPE_LIBCUDA=/nonexistent", NULL };

    run_cli_full (&r, args, env, NULL);
  }
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "vector_add "));
  g_assert_nonnull (strstr (r.out, "matmul_tiled "));
  g_assert_nonnull (strstr (r.out, "16×16"));
  g_assert_nonnull (strstr (r.out, "Matrix multiply, shared-memory tiles"));

  /* The runner writes the catalog in English; the kernels' titles and descriptions are
   * marked (WS_N_) and shown in the reader's language. */
  {
    const char *locale = setlocale (LC_ALL, "zh_CN.UTF-8") != NULL ? "zh_CN.UTF-8" : "C.UTF-8";
    g_autofree char *lc_all = g_strdup_printf ("LC_ALL=%s", locale);
    const char *env[] = { env_runner, "WARPSCOPE_LIBCUDA=/nonexistent", lc_all,
                          "LANGUAGE=zh_CN", NULL };
    const char *verbose[] = { "kernels", "-v", NULL };
    g_auto (Result) z = { 0 };

    setlocale (LC_ALL, "");
    run_cli_full (&z, verbose, env, NULL);
    g_assert_cmpint (z.status, ==, 0);
    g_assert_nonnull (strstr (z.out, "矩阵乘法，共享内存分块"));
    g_assert_nonnull (strstr (z.out, "教程的第一个核函数"));
    g_assert_null (strstr (z.out, "Matrix multiply"));
  }
}

static void
test_devices (void)
{
  const char *runner = g_getenv ("WS_RUNNER");
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *sample = sample_path ("vector-add-sizes-h200.jsonl");
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GString) info = g_string_new (NULL);
  g_autofree char *recording = NULL;
  g_autofree char *stand_in = NULL;
  g_autofree char *env_stand_in = NULL;
  const char *args[] = { "devices", NULL };

  /* What --device-info prints on a GPU machine: the hello and device of a recording. */
  g_assert_true (g_file_get_contents (sample, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", 3);
  g_string_append_printf (info, "%s\n%s\n", lines[0], lines[1]);
  g_string_append (info, "{\"type\":\"done\",\"t\":500,\"runs\":0,\"failed\":0,"
                         "\"dropped_records\":0,\"exit_code\":0}\n");
  recording = write_temp (dir, "info.jsonl", info->str, -1);
  stand_in = write_stand_in (dir, recording, 0);
  env_stand_in = g_strdup_printf ("WARPSCOPE_RUNNER=%s", stand_in);
  {
    const char *env[] = { env_stand_in, NULL };
    g_auto (Result) r = { 0 };

    run_cli_full (&r, args, env, dir);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "GPU 0: NVIDIA H200 (sm_90"));
    g_assert_nonnull (strstr (r.out, "132 SMs"));
    g_assert_nonnull (strstr (r.out, "No problems found"));
  }

  if (runner == NULL)
    {
      g_test_skip ("warpscope-runner is not built here (no CUDA toolkit)");
      remove_dir (dir);
      return;
    }
  {
    g_autofree char *env_runner = g_strdup_printf ("WARPSCOPE_RUNNER=%s", runner);
    const char *env[] = { env_runner, "WARPSCOPE_LIBCUDA=/nonexistent", NULL };
    g_auto (Result) r = { 0 };

    run_cli_full (&r, args, env, dir);
    g_assert_cmpint (r.status, ==, 3);
    g_assert_nonnull (strstr (r.out, "no_driver"));
    g_assert_nonnull (strstr (r.out, "No NVIDIA driver"));
    g_assert_nonnull (strstr (r.out, "install the NVIDIA driver"));
  }
  remove_dir (dir);
}

/* ---- runs that do not end by themselves -------------------------------------------------- */

/* A runner, or the launcher in front of it, whose child keeps stdout open and silent: the
 * timeout stops all of it, the runs so far are saved, and nothing is left running. */
static void
test_run_hang (void)
{
  const struct
  {
    const char *runner;
    const char *launcher; /* NULL: none */
  } cases[] = {
    { "echo $$ > '@DIR@/pgid'\nhead -n 300 '@SAMPLE@'\nsleep 100000\n", NULL },
    { "head -n 300 '@SAMPLE@'\n", "echo $$ > '@DIR@/pgid'\n\"$@\"\nsleep 100000\n" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
      g_autofree char *runner = write_script (dir, "runner.sh", cases[i].runner);
      g_autofree char *wrapper = cases[i].launcher != NULL
                                   ? write_script (dir, "wrapper.sh", cases[i].launcher)
                                   : NULL;
      g_autofree char *output = g_build_filename (dir, "s.jsonl", NULL);
      const char *args[] = { "run", "--kernel", "vector_add", "--timeout", "1", "--runner",
                             runner, "-o", output, wrapper != NULL ? "--launcher" : NULL,
                             wrapper, NULL };
      g_auto (Result) r = { 0 };

      run_cli (&r, args);
      g_assert_cmpint (r.status, ==, 6);
      g_assert_cmpfloat (r.seconds, <, 6);
      g_assert_nonnull (strstr (r.err, "printed nothing for 1 seconds"));
      g_assert_nonnull (strstr (r.err, "stopped after "));
      g_assert_nonnull (strstr (r.err, " of 12 configurations"));
      g_assert_nonnull (strstr (r.out, "Saved "));
      g_assert_cmpuint (count_runs (output), >, 0);
      g_assert_true (ws_test_wait_group_gone (ws_test_read_number (dir, "pgid"), 3));
      remove_dir (dir);
    }
}

/* Ctrl+C stops the runner and saves what it did; a runner that ignores SIGTERM gets SIGKILL
 * at the second Ctrl+C, without waiting for the grace period. */
static void
test_run_interrupt (void)
{
  const char *const runners[] = {
    "echo $$ > '@DIR@/pgid'\nhead -n 300 '@SAMPLE@'\nsleep 100000\n",
    "echo $$ > '@DIR@/pgid'\ntrap '' TERM\nhead -n 300 '@SAMPLE@'\nsleep 100000\n",
  };

  for (guint i = 0; i < G_N_ELEMENTS (runners); i++)
    {
      g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
      g_autofree char *runner = write_script (dir, "runner.sh", runners[i]);
      g_autofree char *output = g_build_filename (dir, "s.jsonl", NULL);
      const char *args[] = { "run", "--kernel", "vector_add", "--timeout", "0", "--runner",
                             runner, "-o", output, NULL };
      g_auto (Background) b = { 0 };
      gint64 interrupted;

      background_start (&b, args, NULL, dir);
      background_wait_for (&b, "run 2:", 10);
      interrupted = g_get_monotonic_time ();
      kill (b.pid, SIGINT);
      if (i == 1)
        {
          g_usleep (200000);
          kill (b.pid, SIGINT);
        }
      g_assert_cmpint (background_wait (&b, 10), ==, 130);
      /* The first runner ends at SIGTERM; the second at once at the second Ctrl+C, well
       * before the 2 s grace period would end. */
      g_assert_cmpfloat ((g_get_monotonic_time () - interrupted) / 1e6, <, 1.5);
      g_assert_nonnull (strstr (b.err->str, "interrupted"));
      g_assert_nonnull (strstr (b.err->str, " of 12 configurations"));
      g_assert_nonnull (strstr (b.out->str, "Saved "));
      g_assert_cmpuint (count_runs (output), >=, 2);
      g_assert_true (ws_test_wait_group_gone (ws_test_read_number (dir, "pgid"), 3));
      remove_dir (dir);
    }
}

/* ---- where the session goes -------------------------------------------------------------- */

/* An output that cannot be written is refused before the runner starts, naming the path as
 * it was given. */
static void
test_run_output_checked (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *runner = write_script (dir, "runner.sh",
                                          "touch '@DIR@/ran'\ncat '@SAMPLE@'\n");
  g_autofree char *ran = g_build_filename (dir, "ran", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing", "dir", "s.jsonl", NULL);
  g_autofree char *a_file = write_temp (dir, "a-file", "x", -1);
  g_autofree char *under_file = g_build_filename (a_file, "s.jsonl", NULL);
  g_autofree char *locked = g_build_filename (dir, "locked", NULL);
  g_autofree char *in_locked = g_build_filename (locked, "s.jsonl", NULL);
  const struct
  {
    const char *output;
    const char *message;
  } cases[] = {
    { "", "empty" },
    { missing, "there is no folder" },
    { dir, "is a folder" },
    { under_file, "is not a folder" },
    { in_locked, "not writable" },
  };

  g_assert_cmpint (g_mkdir (locked, 0500), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *args[] = { "run", "--kernel", "vector_add", "--runner", runner, "-o",
                             cases[i].output, NULL };
      g_auto (Result) r = { 0 };

      /* Root writes anywhere. */
      if (cases[i].output == in_locked && geteuid () == 0)
        continue;
      run_cli_full (&r, args, NULL, dir);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_nonnull (strstr (r.err, cases[i].message));
      g_assert_nonnull (strstr (r.err, "-o"));
      if (*cases[i].output != '\0')
        g_assert_nonnull (strstr (r.err, cases[i].output));
      else
        /* "" is not the current folder. */
        g_assert_null (strstr (r.err, dir));
      g_assert_false (g_file_test (ran, G_FILE_TEST_EXISTS));
    }
  remove_dir (dir);
}

/* Saving over a private session keeps it private; saving through a link replaces the file the
 * link points to. */
static void
test_run_output_kept (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *runner = write_script (dir, "runner.sh", "cat '@SAMPLE@'\n");
  g_autofree char *private = write_temp (dir, "private.jsonl", "old", -1);
  g_autofree char *target = write_temp (dir, "target.jsonl", "old", -1);
  g_autofree char *link = g_build_filename (dir, "link.jsonl", NULL);
  struct stat st;

  g_assert_cmpint (g_chmod (private, 0600), ==, 0);
  g_assert_cmpint (symlink ("target.jsonl", link), ==, 0);
  {
    const char *args[] = { "run", "--kernel", "vector_add", "-q", "--runner", runner, "-o",
                           private, NULL };
    g_auto (Result) r = { 0 };

    run_cli (&r, args);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpint (g_stat (private, &st), ==, 0);
    g_assert_cmpint (st.st_mode & 0777, ==, 0600);
    g_assert_cmpuint (count_runs (private), ==, 12);
  }
  {
    const char *args[] = { "run", "--kernel", "vector_add", "-q", "--runner", runner, "-o",
                           link, NULL };
    g_auto (Result) r = { 0 };

    run_cli (&r, args);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpint (lstat (link, &st), ==, 0);
    g_assert_true (S_ISLNK (st.st_mode));
    g_assert_cmpuint (count_runs (target), ==, 12);
  }
  remove_dir (dir);
}

/* ---- what the runner prints -------------------------------------------------------------- */

/* Lines that are not records are named (the first five, then how many more), and the run is
 * not a success. */
static void
test_run_bad_lines (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *runner = write_script (dir, "runner.sh",
                                          "cat '@SAMPLE@'\necho NaN\necho NaN\necho '[]'\n"
                                          "for i in 1 2 3 4; do echo NaN; done\n");
  g_autofree char *output = g_build_filename (dir, "s.jsonl", NULL);
  const char *args[] = { "run", "--kernel", "vector_add", "-q", "--runner", runner, "-o",
                         output, NULL };
  g_auto (Result) r = { 0 };

  run_cli (&r, args);
  g_assert_cmpint (r.status, ==, 6);
  g_assert_nonnull (strstr (r.err, "line 989 of what the runner printed is not a record"));
  g_assert_nonnull (strstr (r.err, "line 991 of what the runner printed is not a record: not a "
                                   "record"));
  g_assert_nonnull (strstr (r.err, "line 993"));
  g_assert_null (strstr (r.err, "line 994"));
  g_assert_nonnull (strstr (r.err, "2 more lines of what the runner printed are not records"));
  g_assert_cmpuint (count_runs (output), ==, 12);
  remove_dir (dir);
}

/* What ssh does: drops its options and the host, joins the rest and hands it to a shell. */
static const char fake_ssh[]
  = "while [ $# -gt 0 ]; do\n"
    "  case \"$1\" in -o|-p|-l|-i|-J) shift 2 ;; -*) shift ;; *) break ;; esac\n"
    "done\n"
    "shift\n"
    "exec sh -c \"$*\"\n";

/* Through an ssh launcher the options arrive exactly as given, and nothing in them runs on
 * the far side; --remote-shell does the same for a remote shell of another name. */
static void
test_run_remote_shell (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *bin = g_build_filename (dir, "bin", NULL);
  g_autofree char *runner = write_script (dir, "runner.sh",
                                          "printf '%s\\n' \"$@\" > '@DIR@/args'\n"
                                          "cat '@SAMPLE@'\n");
  g_autofree char *kernel = g_strdup_printf ("vector_add;touch %s/x", dir);
  g_autofree char *sizes = g_strdup_printf ("$(touch %s/y)", dir);
  g_autofree char *x = g_build_filename (dir, "x", NULL);
  g_autofree char *y = g_build_filename (dir, "y", NULL);
  g_autofree char *args_path = g_build_filename (dir, "args", NULL);
  g_autofree char *want = g_strdup_printf ("--kernel\n%s\n--sizes\n%s\n--blocks\nit's\n",
                                           kernel, sizes);
  g_autofree char *path = NULL;
  g_autofree char *env_i = g_strdup_printf ("env -i %s/ssh gpu-box", bin);
  const char *launchers[][2] = {
    { "ssh -o BatchMode=yes gpu-box", NULL },
    { "remote-sh gpu-box", "--remote-shell" },
    /* ssh behind a program whose option comes just before it */
    { "nice -5 ssh gpu-box", NULL },
    { env_i, NULL },
    { "timeout -s KILL 60 ssh -J jump gpu-box", NULL },
  };

  g_assert_cmpint (g_mkdir (bin, 0755), ==, 0);
  g_free (write_script (bin, "ssh", fake_ssh));
  g_free (write_script (bin, "remote-sh", fake_ssh));
  path = g_strdup_printf ("PATH=%s:%s", bin, g_getenv ("PATH"));
  for (guint i = 0; i < G_N_ELEMENTS (launchers); i++)
    {
      const char *env[] = { path, NULL };
      const char *args[] = { "run", "--kernel", kernel, "--sizes", sizes, "--blocks", "it's",
                             "-q", "--launcher", launchers[i][0], "--runner", runner, "-o",
                             "s.jsonl", launchers[i][1], NULL };
      g_auto (Result) r = { 0 };
      g_autofree char *got = NULL;

      run_cli_full (&r, args, env, dir);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_true (g_file_get_contents (args_path, &got, NULL, NULL));
      g_assert_cmpstr (got, ==, want);
      g_assert_false (g_file_test (x, G_FILE_TEST_EXISTS));
      g_assert_false (g_file_test (y, G_FILE_TEST_EXISTS));
    }
  remove_dir (dir);
}

/* -o whose folder is removed while the sweep runs: the runs are kept in a file of their own,
 * which the error names, and the status says the save failed. */
static void
test_run_output_lost (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "out", NULL);
  g_autofree char *cache = g_strdup_printf ("XDG_CACHE_HOME=%s/cache", dir);
  g_autofree char *runner = write_script (dir, "runner.sh",
                                          "head -n 300 '@SAMPLE@'\nrmdir '@DIR@/out'\n"
                                          "tail -n +301 '@SAMPLE@'\n");
  const char *args[] = { "run", "--kernel", "vector_add", "-q", "--runner", runner, "-o",
                         "out/s.jsonl", NULL };
  const char *env[] = { cache, NULL };
  g_auto (Result) r = { 0 };
  g_autoptr (GFile) kept = NULL;
  g_autoptr (WsSession) session = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  const char *at;

  g_assert_cmpint (g_mkdir (out, 0755), ==, 0);
  run_cli_full (&r, args, env, dir);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "could not save the session to out/s.jsonl: "));
  at = strstr (r.err, "It is kept in ");
  g_assert_nonnull (at);
  at += strlen ("It is kept in ");
  path = g_strndup (at, strstr (at, " instead") - at);
  g_assert_true (g_str_has_prefix (path, dir));
  kept = g_file_new_for_path (path);
  session = ws_session_load (kept, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (session)), ==, 12);
  g_assert_nonnull (strstr (r.out, "Saved 12 runs to "));
  ws_test_remove_dir (dir);
}

/* A runner's catalog and device names go to the terminal escaped, and so does its stderr. */
static void
test_runner_text_escaped (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *sample = sample_path ("vector-add-sizes-h200.jsonl");
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GString) info = g_string_new (NULL);
  g_autofree char *recording = NULL, *runner = NULL, *env_runner = NULL;
  g_autofree char *device = NULL;
  g_auto (GStrv) halves = NULL;

  g_assert_true (g_file_get_contents (sample, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", 3);
  halves = g_strsplit (lines[1], "NVIDIA H200", -1);
  device = g_strjoinv ("NVIDIA H200\\u001b]0;pwned\\u0007\\u202e", halves);
  g_string_append_printf (info, "%s\n%s\n", lines[0], device);
  g_string_append (info, "{\"type\":\"kernel\",\"t\":1,\"name\":\"evil\\u001b[2J\\u009b31m\","
                         "\"title\":\"Clears \\u001b[H the screen\",\"description\":\"x\"}\n");
  g_string_append (info, "{\"type\":\"done\",\"t\":500,\"runs\":0,\"failed\":0,"
                         "\"dropped_records\":0,\"exit_code\":0}\n");
  recording = write_temp (dir, "info.jsonl", info->str, -1);
  runner = g_strdup_printf ("printf 'from stderr \\033]0;pwned\\007\\n' >&2\ncat '%s'\n",
                            recording);
  g_free (write_script (dir, "runner.sh", runner));
  env_runner = g_strdup_printf ("WARPSCOPE_RUNNER=%s/runner.sh", dir);
  {
    const char *env[] = { env_runner, NULL };
    const char *devices[] = { "devices", "-v", NULL };
    const char *kernels[] = { "kernels", "-v", NULL };
    g_auto (Result) d = { 0 };
    g_auto (Result) k = { 0 };

    run_cli_full (&d, devices, env, dir);
    g_assert_cmpint (d.status, ==, 0);
    assert_terminal_safe (d.out);
    assert_terminal_safe (d.err);
    g_assert_nonnull (strstr (d.out, "NVIDIA H200\\x1b]0;pwned\\x07\\u202e"));
    g_assert_nonnull (strstr (d.err, "from stderr \\x1b]0;pwned\\x07"));
    run_cli_full (&k, kernels, env, dir);
    g_assert_cmpint (k.status, ==, 0);
    assert_terminal_safe (k.out);
    assert_terminal_safe (k.err);
    g_assert_nonnull (strstr (k.out, "evil\\x1b[2J\\u009b31m"));
  }
  remove_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/replay/fast", test_replay_fast);
  g_test_add_func ("/cli/replay/pacing", test_replay_pacing);
  g_test_add_func ("/cli/replay/errors", test_replay_errors);
  g_test_add_func ("/cli/replay/deep-nesting", test_replay_deep_nesting);
  g_test_add_func ("/cli/run/stand-in", test_run_stand_in);
  g_test_add_func ("/cli/run/status", test_run_status);
  g_test_add_func ("/cli/run/crash", test_run_crash);
  g_test_add_func ("/cli/run/no-driver", test_run_no_driver);
  g_test_add_func ("/cli/run/hang", test_run_hang);
  g_test_add_func ("/cli/run/interrupt", test_run_interrupt);
  g_test_add_func ("/cli/run/output-checked", test_run_output_checked);
  g_test_add_func ("/cli/run/output-kept", test_run_output_kept);
  g_test_add_func ("/cli/run/bad-lines", test_run_bad_lines);
  g_test_add_func ("/cli/run/remote-shell", test_run_remote_shell);
  g_test_add_func ("/cli/run/output-lost", test_run_output_lost);
  g_test_add_func ("/cli/runner-text-escaped", test_runner_text_escaped);
  g_test_add_func ("/cli/devices", test_devices);
  g_test_add_func ("/cli/kernels", test_kernels);
  return g_test_run ();
}

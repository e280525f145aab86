/* test-cli-trace.c: `warpscope-cli trace` through the real runner's trace mode, with stand-in
 * programs that write a trace recorded on an H200 to the runner's descriptor (no GPU needed):
 * the report of the tutorial's vector add with its findings, the program's output passed on,
 * the saved trace, exit statuses, a sweep, a program not found or never using CUDA, no driver,
 * Ctrl+C keeping the trace; and `report` and `export` of the traces in resources/samples.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "test-cli.h"
#include "test-session-util.h"
#include "ws-trace.h"

static const char *const traces[] = {
  "trace-vector-add-h200.jsonl",
  "trace-vector-add-advised-h200.jsonl",
  "trace-matmul-tiled-h200.jsonl",
  "trace-torch-matmul-h200.jsonl",
};

/* A program standing in for a traced one: @SAMPLE@ is the recording it writes. */
static char *
write_program (const char *dir, const char *sample, const char *body)
{
  g_autofree char *path = sample_path (sample);
  g_autoptr (GString) text = g_string_new (body);

  g_string_replace (text, "@SAMPLE@", path, 0);
  return write_script (dir, "program.sh", text->str);
}

static void
run_trace (Result *r, const char *dir, const char *const *options, const char *const *program,
           const char *const *env)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autoptr (GPtrArray) envp = g_ptr_array_new ();

  g_ptr_array_add (args, "trace");
  g_ptr_array_add (args, "--runner");
  g_ptr_array_add (args, (gpointer) g_getenv ("WS_RUNNER"));
  g_ptr_array_add (args, "--no-ceilings");
  g_ptr_array_add (args, "--width");
  g_ptr_array_add (args, "100");
  for (guint i = 0; options != NULL && options[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer) options[i]);
  g_ptr_array_add (args, "--");
  for (guint i = 0; program[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer) program[i]);
  g_ptr_array_add (args, NULL);
  g_ptr_array_add (envp, g_strdup_printf ("WARPSCOPE_LIBCUDA=%s", g_getenv ("WS_FAKE_CUDA")));
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    g_ptr_array_add (envp, g_strdup (env[i]));
  g_ptr_array_add (envp, NULL);
  run_cli_full (r, (const char *const *) args->pdata, (const char *const *) envp->pdata, dir);
  for (guint i = 0; i < envp->len - 1; i++)
    g_free (g_ptr_array_index (envp, i));
}

/* In a folder of its own (returned, for the caller to remove), the stand-in program `body`
 * writing `sample`, traced with "-o DIR/NAME" (that path in `output`) and `options`, given
 * `args` (NULL: none). */
static char *
trace_program (Result *r, const char *sample, const char *body, const char *name,
               const char *const *options, const char *const *args, char **output)
{
  char *dir = g_dir_make_tmp ("ws-cli-trace-XXXXXX", NULL);
  g_autofree char *program = write_program (dir, sample, body);
  g_autoptr (GPtrArray) all = g_ptr_array_new ();
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();

  *output = g_build_filename (dir, name, NULL);
  g_ptr_array_add (all, "-o");
  g_ptr_array_add (all, *output);
  for (guint i = 0; options != NULL && options[i] != NULL; i++)
    g_ptr_array_add (all, (gpointer) options[i]);
  g_ptr_array_add (all, NULL);
  g_ptr_array_add (argv, program);
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  run_trace (r, dir, (const char *const *) all->pdata, (const char *const *) argv->pdata, NULL);
  return dir;
}

static void
assert_has (const char *text, const char *part)
{
  if (strstr (text, part) == NULL)
    g_error ("“%s” is not in:\n%s", part, text);
}

/* The tutorial's §4 program, traced: its report says why it printed 0.02×. */
static void
test_trace_vector_add (void)
{
  g_autofree char *dir = NULL, *output = NULL;
  g_auto (Result) r = { 0 };
  g_autoptr (WsSession) session = NULL;
  g_autoptr (WsSession) original = NULL;
  g_autofree char *sample = sample_path ("trace-vector-add-h200.jsonl");
  const char *args[] = { "--tpb", "256", NULL };
  WsTrace *trace;
  int exit_code = -1;

  if (!ws_test_have_runner ())
    return;
  dir = trace_program (&r, "trace-vector-add-h200.jsonl",
                       "echo 'GPU计算时间: 1.0792 秒'\n"
                       "echo 'args:' \"$@\" >&2\n"
                       "cat '@SAMPLE@' >&\"$WARPSCOPE_TRACE_FD\"\n",
                       "vadd.jsonl", NULL, args, &output);
  g_assert_cmpint (r.status, ==, 0);
  /* The program's own output reaches the person, with its arguments as given. */
  assert_has (r.err, "GPU计算时间: 1.0792 秒");
  assert_has (r.err, "args: --tpb 256");
  assert_has (r.out, "exited with status 0");
  assert_has (r.out, "add_kernel");
  assert_has (r.out, "host to device, pageable");
  assert_has (r.out, "80.0 MB");
  assert_has (r.out,
              "Compile timed: the first call of add_kernel waited 1.08 s for Numba's compile");
  assert_has (r.out, "cuda.pinned_array");
  assert_has (r.out, "Saved the trace to");
  assert_terminal_safe (r.out);

  session = ws_test_load_file (output);
  original = ws_test_load_file (sample);
  trace = ws_session_get_trace (session);
  g_assert_nonnull (trace);
  g_assert_true (ws_trace_is_from_runner (trace));
  g_assert_true (ws_session_is_done (session, &exit_code, NULL));
  g_assert_cmpint (exit_code, ==, 0);
  g_assert_cmpuint (ws_session_get_problems (session)->len, ==, 0);
  g_assert_cmpuint (ws_trace_get_programs (trace)->len, ==, 1);
  g_assert_cmpuint (ws_session_get_n_activities (session), ==,
                    ws_session_get_n_activities (original));
  {
    const WsTraceProgram *p = ws_trace_get_program (trace, 1);

    g_assert_nonnull (p);
    g_assert_true (p->ended);
    g_assert_cmpint (p->exit_status, ==, 0);
    g_assert_cmpstr (p->argv[1], ==, "--tpb");
  }
  remove_dir (dir);
}

static void
test_trace_exit_status (void)
{
  g_autofree char *dir = NULL, *output = NULL;
  g_auto (Result) r = { 0 };

  if (!ws_test_have_runner ())
    return;
  dir = trace_program (&r, "trace-vector-add-h200.jsonl",
                       "cat '@SAMPLE@' >&\"$WARPSCOPE_TRACE_FD\"\nexit 3\n", "t.jsonl", NULL, NULL,
                       &output);
  /* The program failed: the trace is saved, its ending said, the status is the runner's. */
  g_assert_cmpint (r.status, ==, 1);
  assert_has (r.out, "exited with status 3");
  g_assert_true (g_file_test (output, G_FILE_TEST_EXISTS));
  remove_dir (dir);
}

static void
test_trace_sweep (void)
{
  g_autofree char *dir = NULL, *output = NULL;
  const char *options[] = { "--sweep", "TPB=32,64", "--env", "WS_TPB=env{TPB}", NULL };
  const char *args[] = { "--tpb", "{TPB}", NULL };
  g_auto (Result) r = { 0 };
  g_autoptr (WsSession) session = NULL;
  WsTrace *trace;

  if (!ws_test_have_runner ())
    return;
  dir = trace_program (&r, "trace-vector-add-h200.jsonl",
                       "echo \"tpb $2 $WS_TPB\" >&2\n"
                       "cat '@SAMPLE@' >&\"$WARPSCOPE_TRACE_FD\"\n",
                       "sweep.jsonl", options, args, &output);
  g_assert_cmpint (r.status, ==, 0);
  assert_has (r.err, "tpb 32 env32");
  assert_has (r.err, "tpb 64 env64");
  assert_has (r.out, "run 1 of 2 (TPB=32)");
  assert_has (r.out, "run 2 of 2 (TPB=64)");
  assert_has (r.out, "Sweep of 2 program runs");
  assert_has (r.out, "add_kernel over the sweep");
  assert_has (r.out, "Run 2 (TPB=64)");
  session = ws_test_load_file (output);
  trace = ws_session_get_trace (session);
  g_assert_cmpuint (ws_trace_get_programs (trace)->len, ==, 2);
  g_assert_cmpstr (ws_trace_get_program (trace, 2)->params[0].value, ==, "64");
  g_assert_cmpstr (ws_trace_get_program (trace, 2)->argv[2], ==, "64");
  {
    g_autoptr (GPtrArray) series = ws_trace_collect_series (trace);

    g_assert_cmpuint (series->len, ==, 1);
  }
  remove_dir (dir);
}

/* Nothing to keep: no file, the error in the runner's words, its status. */
static void
test_trace_errors (void)
{
  struct
  {
    const char *program;
    const char *env;
    int status;
    const char *code;
  } cases[] = {
    { "no-such-program-of-warpscope", NULL, 2, "program_not_found" },
    { "true", NULL, 1, "no_cuda_activity" },
    { "true", "WARPSCOPE_LIBCUDA=/nonexistent/libcuda.so.1", 3, "no_driver" },
  };

  if (!ws_test_have_runner ())
    return;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *dir = g_dir_make_tmp ("ws-cli-trace-XXXXXX", NULL);
      g_autofree char *output = g_build_filename (dir, "t.jsonl", NULL);
      const char *options[] = { "-o", output, NULL };
      const char *argv[] = { cases[i].program, NULL };
      const char *env[] = { cases[i].env, NULL };
      g_auto (Result) r = { 0 };

      run_trace (&r, dir, options, argv, env);
      g_assert_cmpint (r.status, ==, cases[i].status);
      assert_has (r.err, cases[i].code);
      g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
      remove_dir (dir);
    }
}

/* Another profiler holds CUPTI: the library says so in its own record, which reaches the person
 * with its code; the program ran (untraced) and its trace is kept. */
static void
test_trace_cupti_in_use (void)
{
  g_autofree char *dir = NULL, *output = NULL;
  g_auto (Result) r = { 0 };

  if (!ws_test_have_runner ())
    return;
  dir = trace_program (&r, "trace-vector-add-h200.jsonl",
                       "fd=$WARPSCOPE_TRACE_FD\n"
                       "head -1 '@SAMPLE@' >&$fd\n"
                       "echo '{\"type\":\"error\",\"t\":1,\"pid\":1375,\"run\":null,"
                       "\"severity\":\"error\",\"code\":\"cupti_in_use\",\"message\":"
                       "\"another profiler holds CUPTI\"}' >&$fd\n"
                       "tail -1 '@SAMPLE@' >&$fd\n",
                       "t.jsonl", NULL, NULL, &output);
  g_assert_cmpint (r.status, ==, 0);
  assert_has (r.err, "error (cupti_in_use): another profiler holds CUPTI");
  assert_has (r.out, "No kernels.");
  g_assert_true (g_file_test (output, G_FILE_TEST_EXISTS));
  remove_dir (dir);
}

static void
test_trace_usage (void)
{
  const char *const cases[][6] = {
    { "trace", NULL },
    { "trace", "--", NULL },
    { "trace", "--severity", "loud", "--", "true", NULL },
    { "trace", "-o", "/no/such/folder/t.jsonl", "--", "true", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (Result) r = { 0 };

      run_cli (&r, cases[i]);
      g_assert_cmpint (r.status, ==, 2);
      assert_has (r.err, "warpscope-cli trace");
    }
}

/* Ctrl+C: the program is stopped, what it traced is kept and reported, status 130. */
static void
test_trace_interrupt (void)
{
  g_autofree char *dir = NULL, *program = NULL, *output = NULL;
  g_auto (Background) b = { 0 };
  g_autoptr (WsSession) session = NULL;
  gint64 end;

  if (!ws_test_have_runner ())
    return;
  dir = g_dir_make_tmp ("ws-cli-trace-XXXXXX", NULL);
  program = write_program (dir, "trace-vector-add-advised-h200.jsonl",
                           "echo $$ > '@DIR@/pgid'\n"
                           "head -40 '@SAMPLE@' >&\"$WARPSCOPE_TRACE_FD\"\n"
                           "echo 'waiting now' >&2\n"
                           "sleep 100000\n");
  output = g_build_filename (dir, "t.jsonl", NULL);
  {
    g_autofree char *cuda = g_strdup_printf ("WARPSCOPE_LIBCUDA=%s", g_getenv ("WS_FAKE_CUDA"));
    const char *args[] = { "trace", "--runner", g_getenv ("WS_RUNNER"), "--no-ceilings", "-o",
                           output, "--", program, NULL };
    const char *env[] = { cuda, NULL };

    background_start (&b, args, env, dir);
  }
  end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (strstr (b.err->str, "waiting now") == NULL && g_get_monotonic_time () < end)
    background_read (&b);
  assert_has (b.err->str, "waiting now");
  g_usleep (200000);
  kill (b.pid, SIGINT);
  g_assert_cmpint (background_wait (&b, 10), ==, 130);
  assert_has (b.err->str, "interrupted");
  assert_has (b.out->str, "was stopped");
  assert_has (b.out->str, "Saved the trace to");
  session = ws_test_load_file (output);
  g_assert_cmpuint (ws_session_get_n_activities (session), >, 10);
  g_assert_cmpstr (ws_trace_get_program (ws_session_get_trace (session), 1)->end_reason, ==,
                   "stopped");
  g_assert_true (ws_test_wait_group_gone (ws_test_read_number (dir, "pgid"), 3));
  remove_dir (dir);
}

/* ---- report and export of the recordings ---------------------------------------------------- */

static guint
count_kind (GPtrArray *rows, const char *section)
{
  guint n = 0;

  for (guint i = 1; i < rows->len; i++)
    n += g_str_equal (g_ptr_array_index ((GPtrArray *) g_ptr_array_index (rows, i), 0), section);
  return n;
}

static void
test_report_formats (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (traces); i++)
    {
      g_autofree char *path = sample_path (traces[i]);
      g_autoptr (WsSession) session = ws_test_load_file (path);
      WsTrace *trace = ws_session_get_trace (session);
      g_autoptr (GPtrArray) kernels = ws_trace_collect_kernels (trace, WS_TRACE_ALL_PROGRAMS);
      g_autoptr (GPtrArray) copies = ws_trace_collect_copies (trace, WS_TRACE_ALL_PROGRAMS);
      const char *table[] = { "report", path, "--width", "100", NULL };
      const char *csv[] = { "report", path, "--format", "csv", NULL };
      const char *json[] = { "report", path, "--format", "json", NULL };
      const char *markdown[] = { "report", path, "--format", "markdown", NULL };
      g_auto (Result) t = { 0 }, c = { 0 }, j = { 0 }, m = { 0 };
      g_autoptr (GPtrArray) rows = NULL;
      g_autoptr (JsonNode) root = NULL;
      JsonObject *program;

      run_cli (&t, table);
      g_assert_cmpint (t.status, ==, 0);
      assert_has (t.out, "NVIDIA H200");
      assert_has (t.out, "Kernels");
      assert_has (t.out, "Findings");
      assert_terminal_safe (t.out);
      {
        g_auto (GStrv) lines = g_strsplit (t.out, "\n", -1);

        /* Tables fit; only a word longer than the line may not. */
        for (guint l = 0; lines[l] != NULL; l++)
          if (strchr (lines[l], ' ') != NULL && g_str_has_prefix (lines[l], "  ")
              && strstr (lines[l], "──") == NULL)
            g_assert_cmpuint (g_utf8_strlen (lines[l], -1), <=, 100);
      }

      run_cli (&c, csv);
      g_assert_cmpint (c.status, ==, 0);
      rows = parse_csv (c.out);
      g_assert_cmpuint (rows->len, ==, 1 + kernels->len + copies->len);
      g_assert_cmpuint (count_kind (rows, "kernel"), ==, kernels->len);
      for (guint r = 1; r < rows->len; r++)
        g_assert_cmpuint (((GPtrArray *) g_ptr_array_index (rows, r))->len, ==,
                          ((GPtrArray *) g_ptr_array_index (rows, 0))->len);

      run_cli (&j, json);
      g_assert_cmpint (j.status, ==, 0);
      root = parse_json (j.out);
      program = json_array_get_object_element (
        json_object_get_array_member (json_node_get_object (root), "programs"), 0);
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (program, "kernels")),
                        ==, kernels->len);
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (program, "copies")),
                        ==, copies->len);

      run_cli (&m, markdown);
      g_assert_cmpint (m.status, ==, 0);
      assert_has (m.out, "# Trace of python3");
      assert_has (m.out, "| kernel |");
    }
}

/* What a teacher points at in the §4 report, as numbers in the CSV and JSON. */
static void
test_report_vector_add_data (void)
{
  g_autofree char *path = sample_path ("trace-vector-add-h200.jsonl");
  const char *csv[] = { "report", path, "--format", "csv", NULL };
  const char *json[] = { "report", path, "--format", "json", NULL };
  g_auto (Result) c = { 0 }, j = { 0 };
  g_autoptr (GPtrArray) rows = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonObject *program, *kernel;
  JsonArray *findings;
  GPtrArray *header, *row;
  gboolean compile = FALSE;

  run_cli (&c, csv);
  rows = parse_csv (c.out);
  header = g_ptr_array_index (rows, 0);
  row = g_ptr_array_index (rows, 1);
  g_assert_cmpstr (g_ptr_array_index (header, 4), ==, "short_name");
  g_assert_cmpstr (g_ptr_array_index (row, 4), ==, "add_kernel");
  g_assert_cmpstr (g_ptr_array_index (row, 8), ==, "256x1x1");
  g_assert_nonnull (strstr (g_ptr_array_index (row, 23), "timed_compile"));

  run_cli (&j, json);
  root = parse_json (j.out);
  program = json_array_get_object_element (
    json_object_get_array_member (json_node_get_object (root), "programs"), 0);
  kernel = json_array_get_object_element (json_object_get_array_member (program, "kernels"), 0);
  g_assert_cmpstr (json_object_get_string_member (kernel, "short_name"), ==, "add_kernel");
  g_assert_cmpint (json_object_get_int_member (kernel, "registers"), ==, 16);
  g_assert_cmpfloat (json_object_get_double_member (kernel, "occupancy"), ==, 1.0);
  findings = json_object_get_array_member (program, "findings");
  for (guint i = 0; i < json_array_get_length (findings); i++)
    compile |= g_str_equal (json_object_get_string_member (json_array_get_object_element (findings,
                                                                                          i),
                                                           "id"),
                            "timed_compile");
  g_assert_true (compile);
}

/* The torch report leads with the program's start-up; its library kernels' findings follow
 * under their libraries' names, folded in Markdown, named in JSON. */
static void
test_report_torch_libraries (void)
{
  g_autofree char *path = sample_path ("trace-torch-matmul-h200.jsonl");
  const char *table[] = { "report", path, NULL };
  const char *markdown[] = { "report", path, "--format", "markdown", NULL };
  const char *json[] = { "report", path, "--format", "json", NULL };
  g_auto (Result) t = { 0 }, m = { 0 }, j = { 0 };
  g_autoptr (JsonNode) root = NULL;
  JsonArray *findings;
  const char *startup, *cutlass, *torch;

  run_cli (&t, table);
  g_assert_cmpint (t.status, ==, 0);
  startup = strstr (t.out, "Start-up:");
  cutlass = strstr (t.out, "\nCUTLASS: 2 findings about its own kernels");
  torch = strstr (t.out, "\nPyTorch: 1 finding about its own kernels");
  g_assert_nonnull (startup);
  g_assert_nonnull (cutlass);
  g_assert_nonnull (torch);
  g_assert_true (startup < cutlass && cutlass < torch);
  g_assert_true (strstr (cutlass, "small grid") < torch);

  run_cli (&m, markdown);
  g_assert_cmpint (m.status, ==, 0);
  assert_has (m.out, "<details><summary>CUTLASS: 2 findings about its own kernels");
  g_assert_true (strstr (m.out, "Start-up:") < strstr (m.out, "<details>"));
  g_assert_true (strstr (m.out, "small grid") < strstr (m.out, "</details>"));

  run_cli (&j, json);
  g_assert_cmpint (j.status, ==, 0);
  root = parse_json (j.out);
  findings = json_object_get_array_member (
    json_array_get_object_element (
      json_object_get_array_member (json_node_get_object (root), "programs"), 0),
    "findings");
  g_assert_cmpuint (json_array_get_length (findings), ==, 4);
  g_assert_false (json_object_has_member (json_array_get_object_element (findings, 0), "library"));
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (findings, 1),
                                                  "library"),
                   ==, "CUTLASS");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (findings, 3),
                                                  "library"),
                   ==, "PyTorch");
}

static void
test_report_translated (void)
{
  g_autofree char *path = sample_path ("trace-vector-add-h200.jsonl");
  const char *args[] = { "report", path, NULL };
  const char *env[] = { "LANGUAGE=zh_CN", "LANG=zh_CN.UTF-8", "LC_ALL=zh_CN.UTF-8", NULL };
  g_auto (Result) r = { 0 };

  run_cli_full (&r, args, env, NULL);
  g_assert_cmpint (r.status, ==, 0);
  assert_has (r.out, "计时包含了编译");
  assert_has (r.out, "cuda.pinned_array");
}

/* Charts of a trace draw; those of sweeps a trace does not have (speedup, blocks) and the
 * roofline, for which its kernels have no byte counts, are refused with what to change, and
 * not written empty. */
static void
test_export (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-trace-XXXXXX", NULL);
  g_autofree char *path = sample_path ("trace-torch-matmul-h200.jsonl");
  const char *const charts[] = { "timeline", "breakdown" };
  const char *const refused[][2] = { { "speedup", "sweep" }, { "blocks", "sweep" },
                                      { "roofline", "how many bytes they move" } };

  for (guint i = 0; i < G_N_ELEMENTS (charts); i++)
    {
      g_autofree char *out = g_strdup_printf ("%s/%s.svg", dir, charts[i]);
      const char *args[] = { "export", path, "--chart", charts[i], "-o", out, NULL };
      g_auto (Result) r = { 0 };

      run_cli (&r, args);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_true (g_file_test (out, G_FILE_TEST_EXISTS));
    }
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autofree char *out = g_strdup_printf ("%s/%s.svg", dir, refused[i][0]);
      const char *args[] = { "export", path, "--chart", refused[i][0], "-o", out, NULL };
      g_auto (Result) r = { 0 };

      run_cli (&r, args);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_nonnull (strstr (r.err, refused[i][1]));
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }
  remove_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli-trace/trace/vector-add", test_trace_vector_add);
  g_test_add_func ("/cli-trace/trace/exit-status", test_trace_exit_status);
  g_test_add_func ("/cli-trace/trace/sweep", test_trace_sweep);
  g_test_add_func ("/cli-trace/trace/errors", test_trace_errors);
  g_test_add_func ("/cli-trace/trace/cupti-in-use", test_trace_cupti_in_use);
  g_test_add_func ("/cli-trace/trace/usage", test_trace_usage);
  g_test_add_func ("/cli-trace/trace/interrupt", test_trace_interrupt);
  g_test_add_func ("/cli-trace/report/formats", test_report_formats);
  g_test_add_func ("/cli-trace/report/vector-add-data", test_report_vector_add_data);
  g_test_add_func ("/cli-trace/report/torch-libraries", test_report_torch_libraries);
  g_test_add_func ("/cli-trace/report/translated", test_report_translated);
  g_test_add_func ("/cli-trace/export", test_export);
  return g_test_run ();
}

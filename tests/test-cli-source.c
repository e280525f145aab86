/* test-cli-source.c: warpscope-cli with own kernels: check (the header read here, the compile
 * asked of a runner, errors printed as a compiler prints them), run --source with --param
 * and --memcheck through stand-in runners, and check with the real runner where it is built.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "test-cli.h"

static char *
example (const char *name)
{
  return g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "examples", "kernels", name, NULL);
}

#define HELLO "{\"type\":\"hello\",\"t\":0,\"protocol\":1,\"runner\":\"test\",\"argv\":[]}\n"
#define KERNEL                                                                                \
  "{\"type\":\"kernel\",\"t\":1,\"name\":\"matmul_tiled\",\"family\":\"own\",\"title\":\"Tiles\","  \
  "\"block_dims\":2,\"shape_params\":[\"m\",\"n\",\"k\"],\"default_shape\":[64,64,64],"          \
  "\"default_block\":[16,16,1],\"own\":true,\"entry\":\"matmul_tiled\"}\n"
#define SOURCE                                                                                \
  "{\"type\":\"source\",\"t\":2,\"path\":\"m.cu\",\"name\":\"m.cu\",\"sha256\":\"ab\",\"bytes\":9," \
  "\"text\":\"/* code */\"}\n"
#define COMPILE(ref, cached)                                                                  \
  "{\"type\":\"compile\",\"t\":3,\"kernel\":\"matmul_tiled\",\"entry\":\"matmul_tiled\","        \
  "\"reference\":" ref ",\"ok\":true,\"arch\":\"sm_90\",\"nvrtc\":\"13.0\",\"cached\":" cached    \
  ",\"ms\":120.5,\"errors\":0,\"warnings\":0,\"params\":{\"TILE\":16},\"log\":\"\"}\n"
#define DONE(code)                                                                            \
  "{\"type\":\"done\",\"t\":9,\"runs\":0,\"failed\":0,\"dropped_records\":0,\"exit_code\":" code   \
  "}\n"

static const char check_ok[]
  = HELLO KERNEL SOURCE COMPILE ("false", "false") COMPILE ("true", "true") DONE ("0");

static const char check_error[]
  = HELLO
    "{\"type\":\"error\",\"t\":4,\"run\":null,\"severity\":\"error\",\"code\":\"compile_error\","
    "\"message\":\"identifier \\\"bb\\\" is undefined\",\"detail\":null,\"file\":\"x.cu\","
    "\"line\":26,\"column\":23}\n" DONE ("2");

static const char run_own[]
  = HELLO KERNEL SOURCE COMPILE ("false", "false")
    "{\"type\":\"run\",\"t\":5,\"id\":1,\"kernel\":\"matmul_tiled\",\"family\":\"own\","
    "\"shape\":[64,64,64],\"size\":64,\"size_text\":\"64\",\"block\":[16,16,1],"
    "\"grid\":[4,4,1],\"threads_per_block\":256,\"transfer\":\"pageable\",\"streams\":1,"
    "\"reps\":10,\"warmup\":3,\"seed\":1,\"cpu\":\"none\",\"cache\":\"warm\",\"flops\":524288,"
    "\"bytes\":49152,\"input_bytes\":32768,\"output_bytes\":16384,\"source_hash\":\"ab\","
    "\"params\":{\"TILE\":16}}\n"
    "{\"type\":\"verify\",\"t\":6,\"run\":1,\"pass\":%s,\"method\":\"%s\",\"checked\":%s,"
    "\"total\":4096,\"mismatches\":0,\"unwritten\":0,\"max_abs_err\":0,\"max_rel_err\":0,"
    "\"rtol\":0.0001,\"atol\":0.0001}\n"
    "{\"type\":\"timing\",\"t\":7,\"run\":1,\"traced\":true,\"kernel_ns\":{\"median\":5000,"
    "\"min\":4900,\"max\":5100,\"n\":10},\"e2e_ns\":{\"median\":90000,\"min\":89000,"
    "\"max\":91000,\"n\":10},\"cpu_1\":null,\"cpu_all\":null}\n"
    "{\"type\":\"done\",\"t\":9,\"runs\":1,\"failed\":0,\"dropped_records\":0,\"exit_code\":0}\n";

static const char memcheck[]
  = HELLO KERNEL SOURCE
    "{\"type\":\"memcheck\",\"t\":5,\"tool\":\"memcheck\",\"kind\":\"out_of_bounds\","
    "\"message\":\"Invalid __global__ write of size 4 bytes\",\"file\":\"vector_add_oob.cu\","
    "\"line\":24,\"kernel\":\"vector_add_oob\",\"access\":\"write\",\"space\":\"global\","
    "\"size\":4,\"thread\":[160,0,0],\"block\":[3906,0,0],\"address\":\"0x7f1c2a26ca00\","
    "\"detail\":\"Address 0x7f1c2a26ca00 is out of bounds\",\"count\":2}\n"
    "{\"type\":\"memcheck_summary\",\"t\":6,\"tool\":\"memcheck\",\"findings\":1,\"errors\":2}\n"
    DONE ("1");

/* A stand-in runner that prints `recording` and exits `status`; its arguments go to
 * dir/args. */
static char *
stand_in (const char *dir, const char *recording, int status)
{
  g_autofree char *path = write_temp (dir, "recording.jsonl", recording, -1);

  return write_stand_in (dir, path, status);
}

static char *
read_args (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "args", NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static void
test_check_header_errors (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *bad = write_temp (dir, "bad.cu",
                                     "/* warpscope\n * kernel: k\n * size: n = 0\n"
                                     " * arg a: float[m] out\n * verify: none\n */\n", -1);
  const char *args[] = { "check", bad, NULL };
  g_autofree char *where = g_strdup_printf ("%s:3:14: error: size:", bad);
  g_autofree char *where2 = g_strdup_printf ("%s:4:17: error: arg a: unknown name 'm'", bad);
  g_auto (Result) r = { 0 };

  /* The header is read here: no runner is asked. */
  run_cli_full (&r, args, (const char *const[]) { "WARPSCOPE_RUNNER=/nonexistent", NULL }, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, where));
  g_assert_nonnull (strstr (r.err, where2));
  g_assert_nonnull (strstr (r.err, "2 errors in the header"));
  g_assert_cmpstr (r.out, ==, "");
  remove_dir (dir);
}

static void
test_check_header_only (void)
{
  g_autofree char *path = example ("stencil2d.cu");
  const char *args[] = { "check", "--header-only", path, NULL };
  g_auto (Result) r = { 0 };

  run_cli_full (&r, args, (const char *const[]) { "WARPSCOPE_RUNNER=/nonexistent", NULL }, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "the header is fine (kernel stencil2d)"));
}

static void
test_check_compiles (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *runner = stand_in (dir, check_ok, 0);
  g_autofree char *env = g_strdup_printf ("WARPSCOPE_RUNNER=%s", runner);
  g_autofree char *path = example ("matmul_tiled.cu");
  const char *args[] = { "check", "--arch", "sm_80", path, NULL };
  g_autofree char *want_args = g_strdup_printf ("--check-source\n%s\n--arch\nsm_80\n", path);
  g_autofree char *got_args = NULL;
  g_auto (Result) r = { 0 };

  run_cli_full (&r, args, (const char *const[]) { env, NULL }, NULL);
  g_assert_cmpint (r.status, ==, 0);
  got_args = read_args (dir);
  g_assert_cmpstr (got_args, ==, want_args);
  g_assert_nonnull (strstr (r.out, "no errors; compiled 2 variants for sm_90 with NVRTC 13.0 "
                                   "(1 from the cache)"));
  remove_dir (dir);
}

static void
test_check_compile_error (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *runner = stand_in (dir, check_error, 2);
  g_autofree char *env = g_strdup_printf ("WARPSCOPE_RUNNER=%s", runner);
  g_autofree char *path = example ("vector_add.cu");
  const char *args[] = { "check", path, NULL };
  g_auto (Result) r = { 0 };

  run_cli_full (&r, args, (const char *const[]) { env, NULL }, NULL);
  /* The runner's 2 (an error in the code) is a compiler's 1. */
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "x.cu:26:23: error: identifier \"bb\" is undefined"));
  g_assert_cmpstr (r.out, ==, "");
  remove_dir (dir);
}

static void
run_own_kernel (gboolean verified)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *recording = g_strdup_printf (run_own, "true", verified ? "reference" : "none",
                                                verified ? "4096" : "0");
  g_autofree char *runner = stand_in (dir, recording, 0);
  g_autofree char *env = g_strdup_printf ("WARPSCOPE_RUNNER=%s", runner);
  g_autofree char *path = example ("matmul_tiled.cu");
  g_autofree char *output = g_build_filename (dir, "own.jsonl", NULL);
  const char *args[] = { "run", "--source", path, "--param", "TILE=8,16", "--param", "X=1",
                         "--sizes", "64", "--blocks", "16x16", "-o", output, NULL };
  g_autofree char *want_args = g_strdup_printf ("--sizes\n64\n--blocks\n16x16\n--source\n%s\n"
                                                "--param\nTILE=8,16\n--param\nX=1\n",
                                                path);
  g_autofree char *got_args = NULL;
  g_autoptr (GFile) file = g_file_new_for_path (output);
  g_autoptr (WsSession) saved = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (Result) r = { 0 };
  const char *source_path = NULL, *hash = NULL;
  WsRun *run;

  run_cli_full (&r, args, (const char *const[]) { env, NULL }, NULL);
  g_assert_cmpint (r.status, ==, 0);
  got_args = read_args (dir);
  g_assert_cmpstr (got_args, ==, want_args);
  /* The line of the run names its parameters. */
  g_assert_nonnull (strstr (r.out, "run 1: matmul_tiled TILE=16 "));
  if (verified)
    g_assert_nonnull (strstr (r.out, ", verified"));
  else
    g_assert_nonnull (strstr (r.out, ", unverified (the header declares no reference)"));
  /* The session keeps the source, the compile and the run's parameters. */
  saved = ws_session_load (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ws_session_get_source_text (saved, &source_path, &hash), ==, "/* code */");
  g_assert_cmpstr (source_path, ==, "m.cu");
  g_assert_cmpstr (hash, ==, "ab");
  g_assert_cmpuint (ws_session_get_compiles (saved)->len, ==, 1);
  run = ws_session_find_run (saved, 1);
  g_assert_nonnull (run);
  g_assert_cmpstr (ws_run_get_config (run)->params, ==, "TILE=16");
  g_assert_cmpstr (ws_run_get_config (run)->source_hash, ==, "ab");
  g_assert_cmpint (ws_run_get_verify (run)->unverified, ==, !verified);
  /* The report's CSV says so too: a run with nothing to compare against was not verified
   * (an empty field, as JSON's null), and has no error. */
  {
    const char *report_args[] = { "report", "-f", "csv", output, NULL };
    g_auto (Result) csv = { 0 };
    g_autoptr (GPtrArray) rows = NULL;
    GPtrArray *header, *row;

    run_cli (&csv, report_args);
    g_assert_cmpint (csv.status, ==, 0);
    rows = parse_csv (csv.out);
    g_assert_cmpuint (rows->len, ==, 2);
    header = g_ptr_array_index (rows, 0);
    row = g_ptr_array_index (rows, 1);
    for (guint i = 0; i < header->len; i++)
      if (g_str_equal (g_ptr_array_index (header, i), "verified"))
        g_assert_cmpstr (g_ptr_array_index (row, i), ==, verified ? "true" : "");
      else if (g_str_equal (g_ptr_array_index (header, i), "max_rel_err"))
        g_assert_cmpstr (g_ptr_array_index (row, i), ==, verified ? "0" : "");
  }
  remove_dir (dir);
}

static void
test_run (void)
{
  run_own_kernel (TRUE);
}

static void
test_run_unverified (void)
{
  run_own_kernel (FALSE);
}

static void
test_memcheck (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *runner = stand_in (dir, memcheck, 1);
  g_autofree char *env = g_strdup_printf ("WARPSCOPE_RUNNER=%s", runner);
  g_autofree char *path = example ("vector_add_oob.cu");
  const char *args[] = { "run", "--source", path, "--memcheck", "memcheck", NULL };
  g_autofree char *got_args = NULL;
  g_auto (Result) r = { 0 };

  run_cli_full (&r, args, (const char *const[]) { env, NULL }, dir);
  g_assert_cmpint (r.status, ==, 1);
  got_args = read_args (dir);
  g_assert_nonnull (strstr (got_args, "--memcheck\nmemcheck\n"));
  g_assert_nonnull (strstr (r.out, "vector_add_oob.cu:24: error: Invalid __global__ write of "
                                   "size 4 bytes in vector_add_oob, first by thread (160,0,0) "
                                   "of block (3906,0,0) (2 times)"));
  g_assert_nonnull (strstr (r.out, "  Address 0x7f1c2a26ca00 is out of bounds"));
  /* A check has no runs: nothing is saved unless -o asks. */
  {
    g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (d)) != NULL)
      g_assert_false (g_str_has_prefix (name, "warpscope-"));
  }
  remove_dir (dir);
}

/* The recording of a memory check made on the H200 (run --memcheck of the bundled example): a
 * report in every format says what compute-sanitizer found and where, and no run. */
static void
test_report_memcheck (void)
{
  g_autofree char *path = sample_path ("own-vector-add-oob-memcheck-h200.jsonl");
  const char *formats[] = { "table", "markdown", "json", "csv" };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      const char *args[] = { "report", path, "--format", formats[i], NULL };
      g_auto (Result) r = { 0 };

      run_cli (&r, args);
      g_assert_cmpint (r.status, ==, 0);
      if (g_str_equal (formats[i], "csv"))
        {
          /* A row per run, and a check has none: the header alone. */
          g_autoptr (GPtrArray) rows = parse_csv (r.out);

          g_assert_cmpuint (rows->len, ==, 1);
          continue;
        }
      if (g_str_equal (formats[i], "json"))
        {
          g_autoptr (JsonNode) root = parse_json (r.out);
          JsonObject *o = json_node_get_object (root);
          JsonArray *found = json_object_get_array_member (o, "memcheck");
          JsonObject *f;

          g_assert_cmpuint (json_array_get_length (found), ==, 1);
          f = json_array_get_object_element (found, 0);
          g_assert_cmpint (json_object_get_int_member (f, "line"), ==, 26);
          g_assert_cmpstr (json_object_get_string_member (f, "kernel"), ==, "vector_add_oob");
          g_assert_cmpint (json_object_get_int_member (f, "count"), ==, 100);
          g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "runs")),
                            ==, 0);
          continue;
        }
      g_assert_nonnull (strstr (r.out, "A memory check (compute-sanitizer memcheck)"));
      g_assert_nonnull (strstr (r.out, "vector_add_oob.cu:26: Invalid __global__ read of size 4 "
                                       "bytes"));
      g_assert_nonnull (strstr (r.out, "first by thread (96,0,0) of block (3906,0,0); 100 "
                                       "times"));
      g_assert_nonnull (strstr (r.out, "if (i < n)"));
      /* Neither "no findings" nor the sentence about timing medians: nothing was timed. */
      g_assert_null (strstr (r.out, "No findings."));
      g_assert_null (strstr (r.out, "No runs."));
      g_assert_null (strstr (r.out, "medians"));
    }
}

static void
test_usage (void)
{
  g_autofree char *path = example ("vector_add.cu");
  const char *param_alone[] = { "run", "--kernel", "vector_add", "--param", "TILE=8", NULL };
  const char *both[] = { "run", "--kernel", "vector_add", "--source", path, NULL };
  const char *no_file[] = { "check", NULL };
  const char *two_files[] = { "check", path, path, NULL };
  const char *missing[] = { "check", "/nonexistent/k.cu", NULL };
  struct
  {
    const char *const *args;
    int status;
    const char *message;
  } cases[] = {
    { param_alone, 2, "--param belongs to your own kernel" },
    { both, 2, "cannot be combined" },
    { no_file, 2, "which file?" },
    { two_files, 2, "one file" },
    { missing, 1, "cannot read /nonexistent/k.cu" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (Result) r = { 0 };

      run_cli (&r, cases[i].args);
      g_assert_cmpint (r.status, ==, cases[i].status);
      g_assert_nonnull (strstr (r.err, cases[i].message));
    }
}

/* With the real runner (built here when CUDA is), check compiles with NVRTC, which needs no
 * GPU: for the newest architecture of the build, warning that there is no GPU. */
static void
test_check_real_runner (void)
{
  const char *runner = g_getenv ("WS_RUNNER");
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *env_runner = NULL, *env_cache = NULL;
  g_autofree char *good = example ("matmul_tiled.cu");
  g_autofree char *source = NULL, *bad = NULL;
  g_autofree char *want = NULL;

  if (runner == NULL)
    {
      g_test_skip ("the runner is not built here (no CUDA toolkit)");
      return;
    }
  env_runner = g_strdup_printf ("WARPSCOPE_RUNNER=%s", runner);
  env_cache = g_strdup_printf ("WARPSCOPE_NVRTC_CACHE=%s", dir);
  {
    const char *args[] = { "check", good, NULL };
    g_auto (Result) r = { 0 };

    run_cli_full (&r, args, (const char *const[]) { env_runner, env_cache, NULL }, NULL);
    if (r.status == 3)
      {
        g_test_skip ("NVRTC cannot be loaded here");
        remove_dir (dir);
        return;
      }
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "no errors; compiled 4 variants for sm_"));
  }
  g_assert_true (g_file_get_contents (good, &source, NULL, NULL));
  /* A typo in the kernel's code: its line and column, as NVRTC gives them. */
  {
    g_autoptr (GString) text = g_string_new (source);
    const char *args[3] = { "check", NULL, NULL };
    g_auto (Result) r = { 0 };

    g_assert_cmpuint (g_string_replace (text, "tmp += sA[ty][i] * sB[i][tx];",
                                        "tmp += sA[ty][i] * sC[i][tx];", 1), ==, 1);
    bad = write_temp (dir, "typo.cu", text->str, -1);
    args[1] = bad;
    run_cli_full (&r, args, (const char *const[]) { env_runner, env_cache, NULL }, NULL);
    g_assert_cmpint (r.status, ==, 1);
    want = g_strdup_printf ("%s:42:28: error: identifier \"sC\" is undefined", bad);
    g_assert_nonnull (strstr (r.err, want));
  }
  remove_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/source/check-header-errors", test_check_header_errors);
  g_test_add_func ("/cli/source/check-header-only", test_check_header_only);
  g_test_add_func ("/cli/source/check-compiles", test_check_compiles);
  g_test_add_func ("/cli/source/check-compile-error", test_check_compile_error);
  g_test_add_func ("/cli/source/run", test_run);
  g_test_add_func ("/cli/source/run-unverified", test_run_unverified);
  g_test_add_func ("/cli/source/memcheck", test_memcheck);
  g_test_add_func ("/cli/source/report-memcheck", test_report_memcheck);
  g_test_add_func ("/cli/source/usage", test_usage);
  g_test_add_func ("/cli/source/check-real-runner", test_check_real_runner);
  return g_test_run ();
}

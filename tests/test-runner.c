/* test-runner.c: warpscope-runner on a machine without a GPU: the catalog, the missing-driver
 * diagnosis, every bad input refused with its code, and JSON escaping.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include "ws-json.h"

typedef struct
{
  GPtrArray *records; /* JsonObject, one per line */
  int exit_code;
  char *err;
} RunnerOutput;

static void
runner_output_clear (RunnerOutput *out)
{
  g_clear_pointer (&out->records, g_ptr_array_unref);
  g_clear_pointer (&out->err, g_free);
}

/* Runs the runner with `args`; `no_driver` stands for a machine without the NVIDIA driver
 * (on one that has it too), so the tests mean the same everywhere. */
static void
run_runner (RunnerOutput *out, gboolean no_driver, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) env = g_get_environ ();
  g_autofree char *stdout_buf = NULL;
  g_auto (GStrv) lines = NULL;
  int status = 0;

  g_ptr_array_add (argv, (gpointer) g_getenv ("WS_RUNNER"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  if (no_driver)
    env = g_environ_setenv (env, "WARPSCOPE_LIBCUDA", "/nonexistent/libcuda.so.1", TRUE);

  g_spawn_sync (NULL, (char **) argv->pdata, env, G_SPAWN_DEFAULT, NULL, NULL, &stdout_buf,
                &out->err, &status, &error);
  g_assert_no_error (error);
  out->exit_code = WIFEXITED (status) ? WEXITSTATUS (status) : -1;
  out->records = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  lines = g_strsplit (stdout_buf, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      JsonNode *root;

      if (lines[i][0] == '\0')
        continue;
      json_parser_load_from_data (parser, lines[i], -1, &error);
      g_assert_no_error (error);
      root = json_parser_get_root (parser);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
      g_ptr_array_add (out->records, json_object_ref (json_node_get_object (root)));
    }
}

static JsonObject *
find (RunnerOutput *out, const char *type, guint n)
{
  for (guint i = 0; i < out->records->len; i++)
    {
      JsonObject *o = g_ptr_array_index (out->records, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (o, "type", ""), type) == 0
          && n-- == 0)
        return o;
    }
  return NULL;
}

/* Every stream starts with hello, ends with done naming the exit status, and every record
 * carries its time. */
static void
assert_well_formed (RunnerOutput *out)
{
  JsonObject *first, *last;

  g_assert_cmpuint (out->records->len, >=, 2);
  first = g_ptr_array_index (out->records, 0);
  last = g_ptr_array_index (out->records, out->records->len - 1);
  g_assert_cmpstr (json_object_get_string_member (first, "type"), ==, "hello");
  g_assert_cmpint (json_object_get_int_member (first, "protocol"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (last, "type"), ==, "done");
  g_assert_cmpint (json_object_get_int_member (last, "exit_code"), ==, out->exit_code);
  for (guint i = 0; i < out->records->len; i++)
    g_assert_true (json_object_has_member (g_ptr_array_index (out->records, i), "t"));
}

static void
test_list (void)
{
  const char *args[] = { "--list", NULL };
  RunnerOutput out = { 0 };
  const char *expected[] = { "vector_add", "matmul_naive", "matmul_tiled" };

  run_runner (&out, TRUE, args);
  assert_well_formed (&out);
  g_assert_cmpint (out.exit_code, ==, 0);
  /* The tutorial's kernels come first, in its order; the test-only faulting kernel is
   * hidden. */
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      JsonObject *k = find (&out, "kernel", i);

      g_assert_nonnull (k);
      g_assert_cmpstr (json_object_get_string_member (k, "name"), ==, expected[i]);
    }
  for (guint i = 0; find (&out, "kernel", i) != NULL; i++)
    {
      JsonObject *k = find (&out, "kernel", i);

      g_assert_true (g_str_has_prefix (json_object_get_string_member (k, "source"), "kernels/"));
      g_assert_cmpstr (json_object_get_string_member (k, "name"), !=, "debug_fault");
    }
  {
    JsonObject *va = find (&out, "kernel", 0);
    JsonArray *shape = json_object_get_array_member (va, "default_shape");
    JsonArray *block = json_object_get_array_member (va, "default_block");

    /* The tutorial's configuration: n = 10,000,000, 256 threads per block. */
    g_assert_cmpint (json_array_get_int_element (shape, 0), ==, 10000000);
    g_assert_cmpint (json_array_get_int_element (block, 0), ==, 256);
  }
  runner_output_clear (&out);
}

static void
test_no_driver (void)
{
  const char *args[] = { "--device-info", NULL };
  RunnerOutput out = { 0 };
  JsonObject *error, *hello;

  run_runner (&out, TRUE, args);
  assert_well_formed (&out);
  g_assert_cmpint (out.exit_code, ==, 3);
  hello = find (&out, "hello", 0);
  g_assert_false (json_object_get_boolean_member (hello, "driver_found"));
  error = find (&out, "error", 0);
  g_assert_nonnull (error);
  g_assert_cmpstr (json_object_get_string_member (error, "code"), ==, "no_driver");
  /* Said for a person, not as the runtime's "driver version is insufficient". */
  g_assert_nonnull (strstr (json_object_get_string_member (error, "message"),
                            "No NVIDIA driver is installed"));
  g_assert_null (strstr (json_object_get_string_member (error, "message"), "insufficient"));
  g_assert_null (find (&out, "device", 0));
  runner_output_clear (&out);
}

static void
test_runs_without_driver (void)
{
  const char *args[] = { "--kernel", "vector_add", NULL };
  RunnerOutput out = { 0 };

  run_runner (&out, TRUE, args);
  assert_well_formed (&out);
  g_assert_cmpint (out.exit_code, ==, 3);
  g_assert_cmpstr (json_object_get_string_member (find (&out, "error", 0), "code"), ==,
                   "no_driver");
  runner_output_clear (&out);
}

typedef struct
{
  const char *args[12];
  const char *code;
  const char *in_message; /* a phrase the message must contain */
} BadInput;

static const BadInput bad_inputs[] = {
  { { "--kernel", "nope", NULL }, "unknown_kernel", "vector_add" },
  { { "--kernel", "vector_add", "--transfer", "shared", NULL }, "unknown_transfer", "pinned" },
  { { "--kernel", "vector_add", "--transfer", "streams:0", NULL }, "unknown_transfer", "from 1 to 8" },
  { { "--kernel", "vector_add", "--transfer", "streams:9", NULL }, "unknown_transfer", "from 1 to 8" },
  { { "--kernel", "vector_add", "--transfer", "streams:x", NULL }, "unknown_transfer", "streams:4" },
  { { "--kernel", "vector_add", "--transfer", "pinned,streams", NULL }, "unknown_transfer", "streams:K" },
  { { "--kernel", "vector_add", "--transfer", "streams:2,streams:2", NULL }, "unknown_transfer", "twice" },
  { { "--kernel", "reduce_warp", "--transfer", "streams:2", NULL }, "unknown_transfer", "cannot be cut" },
  { { "--kernel", "transpose_naive", "--sizes", "64x64x64", NULL }, "invalid_size", "ROWSxCOLS" },
  { { "--kernel", "reduce_shared", "--blocks", "96", NULL }, "invalid_block", "power of two" },
  { { "--kernel", "transpose_padded", "--blocks", "16x16", NULL }, "invalid_block", "32xH" },
  { { "--kernel", "vector_add", "--sizes", "0", NULL }, "invalid_size", "at least 1" },
  { { "--kernel", "vector_add", "--sizes", "-5", NULL }, "invalid_size", "negative" },
  { { "--kernel", "vector_add", "--sizes", "abc", NULL }, "invalid_size", "not a size" },
  { { "--kernel", "vector_add", "--sizes", "1.5", NULL }, "invalid_size", "whole number" },
  { { "--kernel", "vector_add", "--sizes", "1000,,2000", NULL }, "invalid_size", "extra comma" },
  { { "--kernel", "vector_add", "--sizes", "1e3:1e2:x10", NULL }, "invalid_size", "goes down" },
  { { "--kernel", "vector_add", "--sizes", "1e3:1e5:x1", NULL }, "invalid_size", "step" },
  { { "--kernel", "vector_add", "--sizes", "512x512x512", NULL }, "invalid_size", "one size" },
  { { "--kernel", "matmul_naive", "--sizes", "512x512", NULL }, "invalid_size", "MxNxK" },
  { { "--kernel", "vector_add", "--blocks", "32,abc", NULL }, "invalid_block", "'abc'" },
  { { "--kernel", "vector_add", "--blocks", "0", NULL }, "invalid_block", "at least one thread" },
  { { "--kernel", "vector_add", "--blocks", "2048", NULL }, "invalid_block", "1024" },
  { { "--kernel", "matmul_naive", "--blocks", "33x33", NULL }, "invalid_block", "1089 threads" },
  { { "--kernel", "matmul_naive", "--blocks", "1x1x128", NULL }, "invalid_block", "third" },
  { { "--kernel", "vector_add", "--blocks", "16x16", NULL }, "invalid_block", "1D kernel" },
  { { "--kernel", "matmul_naive", "--blocks", "256", NULL }, "invalid_block", "2D kernel" },
  { { "--kernel", "matmul_tiled", "--blocks", "16x8", NULL }, "invalid_block", "8x8, 16x16 or 32x32" },
  { { "--kernel", "vector_add", "--reps", "0", NULL }, "invalid_reps", "between 1" },
  { { "--kernel", "vector_add", "--reps", "ten", NULL }, "invalid_reps", "whole number" },
  { { "--kernel", "vector_add", "--cpu", "some", NULL }, "bad_argument", "none" },
  { { "--kernel", NULL }, "bad_argument", "needs a value" },
  { { "--frobnicate", NULL }, "bad_argument", "unknown option" },
  { { "--sizes", "1000", NULL }, "bad_argument", "need a kernel" },
  { { NULL }, "bad_argument", "nothing to do" },
};

static void
test_bad_input (gconstpointer data)
{
  const BadInput *bad = data;
  RunnerOutput out = { 0 };
  JsonObject *error;

  /* Without a driver: the argument's own code must come first, so a typo is reported as a
   * typo whether or not the machine has a GPU. */
  run_runner (&out, TRUE, bad->args);
  assert_well_formed (&out);
  g_assert_cmpint (out.exit_code, ==, 2);
  error = find (&out, "error", 0);
  g_assert_nonnull (error);
  g_assert_cmpstr (json_object_get_string_member (error, "code"), ==, bad->code);
  g_assert_cmpstr (json_object_get_string_member (error, "severity"), ==, "error");
  if (strstr (json_object_get_string_member (error, "message"), bad->in_message) == NULL)
    g_error ("message for %s lacks \"%s\": %s", bad->code, bad->in_message,
             json_object_get_string_member (error, "message"));
  /* The same sentence reaches a person on stderr. */
  g_assert_nonnull (strstr (out.err, "warpscope-runner: error: "));
  g_assert_null (find (&out, "run", 0));
  runner_output_clear (&out);
}

/* --check validates without touching the GPU: valid arguments pass even with no driver. */
static void
test_check (void)
{
  const char *good[] = { "--check", "--kernel", "matmul_tiled", "--sizes", "1000,512x256x1024",
                         "--blocks", "16x16", NULL };
  const char *bad[] = { "--check", "--kernel", "matmul_tiled", "--blocks", "16x8", NULL };
  RunnerOutput out = { 0 };

  run_runner (&out, TRUE, good);
  assert_well_formed (&out);
  g_assert_cmpint (out.exit_code, ==, 0);
  g_assert_null (find (&out, "error", 0));
  runner_output_clear (&out);
  run_runner (&out, TRUE, bad);
  assert_well_formed (&out);
  g_assert_cmpint (out.exit_code, ==, 2);
  g_assert_cmpstr (json_object_get_string_member (find (&out, "error", 0), "code"), ==,
                   "invalid_block");
  runner_output_clear (&out);
}

static void
test_help (void)
{
  const char *argv[] = { g_getenv ("WS_RUNNER"), "--help", NULL };
  g_autofree char *out = NULL;
  int status;
  g_autoptr (GError) error = NULL;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status,
                &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (out, "Usage: warpscope-runner"));
  g_assert_nonnull (strstr (out, "Exit status"));
}

/* ---- JSON escaping ------------------------------------------------------------------------ */

static char *
roundtrip_string (const char *value)
{
  WsJson json;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  char *result;

  ws_json_init (&json);
  ws_json_begin_record (&json, "x");
  ws_json_string (&json, "s", value);
  ws_json_double (&json, "nan", NAN);
  ws_json_double (&json, "tenth", 0.1);
  ws_json_double (&json, "big", 1e300);
  ws_json_int (&json, "neg", -42);
  /* end_record writes to a FILE; build the line by hand for the parser instead */
  g_assert_false (json.failed);
  {
    g_autofree char *line = g_strconcat (json.data, "}", NULL);

    g_assert_true (g_utf8_validate (line, -1, NULL));
    json_parser_load_from_data (parser, line, -1, &error);
    g_assert_no_error (error);
  }
  {
    JsonObject *o = json_node_get_object (json_parser_get_root (parser));

    g_assert_true (json_object_get_null_member (o, "nan"));
    g_assert_cmpfloat (json_object_get_double_member (o, "tenth"), ==, 0.1);
    g_assert_cmpfloat (json_object_get_double_member (o, "big"), ==, 1e300);
    g_assert_cmpint (json_object_get_int_member (o, "neg"), ==, -42);
    result = g_strdup (json_object_get_string_member (o, "s"));
  }
  ws_json_clear (&json);
  return result;
}

static void
test_json_escaping (void)
{
  const char *same[] = {
    "plain",
    "say \"hi\"",
    "back\\slash",
    "new\nline\ttab\rreturn\bbell\fform",
    "\x01\x1f\x7f",
    "µs — 中文 ✓ 🚀",
    "",
  };

  for (guint i = 0; i < G_N_ELEMENTS (same); i++)
    {
      g_autofree char *got = roundtrip_string (same[i]);

      g_assert_cmpstr (got, ==, same[i]);
    }
  {
    /* Invalid UTF-8 (a lone continuation byte, a truncated sequence, an overlong '/', a
     * surrogate) becomes U+FFFD, so the line stays valid JSON. */
    g_autofree char *got = roundtrip_string ("a\x80" "b\xE4\xB8" "c\xC0\xAF" "d\xED\xA0\x80" "e");

    g_assert_cmpstr (got, ==, "a\xEF\xBF\xBD" "b\xEF\xBF\xBD\xEF\xBF\xBD" "c\xEF\xBF\xBD\xEF\xBF\xBD"
                     "d\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" "e");
  }
  {
    WsJson json;

    ws_json_init (&json);
    ws_json_begin_record (&json, "x");
    ws_json_string (&json, "null", NULL);
    g_assert_nonnull (strstr (json.data, "\"null\":null"));
    ws_json_clear (&json);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("WS_RUNNER") == NULL)
    g_error ("WS_RUNNER must name the runner executable");

  g_test_add_func ("/runner/list", test_list);
  g_test_add_func ("/runner/no-driver", test_no_driver);
  g_test_add_func ("/runner/runs-without-driver", test_runs_without_driver);
  g_test_add_func ("/runner/help", test_help);
  g_test_add_func ("/runner/check", test_check);
  g_test_add_func ("/runner/json-escaping", test_json_escaping);
  for (guint i = 0; i < G_N_ELEMENTS (bad_inputs); i++)
    {
      g_autofree char *path = NULL;
      g_autofree char *joined = g_strjoinv (" ", (char **) bad_inputs[i].args);

      path = g_strdup_printf ("/runner/bad-input/%u %s", i, joined);
      g_strdelimit (path + strlen ("/runner/bad-input/"), "/", '_');
      g_test_add_data_func (path, &bad_inputs[i], test_bad_input);
    }
  return g_test_run ();
}

/* test-runner.c: warpscope-runner on a machine without a GPU: the catalog, the missing-driver
 * diagnosis, every bad input refused with its code, JSON escaping, and the GLib-free parts
 * that need no GPU: host arrays on huge pages and waiting for spinning threads, and reading
 * the host's memory limits (finding a BLAS: test-runner-blas.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE /* sched_getcpu */
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ws-blas.h"
#include "ws-gemm-cpu.h"
#include "ws-hostbuf.h"
#include "ws-hostmem.h"
#include "ws-json.h"
#include "ws-shard.h"

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
  { { "--kernel", "vector_add", "--cache", "hot", NULL }, "bad_argument", "cold" },
  { { "--kernel", "reduce_warp", "--blocks", "48", NULL }, "invalid_block", "multiple of 32" },
  { { "--kernel", "reduce_warp_multi", "--blocks", "16", NULL }, "invalid_block", "shuffles" },
  { { "--kernel", "reduce_atomic", "--blocks", "16x2", NULL }, "invalid_block", "atomicAdd" },
  { { "--kernel", "transpose_naive", "--blocks", "512", NULL }, "invalid_block", "WxH" },
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

/* Blocks the kernels take since their checks say what each kernel does: any W×H for the 2D
 * kernels (1024x1, 1x1024), any block for reduce_atomic, any power of two for the tree, any
 * multiple of 32 for the shuffles; and --cache, --device with --device-info. */
static void
test_check_accepts (void)
{
  static const char *const accepted[][8] = {
    { "--check", "--kernel", "matmul_naive", "--blocks", "1024x1", NULL },
    { "--check", "--kernel", "matmul_naive", "--blocks", "1x1024", NULL },
    { "--check", "--kernel", "transpose_naive", "--blocks", "1024x1", NULL },
    { "--check", "--kernel", "reduce_atomic", "--blocks", "96,1,3", NULL },
    { "--check", "--kernel", "reduce_shared", "--blocks", "1,2,4,1024", NULL },
    { "--check", "--kernel", "reduce_warp,reduce_warp_multi", "--blocks", "96,160", NULL },
    { "--check", "--kernel", "vector_add", "--cache", "cold", NULL },
    { "--check", "--kernel", "vector_add", "--cache", "warm", NULL },
    { "--check", "--device-info", "--device", "1", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (accepted); i++)
    {
      RunnerOutput out = { 0 };

      run_runner (&out, TRUE, accepted[i]);
      assert_well_formed (&out);
      if (out.exit_code != 0)
        g_error ("%s %s %s was refused: %s", accepted[i][2], accepted[i][3],
                 accepted[i][4] ? accepted[i][4] : "",
                 json_object_get_string_member (find (&out, "error", 0), "message"));
      g_assert_null (find (&out, "error", 0));
      runner_output_clear (&out);
    }
}

/* reduce_atomic has no tree and needs no whole warps: its refusal must not say it has. */
static void
test_reduce_atomic_message (void)
{
  const char *args[] = { "--check", "--kernel", "reduce_atomic", "--blocks", "8x8", NULL };
  RunnerOutput out = { 0 };
  const char *message;

  run_runner (&out, TRUE, args);
  g_assert_cmpint (out.exit_code, ==, 2);
  message = json_object_get_string_member (find (&out, "error", 0), "message");
  g_assert_nonnull (strstr (message, "reduce_atomic"));
  g_assert_null (strstr (message, "tree"));
  g_assert_null (strstr (message, "warp"));
  g_assert_null (strstr (message, "power of two"));
  runner_output_clear (&out);
}

/* ---- host arrays ------------------------------------------------------------------------ */

/* Large arrays are mapped 2 MiB aligned (so that every page of them can be a huge page, as
 * numpy's are), small ones come from the heap; both hold what is written. */
static void
test_hostbuf_alloc (void)
{
  const size_t sizes[] = { 4, 1000, WS_HOST_HUGE_THRESHOLD - 4, WS_HOST_HUGE_THRESHOLD,
                           (size_t) 9 << 20 };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      unsigned char *p = ws_host_alloc (sizes[i]);
      int64_t huge;

      g_assert_nonnull (p);
      g_assert_cmpuint ((uintptr_t) p % 64, ==, 0);
      if (sizes[i] >= WS_HOST_HUGE_THRESHOLD)
        g_assert_cmpuint ((uintptr_t) p % WS_HOST_HUGE_ALIGN, ==, 0);
      memset (p, 0xA5, sizes[i]);
      g_assert_cmpuint (p[0], ==, 0xA5);
      g_assert_cmpuint (p[sizes[i] - 1], ==, 0xA5);
      /* Whether the kernel gives huge pages depends on its settings: only the reading of
       * /proc/self/smaps is checked. */
      huge = ws_host_huge_bytes (p, sizes[i]);
      g_assert_cmpint (huge, >=, 0);
      if (sizes[i] < WS_HOST_HUGE_THRESHOLD)
        g_assert_cmpint (huge, <=, (int64_t) WS_HOST_HUGE_ALIGN * 2);
      ws_host_free (p, sizes[i]);
    }
  ws_host_free (NULL, 0);
}

static gint spinner_done;

static gpointer
spin (gpointer data)
{
  gint64 until = g_get_monotonic_time () + GPOINTER_TO_INT (data) * 1000;

  while (g_get_monotonic_time () < until)
    ;
  g_atomic_int_set (&spinner_done, 1);
  return NULL;
}

/* A thread that spins (OpenMP's after a parallel region) is waited for; a sleeping one is
 * not, and the wait gives up after its limit. */
static void
test_hostbuf_wait_quiet (void)
{
  GThread *t;
  double waited;

  g_assert_cmpfloat (ws_host_wait_quiet (2.0), >=, 0);

  g_atomic_int_set (&spinner_done, 0);
  t = g_thread_new ("spinner", spin, GINT_TO_POINTER (300));
  waited = ws_host_wait_quiet (5.0);
  g_assert_cmpfloat (waited, >=, 0.2);
  g_assert_cmpint (g_atomic_int_get (&spinner_done), ==, 1);
  g_thread_join (t);

  g_atomic_int_set (&spinner_done, 0);
  t = g_thread_new ("spinner", spin, GINT_TO_POINTER (1500));
  g_assert_cmpfloat (ws_host_wait_quiet (0.3), <, 0);
  g_thread_join (t);
}

/* The pageable ceilings visit every CPU, or 16 of many with both halves and both parities
 * among them; pinning moves the thread and gives it its CPUs back. */
static void
test_hostbuf_cpus (void)
{
  int allowed[64], out[16], cpus[1024], n, k, halves[2] = { 0 }, parity[2] = { 0 };

  for (int i = 0; i < 64; i++)
    allowed[i] = i;
  g_assert_cmpint (ws_host_spread_cpus (allowed, 5, out, 16), ==, 5);
  for (int i = 0; i < 5; i++)
    g_assert_cmpint (out[i], ==, i);
  k = ws_host_spread_cpus (allowed, 64, out, 16);
  g_assert_cmpint (k, ==, 16);
  for (int i = 0; i < k; i++)
    {
      g_assert_cmpint (out[i], <, 64);
      if (i > 0)
        g_assert_cmpint (out[i], >, out[i - 1]);
      halves[out[i] >= 32]++;
      parity[out[i] % 2]++;
    }
  g_assert_cmpint (halves[0], ==, 8);
  g_assert_cmpint (parity[0], ==, 8);
  g_assert_cmpint (ws_host_spread_cpus (allowed, 20, out, 16), ==, 16);

  n = ws_host_allowed_cpus (cpus, G_N_ELEMENTS (cpus));
  g_assert_cmpint (n, >=, 1);
  g_assert_true (ws_host_pin_cpu (cpus[n - 1]));
  g_assert_cmpint (sched_getcpu (), ==, cpus[n - 1]);
  /* While pinned, the CPUs it may use are still the ones it had. */
  g_assert_cmpint (ws_host_allowed_cpus (cpus, G_N_ELEMENTS (cpus)), ==, n);
  g_assert_true (ws_host_pin_cpu (-1));
  g_assert_cmpint (ws_host_allowed_cpus (cpus, G_N_ELEMENTS (cpus)), ==, n);
}

/* ---- --shard ---------------------------------------------------------------------------- */

/* --shard K/N deals the plan's positions round-robin; every position is in exactly one share,
 * a kernel with a fixed block counts once per size, and an empty share is empty. */
static void
test_shard (void)
{
  static const WsKernelDesc free_block = { .block_fixed = 0 }, fixed_block = { .block_fixed = 1 };
  WsOptions o = { .n_kernels = 2, .n_transfers = 2, .n_sizes = 3, .n_blocks = 4 };
  const char *bad[] = { "3/3", "a/2", "1/0", "1/", "/2", "1/2x", "-1/2", "4096/4097", "" };
  int seen[64] = { 0 };
  char message[256];
  int k, n;

  o.kernels[0] = &free_block;
  o.kernels[1] = &fixed_block;
  g_assert_cmpint (ws_shard_plan_size (&o), ==, 2 * 3 * 4 + 2 * 3);
  g_assert_true (ws_shard_parse ("0/1", &k, &n, message, sizeof message));
  g_assert_true (ws_shard_parse ("4095/4096", &k, &n, message, sizeof message));
  g_assert_cmpint (k, ==, 4095);
  g_assert_cmpint (n, ==, 4096);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_assert_false (ws_shard_parse (bad[i], &k, &n, message, sizeof message));
      g_assert_nonnull (strstr (message, "--shard takes K/N"));
    }
  o.shard_count = 5;
  for (o.shard_index = 0; o.shard_index < 5; o.shard_index++)
    {
      int items[30];
      int kept;

      for (int p = 0; p < 30; p++)
        items[p] = p;
      kept = ws_shard_keep (items, 30, sizeof items[0], &o);
      g_assert_cmpint (kept, ==, ws_shard_share (&o));
      g_assert_cmpint (kept, ==, 6);
      for (int i = 0; i < kept; i++)
        {
          g_assert_cmpint (items[i] % 5, ==, o.shard_index);
          g_assert_true (i == 0 || items[i] > items[i - 1]);
          seen[items[i]]++;
        }
    }
  for (int p = 0; p < 30; p++)
    g_assert_cmpint (seen[p], ==, 1);
  o.shard_count = 40;
  o.shard_index = 35;
  g_assert_cmpint (ws_shard_share (&o), ==, 0);
}

/* ---- host memory ------------------------------------------------------------------------ */

static void
test_hostmem_parsers (void)
{
  const char *meminfo = "MemTotal:       131072000 kB\nMemFree:         1024 kB\n"
                        "MemAvailable:    6291456 kB\nBuffers:  12 kB\n";
  const char *proc_cgroup = "12:cpu,cpuacct:/legacy\n0::/system.slice/ws.scope\n";
  char path[256];
  uint64_t bytes = 0, limit = 0, available = 0;

  g_assert_true (ws_hostmem_parse_meminfo (meminfo, "MemAvailable", &bytes));
  g_assert_cmpuint (bytes, ==, 6291456ull * 1024);
  g_assert_true (ws_hostmem_parse_meminfo (meminfo, "MemTotal", &bytes));
  g_assert_cmpuint (bytes, ==, 131072000ull * 1024);
  g_assert_false (ws_hostmem_parse_meminfo (meminfo, "Mem", &bytes));
  g_assert_false (ws_hostmem_parse_meminfo ("", "MemAvailable", &bytes));

  /* A 6 GiB limit, 1 GiB held, of which 512 MiB is inactive page cache. */
  g_assert_true (ws_hostmem_parse_cgroup ("6442450944\n", "1073741824\n",
                                          "anon 1\nfile 2\ninactive_file 536870912\n", &limit,
                                          &available));
  g_assert_cmpuint (limit, ==, 6442450944ull);
  g_assert_cmpuint (available, ==, 6442450944ull - 536870912ull);
  g_assert_false (ws_hostmem_parse_cgroup ("max\n", "1073741824\n", NULL, &limit, &available));
  g_assert_true (ws_hostmem_parse_cgroup ("1000\n", "5000\n", NULL, &limit, &available));
  g_assert_cmpuint (available, ==, 0);

  g_assert_true (ws_hostmem_parse_cgroup_path (proc_cgroup, path, sizeof path));
  g_assert_cmpstr (path, ==, "/system.slice/ws.scope");
  g_assert_false (ws_hostmem_parse_cgroup_path ("3:memory:/x\n", path, sizeof path));
}

/* The runner's refusal: both numbers, the limit that binds, and what to change. */
static void
test_hostmem_check (void)
{
  WsHostmem cgroup = { .available = 5800000000ull, .limit = WS_HOSTMEM_CGROUP,
                       .limit_bytes = 6000000000ull };
  WsHostmem none = { .available = UINT64_MAX, .limit = WS_HOSTMEM_NONE, .limit_bytes = 0 };
  WsHostmem live;
  char message[768];

  g_assert_false (ws_hostmem_check (&cgroup, "vector_add", "1e9", 1000000000ull, 3, "pageable",
                                    12000000000ull, 4000000000ull, message, sizeof message));
  g_assert_nonnull (strstr (message, "vector_add at n = 1e9"));
  g_assert_nonnull (strstr (message, "16.00 GB of host memory"));
  g_assert_nonnull (strstr (message, "5.80 GB is available"));
  g_assert_nonnull (strstr (message, "memory.max of 6.00 GB"));
  g_assert_nonnull (strstr (message, "--cpu none"));
  g_assert_nonnull (strstr (message, "n of at most"));

  g_assert_false (ws_hostmem_check (&cgroup, "matmul_tiled", "32768", 0, 3, "pinned",
                                    12884901888ull, 0, message, sizeof message));
  g_assert_nonnull (strstr (message, "pinned matrices"));
  g_assert_null (strstr (message, "--cpu none"));

  g_assert_true (ws_hostmem_check (&cgroup, "vector_add", "1e8", 100000000ull, 3, "pageable",
                                   1200000000ull, 400000000ull, message, sizeof message));
  g_assert_true (ws_hostmem_check (&none, "vector_add", "1e12", 1000000000000ull, 3,
                                   "pageable", 12000000000000ull, 0, message, sizeof message));

  /* This machine: some limit is known (MemAvailable at least), and it is not zero. */
  ws_hostmem_query (&live);
  g_assert_cmpint (live.limit, !=, WS_HOSTMEM_NONE);
  g_assert_cmpuint (live.available, >, 0);
  g_assert_cmpuint (live.available, <, UINT64_MAX);
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
  g_test_add_func ("/runner/check-accepts", test_check_accepts);
  g_test_add_func ("/runner/reduce-atomic-message", test_reduce_atomic_message);
  g_test_add_func ("/runner/hostbuf/alloc", test_hostbuf_alloc);
  g_test_add_func ("/runner/hostbuf/wait-quiet", test_hostbuf_wait_quiet);
  g_test_add_func ("/runner/hostbuf/cpus", test_hostbuf_cpus);

  g_test_add_func ("/runner/shard", test_shard);
  g_test_add_func ("/runner/hostmem/parsers", test_hostmem_parsers);
  g_test_add_func ("/runner/hostmem/check", test_hostmem_check);
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

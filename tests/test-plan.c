/* test-plan.c: the run plan as the sidebar uses it: forgiving sizes and blocks, the sentence
 * that says what to change, the runner's argv, the sweep's count and time, the kernel's own
 * defaults, and the runner's own check (--check, no GPU needed).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>

#include "ws-input.h"
#include "ws-plan.h"

/* Kernels and device from recordings made on an H200: the catalog the runner would give. */
typedef struct
{
  WsSession *vector_add, *matmul;
  GListStore *catalog;
  WsPlan *plan;
} Fixture;

static WsSession *
load_sample (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_SAMPLES_DIR"), name, NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  WsSession *session = ws_session_load (file, NULL, &error);

  g_assert_no_error (error);
  return session;
}

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  WsSession *sessions[2];

  f->vector_add = load_sample ("vector-add-sizes-h200.jsonl");
  f->matmul = load_sample ("matmul-sizes-h200.jsonl");
  sessions[0] = f->vector_add, sessions[1] = f->matmul;
  f->catalog = g_list_store_new (WS_TYPE_KERNEL_ENTRY);
  for (int s = 0; s < 2; s++)
    {
      GListModel *kernels = ws_session_get_kernels (sessions[s]);

      for (guint i = 0; i < g_list_model_get_n_items (kernels); i++)
        {
          g_autoptr (WsKernelEntry) entry = g_list_model_get_item (kernels, i);

          g_list_store_append (f->catalog, entry);
        }
    }
  f->plan = ws_plan_new ();
  ws_plan_set_catalog (f->plan, G_LIST_MODEL (f->catalog));
  ws_plan_set_device (f->plan, ws_session_get_device (f->vector_add));
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_clear_object (&f->plan);
  g_clear_object (&f->catalog);
  g_clear_object (&f->vector_add);
  g_clear_object (&f->matmul);
}

/* ---- what people type ------------------------------------------------------------------- */

static void
test_parse_count (void)
{
  const struct
  {
    const char *text;
    guint64 value;
  } good[] = {
    { "10000000", 10000000 }, { "10 M", 10000000 }, { "1e7", 10000000 },
    { "10,000,000", 10000000 }, { "1_000", 1000 }, { "1.5K", 1500 }, { "2G", 2000000000 },
  };
  const struct
  {
    const char *text;
    const char *why;
  } bad[] = {
    { "", "Type a size, such as 10000000 or 10 M." },
    { "-5", "A size counts elements: it cannot be negative." },
    { "ten", "“ten” is not a number." },
    { "1.5", "1.5 is not a whole number of elements." },
    { "0", "A size must be at least 1." },
    { "1e17", "That size is far larger than any GPU's memory." },
  };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      guint64 v = 0;
      g_autofree char *why = NULL;

      g_assert_true (ws_input_parse_count (good[i].text, &v, &why));
      g_assert_cmpuint (v, ==, good[i].value);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      guint64 v = 0;
      g_autofree char *why = NULL;

      g_assert_false (ws_input_parse_count (bad[i].text, &v, &why));
      g_assert_cmpstr (why, ==, bad[i].why);
    }
}

static void
test_parse_size_and_block (void)
{
  guint64 s[3];
  guint b[3];
  int rank;
  g_autofree char *why = NULL;

  g_assert_true (ws_input_parse_size ("512×256×1024", s, &rank, &why));
  g_assert_cmpint (rank, ==, 3);
  g_assert_cmpuint (s[0], ==, 512);
  g_assert_cmpuint (s[1], ==, 256);
  g_assert_cmpuint (s[2], ==, 1024);
  g_assert_true (ws_input_parse_size ("4 K", s, &rank, &why));
  g_assert_cmpint (rank, ==, 1);
  g_assert_cmpuint (s[2], ==, 4000);
  g_assert_false (ws_input_parse_size ("2x3", s, &rank, &why));
  g_assert_nonnull (strstr (why, "M×N×K"));
  g_clear_pointer (&why, g_free);

  g_assert_true (ws_input_parse_block ("16X16", b, &rank, &why));
  g_assert_cmpint (rank, ==, 2);
  g_assert_cmpuint (b[0] * b[1] * b[2], ==, 256);
  g_assert_false (ws_input_parse_block ("33x33", b, &rank, &why));
  g_assert_cmpstr (why, ==, "33×33 is 1089 threads, more than the 1024 a block can hold on any "
                            "CUDA GPU; try 32×32.");
  g_clear_pointer (&why, g_free);
  g_assert_false (ws_input_parse_block ("2048", b, &rank, &why));
  g_assert_cmpstr (why, ==, "2048 threads in one dimension is more than the 1024 a block can hold.");
  g_clear_pointer (&why, g_free);
  g_assert_false (ws_input_parse_block ("0", b, &rank, &why));
  g_assert_cmpstr (why, ==, "A block needs at least one thread in each dimension.");
}

/* ---- validation ------------------------------------------------------------------------- */

static void
assert_refused (WsPlan *plan, WsPlanMode mode, WsPlanError code, const char *message)
{
  g_autoptr (GError) error = NULL;

  g_assert_false (ws_plan_validate (plan, mode, &error));
  g_assert_error (error, WS_PLAN_ERROR, (int) code);
  g_assert_cmpstr (error->message, ==, message);
  /* The same sentence is what the sidebar shows. */
  g_assert_cmpstr (ws_plan_get_problem (plan, mode), ==, message);
  g_assert_false (ws_plan_get_valid (plan, mode));
}

static void
test_validate (Fixture *f, gconstpointer data)
{
  WsPlan *plan = f->plan;

  /* The saved kernel is the first of the catalog's when none was chosen: vector_add. */
  g_assert_cmpstr (ws_plan_get_kernel (plan), ==, "vector_add");
  g_assert_true (ws_plan_validate (plan, WS_PLAN_RUN, NULL));
  g_assert_true (ws_plan_get_valid (plan, WS_PLAN_RUN));
  g_assert_null (ws_plan_get_problem (plan, WS_PLAN_RUN));

  ws_plan_set_block (plan, "16x16");
  assert_refused (plan, WS_PLAN_RUN, WS_PLAN_ERROR_BLOCK,
                  "vector_add is a 1D kernel: give one number of threads, such as 256.");
  ws_plan_set_block (plan, "256");
  g_object_set (plan, "size", "512×256×1024", NULL);
  assert_refused (plan, WS_PLAN_RUN, WS_PLAN_ERROR_SIZE,
                  "vector_add takes one size, the number of elements.");
  g_object_set (plan, "size", "10 M", NULL);
  g_assert_true (ws_plan_get_valid (plan, WS_PLAN_RUN));

  g_object_set (plan, "sweep-from", "1e6", "sweep-to", "1000", NULL);
  assert_refused (plan, WS_PLAN_SWEEP, WS_PLAN_ERROR_SWEEP,
                  "The sweep goes down: make “From size” the smaller one.");
  g_object_set (plan, "sweep-to", "1e8", "sweep-blocks", " , ", NULL);
  assert_refused (plan, WS_PLAN_SWEEP, WS_PLAN_ERROR_SWEEP,
                  "List at least one block for the sweep, such as 128,256.");
  g_object_set (plan, "sweep-blocks", "128,x", NULL);
  assert_refused (plan, WS_PLAN_SWEEP, WS_PLAN_ERROR_BLOCK,
                  "“x” is not a block: write 256, or 16×16.");
  /* One mode's problem leaves the other alone. */
  g_assert_true (ws_plan_get_valid (plan, WS_PLAN_RUN));

  ws_plan_set_kernel (plan, "matmul_tiled");
  ws_plan_set_block (plan, "256");
  assert_refused (plan, WS_PLAN_RUN, WS_PLAN_ERROR_BLOCK,
                  "matmul_tiled is a 2D kernel: give the block as W×H, such as 16×16.");
  /* The device's own limits: the H200 allows 64 threads in z. */
  ws_plan_set_block (plan, "1x8x128");
  assert_refused (plan, WS_PLAN_RUN, WS_PLAN_ERROR_BLOCK,
                  "The NVIDIA H200 allows at most 64 threads in dimension z.");
}

static void
test_no_kernel (void)
{
  g_autoptr (WsPlan) plan = ws_plan_new ();
  g_autoptr (GError) error = NULL;

  /* Before the catalog: nothing can run, and nothing is wrong with what was typed. */
  g_assert_false (ws_plan_validate (plan, WS_PLAN_RUN, &error));
  g_assert_error (error, WS_PLAN_ERROR, WS_PLAN_ERROR_NO_KERNEL);
  g_assert_false (ws_plan_get_valid (plan, WS_PLAN_RUN));
  g_assert_null (ws_plan_get_problem (plan, WS_PLAN_RUN));
  g_assert_null (ws_plan_build_argv (plan, WS_PLAN_RUN, "warpscope-runner", NULL));
  /* A typing error shows even so. */
  g_object_set (plan, "size", "ten", NULL);
  g_assert_cmpstr (ws_plan_get_problem (plan, WS_PLAN_RUN), ==, "“ten” is not a number.");
}

/* ---- the kernel's defaults -------------------------------------------------------------- */

static void
test_kernel_defaults (Fixture *f, gconstpointer data)
{
  g_autoptr (WsPlan) restored = ws_plan_new ();
  g_autofree char *size = NULL, *from = NULL, *blocks = NULL;
  int factor;

  /* Another kernel starts from its own defaults, the sweep too. */
  ws_plan_set_kernel (f->plan, "matmul_tiled");
  g_object_get (f->plan, "size", &size, "sweep-from", &from, "sweep-factor", &factor,
                "sweep-blocks", &blocks, NULL);
  g_assert_cmpstr (size, ==, "512");
  g_assert_cmpstr (ws_plan_get_block (f->plan), ==, "16×16");
  g_assert_cmpstr (from, ==, "256");
  g_assert_cmpint (factor, ==, 2);
  g_assert_cmpstr (blocks, ==, "16x16");
  g_assert_cmpint (ws_plan_get_size_rank (f->plan), ==, 3);
  g_assert_cmpint (ws_plan_get_block_dims (f->plan), ==, 2);
  g_assert_nonnull (strstr (ws_plan_get_kernel_description (f->plan), "shared memory"));

  /* A restored choice keeps what suits the kernel and replaces what does not. */
  g_object_set (restored, "kernel", "matmul_tiled", "size", "1024", "block", "256", NULL);
  ws_plan_set_catalog (restored, G_LIST_MODEL (f->catalog));
  g_clear_pointer (&size, g_free);
  g_object_get (restored, "size", &size, NULL);
  g_assert_cmpstr (ws_plan_get_kernel (restored), ==, "matmul_tiled");
  g_assert_cmpstr (size, ==, "1024");
  g_assert_cmpstr (ws_plan_get_block (restored), ==, "16×16");

  /* The catalog for a list: names and titles in its order. */
  g_assert_cmpuint (ws_plan_get_n_kernels (restored), ==, 3);
  g_assert_cmpstr (ws_plan_get_kernel_name (restored, 0), ==, "vector_add");
  g_assert_cmpstr (ws_plan_get_kernel_title (restored, 2), ==, "Matrix multiply, shared-memory tiles");
}

/* ---- the runner's argv ------------------------------------------------------------------ */

static void
assert_argv (GStrv argv, const char *expected)
{
  g_autofree char *joined = g_strjoinv (" ", argv);

  g_assert_cmpstr (joined, ==, expected);
}

static void
test_argv (Fixture *f, gconstpointer data)
{
  g_auto (GStrv) run = NULL, sweep = NULL, matmul = NULL, bad = NULL, counted = NULL;
  g_autoptr (GError) error = NULL;

  g_object_set (f->plan, "size", "10 M", "block", "256", NULL);
  run = ws_plan_build_argv (f->plan, WS_PLAN_RUN, "/opt/warpscope-runner", &error);
  g_assert_no_error (error);
  assert_argv (run, "/opt/warpscope-runner --kernel vector_add --sizes 10000000 --blocks 256x1x1 "
                    "--transfer pageable --reps 10 --cpu 1,all");

  g_object_set (f->plan, "sweep-from", "1 K", "sweep-to", "1e8", "sweep-factor", 10,
                "sweep-blocks", "128, 256", "transfer", "pinned", "reps", 3, "cpu-one", FALSE,
                NULL);
  sweep = ws_plan_build_argv (f->plan, WS_PLAN_SWEEP, "warpscope-runner", &error);
  g_assert_no_error (error);
  assert_argv (sweep, "warpscope-runner --kernel vector_add --sizes 1000:100000000:x10 "
                      "--blocks 128x1x1,256x1x1 --transfer pinned --reps 3 --cpu all");

  ws_plan_set_kernel (f->plan, "matmul_naive");
  g_object_set (f->plan, "size", "512×256×1024", "block", "32×8", "cpu-all", FALSE, NULL);
  matmul = ws_plan_build_argv (f->plan, WS_PLAN_RUN, "warpscope-runner", &error);
  g_assert_no_error (error);
  assert_argv (matmul, "warpscope-runner --kernel matmul_naive --sizes 512x256x1024 --blocks "
                       "32x8x1 --transfer pinned --reps 3 --cpu none");
  /* The GPU's counters, where asked for (the sidebar's GPU counters): none by default. */
  g_object_set (f->plan, "counters", "memory", NULL);
  counted = ws_plan_build_argv (f->plan, WS_PLAN_RUN, "warpscope-runner", &error);
  g_assert_no_error (error);
  assert_argv (counted, "warpscope-runner --kernel matmul_naive --sizes 512x256x1024 --blocks "
                        "32x8x1 --transfer pinned --reps 3 --cpu none --counters memory");
  g_object_set (f->plan, "counters", "none", NULL);

  ws_plan_set_block (f->plan, "33x33");
  bad = ws_plan_build_argv (f->plan, WS_PLAN_RUN, "warpscope-runner", &error);
  g_assert_null (bad);
  g_assert_error (error, WS_PLAN_ERROR, WS_PLAN_ERROR_BLOCK);
}

/* ---- summaries and the estimate --------------------------------------------------------- */

static void
test_summaries (Fixture *f, gconstpointer data)
{
  g_autofree char *run = NULL, *no_history = NULL, *other_kernel = NULL, *matrix = NULL;
  guint n_sizes = 0, n_blocks = 0;

  g_object_set (f->plan, "size", "10000000", "block", "256", "sweep-from", "1000",
                "sweep-to", "100000000", "sweep-factor", 10, "sweep-blocks", "128,256", NULL);
  run = ws_plan_dup_run_summary (f->plan);
  g_assert_cmpstr (run, ==, "10,000,000 elements in a grid of 39,063 blocks of 256 threads.");
  g_assert_true (ws_plan_count_sweep (f->plan, &n_sizes, &n_blocks));
  g_assert_cmpuint (n_sizes, ==, 6);
  g_assert_cmpuint (n_blocks, ==, 2);
  no_history = ws_plan_dup_sweep_summary (f->plan, NULL);
  g_assert_cmpstr (no_history, ==, "6 sizes × 2 blocks = 12 configurations; the time appears "
                                   "after the first run.");
  /* A session of matrix products says nothing about vector adds. */
  other_kernel = ws_plan_dup_sweep_summary (f->plan, f->matmul);
  g_assert_cmpstr (other_kernel, ==, "6 sizes × 2 blocks = 12 configurations; the time appears "
                                     "after the first run of this kernel.");

  ws_plan_set_kernel (f->plan, "matmul_tiled");
  g_object_set (f->plan, "size", "512×256×1024", "block", "16×8", NULL);
  matrix = ws_plan_dup_run_summary (f->plan);
  g_assert_cmpstr (matrix, ==, "C is 512×256 (k = 1024): a grid of 16×64 blocks of 16×8 threads.");
  ws_plan_set_block (f->plan, "0");
  g_assert_null (ws_plan_dup_run_summary (f->plan));
}

static void
test_estimate (Fixture *f, gconstpointer data)
{
  double one = 0, twelve = 0, matmul = 0;
  g_autofree char *text = NULL;

  /* One configuration, then twelve: the estimate grows with the sweep. */
  g_object_set (f->plan, "sweep-from", "1000", "sweep-to", "1000", "sweep-blocks", "256", NULL);
  g_assert_true (ws_plan_estimate_sweep (f->plan, f->vector_add, &one));
  g_object_set (f->plan, "sweep-to", "100000000", "sweep-blocks", "128,256", NULL);
  g_assert_true (ws_plan_estimate_sweep (f->plan, f->vector_add, &twelve));
  g_assert_cmpfloat (one, >=, 1);
  g_assert_cmpfloat (twelve, >=, 12 * (one - 1));
  g_assert_cmpfloat (twelve, <=, 12 * one);
  text = ws_plan_dup_sweep_summary (f->plan, f->vector_add);
  g_assert_true (g_str_has_suffix (text, "s, judging by the runs so far."));
  g_assert_false (ws_plan_estimate_sweep (f->plan, f->matmul, &matmul));
  g_assert_false (ws_plan_estimate_sweep (f->plan, NULL, &matmul));

  /* The matrix products of a session take longer than its vector adds. */
  ws_plan_set_kernel (f->plan, "matmul_tiled");
  g_object_set (f->plan, "sweep-from", "256", "sweep-to", "4096", "sweep-factor", 2,
                "sweep-blocks", "16x16", NULL);
  g_assert_true (ws_plan_estimate_sweep (f->plan, f->matmul, &matmul));
  g_assert_cmpfloat (matmul, >, 5 * 0.5);
}

/* ---- the runner's own rules ------------------------------------------------------------- */

static gboolean
has_problem (gpointer plan)
{
  return ws_plan_get_problem (plan, WS_PLAN_RUN) != NULL;
}

static void
test_runner_check (Fixture *f, gconstpointer data)
{
  const char *runner = g_getenv ("WS_RUNNER");
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  if (runner == NULL || !g_file_test (runner, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("warpscope-runner not built");
      return;
    }
  /* 12×12 is a fine block by the plan's rules; the tiled kernel's tiles are 8, 16 or 32. */
  ws_plan_set_kernel (f->plan, "matmul_tiled");
  ws_plan_set_block (f->plan, "12x12");
  g_assert_true (ws_plan_get_valid (f->plan, WS_PLAN_RUN));
  ws_plan_set_runner (f->plan, runner);
  while (!has_problem (f->plan) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (ws_plan_get_problem (f->plan, WS_PLAN_RUN), ==,
                   "matmul_tiled uses square tiles as large as the block: give 8x8, 16x16 or "
                   "32x32, not 12x12");
  g_assert_false (ws_plan_get_valid (f->plan, WS_PLAN_RUN));
  /* A change clears the runner's verdict until it is asked again. */
  ws_plan_set_block (f->plan, "16x16");
  g_assert_null (ws_plan_get_problem (f->plan, WS_PLAN_RUN));
  g_assert_true (ws_plan_get_valid (f->plan, WS_PLAN_RUN));
}

/* A catalog entry from another runner may lack a member or hold another type there: the
 * reader either refuses the record with its field named, or the entry it keeps is one the plan
 * reads without failing (no default size or block: the plan's own stay). */
static void
test_odd_catalog (void)
{
  static const char *const entries[] = {
    "{\"type\":\"kernel\",\"name\":\"k\",\"block_dims\":1}",
    "{\"type\":\"kernel\",\"name\":\"k\",\"default_shape\":5,\"default_block\":\"256\","
    "\"shape_params\":{}}",
    "{\"type\":\"kernel\",\"name\":\"k\",\"default_shape\":[\"a\",[1]],"
    "\"default_block\":[null,{},3]}",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_RECORDING);
      g_autoptr (WsPlan) plan = ws_plan_new ();
      g_autoptr (GError) error = NULL;

      g_assert_true (ws_session_feed_line (
        session, "{\"type\":\"hello\",\"protocol\":1,\"runner\":\"0.1.0\"}", -1, NULL));
      if (!ws_session_feed_line (session, entries[i], -1, &error))
        {
          g_assert_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_MALFORMED);
          g_assert_null (ws_session_find_kernel (session, "k"));
          continue;
        }
      ws_plan_set_catalog (plan, ws_session_get_kernels (session));
      g_assert_cmpstr (ws_plan_get_kernel (plan), ==, "k");
      g_assert_cmpint (ws_plan_get_size_rank (plan), ==, 1);
      ws_plan_validate (plan, WS_PLAN_RUN, NULL);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/plan/parse-count", test_parse_count);
  g_test_add_func ("/plan/parse-size-and-block", test_parse_size_and_block);
  g_test_add_func ("/plan/no-kernel", test_no_kernel);
  g_test_add_func ("/plan/odd-catalog", test_odd_catalog);
  g_test_add ("/plan/validate", Fixture, NULL, fixture_set_up, test_validate, fixture_tear_down);
  g_test_add ("/plan/kernel-defaults", Fixture, NULL, fixture_set_up, test_kernel_defaults,
              fixture_tear_down);
  g_test_add ("/plan/argv", Fixture, NULL, fixture_set_up, test_argv, fixture_tear_down);
  g_test_add ("/plan/summaries", Fixture, NULL, fixture_set_up, test_summaries, fixture_tear_down);
  g_test_add ("/plan/estimate", Fixture, NULL, fixture_set_up, test_estimate, fixture_tear_down);
  g_test_add ("/plan/runner-check", Fixture, NULL, fixture_set_up, test_runner_check,
              fixture_tear_down);
  return g_test_run ();
}

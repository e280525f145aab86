/* test-plan-own.c: the run plan of an own kernel: the header's defaults in place of a catalog
 * entry, its size names and block rank, the parameters' chosen values and the runner's argv
 * (--source, --param), a header error as the plan's reason, and the check's argv.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>

#include "test-plan-util.h"
#include "ws-plan.h"

static char *
joined (GStrv argv)
{
  return g_strjoinv (" ", argv);
}

static void
test_defaults_and_argv (void)
{
  g_autoptr (WsPlan) plan = ws_plan_new ();
  g_autoptr (WsKernelSource) source = ws_test_example_source ("matmul_tiled.cu");
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) run = NULL, sweep = NULL;
  g_autofree char *run_text = NULL, *sweep_text = NULL, *want_run = NULL, *want_sweep = NULL;
  g_autofree char *summary = NULL;

  ws_plan_set_source (plan, source);
  g_assert_true (ws_plan_is_own (plan));
  /* The header's size (m, n, k) and its 16x16 block. */
  g_assert_cmpstr (ws_plan_get_block (plan), ==, "16×16");
  g_assert_cmpint (ws_plan_get_size_rank (plan), ==, 3);
  g_assert_cmpint (ws_plan_get_block_dims (plan), ==, 2);
  g_assert_cmpstr (ws_plan_get_param (plan, "TILE"), ==, "16");
  g_assert_null (ws_plan_get_param (plan, "UNROLL"));
  g_assert_true (ws_plan_validate (plan, WS_PLAN_RUN, &error));
  g_assert_no_error (error);

  /* Values the header does not list are dropped, the chosen ones kept in its order. */
  ws_plan_set_param (plan, "TILE", "32,7,8");
  g_assert_cmpstr (ws_plan_get_param (plan, "TILE"), ==, "8,32");
  g_object_set (plan, "sweep-from", "256", "sweep-to", "1024", "sweep-factor", 2,
                "sweep-blocks", "8x8,32x32", NULL);
  run = ws_plan_build_argv (plan, WS_PLAN_RUN, "runner", &error);
  g_assert_no_error (error);
  run_text = joined (run);
  want_run = g_strdup_printf ("runner --sizes 1024x1024x1024 --blocks 16x16x1 --transfer "
                              "pageable --reps 10 --source %s --param TILE=8",
                              ws_kernel_source_get_path (source));
  g_assert_cmpstr (run_text, ==, want_run);
  sweep = ws_plan_build_argv (plan, WS_PLAN_SWEEP, "runner", &error);
  g_assert_no_error (error);
  sweep_text = joined (sweep);
  want_sweep = g_strdup_printf ("runner --sizes 256:1024:x2 --blocks 8x8x1,32x32x1 --transfer "
                                "pageable --reps 10 --source %s --param TILE=8,32",
                                ws_kernel_source_get_path (source));
  g_assert_cmpstr (sweep_text, ==, want_sweep);
  /* 3 sizes × 2 blocks × 2 tiles. */
  summary = ws_plan_dup_sweep_summary (plan, NULL);
  g_assert_nonnull (strstr (summary, "= 12 configurations"));
  g_clear_pointer (&summary, g_free);
  summary = ws_plan_dup_run_summary (plan);
  g_assert_cmpstr (summary, ==, "matmul_tiled at m = 1024, n = 1024, k = 1024 in blocks of "
                                "16×16 threads.");
}

static void
test_sizes (void)
{
  g_autoptr (WsPlan) plan = ws_plan_new ();
  g_autoptr (WsKernelSource) source = ws_test_example_source ("stencil2d.cu");
  g_autoptr (GError) error = NULL;

  ws_plan_set_source (plan, source);
  g_assert_cmpint (ws_plan_get_size_rank (plan), ==, 2);
  g_assert_cmpstr (ws_plan_get_block (plan), !=, NULL);
  g_object_set (plan, "size", "4096×1024", NULL);
  g_assert_true (ws_plan_validate (plan, WS_PLAN_RUN, &error));
  g_object_set (plan, "size", "8192", NULL);
  g_assert_true (ws_plan_validate (plan, WS_PLAN_RUN, &error));
  g_object_set (plan, "size", "1x2x3", NULL);
  g_assert_false (ws_plan_validate (plan, WS_PLAN_RUN, &error));
  g_assert_error (error, WS_PLAN_ERROR, WS_PLAN_ERROR_SIZE);
  g_assert_nonnull (strstr (error->message, "rows×cols"));
  g_assert_nonnull (strstr (ws_plan_get_problem (plan, WS_PLAN_RUN), "rows×cols"));
}

/* An edit of the same kernel keeps what was chosen; another kernel starts afresh; none goes
 * back to the catalog's. */
static void
test_edit_keeps_choices (void)
{
  g_autoptr (WsPlan) plan = ws_plan_new ();
  g_autoptr (WsKernelSource) a = ws_test_example_source ("matmul_tiled.cu");
  g_autoptr (WsKernelSource) edited = NULL;
  g_autoptr (WsKernelSource) other = ws_test_example_source ("vector_add.cu");
  g_autofree char *text = g_strdup (ws_kernel_source_get_text (a));
  g_autofree char *changed = NULL;
  g_autoptr (GString) s = g_string_new (text);

  ws_plan_set_source (plan, a);
  ws_plan_set_param (plan, "TILE", "8,16");
  ws_plan_set_block (plan, "8×8");
  g_string_replace (s, "param TILE:  16, 8, 32", "param TILE:  16, 8", 1);
  edited = ws_kernel_source_new (s->str, -1, ws_kernel_source_get_path (a));
  g_assert_true (ws_kernel_source_is_valid (edited));
  ws_plan_set_source (plan, edited);
  g_assert_cmpstr (ws_plan_get_block (plan), ==, "8×8");
  g_assert_cmpstr (ws_plan_get_param (plan, "TILE"), ==, "16,8");
  ws_plan_set_source (plan, other);
  g_assert_cmpstr (ws_plan_get_block (plan), ==, "256");
  g_assert_cmpstr (ws_plan_get_size_rank (plan) == 1 ? "1" : "?", ==, "1");
  ws_plan_set_source (plan, NULL);
  g_assert_false (ws_plan_is_own (plan));
}

static void
test_header_error (void)
{
  g_autoptr (WsPlan) plan = ws_plan_new ();
  g_autoptr (WsKernelSource) bad
    = ws_kernel_source_new ("/* warpscope\n * kernel: k\n * size: n = 0\n * arg a: float[n] out\n"
                            " * verify: none\n */\n",
                            -1, "/tmp/b.cu");
  g_autoptr (GError) error = NULL;

  ws_plan_set_source (plan, bad);
  g_assert_false (ws_plan_validate (plan, WS_PLAN_RUN, &error));
  g_assert_error (error, WS_PLAN_ERROR, WS_PLAN_ERROR_REFUSED);
  g_assert_true (g_str_has_prefix (error->message, "The kernel's header has an error at line 3: "
                                                   "size:"));
  g_assert_false (ws_plan_get_valid (plan, WS_PLAN_RUN));
  /* Nothing to summarise while the header is wrong. */
  g_assert_null (ws_plan_dup_run_summary (plan));
  g_assert_null (ws_plan_dup_sweep_summary (plan, NULL));
}

static void
test_check_argv (void)
{
  g_autoptr (WsPlan) plan = ws_plan_new ();
  g_autoptr (WsKernelSource) source = ws_test_example_source ("vector_add_oob.cu");
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) check = NULL, memcheck = NULL, none = NULL;
  g_autofree char *check_text = NULL, *memcheck_text = NULL, *want = NULL;

  none = ws_plan_build_check_argv (plan, "runner", NULL, &error);
  g_assert_null (none);
  g_assert_error (error, WS_PLAN_ERROR, WS_PLAN_ERROR_NO_KERNEL);
  g_clear_error (&error);
  ws_plan_set_source (plan, source);
  check = ws_plan_build_check_argv (plan, "runner", NULL, &error);
  g_assert_no_error (error);
  check_text = joined (check);
  want = g_strdup_printf ("runner --check-source %s", ws_kernel_source_get_path (source));
  g_assert_cmpstr (check_text, ==, want);
  memcheck = ws_plan_build_check_argv (plan, "runner", "memcheck", &error);
  g_assert_no_error (error);
  memcheck_text = joined (memcheck);
  g_assert_true (g_str_has_suffix (memcheck_text, " --memcheck memcheck"));
  g_assert_nonnull (strstr (memcheck_text, "--source "));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/plan-own/defaults-and-argv", test_defaults_and_argv);
  g_test_add_func ("/plan-own/sizes", test_sizes);
  g_test_add_func ("/plan-own/edit-keeps-choices", test_edit_keeps_choices);
  g_test_add_func ("/plan-own/header-error", test_header_error);
  g_test_add_func ("/plan-own/check-argv", test_check_argv);
  return g_test_run ();
}

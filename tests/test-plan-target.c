/* test-plan-target.c: the plan made a run on a target: an own kernel refused over ssh with
 * what to do instead, and let run here and on Slurm; the editor asked for what was typed
 * before the argv is built; the GPUs a run and a sweep are given from the plan's "devices".
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>

#include "test-plan-util.h"
#include "ws-plan.h"

/* A --device-info answer naming the GPUs of `indices`, in that order. */
static WsSession *
gpus (const int *indices, guint n)
{
  WsSession *session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autoptr (GError) error = NULL;

  g_assert_true (ws_session_feed_line (session, "{\"type\":\"hello\",\"protocol\":1}", -1,
                                       &error));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *line = g_strdup_printf ("{\"type\":\"device\",\"index\":%d,"
                                               "\"name\":\"GPU %d\"}",
                                               indices[i], indices[i]);

      g_assert_true (ws_session_feed_line (session, line, -1, &error));
      g_assert_no_error (error);
    }
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_devices (session)), ==, n);
  return session;
}

/* The indices as text, "0,2", "" for none. */
static char *
text_of (GArray *devices)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < devices->len; i++)
    g_string_append_printf (text, "%s%d", i > 0 ? "," : "", g_array_index (devices, int, i));
  g_array_unref (devices);
  return g_string_free (text, FALSE);
}

static char *
chosen (WsPlan *plan, WsSession *info, gboolean *all)
{
  return text_of (ws_plan_choose_devices (plan, info, all));
}

static char *
given (WsPlan *plan, WsPlanMode mode, WsSession *info)
{
  return text_of (ws_plan_dup_run_devices (plan, mode, info));
}

static void
count_cb (GObject *object, GParamSpec *pspec, guint *n)
{
  (*n)++;
}

static void
test_devices (void)
{
  g_autoptr (WsPlan) plan = ws_plan_new ();
  g_autoptr (WsSession) three = gpus ((const int[]) { 0, 1, 2 }, 3);
  g_autoptr (WsSession) one = gpus ((const int[]) { 3 }, 1);
  struct
  {
    const char *devices;
    const char *chosen, *run, *sweep;
    gboolean all;
  } cases[] = {
    /* Every GPU: one run is the runner's own choice, a sweep is split over them all. */
    { "all", "0,1,2", "", "0,1,2", TRUE },
    /* Some, in the order of the target's GPUs: a run on the first, a sweep over them. */
    { "2,0", "0,2", "0", "0,2", FALSE },
    { "1", "1", "1", "1", FALSE },
    /* GPUs the target does not have are left out; with none left, every GPU. */
    { "1,7", "1", "1", "1", FALSE },
    { "7", "0,1,2", "", "0,1,2", TRUE },
    /* A setting that cannot be read is every GPU. */
    { "0,0", "0,1,2", "", "0,1,2", TRUE },
    { "gpu", "0,1,2", "", "0,1,2", TRUE },
  };
  guint notified = 0;
  gboolean all;

  g_assert_cmpstr (ws_plan_get_devices (plan), ==, "all");
  g_signal_connect (plan, "notify::devices", G_CALLBACK (count_cb), &notified);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *c = NULL, *run = NULL, *sweep = NULL;

      g_test_message ("%s", cases[i].devices);
      ws_plan_set_devices (plan, cases[i].devices);
      g_assert_cmpstr (ws_plan_get_devices (plan), ==, cases[i].devices);
      c = chosen (plan, three, &all);
      g_assert_cmpstr (c, ==, cases[i].chosen);
      g_assert_cmpint (all, ==, cases[i].all);
      run = given (plan, WS_PLAN_RUN, three);
      g_assert_cmpstr (run, ==, cases[i].run);
      sweep = given (plan, WS_PLAN_SWEEP, three);
      g_assert_cmpstr (sweep, ==, cases[i].sweep);
    }
  g_assert_cmpuint (notified, ==, G_N_ELEMENTS (cases) - 1);
  /* Empty is "all", and the same choice again says nothing. */
  ws_plan_set_devices (plan, "");
  g_assert_cmpstr (ws_plan_get_devices (plan), ==, "all");
  ws_plan_set_devices (plan, NULL);
  g_assert_cmpuint (notified, ==, G_N_ELEMENTS (cases));
  /* One GPU, or none known: nothing to split, the runner's own choice. */
  for (guint i = 0; i < 2; i++)
    {
      WsSession *info = i == 0 ? one : NULL;
      g_autofree char *c = chosen (plan, info, &all);
      g_autofree char *run = given (plan, WS_PLAN_RUN, info);
      g_autofree char *sweep = given (plan, WS_PLAN_SWEEP, info);

      g_assert_cmpstr (c, ==, i == 0 ? "3" : "");
      g_assert_true (all);
      g_assert_cmpstr (run, ==, "");
      g_assert_cmpstr (sweep, ==, "");
    }
}

/* An own kernel's file is on this computer: an ssh host cannot read it, a Slurm cluster's
 * nodes share the login node's files. A built-in kernel runs anywhere. */
static void
test_own_kernel_over_ssh (void)
{
  g_autoptr (WsPlan) plan = ws_plan_new ();
  g_autoptr (WsKernelSource) source = ws_test_example_source ("vector_add.cu");
  g_autoptr (WsTarget) local = ws_target_new_local ();
  g_autoptr (WsTarget) ssh = ws_target_new ("box", WS_TARGET_SSH);
  g_autoptr (WsTarget) slurm = ws_target_new ("cluster", WS_TARGET_SLURM_SRUN);
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) refused = NULL, here = NULL, full = NULL;

  ws_target_set_host (ssh, "gpu-box");
  ws_target_set_host (slurm, "login");
  g_assert_true (ws_plan_check_target (plan, ssh, &error));
  g_assert_no_error (error);
  ws_plan_set_source (plan, source);
  g_assert_true (ws_plan_check_target (plan, NULL, &error));
  g_assert_true (ws_plan_check_target (plan, local, &error));
  g_assert_true (ws_plan_check_target (plan, slurm, &error));
  g_assert_no_error (error);
  g_assert_false (ws_plan_check_target (plan, ssh, &error));
  g_assert_error (error, WS_PLAN_ERROR, WS_PLAN_ERROR_TARGET);
  g_assert_cmpstr (error->message, ==,
                   "Your own kernel's file is on this computer, not on gpu-box: run it on "
                   "Local, or copy the file there and run it with warpscope-cli.");
  g_clear_error (&error);
  /* A run made of it is refused there too, and here is the runner's argv without the
   * program, whose path is the target's. */
  refused = ws_plan_prepare_run (plan, WS_PLAN_RUN, ssh, &error);
  g_assert_null (refused);
  g_assert_error (error, WS_PLAN_ERROR, WS_PLAN_ERROR_TARGET);
  g_clear_error (&error);
  here = ws_plan_prepare_run (plan, WS_PLAN_RUN, local, &error);
  g_assert_no_error (error);
  full = ws_plan_build_argv (plan, WS_PLAN_RUN, "warpscope-runner", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (full[0], ==, "warpscope-runner");
  g_assert_true (g_strv_equal ((const char *const *) here, (const char *const *) full + 1));
}

/* What the editor holds then, for the plan to run. */
static void
edited_cb (WsPlan *plan, WsKernelSource *edited)
{
  ws_plan_set_source (plan, edited);
}

/* An own kernel edited a moment ago: the plan asks the editor for it before it builds the
 * argv, so a run reads what was typed, not the copy of before the pause. */
static void
test_prepare_before_argv (void)
{
  g_autoptr (WsPlan) plan = ws_plan_new ();
  g_autoptr (WsKernelSource) before = ws_test_example_source ("vector_add.cu");
  g_autoptr (WsKernelSource) typed = ws_test_example_source ("matmul_tiled.cu");
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) args = NULL;
  g_autofree char *joined = NULL;

  ws_plan_set_source (plan, before);
  g_signal_connect (plan, "prepare", G_CALLBACK (edited_cb), typed);
  args = ws_plan_prepare_run (plan, WS_PLAN_SWEEP, NULL, &error);
  g_assert_no_error (error);
  joined = g_strjoinv (" ", args);
  g_assert_nonnull (strstr (joined, ws_kernel_source_get_path (typed)));
  g_assert_null (strstr (joined, ws_kernel_source_get_path (before)));
  g_assert_true (ws_plan_get_source (plan) == typed);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/plan-target/devices", test_devices);
  g_test_add_func ("/plan-target/own-kernel-over-ssh", test_own_kernel_over_ssh);
  g_test_add_func ("/plan-target/prepare-before-argv", test_prepare_before_argv);
  return g_test_run ();
}

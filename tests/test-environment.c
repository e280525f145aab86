/* test-environment.c: the environment probe against stand-ins for the runner (scripts that
 * answer --list and --device-info from a recording made on an H200, or as a machine without a
 * driver would): what it finds, the welcome page's heading and paragraph, the status line,
 * and that it asks through the chosen target, naming it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>

#include <locale.h>

#include "ws-environment.h"
#include "ws-i18n.h"
#include "ws-run.h"

typedef struct
{
  char *dir;
  char *runner;
} Fixture;

/* A stand-in for the runner: a shell script with this body. */
static void
write_runner (Fixture *f, const char *body)
{
  g_autofree char *text = g_strdup_printf ("#!/bin/sh\n%s\n", body);

  g_assert_true (g_file_set_contents (f->runner, text, -1, NULL));
  g_chmod (f->runner, 0755);
}

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->dir = g_dir_make_tmp ("ws-environment-XXXXXX", NULL);
  f->runner = g_build_filename (f->dir, "runner", NULL);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_unlink (f->runner);
  g_rmdir (f->dir);
  g_free (f->runner);
  g_free (f->dir);
}

static char *
recording (void)
{
  return g_build_filename (g_getenv ("WS_SAMPLES_DIR"), "vector-add-sizes-h200.jsonl", NULL);
}

static const char no_driver[] =
  "echo '{\"type\":\"hello\",\"protocol\":1,\"runner\":\"0.1.0\",\"driver_found\":false}'\n"
  "echo '{\"type\":\"error\",\"run\":null,\"severity\":\"error\",\"code\":\"no_driver\","
  "\"message\":\"No NVIDIA driver is installed here (libcuda.so.1 was not found).\","
  "\"detail\":null}'\n"
  "echo '{\"type\":\"done\",\"runs\":0,\"failed\":0,\"dropped_records\":0,\"exit_code\":3}'\n"
  "exit 3";

static gboolean
answered (gpointer environment)
{
  return ws_environment_get_state (environment) != WS_ENVIRONMENT_PROBING;
}

static void
wait_for_answer (WsEnvironment *environment)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (!answered (environment) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (answered (environment));
}

static void
wait_for_catalog (WsEnvironment *environment)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (ws_environment_get_catalog (environment) == NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
}

/* A runner that finds the H200: ready, with its catalog and the status line's versions. */
static void
test_ready (Fixture *f, gconstpointer data)
{
  g_autofree char *file = recording ();
  g_autofree char *body = g_strdup_printf (
    "case \"$1\" in\n"
    "--list) grep -E '\"type\":\"(hello|kernel)\"' '%1$s' ;;\n"
    "--device-info) grep -E '\"type\":\"(hello|device)\"' '%1$s' ;;\n"
    "esac", file);
  g_autoptr (WsEnvironment) environment = ws_environment_new ();
  GListModel *catalog;
  g_autoptr (WsKernelEntry) entry = NULL;

  write_runner (f, body);
  ws_environment_set_runner (environment, f->runner);
  /* Until asked, it is looking. */
  g_assert_cmpint (ws_environment_get_state (environment), ==, WS_ENVIRONMENT_PROBING);
  g_assert_cmpstr (ws_environment_get_title (environment), ==, "Looking for a GPU…");
  ws_environment_probe (environment);
  wait_for_answer (environment);
  wait_for_catalog (environment);
  g_assert_cmpint (ws_environment_get_state (environment), ==, WS_ENVIRONMENT_READY);
  g_assert_cmpstr (ws_device_get_name (ws_environment_get_device (environment)), ==, "NVIDIA H200");
  g_assert_cmpstr (ws_environment_get_title (environment), ==, "Ready to Run on the NVIDIA H200");
  g_assert_true (g_str_has_prefix (ws_environment_get_description (environment),
                                   "Pick a kernel on the left and press Run"));
  g_assert_true (g_str_has_prefix (ws_environment_get_summary (environment),
                                   "NVIDIA H200 · driver supports CUDA "));
  g_assert_cmpuint (ws_environment_get_problems (environment)->len, ==, 0);
  catalog = ws_environment_get_catalog (environment);
  g_assert_nonnull (catalog);
  g_assert_cmpuint (g_list_model_get_n_items (catalog), ==, 1);
  entry = g_list_model_get_item (catalog, 0);
  g_assert_cmpstr (ws_kernel_entry_get_name (entry), ==, "vector_add");
  g_assert_cmpint (ws_kernel_entry_get_info (entry)->default_block[0], ==, 256);
}

/* No driver: the runner's own words, under a heading a student reads. */
static void
test_no_driver (Fixture *f, gconstpointer data)
{
  g_autoptr (WsEnvironment) environment = ws_environment_new ();
  WsRunnerError *problem;

  write_runner (f, no_driver);
  ws_environment_set_runner (environment, f->runner);
  ws_environment_probe (environment);
  wait_for_answer (environment);
  g_assert_cmpint (ws_environment_get_state (environment), ==, WS_ENVIRONMENT_UNUSABLE);
  g_assert_null (ws_environment_get_device (environment));
  g_assert_cmpstr (ws_environment_get_title (environment), ==, "No NVIDIA GPU Here");
  /* The app's words for the runner's code (translated), naming the library it looked for. */
  g_assert_true (g_str_has_prefix (ws_environment_get_description (environment),
                                   "No NVIDIA driver is installed here (libcuda.so.1 was not "
                                   "found), so no kernel can run on this computer."));
  g_assert_cmpstr (ws_environment_get_summary (environment), ==,
                   "No usable GPU here: recordings and the calculator work");
  g_assert_cmpuint (ws_environment_get_problems (environment)->len, ==, 1);
  problem = g_ptr_array_index (ws_environment_get_problems (environment), 0);
  g_assert_cmpint (problem->code, ==, WS_ERROR_NO_DRIVER);
  g_assert_cmpstr (problem->code_name, ==, "no_driver");
  g_assert_cmpint (problem->severity, ==, WS_ERROR_SEVERITY_ERROR);
}

/* The welcome page in Chinese said why there is no GPU in the runner's English, and the
 * runs' host memory as "pageable" and "pinned": both in the reader's language now. */
static void
test_no_driver_translated (Fixture *f, gconstpointer data)
{
  g_autofree char *saved = g_strdup (setlocale (LC_ALL, NULL));
  g_autofree char *language = g_strdup (g_getenv ("LANGUAGE"));
  g_autoptr (WsEnvironment) environment = NULL;

  if (setlocale (LC_ALL, "zh_CN.UTF-8") == NULL)
    {
      g_test_skip ("the zh_CN.UTF-8 locale is not installed (Debian: locales-all)");
      return;
    }
  g_setenv ("LANGUAGE", "zh_CN", TRUE);
  ws_i18n_init ();
  environment = ws_environment_new ();
  write_runner (f, no_driver);
  ws_environment_set_runner (environment, f->runner);
  ws_environment_probe (environment);
  wait_for_answer (environment);
  g_assert_cmpstr (ws_environment_get_title (environment), ==, "这里没有 NVIDIA GPU");
  g_assert_true (g_str_has_prefix (ws_environment_get_description (environment),
                                   "这台计算机没有安装 NVIDIA 驱动（找不到 libcuda.so.1）"));
  g_assert_cmpstr (ws_transfer_label ("pageable"), ==, "可分页");
  g_assert_cmpstr (ws_transfer_label ("pinned"), ==, "锁页");
  g_assert_cmpstr (ws_transfer_label ("managed"), ==, "managed");
  g_setenv ("LANGUAGE", language ? language : "C", TRUE);
  setlocale (LC_ALL, saved);
}

/* A runner that dies before it says anything. */
static void
test_no_answer (Fixture *f, gconstpointer data)
{
  g_autoptr (WsEnvironment) environment = ws_environment_new ();

  write_runner (f, "echo 'cannot open libcudart' >&2\nexit 127");
  ws_environment_set_runner (environment, f->runner);
  ws_environment_probe (environment);
  wait_for_answer (environment);
  g_assert_cmpint (ws_environment_get_state (environment), ==, WS_ENVIRONMENT_UNUSABLE);
  g_assert_cmpstr (ws_environment_get_title (environment), ==, "The GPU Runner Did Not Answer");
  g_assert_nonnull (strstr (ws_environment_get_description (environment), "cannot open libcudart"));
}

static void
test_no_runner (void)
{
  g_autoptr (WsEnvironment) environment = ws_environment_new ();

  ws_environment_probe (environment);
  g_assert_cmpint (ws_environment_get_state (environment), ==, WS_ENVIRONMENT_NO_RUNNER);
  g_assert_cmpstr (ws_environment_get_title (environment), ==, "No GPU Runner in This Build");
  g_assert_cmpstr (ws_environment_get_summary (environment), ==,
                   "No GPU runner in this build: recordings and the calculator work");
  g_assert_null (ws_environment_get_catalog (environment));
}

/* Runs go through the chosen target: so does the probe, a new target asks again, and the
 * sentences name it. */
static void
test_through_target (Fixture *f, gconstpointer data)
{
  g_autofree char *file = recording ();
  g_autofree char *body = g_strdup_printf (
    "if [ \"$WS_TEST_VIA\" != launcher ]; then\n%s\nfi\n"
    "grep -E '\"type\":\"(hello|device|kernel)\"' '%s'", no_driver, file);
  g_autoptr (WsEnvironment) environment = ws_environment_new ();
  g_autoptr (WsTarget) target = ws_target_new ("wrapped", WS_TARGET_COMMAND);
  gint64 deadline;

  write_runner (f, body);
  ws_environment_set_runner (environment, f->runner);
  ws_environment_probe (environment);
  wait_for_answer (environment);
  g_assert_cmpint (ws_environment_get_state (environment), ==, WS_ENVIRONMENT_UNUSABLE);

  ws_target_set_launcher (target, (const char *const[]) { "env", "WS_TEST_VIA=launcher", NULL });
  ws_target_set_runner (target, f->runner);
  ws_environment_set_target (environment, target);
  g_assert_cmpint (ws_environment_get_state (environment), ==, WS_ENVIRONMENT_PROBING);
  g_assert_cmpstr (ws_environment_get_title (environment), ==, "Looking for a GPU on wrapped…");
  wait_for_answer (environment);
  g_assert_cmpint (ws_environment_get_state (environment), ==, WS_ENVIRONMENT_READY);
  g_assert_true (g_str_has_prefix (ws_environment_get_summary (environment),
                                   "wrapped · NVIDIA H200 · driver supports CUDA "));
  g_assert_nonnull (strstr (ws_environment_get_description (environment),
                            "Target: wrapped (env WS_TEST_VIA=launcher)."));

  /* The target edited: asked again, through its new launcher. */
  ws_target_set_launcher (target, (const char *const[]) { "env", "WS_TEST_VIA=other", NULL });
  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (ws_environment_get_state (environment) != WS_ENVIRONMENT_UNUSABLE
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (ws_environment_get_state (environment), ==, WS_ENVIRONMENT_UNUSABLE);
  /* The runner's no_driver, in the app's words, which say where: "here" is not there. */
  g_assert_cmpstr (ws_environment_get_title (environment), ==, "No NVIDIA GPU on wrapped");
  g_assert_true (g_str_has_prefix (ws_environment_get_description (environment),
                                   "No NVIDIA driver is installed on wrapped ("));
  g_assert_nonnull (strstr (ws_environment_get_description (environment),
                            "Target: wrapped (env WS_TEST_VIA=other)."));
  g_assert_cmpstr (ws_environment_get_summary (environment), ==,
                   "No usable GPU on wrapped: recordings and the calculator work");

  /* Back to this computer: no name in the sentences. */
  ws_environment_set_target (environment, NULL);
  wait_for_answer (environment);
  g_assert_cmpstr (ws_environment_get_summary (environment), ==,
                   "No usable GPU here: recordings and the calculator work");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/environment/no-runner", test_no_runner);
  g_test_add ("/environment/ready", Fixture, NULL, fixture_set_up, test_ready, fixture_tear_down);
  g_test_add ("/environment/no-driver", Fixture, NULL, fixture_set_up, test_no_driver,
              fixture_tear_down);
  g_test_add ("/environment/no-driver-translated", Fixture, NULL, fixture_set_up,
              test_no_driver_translated, fixture_tear_down);
  g_test_add ("/environment/no-answer", Fixture, NULL, fixture_set_up, test_no_answer,
              fixture_tear_down);
  g_test_add ("/environment/through-target", Fixture, NULL, fixture_set_up,
              test_through_target, fixture_tear_down);
  return g_test_run ();
}

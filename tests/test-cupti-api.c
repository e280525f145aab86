/* test-cupti-api.c: the one CUPTI loader of the runner and the injection library
 * (src/runner/ws-cupti-api.c): what it says when no library opens or the one that opens lacks
 * a function, and that a library with every function fills the table. Each case loads in a
 * process of its own, since a process loads CUPTI once.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>

#include "ws-cupti-api.h"

static void
assert_table_empty (void)
{
  g_assert_null (ws_cupti_api.ActivityRegisterCallbacks);
  g_assert_null (ws_cupti_api.GetTimestamp);
  g_assert_null (ws_cupti_api.Subscribe);
  g_assert_cmpuint (ws_cupti_api_version (), ==, 0);
  /* Without CUPTI's clock, the monotonic clock. */
  g_assert_cmpuint (ws_cupti_api_timestamp (), >, 0);
  g_assert_cmpstr (ws_cupti_api_result_string (CUPTI_ERROR_UNKNOWN), ==, "unknown CUPTI error");
}

static void
test_no_library (void)
{
  char what[320] = "";

  if (g_test_subprocess ())
    {
      g_setenv ("WARPSCOPE_LIBCUPTI", "/nonexistent/libcupti.so", TRUE);
      g_assert_cmpint (ws_cupti_api_load (WS_CUPTI_NEED_ACTIVITY, what, sizeof what), ==,
                       WS_CUPTI_NO_LIBRARY);
      g_assert_cmpstr (what, ==, "/nonexistent/libcupti.so");
      assert_table_empty ();
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* A library that opens but is not CUPTI: the first function missing is named, with the library. */
static void
test_no_function (void)
{
  char what[320] = "";

  if (g_test_subprocess ())
    {
      g_setenv ("WARPSCOPE_LIBCUPTI", "libm.so.6", TRUE);
      g_assert_cmpint (ws_cupti_api_load (WS_CUPTI_NEED_ACTIVITY, what, sizeof what), ==,
                       WS_CUPTI_NO_FUNCTION);
      g_assert_cmpstr (what, ==, "cuptiActivityRegisterCallbacks in libm.so.6");
      assert_table_empty ();
      /* A second call answers as the first, without loading again. */
      what[0] = '\0';
      g_setenv ("WARPSCOPE_LIBCUPTI", "/nonexistent/libcupti.so", TRUE);
      g_assert_cmpint (ws_cupti_api_load (WS_CUPTI_NEED_ACTIVITY, what, sizeof what), ==,
                       WS_CUPTI_NO_FUNCTION);
      g_assert_cmpstr (what, ==, "cuptiActivityRegisterCallbacks in libm.so.6");
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* The stand-in CUPTI of the injection library's tests has every function but the optional
 * cuptiActivitySetAttribute. */
static void
test_loaded (void)
{
  char what[320] = "untouched";

  if (g_test_subprocess ())
    {
      g_setenv ("WARPSCOPE_LIBCUPTI", g_getenv ("WS_FAKE_CUPTI"), TRUE);
      g_assert_cmpint (ws_cupti_api_load (WS_CUPTI_NEED_ACTIVITY | WS_CUPTI_NEED_PROGRAM, what,
                                          sizeof what),
                       ==, WS_CUPTI_LOADED);
      g_assert_cmpstr (what, ==, "untouched");
      g_assert_nonnull (ws_cupti_api.ActivityRegisterCallbacks);
      g_assert_nonnull (ws_cupti_api.EnableDomain);
      g_assert_nonnull (ws_cupti_api.InitializeInjectionNvtx2);
      g_assert_null (ws_cupti_api.ActivitySetAttribute);
      g_assert_cmpuint (ws_cupti_api_version (), >, 0);
      return;
    }
  if (g_getenv ("WS_FAKE_CUPTI") == NULL)
    {
      g_test_skip ("WS_FAKE_CUPTI is not set (run through meson test)");
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cupti-api/no-library", test_no_library);
  g_test_add_func ("/cupti-api/no-function", test_no_function);
  g_test_add_func ("/cupti-api/loaded", test_loaded);
  return g_test_run ();
}

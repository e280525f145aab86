/* test-counters.c: the hardware counters' catalogue (src/runner/ws-counters.c) and its
 * configuration for an H100's or H200's chip (GH100) through CUPTI's Profiler Host API, built
 * here with no GPU: every counter's name is one the chip has, each group and all of them
 * make a configuration, and a chip or a CUPTI that cannot is said in words.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>

#include "ws-counters.h"

static void
test_catalogue (void)
{
  g_autoptr (GHashTable) keys = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  size_t n;
  const WsCounterMetric *m = ws_counters_metrics (&n);
  unsigned groups = 0;

  g_assert_cmpuint (n, >=, 40);
  for (size_t i = 0; i < n; i++)
    {
      g_assert_true (g_hash_table_add (keys, (gpointer) m[i].key));
      g_assert_true (g_hash_table_add (names, (gpointer) m[i].metric));
      g_assert_cmpuint (m[i].groups, !=, 0);
    }
  /* The names a reviewer checks with ncu --metrics. */
  g_assert_true (g_hash_table_contains (names, "sm__warps_active.avg.pct_of_peak_sustained_active"));
  g_assert_true (g_hash_table_contains (names, "dram__bytes_read.sum"));
  g_assert_true (g_hash_table_contains (names,
                                        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"));
  g_assert_true (ws_counters_parse_groups ("basic", &groups));
  g_assert_cmpuint (groups, ==, WS_COUNTERS_BASIC);
  g_assert_true (ws_counters_parse_groups ("memory,stalls", &groups));
  g_assert_cmpuint (groups, ==, WS_COUNTERS_MEMORY | WS_COUNTERS_STALLS);
  g_assert_true (ws_counters_parse_groups ("all", &groups));
  g_assert_cmpuint (groups, ==, WS_COUNTERS_ALL);
  g_assert_false (ws_counters_parse_groups ("basics", &groups));
  g_assert_false (ws_counters_parse_groups ("", &groups));
  g_assert_false (ws_counters_parse_groups ("basic,", &groups));
}

/* CUPTI's host library under AddressSanitizer: see tests/meson.build. */
static gboolean
skip_sanitized (void)
{
#ifdef WS_SANITIZED
  g_test_skip ("CUPTI opens libnvperf_host with RTLD_DEEPBIND, which AddressSanitizer cannot "
               "run: the plain build checks the configurations");
  return TRUE;
#else
  return FALSE;
#endif
}

/* GH100 (H100, H200): each group and all of them, with the passes each takes. */
static void
test_config_gh100 (void)
{
  if (skip_sanitized ())
    return;
  static const struct
  {
    const char *group;
    size_t least;
    size_t most_passes; /* 0: not bounded */
  } cases[] = { { "basic", 11, 2 }, { "memory", 10, 8 }, { "stalls", 18, 8 }, { "all", 40, 0 } };

  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      WsCountersConfig config;
      char message[600] = "";
      unsigned groups = 0;
      WsCountersStatus status;

      g_assert_true (ws_counters_parse_groups (cases[i].group, &groups));
      status = ws_counters_config_build ("GH100", groups, &config, message, sizeof message);
      if (status != WS_COUNTERS_OK)
        g_error ("%s on GH100: %s", cases[i].group, message);
      g_assert_cmpuint (config.n_metrics, >=, cases[i].least);
      g_assert_cmpuint (config.image_size, >, 0);
      g_assert_nonnull (config.image);
      g_assert_cmpuint (config.passes, >=, 1);
      /* The default group costs two replays of the kernel, not ten (docs/counters.md). */
      if (cases[i].most_passes > 0)
        g_assert_cmpuint (config.passes, <=, cases[i].most_passes);
      g_test_message ("%s on GH100: %zu counters, %zu passes, a %zu-byte configuration",
                      cases[i].group, config.n_metrics, config.passes, config.image_size);
      ws_counters_config_clear (&config);
      g_assert_null (config.image);
    }
}

static void
test_unknown_chip (void)
{
  WsCountersConfig config;
  char message[600] = "", chips[600] = "";

  if (skip_sanitized ())
    return;
  g_assert_true (ws_counters_supported_chips (chips, sizeof chips));
  g_assert_nonnull (strstr (chips, "GH100"));
  g_assert_cmpint (ws_counters_config_build ("XX999", WS_COUNTERS_BASIC, &config, message,
                                             sizeof message),
                   ==, WS_COUNTERS_UNKNOWN_CHIP);
  g_assert_nonnull (strstr (message, "no counters of the chip XX999"));
  g_assert_nonnull (strstr (message, "GH100"));
  g_assert_null (config.image);
}

/* Without CUPTI: said, with the library looked for; nothing else breaks. */
static void
test_no_cupti (void)
{
  if (g_test_subprocess ())
    {
      WsCountersConfig config;
      char message[600] = "";

      g_setenv ("WARPSCOPE_LIBCUPTI", "/nonexistent/libcupti.so", TRUE);
      g_assert_cmpint (ws_counters_config_build ("GH100", WS_COUNTERS_BASIC, &config, message,
                                                 sizeof message),
                       ==, WS_COUNTERS_NO_CUPTI);
      g_assert_nonnull (strstr (message, "/nonexistent/libcupti.so"));
      g_assert_nonnull (strstr (message, "hardware counters need it"));
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/counters/catalogue", test_catalogue);
  g_test_add_func ("/counters/config-gh100", test_config_gh100);
  g_test_add_func ("/counters/unknown-chip", test_unknown_chip);
  g_test_add_func ("/counters/no-cupti", test_no_cupti);
  return g_test_run ();
}

/* test-protocol.c: the protocol's vocabulary (src/protocol): every enumeration's name reads
 * back as its value, names a later version adds read as "unknown" rather than as another
 * value, and the error codes the runner and the injection library write are all named.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <locale.h>

#include "ws-protocol.h"

typedef const char *(*ToString) (int value);
typedef int (*FromString) (const char *s);

/* Each value from its name and back; `first`..`last` all named but `unnamed` (-1: none). */
static void
check_round_trip (ToString to, FromString from, int first, int last, int unnamed)
{
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);

  for (int v = first; v <= last; v++)
    {
      const char *name = to (v);

      if (v == unnamed)
        {
          g_assert_null (name);
          continue;
        }
      g_assert_nonnull (name);
      g_assert_cmpint (from (name), ==, v);
      /* No two values share a name. */
      g_assert_false (g_hash_table_contains (names, name));
      g_hash_table_add (names, (gpointer) name);
    }
}

#define ROUND_TRIP(to, from, first, last, unnamed)                                             \
  check_round_trip ((ToString) (void (*) (void)) to, (FromString) (void (*) (void)) from,      \
                    first, last, unnamed)

static void
test_names (void)
{
  ROUND_TRIP (ws_activity_kind_to_string, ws_activity_kind_from_string, WS_ACTIVITY_MEMCPY,
              WS_ACTIVITY_OTHER, -1);
  ROUND_TRIP (ws_activity_phase_to_string, ws_activity_phase_from_string, WS_PHASE_SEQUENCE,
              WS_PHASE_OTHER, -1);
  ROUND_TRIP (ws_copy_direction_to_string, ws_copy_direction_from_string, WS_COPY_NONE,
              WS_COPY_OTHER, WS_COPY_NONE);
  ROUND_TRIP (ws_host_memory_to_string, ws_host_memory_from_string, WS_HOST_MEMORY_NONE,
              WS_HOST_MEMORY_OTHER, WS_HOST_MEMORY_NONE);
  ROUND_TRIP (ws_transfer_to_string, ws_transfer_from_string, WS_TRANSFER_PAGEABLE,
              WS_TRANSFER_OTHER, -1);
  ROUND_TRIP (ws_error_severity_to_string, ws_error_severity_from_string,
              WS_ERROR_SEVERITY_ERROR, WS_ERROR_SEVERITY_WARNING, -1);
  ROUND_TRIP (ws_error_code_to_string, ws_error_code_from_string, WS_ERROR_NONE,
              WS_ERROR_UNKNOWN, WS_ERROR_NONE);
}

/* What the documents name, spelled as the records spell it. */
static void
test_wire_names (void)
{
  g_assert_cmpstr (ws_activity_kind_to_string (WS_ACTIVITY_MEMCPY), ==, "memcpy");
  g_assert_cmpstr (ws_activity_kind_to_string (WS_ACTIVITY_CPU), ==, "cpu");
  g_assert_cmpstr (ws_activity_kind_to_string (WS_ACTIVITY_API), ==, "api");
  g_assert_cmpstr (ws_activity_kind_to_string (WS_ACTIVITY_NVTX), ==, "nvtx");
  g_assert_cmpstr (ws_activity_kind_to_string (WS_ACTIVITY_JIT), ==, "jit");
  g_assert_cmpstr (ws_activity_phase_to_string (WS_PHASE_FLUSH), ==, "flush");
  g_assert_cmpstr (ws_copy_direction_to_string (WS_COPY_HTOD), ==, "htod");
  g_assert_cmpstr (ws_host_memory_to_string (WS_HOST_MEMORY_PINNED), ==, "pinned");
  g_assert_cmpstr (ws_transfer_to_string (WS_TRANSFER_PAGEABLE), ==, "pageable");
  g_assert_cmpstr (ws_transfer_to_string (WS_TRANSFER_PINNED), ==, "pinned");
  g_assert_cmpint (ws_transfer_from_string ("streams:4"), ==, WS_TRANSFER_STREAMS);
  g_assert_cmpint (ws_transfer_from_string ("streams:12"), ==, WS_TRANSFER_STREAMS);
  g_assert_cmpstr (ws_error_code_to_string (WS_ERROR_HOST_OUT_OF_MEMORY), ==,
                   "host_out_of_memory");
  g_assert_cmpint (WS_PROTOCOL_RUNNER, ==, 1);
  g_assert_cmpint (WS_PROTOCOL_TRACE, ==, 2);
}

/* Absent and unknown names: what a reader of a later version's records gets. */
static void
test_unknown (void)
{
  g_assert_cmpint (ws_activity_kind_from_string ("graph_trace"), ==, WS_ACTIVITY_OTHER);
  g_assert_cmpint (ws_activity_kind_from_string (NULL), ==, WS_ACTIVITY_OTHER);
  g_assert_cmpint (ws_activity_phase_from_string (NULL), ==, WS_PHASE_OTHER);
  g_assert_cmpint (ws_copy_direction_from_string (NULL), ==, WS_COPY_NONE);
  g_assert_cmpint (ws_copy_direction_from_string ("atoa"), ==, WS_COPY_OTHER);
  g_assert_cmpint (ws_host_memory_from_string (NULL), ==, WS_HOST_MEMORY_NONE);
  g_assert_cmpint (ws_host_memory_from_string ("peer"), ==, WS_HOST_MEMORY_OTHER);
  /* An older runner's run names no transfer: its host memory was pageable. */
  g_assert_cmpint (ws_transfer_from_string (NULL), ==, WS_TRANSFER_PAGEABLE);
  g_assert_cmpint (ws_transfer_from_string ("managed"), ==, WS_TRANSFER_OTHER);
  g_assert_cmpint (ws_transfer_from_string ("streams:"), ==, WS_TRANSFER_OTHER);
  g_assert_cmpint (ws_transfer_from_string ("streams:4x"), ==, WS_TRANSFER_OTHER);
  g_assert_cmpint (ws_transfer_from_string ("pinned:4"), ==, WS_TRANSFER_OTHER);
  g_assert_cmpint (ws_transfer_from_string ("Pinned"), ==, WS_TRANSFER_OTHER);
  g_assert_cmpstr (ws_transfer_to_string ((WsTransfer) 200), ==, "unknown");
  g_assert_cmpint (ws_error_severity_from_string ("fatal"), ==, WS_ERROR_SEVERITY_ERROR);
  g_assert_cmpint (ws_error_code_from_string (NULL), ==, WS_ERROR_NONE);
  g_assert_cmpint (ws_error_code_from_string ("gpu_on_fire"), ==, WS_ERROR_UNKNOWN);
  /* Values outside the enumerations have no name, or the unknown one. */
  g_assert_cmpstr (ws_activity_kind_to_string ((WsActivityKind) 200), ==, "other");
  g_assert_null (ws_error_code_to_string ((WsErrorCode) -1));
}

/* Every code docs/protocol.md lists, which is every code the runner and the injection
 * library write (they write them through this table). */
static void
test_error_codes (void)
{
  const char *const documented[] = {
    "bad_argument", "unknown_kernel", "unknown_transfer", "kernel_unavailable",
    "invalid_size", "size_too_large", "invalid_block", "invalid_reps", "invalid_device",
    "no_driver", "driver_too_old", "driver_mismatch", "no_device", "device_busy",
    "no_kernel_image", "cupti_unavailable", "cupti_in_use", "trace_incomplete",
    "host_out_of_memory", "out_of_memory", "self_test_failed", "kernel_fault", "cuda_error",
    "internal", "runner_failed", "bad_source", "header_error", "compile_error",
    "compile_warning", "restricted", "nvrtc_unavailable", "sanitizer_unavailable",
    "sanitizer_failed", "inject_not_found", "program_not_found", "program_not_executable",
    "no_cuda_activity", "program_timeout", "ceilings_unavailable", "trace_unreachable",
    "counters_unavailable",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (documented); i++)
    {
      WsErrorCode code = ws_error_code_from_string (documented[i]);

      g_assert_cmpint (code, >, WS_ERROR_NONE);
      g_assert_cmpint (code, <, WS_ERROR_UNKNOWN);
    }
  g_assert_cmpuint (G_N_ELEMENTS (documented), ==, WS_ERROR_UNKNOWN - WS_ERROR_NONE - 1);
}

/* Keys are the records' names: a writer and a reader that use the macro agree. */
static void
test_keys (void)
{
  g_assert_cmpstr (WS_KEY_DRIVER_CUDA, ==, "driver_cuda");
  g_assert_cmpstr (WS_KEY_BLOCK_DIMS, ==, "block_dims");
  g_assert_cmpstr (WS_KEY_DEFAULT_BLOCK, ==, "default_block");
  g_assert_cmpstr (WS_KEY_CPU_ALL_HAND_WRITTEN, ==, "cpu_all_hand_written");
  g_assert_cmpstr (WS_RECORD_TYPE_TRACE_END, ==, "trace_end");
}

/* A double is written one way by every writer of the protocol: the shortest text that reads
 * back, '.' as the decimal point even where the locale says ','. */
static void
test_double_text (void)
{
  const struct
  {
    double value;
    const char *text;
  } cases[] = {
    { 0, "0" },
    { -0.0, "-0.0" },
    { 0.5, "0.5" },
    { 0.1, "0.1" },
    { 1.0 / 3.0, "0.3333333333333333" },
    { 36.5e-6, "3.65e-05" },
    { 1e300, "1e+300" },
    { 9007199254740993.0, "9007199254740992" },
    { 4.9406564584124654e-324, "5e-324" },
    { 1234.5, "1234.5" },
  };
  const char *locales[] = { "C", "de_DE.UTF-8", "fr_FR.UTF-8" };
  char buf[WS_PROTOCOL_DOUBLE_LEN];

  for (guint l = 0; l < G_N_ELEMENTS (locales); l++)
    {
      if (setlocale (LC_NUMERIC, locales[l]) == NULL)
        {
          g_test_message ("locale %s is not installed", locales[l]);
          continue;
        }
      for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
        {
          g_assert_cmpstr (ws_protocol_double_text (buf, cases[i].value), ==, cases[i].text);
          g_assert_cmpfloat (g_ascii_strtod (buf, NULL), ==, cases[i].value);
        }
    }
  setlocale (LC_NUMERIC, "C");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/protocol/names", test_names);
  g_test_add_func ("/protocol/wire-names", test_wire_names);
  g_test_add_func ("/protocol/unknown", test_unknown);
  g_test_add_func ("/protocol/error-codes", test_error_codes);
  g_test_add_func ("/protocol/keys", test_keys);
  g_test_add_func ("/protocol/double-text", test_double_text);
  return g_test_run ();
}

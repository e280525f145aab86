/* test-analysis-trace-warm.c: the compile that explains the tutorial's 0.02× is found on a
 * second run too, when the driver's compile cache already holds the kernel's code. The warm
 * run is derived here from the bundled recording of a first (cold) run, as the driver writes
 * a second one (docs/protocol.md, the `jit` activity): every JIT record a `cache_load`, and no
 * `cache_store`, since nothing new is compiled. Numba's own compile, before the driver sees
 * anything, is the same on every run, and so is the finding.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "test-session-util.h"
#include "ws-analysis.h"
#include "ws-session-analysis.h"
#include "ws-trace.h"

/* The cold recording's lines, its JIT records turned into what a warm cache leaves. */
static char *
warm_run (guint *n_loads)
{
  g_autofree char *path = ws_test_sample ("trace-vector-add-h200.jsonl");
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GString *out = g_string_new (NULL);

  *n_loads = 0;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autofree char *line = NULL;
      JsonObject *o;

      if (lines[i][0] == '\0')
        continue;
      g_assert_true (json_parser_load_from_data (parser, lines[i], -1, NULL));
      o = json_node_get_object (json_parser_get_root (parser));
      if (g_strcmp0 (json_object_get_string_member_with_default (o, "kind", ""), "jit") == 0)
        {
          if (g_strcmp0 (json_object_get_string_member (o, "operation"), "cache_store") == 0)
            continue;
          json_object_set_string_member (o, "operation", "cache_load");
          (*n_loads)++;
        }
      line = json_to_string (json_parser_get_root (parser), FALSE);
      g_string_append_printf (out, "%s\n", line);
    }
  return g_string_free (out, FALSE);
}

static WsFinding *
find (GPtrArray *findings, WsFindingKind kind)
{
  for (guint i = 0; i < findings->len; i++)
    if (((WsFinding *) g_ptr_array_index (findings, i))->kind == kind)
      return g_ptr_array_index (findings, i);
  return NULL;
}

static void
test_warm (void)
{
  guint n_loads;
  g_autofree char *text = warm_run (&n_loads);
  g_autoptr (WsSession) session = ws_test_load_text (text);
  g_autoptr (WsSession) cold = ws_test_load_sample ("trace-vector-add-h200.jsonl");
  g_autoptr (GPtrArray) findings = ws_analyze_trace (session);
  g_autoptr (GPtrArray) cold_findings = ws_analyze_trace (cold);
  WsFinding *compile = find (findings, WS_FINDING_TIMED_COMPILE);
  WsFinding *cold_compile = find (cold_findings, WS_FINDING_TIMED_COMPILE);

  /* The derivation did what a warm cache does: the two lookups remain, the stores are gone. */
  g_assert_cmpuint (n_loads, ==, 2);
  g_assert_null (strstr (text, "cache_store"));
  g_assert_nonnull (ws_session_get_trace (session));
  g_assert_nonnull (compile);
  g_assert_nonnull (cold_compile);
  g_assert_cmpint (compile->severity, ==, WS_SEVERITY_HIGH);
  g_assert_true (compile == g_ptr_array_index (findings, 0));
  /* The wait the program's timer read is the same whatever the cache held. */
  g_assert_cmpfloat (compile->value, ==, cold_compile->value);
  g_assert_nonnull (strstr (compile->title, "add_kernel waited 1.08 s for Numba's compile"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis-trace-warm/compile-found", test_warm);
  return g_test_run ();
}

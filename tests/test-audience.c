/* test-audience.c: findings and charts with nothing to show speak to whoever reads them: the
 * app names its controls (Host memory: Pinned in the sidebar), the CLI its flags (--transfer
 * pinned); one finding carries both wordings.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <adwaita.h>

#include "test-cli.h"
#include "ws-analysis.h"
#include "ws-export.h"
#include "ws-findings-panel.h"

/* "--transfer", "--reps": a command-line flag, which a person in the app has nowhere to type. */
static gboolean
names_a_flag (const char *text)
{
  for (const char *p = text; p != NULL && (p = strstr (p, "--")) != NULL; p += 2)
    if (g_ascii_islower (p[2]) && (p == text || p[-1] == ' ' || p[-1] == '('))
      return TRUE;
  return FALSE;
}

static GPtrArray *
all_findings (WsSession *session)
{
  GPtrArray *findings = ws_analyze_session (session);
  g_autoptr (GPtrArray) traced = ws_analyze_trace (session);

  for (guint i = 0; i < traced->len; i++)
    g_ptr_array_add (findings, g_ptr_array_steal_index (traced, 0)), i--;
  return findings;
}

static WsSession *
load (const char *name)
{
  g_autofree char *path = sample_path (name);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  WsSession *session = ws_session_load (file, NULL, &error);

  g_assert_no_error (error);
  return session;
}

/* In every bundled recording: no fix the app shows names a flag; where the CLI's does, the
 * app's names the control instead, and the rest of the fix is the same. */
static void
test_findings_of_samples (void)
{
  g_autofree char *dir_path = g_strdup (g_getenv ("WS_SAMPLES_DIR"));
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  g_autoptr (GHashTable) reworded = g_hash_table_new (g_str_hash, g_str_equal);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autoptr (WsSession) session = NULL;
      g_autoptr (GPtrArray) findings = NULL;

      if (!g_str_has_suffix (name, ".jsonl"))
        continue;
      session = load (name);
      findings = all_findings (session);
      for (guint i = 0; i < findings->len; i++)
        {
          WsFinding *f = g_ptr_array_index (findings, i);
          const char *cli = ws_finding_get_fix (f, WS_AUDIENCE_CLI);
          const char *app = ws_finding_get_fix (f, WS_AUDIENCE_APP);

          g_assert_true ((cli == NULL) == (app == NULL));
          if (app != NULL && names_a_flag (app))
            g_error ("%s, run %d, %s: the app's fix names a flag: %s", name, f->run, f->id, app);
          if (cli != NULL && names_a_flag (cli))
            {
              g_assert_cmpstr (cli, !=, app);
              g_hash_table_add (reworded, (gpointer) f->id);
            }
        }
    }
  /* The recordings hold each finding whose fix is a flag. */
  g_assert_true (g_hash_table_contains (reworded, "pageable_memory"));
  g_assert_true (g_hash_table_contains (reworded, "noisy_timing"));
  g_assert_true (g_hash_table_contains (reworded, "cpu_baseline_note"));
}

static WsFinding *
find (GPtrArray *findings, const char *id)
{
  for (guint i = 0; i < findings->len; i++)
    if (g_str_equal (((WsFinding *) g_ptr_array_index (findings, i))->id, id))
      return g_ptr_array_index (findings, i);
  return NULL;
}

static void
test_pageable_wording (void)
{
  g_autoptr (WsSession) session = load ("vector-add-blocks-h200.jsonl");
  g_autoptr (GPtrArray) findings = ws_analyze_session (session);
  WsFinding *f = find (findings, "pageable_memory");

  g_assert_nonnull (f);
  g_assert_nonnull (strstr (ws_finding_get_fix (f, WS_AUDIENCE_CLI),
                            "Run the sweep with --transfer pinned to compare."));
  g_assert_nonnull (strstr (ws_finding_get_fix (f, WS_AUDIENCE_APP),
                            "Set Host memory to Pinned in the sidebar and run again"));
  /* The sentence both say is said once in each. */
  g_assert_true (g_str_has_prefix (ws_finding_get_fix (f, WS_AUDIENCE_APP),
                                   "Allocate the host arrays with cudaMallocHost"));
  g_assert_true (g_str_has_prefix (ws_finding_get_fix (f, WS_AUDIENCE_CLI),
                                   "Allocate the host arrays with cudaMallocHost"));
}

/* The text of an SVG's <text> elements, a line each joined by spaces, "&amp;" and the like
 * left as they are. */
static char *
svg_words (const char *svg, gsize length)
{
  g_autofree char *text = g_strndup (svg, length);
  GString *words = g_string_new (NULL);

  for (const char *p = text; (p = strstr (p, "<text")) != NULL;)
    {
      const char *start = strchr (p, '>');
      const char *end = start ? strstr (start, "</text>") : NULL;

      if (end == NULL)
        break;
      g_string_append_len (words, start + 1, end - start - 1);
      g_string_append_c (words, ' ');
      p = end;
    }
  return g_string_free (words, FALSE);
}

/* A chart's words, from its SVG (text stays text there). */
static char *
chart_text (GPtrArray *sessions, WsChartKind kind, WsAudience audience)
{
  WsChartOptions options;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;

  ws_chart_options_init (&options, kind, NULL, 1600, 900);
  options.audience = audience;
  bytes = ws_export_chart_to_bytes (sessions, &options, WS_EXPORT_SVG, 1, &error);
  g_assert_no_error (error);
  return svg_words (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
}

/* The empty states of the block-size and speedup charts: the app's name its sidebar, the
 * CLI's its flags. */
static void
test_chart_empty_states (void)
{
  g_autoptr (GPtrArray) sizes = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GPtrArray) blocks = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *blocks_cli = NULL, *blocks_app = NULL;
  g_autofree char *speedup_cli = NULL, *speedup_app = NULL;
  WsChartOptions options;
  g_autoptr (GError) error = NULL;

  g_ptr_array_add (sizes, load ("vector-add-sizes-h200.jsonl"));
  g_ptr_array_add (blocks, load ("vector-add-blocks-h200.jsonl"));
  blocks_cli = chart_text (sizes, WS_CHART_BLOCKS, WS_AUDIENCE_CLI);
  blocks_app = chart_text (sizes, WS_CHART_BLOCKS, WS_AUDIENCE_APP);
  /* Pango may break a line inside "--blocks": the flag's value is the mark. */
  g_assert_nonnull (strstr (blocks_cli, "blocks 32:1024:32"));
  g_assert_null (strstr (blocks_app, "--"));
  g_assert_nonnull (strstr (blocks_app, "sidebar"));

  speedup_cli = chart_text (blocks, WS_CHART_SPEEDUP, WS_AUDIENCE_CLI);
  speedup_app = chart_text (blocks, WS_CHART_SPEEDUP, WS_AUDIENCE_APP);
  g_assert_nonnull (strstr (speedup_cli, "sizes 1e3:1e8:x10"));
  g_assert_null (strstr (speedup_app, "--"));
  g_assert_nonnull (strstr (speedup_app, "From size"));

  /* The same words refuse an export. */
  ws_chart_options_init (&options, WS_CHART_BLOCKS, NULL, 720, 420);
  g_assert_false (ws_chart_check (sizes, &options, &error));
  g_assert_nonnull (strstr (error->message, "--blocks 32:1024:32"));
  g_clear_error (&error);
  options.audience = WS_AUDIENCE_APP;
  g_assert_false (ws_chart_check (sizes, &options, &error));
  g_assert_null (strstr (error->message, "--blocks"));
  g_clear_error (&error);
  g_assert_true (ws_chart_check (blocks, &options, &error));
  g_assert_no_error (error);
}

/* The texts of the labels under `widget`. */
static void
collect_labels (GtkWidget *widget, GString *out)
{
  if (GTK_IS_LABEL (widget))
    g_string_append_printf (out, "%s\n", gtk_label_get_text (GTK_LABEL (widget)));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    collect_labels (c, out);
}

/* The findings panel shows the app's wording; the CLI's report keeps the flag. */
static void
test_panel_and_report (void)
{
  g_autoptr (WsSession) session = load ("vector-add-blocks-h200.jsonl");
  g_autoptr (WsWorkspace) workspace = ws_workspace_new ();
  GtkWidget *window = gtk_window_new ();
  GtkWidget *panel = ws_findings_panel_new ();
  g_autoptr (GString) shown = g_string_new (NULL);
  g_autofree char *path = sample_path ("vector-add-blocks-h200.jsonl");
  g_auto (Result) r = { 0 };

  gtk_window_set_child (GTK_WINDOW (window), panel);
  ws_view_set_workspace (WS_VIEW (panel), workspace);
  ws_workspace_set_session (workspace, session);
  ws_workspace_select_runs (workspace, 1, 0);
  gtk_window_present (GTK_WINDOW (window));
  /* A loaded session is analysed in threads. */
  while (!ws_workspace_is_analysed (workspace))
    g_main_context_iteration (NULL, TRUE);
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
  collect_labels (panel, shown);
  g_test_message ("%s", shown->str);
  g_assert_nonnull (strstr (shown->str, "Set Host memory to Pinned in the sidebar"));
  g_assert_false (names_a_flag (shown->str));
  gtk_window_destroy (GTK_WINDOW (window));

  run_cli (&r, (const char *[]) { "report", path, NULL });
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "--transfer"));
  g_assert_null (strstr (r.out, "in the sidebar"));
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_test_add_func ("/audience/findings-of-samples", test_findings_of_samples);
  g_test_add_func ("/audience/pageable", test_pageable_wording);
  g_test_add_func ("/audience/chart-empty-states", test_chart_empty_states);
  g_test_add_func ("/audience/panel-and-report", test_panel_and_report);
  return g_test_run ();
}

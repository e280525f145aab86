/* test-cli-columns.c: one list of a run's columns (ws-run-columns.h) behind the report's CSV
 * and the chart export's CSV: the same columns in the same order, the same values, for the
 * bundled recordings. (The runs view's side is in test-app-workspace.c.)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "test-cli.h"

#include <math.h>

#include "ws-run-columns.h"

static WsSession *
load (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  WsSession *session = ws_session_load (file, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (session);
  return session;
}

/* parse_csv's rows are GPtrArrays of fields. */
#define FIELD(row, i) ((const char *) g_ptr_array_index ((row), (i)))

static int
column_index (GPtrArray *header, const char *key)
{
  for (guint i = 0; i < header->len; i++)
    if (g_str_equal (FIELD (header, i), key))
      return (int) i;
  return -1;
}

/* A field of a CSV holds the schema's value: empty for what was not measured, the number
 * exactly, the text as it is. */
static void
assert_field (const char *field, WsRun *run, const WsRunColumn *column, const char *where)
{
  WsRunValue v;

  ws_run_column_get (column, run, NULL, &v);
  switch (v.kind)
    {
    case WS_RUN_VALUE_EMPTY:
      if (*field != '\0')
        g_error ("%s, run %d, %s: \"%s\", expected an empty field", where, ws_run_get_id (run),
                 column->key, field);
      break;
    case WS_RUN_VALUE_NUMBER:
      if (*field == '\0' || g_ascii_strtod (field, NULL) != v.number)
        g_error ("%s, run %d, %s: \"%s\", expected %.17g", where, ws_run_get_id (run),
                 column->key, field, v.number);
      break;
    case WS_RUN_VALUE_TEXT:
      if (!g_str_equal (field, v.text))
        g_error ("%s, run %d, %s: \"%s\", expected \"%s\"", where, ws_run_get_id (run),
                 column->key, field, v.text);
      break;
    }
  ws_run_value_clear (&v);
}

static void
test_agree (gconstpointer data)
{
  const char *name = data;
  g_autofree char *path = sample_path (name);
  const char *report_args[] = { "report", "-f", "csv", path, NULL };
  const char *export_args[] = { "export", "-c", "roofline", "-f", "csv", "-o", "-", path, NULL };
  g_auto (Result) report = { 0 };
  g_auto (Result) export = { 0 };
  g_autoptr (GPtrArray) report_rows = NULL, export_rows = NULL;
  g_autoptr (WsSession) session = load (path);
  const WsRunColumn *columns;
  GPtrArray *header;
  guint n, csv_columns = 0, shared = 0;

  run_cli (&report, report_args);
  run_cli (&export, export_args);
  g_assert_cmpint (report.status, ==, 0);
  g_assert_cmpint (export.status, ==, 0);
  report_rows = parse_csv (report.out);
  export_rows = parse_csv (export.out);

  /* The report: every CSV column of the list, in its order, and nothing else. */
  columns = ws_run_columns (&n);
  header = g_ptr_array_index (report_rows, 0);
  for (guint i = 0; i < n; i++)
    if (columns[i].in_csv)
      g_assert_cmpstr (FIELD (header, csv_columns++), ==, columns[i].key);
  g_assert_cmpuint (header->len, ==, csv_columns);
  g_assert_cmpuint (report_rows->len, ==,
                    1 + g_list_model_get_n_items (ws_session_get_runs (session)));
  for (guint r = 1; r < report_rows->len; r++)
    {
      GPtrArray *row = g_ptr_array_index (report_rows, r);
      WsRun *run = ws_session_find_run (session, atoi (FIELD (row, 0)));

      g_assert_nonnull (run);
      g_assert_cmpuint (row->len, ==, csv_columns);
      for (guint i = 0, k = 0; i < n; i++)
        if (columns[i].in_csv && !g_str_equal (columns[i].key, "findings"))
          assert_field (FIELD (row, k++), run, &columns[i], "report");
        else if (columns[i].in_csv)
          k++;
    }

  /* The export: the columns it shares with the report hold the same values. */
  header = g_ptr_array_index (export_rows, 0);
  for (guint i = 0; i < n; i++)
    {
      int at = column_index (header, columns[i].key);

      /* The export's "shape" is the chart's name of the size ("2048³"), the report's the
       * dimensions ("2048x2048x2048"): both files kept as they were (docs/cli.md). */
      if (at < 0 || g_str_equal (columns[i].key, "shape"))
        continue;
      shared++;
      for (guint r = 1; r < export_rows->len; r++)
        {
          GPtrArray *row = g_ptr_array_index (export_rows, r);
          WsRun *run = ws_session_find_run (session,
                                            atoi (FIELD (row, column_index (header, "run"))));

          g_assert_nonnull (run);
          assert_field (FIELD (row, at), run, &columns[i], "export");
        }
    }
  g_assert_cmpuint (export_rows->len, >, 1);
  /* run, kernel, state, size, threads_per_block, transfer */
  g_assert_cmpuint (shared, >=, 5);
}

/* The people's text of a column is the value in its unit, through ws-units. */
static void
test_text (void)
{
  g_autofree char *path = sample_path ("vector-add-sizes-h200.jsonl");
  g_autoptr (WsSession) session = load (path);
  WsRun *run;
  struct
  {
    const char *key;
    const char *want;
  } cases[] = {
    { "run", "5" },
    { "shape", "n = 10,000,000" },
    { "block", "256" },
    { "kernel_ns_median", "37.4 µs" },
    { "e2e_ns_median", "12.2 ms" },
    { "occupancy", "100%" },
  };

  run = ws_session_find_run (session, 5);
  g_assert_nonnull (run);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const WsRunColumn *column = ws_run_column_find (cases[i].key);
      g_autofree char *text = NULL;

      g_assert_nonnull (column);
      text = ws_run_column_dup_text (column, run, NULL);
      g_assert_cmpstr (text, ==, cases[i].want);
    }
  g_assert_null (ws_run_column_find ("no_such_column"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *test = g_strdup_printf ("/cli/columns/agree/%s", samples[i]);

      g_test_add_data_func (test, samples[i], test_agree);
    }
  g_test_add_func ("/cli/columns/text", test_text);
  return g_test_run ();
}

/* test-cli-columns.c: one list of a run's columns (ws-run-columns.h) behind the report's CSV
 * and JSON and the chart export's CSVs: the same columns in the same order, the same values,
 * for the bundled recordings; every column named in docs/cli.md. (The runs view's side is in
 * test-app-workspace.c.)
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
    case WS_RUN_VALUE_ABSENT:
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
    case WS_RUN_VALUE_DIMS:
      {
        g_autofree char *want = v.rank == 1
                                  ? g_strdup_printf ("%" G_GUINT64_FORMAT, v.dims[0])
                                  : g_strdup_printf ("%" G_GUINT64_FORMAT "x%" G_GUINT64_FORMAT
                                                     "x%" G_GUINT64_FORMAT,
                                                     v.dims[0], v.dims[1], v.dims[2]);

        if (!g_str_equal (field, want))
          g_error ("%s, run %d, %s: \"%s\", expected \"%s\"", where, ws_run_get_id (run),
                   column->key, field, want);
      }
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
  static const char *const charts[] = { "roofline", "speedup", "blocks" };
  g_auto (Result) report = { 0 };
  g_autoptr (GPtrArray) report_rows = NULL;
  g_autoptr (WsSession) session = load (path);
  const WsRunColumn *columns;
  GPtrArray *header;
  guint n, csv_columns = 0, exported = 0;

  run_cli (&report, report_args);
  g_assert_cmpint (report.status, ==, 0);
  report_rows = parse_csv (report.out);

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

  /* The exports: the columns they share with the report hold the same values, under the
   * report's names or the export's own (ws_run_column_find_export). */
  for (guint c = 0; c < G_N_ELEMENTS (charts); c++)
    {
      const char *chart_args[] = { "export", "-c", charts[c], "-f", "csv", "-o", "-", path, NULL };
      g_auto (Result) chart = { 0 };
      g_autoptr (GPtrArray) rows = NULL;
      guint shared = 0;

      run_cli (&chart, chart_args);
      if (c > 0 && chart.status != 0)
        continue; /* a chart the session has nothing for */
      g_assert_cmpint (chart.status, ==, 0);
      rows = parse_csv (chart.out);
      header = g_ptr_array_index (rows, 0);
      for (guint i = 0; i < header->len; i++)
        {
          const WsRunColumn *column = ws_run_column_find_export (FIELD (header, i));

          /* The export's "shape" is the chart's name of the size ("2048³"), the report's the
           * dimensions ("2048x2048x2048"): both files kept as they were (docs/cli.md). */
          if (column == NULL || g_str_equal (column->key, "shape"))
            continue;
          shared++;
          for (guint r = 1; r < rows->len; r++)
            {
              GPtrArray *row = g_ptr_array_index (rows, r);
              WsRun *run = ws_session_find_run (session,
                                                atoi (FIELD (row, column_index (header, "run"))));

              g_assert_nonnull (run);
              assert_field (FIELD (row, i), run, column, charts[c]);
            }
        }
      g_assert_cmpuint (rows->len, >, 1);
      /* run, kernel, state, size, threads_per_block, transfer; the speedup chart's times,
       * baselines and speedups; the block chart's times and launch */
      g_assert_cmpuint (shared, >=, c == 0 ? 5 : c == 1 ? 18 : 12);
      exported++;
    }
  g_assert_cmpuint (exported, >=, 2);
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

/* ---- the JSON ------------------------------------------------------------------------------ */

/* Sweeps of sizes and blocks, BLAS baselines, a baseline not asked for (divergence), an own
 * kernel's parameters, a failed verification. */
static const char *const json_samples[] = {
  "matmul-naive-blocks-h200.jsonl", "matmul-sizes-h200.jsonl", "vector-add-blocks-h200.jsonl",
  "vector-add-sizes-h200.jsonl", "matmul-ladder-h200.jsonl", "divergence-h200.jsonl",
  "own-matmul-tiled-h200.jsonl", "own-vector-add-oob-memcheck-h200.jsonl",
};

/* The node at `path` ("kernel_ns.median") in a run's object; NULL where a member on the way is
 * missing; `null_group` gets whether a group on the way is null. */
static JsonNode *
json_at (JsonObject *object, const char *path, gboolean *null_group)
{
  g_auto (GStrv) parts = g_strsplit (path, ".", -1);

  *null_group = FALSE;
  for (guint i = 0; parts[i] != NULL; i++)
    {
      JsonNode *node = json_object_get_member (object, parts[i]);

      if (node == NULL || parts[i + 1] == NULL)
        return node;
      if (JSON_NODE_HOLDS_NULL (node))
        {
          *null_group = TRUE;
          return NULL;
        }
      g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
      object = json_node_get_object (node);
    }
  return NULL;
}

/* A member of the JSON holds the schema's value, in the column's JSON type. */
static void
assert_member (JsonObject *object, WsRun *run, const WsRunColumn *column)
{
  gboolean null_group;
  JsonNode *node = json_at (object, column->json, &null_group);
  WsRunValue v;

  ws_run_column_get (column, run, NULL, &v);
  if (null_group)
    {
      /* A null group (no repetitions, a baseline not asked for) has nothing in it. */
      g_assert_true (v.kind == WS_RUN_VALUE_EMPTY || v.kind == WS_RUN_VALUE_ABSENT);
      ws_run_value_clear (&v);
      return;
    }
  if (node == NULL)
    {
      if (v.kind != WS_RUN_VALUE_ABSENT && v.kind != WS_RUN_VALUE_EMPTY)
        g_error ("JSON, run %d: no %s", ws_run_get_id (run), column->json);
      ws_run_value_clear (&v);
      return;
    }
  switch (v.kind)
    {
    case WS_RUN_VALUE_ABSENT:
      g_error ("JSON, run %d: %s is there, the schema has nothing", ws_run_get_id (run),
               column->json);
      break;
    case WS_RUN_VALUE_EMPTY:
      g_assert_true (JSON_NODE_HOLDS_NULL (node));
      break;
    case WS_RUN_VALUE_NUMBER:
      g_assert_true (JSON_NODE_HOLDS_VALUE (node));
      if (column->json_type == WS_RUN_JSON_INTEGER)
        g_assert_cmpint (json_node_get_value_type (node), ==, G_TYPE_INT64);
      g_assert_cmpfloat (json_node_get_double (node), ==, v.number);
      break;
    case WS_RUN_VALUE_TEXT:
      if (column->json_type == WS_RUN_JSON_BOOLEAN)
        g_assert_cmpint (json_node_get_boolean (node), ==, g_str_equal (v.text, "true"));
      else
        g_assert_cmpstr (json_node_get_string (node), ==, v.text);
      break;
    case WS_RUN_VALUE_DIMS:
      {
        JsonArray *array = json_node_get_array (node);

        g_assert_cmpuint (json_array_get_length (array), ==, (guint) v.rank);
        for (int i = 0; i < v.rank; i++)
          g_assert_cmpint (json_array_get_int_element (array, i), ==, (gint64) v.dims[i]);
      }
      break;
    }
  ws_run_value_clear (&v);
}

/* Every member of a run's object, at every depth, is a column's. */
static void
assert_all_columns (JsonObject *object, const char *prefix)
{
  g_autoptr (GList) members = json_object_get_members (object);

  for (GList *l = members; l != NULL; l = l->next)
    {
      g_autofree char *path = prefix ? g_strdup_printf ("%s.%s", prefix, (char *) l->data)
                                     : g_strdup (l->data);
      JsonNode *node = json_object_get_member (object, l->data);
      guint n;
      const WsRunColumn *columns = ws_run_columns (&n);
      gboolean found = FALSE;

      if (JSON_NODE_HOLDS_OBJECT (node))
        {
          assert_all_columns (json_node_get_object (node), path);
          continue;
        }
      for (guint i = 0; i < n && !found; i++)
        found = columns[i].json != NULL
                && (g_str_equal (columns[i].json, path)
                    || (g_str_has_prefix (columns[i].json, path)
                        && columns[i].json[strlen (path)] == '.'));
      if (!found)
        g_error ("JSON: %s is no column's", path);
    }
}

/* The report's JSON of the session at `path` holds the schema's columns and nothing else;
 * returns how many runs have the other implementation's baseline beside cpu_1. */
static guint
check_json (const char *path)
{
  const char *args[] = { "report", "-f", "json", path, NULL };
  g_auto (Result) report = { 0 };
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (WsSession) session = load (path);
  JsonArray *runs;
  const WsRunColumn *columns;
  guint n, others = 0;

  run_cli (&report, args);
  g_assert_cmpint (report.status, ==, 0);
  root = parse_json (report.out);
  runs = json_object_get_array_member (json_node_get_object (root), "runs");
  g_assert_cmpuint (json_array_get_length (runs), ==,
                    g_list_model_get_n_items (ws_session_get_runs (session)));
  columns = ws_run_columns (&n);
  for (guint r = 0; r < json_array_get_length (runs); r++)
    {
      JsonObject *object = json_array_get_object_element (runs, r);
      WsRun *run = ws_session_find_run (session, (int) json_object_get_int_member (object, "id"));

      g_assert_nonnull (run);
      assert_all_columns (object, NULL);
      for (guint i = 0; i < n; i++)
        if (columns[i].json != NULL && columns[i].json_type != WS_RUN_JSON_FINDINGS)
          assert_member (object, run, &columns[i]);
        else if (columns[i].json != NULL)
          g_assert_true (JSON_NODE_HOLDS_ARRAY (json_object_get_member (object, "findings")));
      others += json_object_has_member (object, "cpu_1_other");
    }
  return others;
}

static void
test_json (gconstpointer data)
{
  g_autofree char *path = sample_path (data);

  check_json (path);
}

/* No recording has both implementations of a one-thread baseline: a copy of one whose every
 * timing has its cpu_1 again under cpu_1_hand_written, the name the runner gives the other. */
static void
test_json_other (void)
{
  g_autofree char *sample = sample_path ("matmul-sizes-h200.jsonl");
  g_autofree char *dir = g_dir_make_tmp ("ws-columns-XXXXXX", NULL);
  g_autofree char *text = NULL, *path = NULL;
  g_autoptr (GString) copy = g_string_new (NULL);
  const char *p;

  g_assert_true (g_file_get_contents (sample, &text, NULL, NULL));
  for (p = text; *p != '\0';)
    {
      const char *at = strstr (p, "\"cpu_1\":{");
      const char *end;
      int depth = 0;

      if (at == NULL)
        break;
      g_string_append_len (copy, p, at - p);
      for (end = at + strlen ("\"cpu_1\":"); *end != '\0'; end++)
        if (*end == '{')
          depth++;
        else if (*end == '}' && --depth == 0)
          break;
      g_string_append (copy, "\"cpu_1_hand_written\"");
      g_string_append_len (copy, at + strlen ("\"cpu_1\""), end + 1 - at - strlen ("\"cpu_1\""));
      g_string_append_c (copy, ',');
      g_string_append_len (copy, at, end + 1 - at);
      p = end + 1;
    }
  g_string_append (copy, p);
  path = write_temp (dir, "other.jsonl", copy->str, (gssize) copy->len);
  g_assert_cmpuint (check_json (path), >, 0);
  remove_dir (dir);
}

/* The words of the paragraph of docs/cli.md that begins with `start` (keys and paths). */
static GHashTable *
doc_words (const char *start)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "docs", "cli.md", NULL);
  g_autofree char *text = NULL;
  GHashTable *words = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const char *p, *end;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  p = strstr (text, start);
  g_assert_nonnull (p);
  end = strstr (p, "\n\n");
  for (const char *w = p; w < end;)
    {
      const char *e = w;

      while (e < end && (g_ascii_isalnum (*e) || *e == '_' || *e == '.'))
        e++;
      if (e > w)
        g_hash_table_add (words, g_strndup (w, (gsize) (e - w)));
      w = e > w ? e : e + 1;
    }
  return words;
}

/* docs/cli.md names every column, by its key in the CSV, its path in the JSON and its name in
 * the chart export's CSV where that is another. */
static void
test_documented (void)
{
  g_autoptr (GHashTable) csv = doc_words ("**CSV**: a header row");
  g_autoptr (GHashTable) json = doc_words ("**JSON**: one object");
  g_autoptr (GHashTable) export = doc_words ("The CSV of a chart (`--format csv`)");
  const WsRunColumn *columns;
  guint n;

  columns = ws_run_columns (&n);
  for (guint i = 0; i < n; i++)
    {
      if (columns[i].in_csv && !g_hash_table_contains (csv, columns[i].key))
        g_error ("docs/cli.md: the report's CSV does not name %s", columns[i].key);
      if (columns[i].json != NULL && !g_hash_table_contains (json, columns[i].json))
        g_error ("docs/cli.md: the report's JSON does not name %s", columns[i].json);
      if (columns[i].export_key != NULL && !g_hash_table_contains (export, columns[i].export_key))
        g_error ("docs/cli.md: the chart export's CSV does not name %s", columns[i].export_key);
    }
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
  for (guint i = 0; i < G_N_ELEMENTS (json_samples); i++)
    {
      g_autofree char *test = g_strdup_printf ("/cli/columns/json/%s", json_samples[i]);

      g_test_add_data_func (test, json_samples[i], test_json);
    }
  g_test_add_func ("/cli/columns/json-other", test_json_other);
  g_test_add_func ("/cli/columns/documented", test_documented);
  return g_test_run ();
}

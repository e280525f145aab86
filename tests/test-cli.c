/* test-cli.c: warpscope-cli as scripts use it: reports of the bundled recordings in every
 * format and what they find, replays, runs against a stand-in runner and without a driver,
 * the occupancy calculator, exports, and every kind of bad argument and bad file.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <locale.h>
#include <string.h>
#include <sys/wait.h>

#include "ws-chart.h"
#include "ws-export.h"
#include "ws-session.h"

static const char *const samples[] = {
  "matmul-naive-blocks-h200.jsonl",
  "matmul-sizes-h200.jsonl",
  "vector-add-blocks-h200.jsonl",
  "vector-add-sizes-h200.jsonl",
};

typedef struct
{
  int status;  /* exit status; -1 when it died of a signal */
  char *out;
  char *err;
  double seconds;
} Result;

static void
result_clear (Result *r)
{
  g_clear_pointer (&r->out, g_free);
  g_clear_pointer (&r->err, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Result, result_clear)

static char *
cli_path (void)
{
  return g_test_build_filename (G_TEST_BUILT, "..", "src", "cli", "warpscope-cli", NULL);
}

static char *
sample_path (const char *name)
{
  return g_build_filename (g_getenv ("WS_SAMPLES_DIR"), name, NULL);
}

/* Runs warpscope-cli with `args` (NULL-terminated), `env` as NAME=VALUE pairs added, in `cwd`
 * (NULL: here). */
static void
run_cli_full (Result *r, const char *const *args, const char *const *env, const char *cwd)
{
  g_autofree char *cli = cli_path ();
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_auto (GStrv) envp = g_get_environ ();
  g_autoptr (GError) error = NULL;
  gint64 start;
  int wait_status = 0;

  g_ptr_array_add (argv, cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      g_auto (GStrv) pair = g_strsplit (env[i], "=", 2);

      envp = g_environ_setenv (envp, pair[0], pair[1], TRUE);
    }
  memset (r, 0, sizeof *r);
  start = g_get_monotonic_time ();
  g_assert_true (g_spawn_sync (cwd, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &r->out, &r->err, &wait_status, &error));
  g_assert_no_error (error);
  r->seconds = (g_get_monotonic_time () - start) / 1e6;
  r->status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;
  g_test_message ("warpscope-cli %s → %d\n%s", args[0], r->status, r->err);
}

static void
run_cli (Result *r, const char *const *args)
{
  run_cli_full (r, args, NULL, NULL);
}

static guint
count_runs (const char *path)
{
  g_autofree char *text = NULL;
  guint n = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  for (const char *p = text; (p = strstr (p, "{\"type\":\"run\"")) != NULL; p++)
    n++;
  return n;
}

static char *
write_temp (const char *dir, const char *name, const char *text, gssize length)
{
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, length, NULL));
  return path;
}

/* Removes a directory the test made, and what is in it. */
static void
remove_dir (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_remove (path);
    }
  g_rmdir (dir);
}

static JsonNode *
parse_json (const char *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

/* ---- CSV, the way a spreadsheet reads it ------------------------------------------------- */

static GPtrArray *
parse_csv (const char *text)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  GPtrArray *row = g_ptr_array_new_with_free_func (g_free);
  GString *field = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *p = text; *p != '\0'; p++)
    {
      if (quoted)
        {
          if (*p == '"' && p[1] == '"')
            g_string_append_c (field, '"'), p++;
          else if (*p == '"')
            quoted = FALSE;
          else
            g_string_append_c (field, *p);
        }
      else if (*p == '"')
        quoted = TRUE;
      else if (*p == ',')
        g_ptr_array_add (row, g_string_free (g_steal_pointer (&field), FALSE)),
          field = g_string_new (NULL);
      else if (*p == '\r' && p[1] == '\n')
        continue;
      else if (*p == '\n')
        {
          g_ptr_array_add (row, g_string_free (g_steal_pointer (&field), FALSE));
          field = g_string_new (NULL);
          g_ptr_array_add (rows, row);
          row = g_ptr_array_new_with_free_func (g_free);
        }
      else
        g_string_append_c (field, *p);
    }
  g_assert_false (quoted);
  if (field->len > 0 || row->len > 0)
    {
      g_ptr_array_add (row, g_string_free (g_steal_pointer (&field), FALSE));
      g_ptr_array_add (rows, row);
    }
  else
    {
      g_string_free (field, TRUE);
      g_ptr_array_unref (row);
    }
  return rows;
}

/* ---- report ------------------------------------------------------------------------------ */

static void
test_report_table (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *path = sample_path (samples[i]);
      const char *args[] = { "report", path, NULL };
      g_auto (Result) r = { 0 };

      run_cli (&r, args);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_nonnull (strstr (r.out, "NVIDIA H200"));
      g_assert_nonnull (strstr (r.out, "kernel time"));
      g_assert_nonnull (strstr (r.out, "Fastest configurations"));
      g_assert_nonnull (strstr (r.out, "Findings"));
      /* Units for people, spreads in the same unit. */
      g_assert_true (strstr (r.out, " µs (") != NULL || strstr (r.out, " ms (") != NULL);
      g_assert_nonnull (strstr (r.out, "×"));
    }
}

/* Every line of the table fits the width asked for, and a narrow terminal still shows the
 * numbers. */
static void
test_report_width (void)
{
  g_autofree char *path = sample_path ("matmul-sizes-h200.jsonl");
  const int widths[] = { 200, 120, 100, 80, 60 };

  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    {
      g_autofree char *width = g_strdup_printf ("%d", widths[w]);
      const char *args[] = { "report", path, "--width", width, NULL };
      g_auto (Result) r = { 0 };
      g_auto (GStrv) lines = NULL;

      run_cli (&r, args);
      g_assert_cmpint (r.status, ==, 0);
      lines = g_strsplit (r.out, "\n", -1);
      for (guint i = 0; lines[i] != NULL; i++)
        {
          if (g_utf8_strlen (lines[i], -1) > widths[w])
            g_error ("line %u is wider than %d: %s", i, widths[w], lines[i]);
        }
      g_assert_nonnull (strstr (r.out, "15.9 ms")); /* matmul_tiled 32×32 at 4096³ */
    }
}

static void
test_report_csv (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *path = sample_path (samples[i]);
      const char *args[] = { "report", path, "--format", "csv", NULL };
      g_auto (Result) r = { 0 };
      g_autoptr (GPtrArray) rows = NULL;
      GPtrArray *header;

      run_cli (&r, args);
      g_assert_cmpint (r.status, ==, 0);
      rows = parse_csv (r.out);
      g_assert_cmpuint (rows->len, ==, count_runs (path) + 1);
      header = g_ptr_array_index (rows, 0);
      g_assert_cmpstr (g_ptr_array_index (header, 0), ==, "run");
      g_assert_cmpuint (header->len, >=, 20);
      for (guint j = 1; j < rows->len; j++)
        {
          GPtrArray *row = g_ptr_array_index (rows, j);
          g_autofree char *id = g_strdup_printf ("%u", j);

          g_assert_cmpuint (row->len, ==, header->len);
          g_assert_cmpstr (g_ptr_array_index (row, 0), ==, id);
        }
    }
}

static void
test_report_json (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *path = sample_path (samples[i]);
      const char *args[] = { "report", path, "--format", "json", NULL };
      g_auto (Result) r = { 0 };
      g_autoptr (JsonNode) root = NULL;
      JsonObject *o;
      JsonArray *runs;

      run_cli (&r, args);
      g_assert_cmpint (r.status, ==, 0);
      root = parse_json (r.out);
      o = json_node_get_object (root);
      g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (o, "device"),
                                                      "name"),
                       ==, "NVIDIA H200");
      runs = json_object_get_array_member (o, "runs");
      g_assert_cmpuint (json_array_get_length (runs), ==, count_runs (path));
      for (guint j = 0; j < json_array_get_length (runs); j++)
        {
          JsonObject *run = json_array_get_object_element (runs, j);
          JsonObject *kernel = json_object_get_object_member (run, "kernel_ns");

          g_assert_cmpint (json_object_get_int_member (run, "id"), ==, j + 1);
          g_assert_cmpfloat (json_object_get_double_member (kernel, "min"), <=,
                             json_object_get_double_member (kernel, "median"));
          g_assert_cmpfloat (json_object_get_double_member (kernel, "median"), <=,
                             json_object_get_double_member (kernel, "max"));
          g_assert_true (json_object_get_boolean_member (run, "verified"));
          g_assert_true (JSON_NODE_HOLDS_ARRAY (json_object_get_member (run, "findings")));
        }
    }
}

static void
test_report_markdown (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *path = sample_path (samples[i]);
      const char *args[] = { "report", path, "--format", "markdown", NULL };
      g_auto (Result) r = { 0 };
      g_auto (GStrv) lines = NULL;
      guint header = 0, rows = 0;

      run_cli (&r, args);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_true (g_str_has_prefix (r.out, "# "));
      lines = g_strsplit (r.out, "\n", -1);
      for (guint j = 0; lines[j] != NULL; j++)
        {
          if (g_str_has_prefix (lines[j], "| run |"))
            {
              header = j;
              g_assert_true (g_str_has_prefix (lines[j + 1], "| ---"));
            }
          else if (header > 0 && j > header + 1 && g_str_has_prefix (lines[j], "| "))
            rows++;
        }
      g_assert_cmpuint (header, >, 0);
      g_assert_cmpuint (rows, ==, count_runs (path));
    }
}

static JsonObject *
report_json (const char *sample, JsonNode **root)
{
  g_autofree char *path = sample_path (sample);
  const char *args[] = { "report", path, "--format", "json", NULL };
  g_auto (Result) r = { 0 };

  run_cli (&r, args);
  g_assert_cmpint (r.status, ==, 0);
  *root = parse_json (r.out);
  return json_node_get_object (*root);
}

static gboolean
run_has_finding (JsonObject *run, const char *id)
{
  JsonArray *findings = json_object_get_array_member (run, "findings");

  for (guint i = 0; i < json_array_get_length (findings); i++)
    if (g_strcmp0 (json_object_get_string_member (json_array_get_object_element (findings, i),
                                                  "id"),
                   id)
        == 0)
      return TRUE;
  return FALSE;
}

/* What a GPU teacher would point at in each recording. */
static void
test_report_findings (void)
{
  g_autoptr (JsonNode) sizes = NULL, blocks = NULL, matmul = NULL;
  JsonObject *o;
  JsonArray *runs, *crossovers, *fastest;
  gboolean transfer_bound = FALSE, crossover = FALSE;
  guint tiled_wins = 0;

  /* Pageable copies of 10⁷ and 10⁸ floats take far longer than the kernel. */
  o = report_json ("vector-add-sizes-h200.jsonl", &sizes);
  runs = json_object_get_array_member (o, "runs");
  for (guint i = 0; i < json_array_get_length (runs); i++)
    {
      JsonObject *run = json_array_get_object_element (runs, i);

      if (g_str_equal (json_object_get_string_member (run, "transfer"), "pageable")
          && json_object_get_double_member (run, "size") >= 1e7)
        {
          g_assert_true (run_has_finding (run, "transfer_bound"));
          transfer_bound = TRUE;
        }
    }
  g_assert_true (transfer_bound);
  /* The kernel overtakes one CPU thread somewhere between 10³ and 10⁸, and the report names
   * the size. */
  crossovers = json_object_get_array_member (o, "crossovers");
  for (guint i = 0; i < json_array_get_length (crossovers); i++)
    {
      JsonObject *x = json_array_get_object_element (crossovers, i);
      JsonNode *size = json_object_get_member (x, "kernel_vs_1");

      if (JSON_NODE_HOLDS_VALUE (size))
        {
          g_assert_cmpfloat (json_node_get_double (size), >, 1e3);
          g_assert_cmpfloat (json_node_get_double (size), <, 1e8);
          g_assert_nonnull (strstr (json_object_get_string_member (x, "text"), "n ≈ "));
          crossover = TRUE;
        }
    }
  g_assert_true (crossover);

  /* One warp per block: 32 blocks per SM fill half of its 64 warp slots. */
  o = report_json ("vector-add-blocks-h200.jsonl", &blocks);
  runs = json_object_get_array_member (o, "runs");
  for (guint i = 0; i < json_array_get_length (runs); i++)
    {
      JsonObject *run = json_array_get_object_element (runs, i);
      JsonArray *block = json_object_get_array_member (run, "block");

      if (json_array_get_int_element (block, 0) == 32)
        {
          g_assert_cmpfloat (json_object_get_double_member (run, "occupancy"), ==, 0.5);
          g_assert_true (run_has_finding (run, "under_occupied"));
        }
      else if (json_object_get_double_member (run, "occupancy") >= 1)
        g_assert_false (run_has_finding (run, "under_occupied"));
    }
  /* A block sweep names its fastest block and the ones tied with it. */
  fastest = json_object_get_array_member (o, "fastest");
  g_assert_cmpuint (json_array_get_length (fastest), ==, 1);
  g_assert_true (json_object_get_boolean_member (json_array_get_object_element (fastest, 0),
                                                 "block_sweep"));
  g_assert_nonnull (strstr (json_object_get_string_member (json_array_get_object_element (
                                                             fastest, 0),
                                                           "text"),
                            "fastest block"));

  /* Shared-memory tiling beats the naive kernel at every size. */
  o = report_json ("matmul-sizes-h200.jsonl", &matmul);
  fastest = json_object_get_array_member (o, "fastest");
  g_assert_cmpuint (json_array_get_length (fastest), ==, 5);
  for (guint i = 0; i < json_array_get_length (fastest); i++)
    {
      JsonObject *f = json_array_get_object_element (fastest, i);

      if (g_str_equal (json_object_get_string_member (f, "best_kernel"), "matmul_tiled"))
        {
          tiled_wins++;
          g_assert_nonnull (strstr (json_object_get_string_member (f, "text"),
                                    "matmul_tiled beats the best matmul_naive"));
        }
    }
  g_assert_cmpuint (tiled_wins, ==, 5);
}

/* The table prints the findings under it, run by run, with severity, cause and fix. */
static void
test_report_findings_text (void)
{
  g_autofree char *path = sample_path ("vector-add-sizes-h200.jsonl");
  const char *args[] = { "report", path, NULL };
  const char *high[] = { "report", path, "--severity", "high", "--format", "json", NULL };
  g_auto (Result) r = { 0 };
  g_auto (Result) h;
  const char *findings;

  run_cli (&r, args);
  g_assert_cmpint (r.status, ==, 0);
  findings = strstr (r.out, "\nFindings\n");
  g_assert_nonnull (findings);
  g_assert_nonnull (strstr (findings, "Run 6: vector_add n = 100,000,000, block 256, pageable"));
  g_assert_nonnull (strstr (findings, "Cause: "));
  g_assert_nonnull (strstr (findings, "Fix: "));
  g_assert_true (strstr (findings, "  high ") != NULL || strstr (findings, "  medium ") != NULL);

  run_cli (&h, high);
  g_assert_cmpint (h.status, ==, 0);
  g_assert_null (strstr (h.out, "\"severity\": \"info\""));
  g_assert_null (strstr (h.out, "\"severity\": \"low\""));
}

/* The report in Simplified Chinese: the findings and the words around them are translated
 * (po/zh_CN.po, read from the build tree), the machine formats are not, and without a
 * language asked for it is English. */
static char *
flatten (const char *text)
{
  g_autoptr (GRegex) space = g_regex_new ("\\s+", 0, 0, NULL);

  return g_regex_replace_literal (space, text, -1, 0, " ", 0, NULL);
}

static void
test_report_translated (void)
{
  g_autofree char *path = sample_path ("vector-add-sizes-h200.jsonl");
  const char *args[] = { "report", path, NULL };
  const char *csv[] = { "report", path, "--format", "csv", NULL };
  const char *json[] = { "report", path, "--format", "json", NULL };
  /* zh_CN.UTF-8 comes with Debian's locales-all (./dev installs it); glibc's own C.UTF-8
   * honours LANGUAGE too, so the test means the same on a machine without it. */
  const char *locale = setlocale (LC_ALL, "zh_CN.UTF-8") != NULL ? "zh_CN.UTF-8" : "C.UTF-8";
  g_autofree char *lc_all = g_strdup_printf ("LC_ALL=%s", locale);
  const char *zh[] = { lc_all, "LANGUAGE=zh_CN", "LANG=zh_CN.UTF-8", NULL };
  const char *en[] = { "LC_ALL=C", "LANGUAGE=", NULL };
  g_auto (Result) r = { 0 };
  g_auto (Result) e = { 0 };
  g_auto (Result) c_zh = { 0 };
  g_auto (Result) c_en = { 0 };
  g_auto (Result) j_zh = { 0 };
  g_auto (Result) j_en = { 0 };
  g_autofree char *flat = NULL, *flat_en = NULL;

  setlocale (LC_ALL, "");
  run_cli_full (&r, args, zh, NULL);
  g_assert_cmpint (r.status, ==, 0);
  flat = flatten (r.out);
  /* Run 1 has 4 blocks for the H200's 132 SMs: a finding's title, cause and fix, and the
   * report's own headings. */
  g_assert_nonnull (strstr (flat, "网格过小：4 个线程块对应 132 个 SM"));
  g_assert_nonnull (strstr (flat, "原因： 一个线程块在一个 SM 上运行。"));
  g_assert_nonnull (strstr (flat, "改进： 更小的线程块意味着更多的线程块"));
  g_assert_nonnull (strstr (r.out, "\n诊断\n"));
  g_assert_nonnull (strstr (flat, "最快的配置"));
  g_assert_null (strstr (flat, "Small grid"));
  /* Chinese has no spaces to break at: lines still fit the width, counting a wide character
   * as two columns, and never start with closing punctuation. */
  {
    const char *narrow[] = { "report", path, "--width", "60", NULL };
    g_auto (Result) w = { 0 };
    g_auto (GStrv) lines = NULL;

    run_cli_full (&w, narrow, zh, NULL);
    g_assert_cmpint (w.status, ==, 0);
    lines = g_strsplit (w.out, "\n", -1);
    for (guint i = 0; lines[i] != NULL; i++)
      {
        glong columns = 0;
        const char *first = lines[i];

        for (const char *p = lines[i]; *p != '\0'; p = g_utf8_next_char (p))
          columns += g_unichar_iswide (g_utf8_get_char (p)) ? 2 : 1;
        if (columns > 60)
          g_error ("line %u is %ld columns wide: %s", i, columns, lines[i]);
        while (*first == ' ')
          first++;
        if (g_str_has_prefix (first, "，") || g_str_has_prefix (first, "。"))
          g_error ("line %u starts with punctuation: %s", i, lines[i]);
      }
  }

  run_cli_full (&e, args, en, NULL);
  g_assert_cmpint (e.status, ==, 0);
  flat_en = flatten (e.out);
  g_assert_nonnull (strstr (flat_en, "Small grid: 4 blocks for 132 SMs"));
  g_assert_nonnull (strstr (e.out, "\nFindings\n"));
  g_assert_null (strstr (e.out, "网格"));

  /* CSV and JSON are for scripts: the same bytes in any language. */
  run_cli_full (&c_zh, csv, zh, NULL);
  run_cli_full (&c_en, csv, en, NULL);
  g_assert_cmpint (c_zh.status, ==, 0);
  g_assert_cmpint (c_en.status, ==, 0);
  g_assert_nonnull (strchr (c_zh.out, '\n'));
  g_assert_nonnull (strchr (c_en.out, '\n'));
  {
    g_autofree char *head_zh = g_strndup (c_zh.out, strchr (c_zh.out, '\n') - c_zh.out);
    g_autofree char *head_en = g_strndup (c_en.out, strchr (c_en.out, '\n') - c_en.out);

    g_assert_cmpstr (head_zh, ==, head_en);
  }
  run_cli_full (&j_zh, json, zh, NULL);
  run_cli_full (&j_en, json, en, NULL);
  g_assert_cmpint (j_zh.status, ==, 0);
  g_assert_nonnull (strstr (j_zh.out, "\"findings\""));
  g_assert_nonnull (strstr (j_zh.out, "\"small_grid\""));
  g_assert_nonnull (strstr (j_zh.out, "\"severity\""));
}

/* The ladder's summary says how far each kernel is from its ceiling, and a library call
 * (cuBLAS picks its own blocks) is never given a block. */
static void
test_report_ladder (void)
{
  g_autofree char *path = sample_path ("matmul-ladder-h200.jsonl");
  const char *args[] = { "report", path, NULL };
  g_auto (Result) r = { 0 };
  g_autoptr (GRegex) space = g_regex_new ("\\s+", 0, 0, NULL);
  g_autofree char *flat = NULL;
  const char *fastest;

  run_cli (&r, args);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\nFastest configurations\n"));
  /* Paragraphs wrap at the terminal's width: compare words, not lines. */
  flat = g_regex_replace_literal (space, strstr (r.out, "\nFastest configurations\n"), -1, 0,
                                  " ", 0, NULL);
  fastest = flat;
  g_assert_nonnull (strstr (fastest, "fastest matmul_cublas, kernel "));
  g_assert_nonnull (strstr (fastest, "of cuBLAS SGEMM at this size"));
  g_assert_nonnull (strstr (fastest, "of the theoretical FP32 peak"));
  g_assert_nonnull (strstr (r.out, "Run 24: matmul_cublas 4096³, pinned\n"));
  g_assert_null (strstr (r.out, "block ,"));
  g_assert_null (strstr (r.out, "block )"));
}

/* ---- replay ------------------------------------------------------------------------------ */

static void
test_replay_fast (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *path = sample_path (samples[i]);
      const char *args[] = { "replay", "--speed", "0", path, NULL };
      g_autofree char *original = NULL;
      g_auto (GStrv) want = NULL;
      g_auto (GStrv) got = NULL;
      g_auto (Result) r = { 0 };
      g_autoptr (JsonNode) hello = NULL;
      g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_LIVE);
      g_autofree char *head = NULL;
      JsonObject *replay;

      run_cli (&r, args);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_true (g_file_get_contents (path, &original, NULL, NULL));
      want = g_strsplit (original, "\n", -1);
      got = g_strsplit (r.out, "\n", -1);
      g_assert_cmpuint (g_strv_length (got), ==, g_strv_length (want));
      /* The hello gains the marker and keeps every member it had. */
      hello = parse_json (got[0]);
      replay = json_object_get_object_member (json_node_get_object (hello), "replay");
      g_assert_nonnull (replay);
      g_assert_cmpstr (json_object_get_string_member (replay, "file"), ==, samples[i]);
      g_assert_cmpfloat (json_object_get_double_member (replay, "speed"), ==, 0);
      head = g_strndup (want[0], strlen (want[0]) - 1);
      g_assert_true (g_str_has_prefix (got[0], head));
      for (guint j = 1; want[j] != NULL; j++)
        g_assert_cmpstr (got[j], ==, want[j]);

      /* The model reads it as a replay of the same runs. */
      for (guint j = 0; got[j] != NULL; j++)
        if (*got[j] != '\0')
          g_assert_true (ws_session_feed_line (session, got[j], -1, NULL));
      g_assert_cmpint (ws_session_get_source (session), ==, WS_SESSION_SOURCE_REPLAY);
      g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (session)), ==,
                        count_runs (path));
      g_assert_true (ws_session_is_done (session, NULL, NULL));
    }
}

static const char paced[]
  = "{\"type\":\"hello\",\"t\":0,\"protocol\":1,\"runner\":\"test\"}\n"
    "{\"type\":\"error\",\"t\":200,\"run\":null,\"severity\":\"warning\",\"code\":\"x\","
    "\"message\":\"m\"}\n"
    "{\"type\":\"done\",\"t\":600,\"runs\":0,\"failed\":0,\"dropped_records\":0,"
    "\"exit_code\":0}\n";

/* A 600 ms recording played at twice its speed takes about 300 ms. */
static void
test_replay_pacing (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *path = write_temp (dir, "paced.jsonl", paced, -1);
  const char *twice[] = { "replay", "--speed", "2", path, NULL };
  const char *fast[] = { "replay", "--speed", "0", path, NULL };
  g_auto (Result) r = { 0 };
  g_auto (Result) f;

  run_cli (&r, twice);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpfloat (r.seconds, >=, 0.29);
  g_assert_cmpfloat (r.seconds, <, 0.29 + 1.5);
  g_assert_nonnull (strstr (r.out, "\"speed\":2}"));
  run_cli (&f, fast);
  g_assert_cmpint (f.status, ==, 0);
  g_assert_cmpfloat (f.seconds, <, 0.29);
  remove_dir (dir);
}

static void
test_replay_errors (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.jsonl", NULL);
  g_autofree char *empty = write_temp (dir, "empty.jsonl", "", 0);
  g_autofree char *cut = write_temp (dir, "cut.jsonl", paced, strstr (paced, "{\"type\":\"done\"") - paced);
  const char *bad_speed[] = { "replay", "--speed", "-1", missing, NULL };
  struct
  {
    const char *path;
    const char *message;
    gboolean prints;
  } cases[] = {
    { missing, "missing.jsonl", FALSE },
    { empty, "empty", FALSE },
    { cut, "done record", TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *args[] = { "replay", "--speed", "0", cases[i].path, NULL };
      g_auto (Result) r = { 0 };

      run_cli (&r, args);
      g_assert_cmpint (r.status, ==, 1);
      g_assert_nonnull (strstr (r.err, cases[i].message));
      g_assert_cmpint (*r.out != '\0', ==, cases[i].prints);
    }
  {
    g_auto (Result) r = { 0 };

    run_cli (&r, bad_speed);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "--speed"));
  }
  remove_dir (dir);
}

/* ---- bad files and bad arguments --------------------------------------------------------- */

static void
test_bad_files (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  static const char binary[] = "\x7f" "ELF\x02\x01\x01\0\0\0\0\xff\xfe\n\x01\x02\x03";
  g_autofree char *missing = g_build_filename (dir, "missing.jsonl", NULL);
  g_autofree char *empty = write_temp (dir, "empty.jsonl", "", 0);
  g_autofree char *blob = write_temp (dir, "blob.jsonl", binary, sizeof binary - 1);
  g_autofree char *future = write_temp (dir, "future.jsonl",
                                        "{\"type\":\"hello\",\"t\":0,\"protocol\":99,"
                                        "\"runner\":\"9.0\"}\n",
                                        -1);
  struct
  {
    const char *path;
    const char *message;
  } cases[] = {
    { missing, "missing.jsonl" },
    { empty, "empty" },
    { blob, "not a Warpscope session" },
    { future, "newer" },
  };
  const char *commands[][2] = { { "report", NULL }, { "replay", NULL }, { "export", "--chart" } };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
      {
        const char *args[] = { commands[c][0], cases[i].path, "--chart", "timeline", "--format",
                               "png", "-o", "/nonexistent/x.png", NULL };
        g_auto (Result) r = { 0 };
        g_autofree char *name = g_path_get_basename (cases[i].path);

        if (commands[c][1] == NULL)
          args[2] = NULL;
        run_cli (&r, args);
        g_assert_cmpint (r.status, ==, 1);
        g_assert_nonnull (strstr (r.err, cases[i].message));
        g_assert_nonnull (strstr (r.err, name));
      }
  remove_dir (dir);
}

static void
test_bad_arguments (void)
{
  g_autofree char *path = sample_path ("vector-add-sizes-h200.jsonl");
  struct
  {
    const char *args[12];
    const char *message;
  } cases[] = {
    { { "frobnicate", NULL }, "not a command" },
    { { "--bogus", NULL }, "unknown option" },
    { { "report", "--bogus", path, NULL }, "Unknown option" },
    { { "report", NULL }, "which session" },
    { { "report", path, path, NULL }, "one file" },
    { { "report", path, "--format", "xml", NULL }, "not a format" },
    { { "report", path, "--severity", "dire", NULL }, "not a level" },
    { { "occupancy", "--block", "0", NULL }, "at least one thread" },
    { { "occupancy", "--block", "2048", NULL }, "2048" },
    { { "occupancy", "--block", "256", "--arch", "sm_1", NULL }, "sm_1" },
    { { "occupancy", "--block", "many", NULL }, "many" },
    { { "occupancy", NULL }, "--block" },
    { { "run", NULL }, "--kernel" },
    { { "run", "--kernel", "vector_add", "--launcher", "ssh \"gpu", NULL }, "--launcher" },
    { { "run", "--kernel", "vector_add", "extra", NULL }, "extra" },
    { { "export", path, "--chart", "pie", "--format", "png", NULL }, "not a chart" },
    { { "export", path, "--chart", "timeline", "--format", "gif", NULL }, "not a format" },
    { { "export", path, "--chart", "timeline", NULL }, "which format" },
    { { "export", path, "--chart", "timeline", "-o", "x.png", "--run", "99", NULL }, "no run 99" },
    { { "export", path, "--chart", "timeline", "-o", "x.png", "--compare", "3", NULL },
      "--compare needs --run" },
    { { "export", path, "--chart", "timeline", "-o", "x.png", "--run", "3", "--compare", "99",
        NULL },
      "no run 99" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (Result) r = { 0 };

      run_cli (&r, cases[i].args);
      g_assert_cmpint (r.status, ==, 2);
      if (strstr (r.err, cases[i].message) == NULL)
        g_error ("“%s”: no “%s” in: %s", cases[i].args[0], cases[i].message, r.err);
      g_assert_nonnull (strstr (r.err, "Usage: warpscope-cli"));
      g_assert_cmpstr (r.out, ==, "");
    }
}

static void
test_help (void)
{
  const char *commands[] = { "run", "report", "devices", "kernels", "occupancy", "replay",
                             "export" };
  const char *top[] = { "--help", NULL };
  g_auto (Result) r = { 0 };

  run_cli (&r, top);
  g_assert_cmpint (r.status, ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      const char *args[] = { commands[i], "--help", NULL };
      g_auto (Result) h;

      g_assert_nonnull (strstr (r.out, commands[i]));
      run_cli (&h, args);
      g_assert_cmpint (h.status, ==, 0);
      g_assert_nonnull (strstr (h.out, "Exit status"));
    }
}

/* ---- occupancy --------------------------------------------------------------------------- */

static void
test_occupancy (void)
{
  const char *full[] = { "occupancy", "--arch", "sm_90", "--block", "256", "--regs", "32", NULL };
  const char *small[] = { "occupancy", "--arch", "90", "--block", "32", NULL };
  const char *regs[] = { "occupancy", "--block", "256", "--regs", "128", NULL };
  const char *list[] = { "occupancy", "--list-archs", NULL };
  g_auto (Result) a;
  g_auto (Result) b;
  g_auto (Result) c;
  g_auto (Result) d;

  run_cli (&a, full);
  g_assert_cmpint (a.status, ==, 0);
  g_assert_nonnull (strstr (a.out, "occupancy              100%"));
  g_assert_nonnull (strstr (a.out, "active blocks per SM   8"));

  run_cli (&b, small);
  g_assert_cmpint (b.status, ==, 0);
  g_assert_nonnull (strstr (b.out, "50%"));
  g_assert_nonnull (strstr (b.out, "blocks_per_sm"));
  g_assert_nonnull (strstr (b.out, "Hint: "));

  run_cli (&c, regs);
  g_assert_cmpint (c.status, ==, 0);
  g_assert_nonnull (strstr (c.out, "25%"));
  g_assert_nonnull (strstr (c.out, "-maxrregcount=32"));

  run_cli (&d, list);
  g_assert_cmpint (d.status, ==, 0);
  g_assert_nonnull (strstr (d.out, "sm_90"));
  g_assert_nonnull (strstr (d.out, "Hopper"));
}

/* ---- run and devices --------------------------------------------------------------------- */

/* A runner stand-in: records its arguments and one variable a launcher sets, prints a
 * recording, exits with `status`. */
static char *
write_stand_in (const char *dir, const char *recording, int status)
{
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\n"
                                             "printf '%%s\\n' \"$@\" > '%s/args'\n"
                                             "printf '%%s' \"$WS_TEST_LAUNCHER\" > '%s/launcher'\n"
                                             "cat '%s'\n"
                                             "exit %d\n",
                                             dir, dir, recording, status);
  char *path = write_temp (dir, "runner.sh", script, -1);

  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return path;
}

static void
test_run_stand_in (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *recording = sample_path ("vector-add-sizes-h200.jsonl");
  g_autofree char *runner = write_stand_in (dir, recording, 0);
  g_autofree char *env_runner = g_strdup_printf ("WARPSCOPE_RUNNER=%s", runner);
  g_autofree char *output = g_build_filename (dir, "session.jsonl", NULL);
  g_autofree char *args_path = g_build_filename (dir, "args", NULL);
  g_autofree char *launcher_path = g_build_filename (dir, "launcher", NULL);
  g_autofree char *args_text = NULL;
  g_autofree char *launcher_text = NULL;
  const char *env[] = { env_runner, NULL };
  const char *args[] = { "run", "--kernel", "vector_add", "--sizes", "1e3:1e8:x10",
                         "--transfer", "pageable,pinned", "--reps", "10", "--no-trace",
                         "-o", output, "--launcher", "env WS_TEST_LAUNCHER=through", NULL };
  g_auto (Result) r = { 0 };
  g_autoptr (GFile) file = g_file_new_for_path (output);
  g_autoptr (WsSession) saved = NULL;
  g_autoptr (GError) error = NULL;
  int exit_code = -1;

  run_cli_full (&r, args, env, dir);
  g_assert_cmpint (r.status, ==, 0);
  /* The options went through as they were, behind the launcher, with no shell between. */
  g_assert_true (g_file_get_contents (args_path, &args_text, NULL, NULL));
  g_assert_cmpstr (args_text, ==,
                   "--kernel\nvector_add\n--sizes\n1e3:1e8:x10\n--transfer\npageable,pinned\n"
                   "--reps\n10\n--no-trace\n");
  g_assert_true (g_file_get_contents (launcher_path, &launcher_text, NULL, NULL));
  g_assert_cmpstr (launcher_text, ==, "through");
  /* A line per run, then where it was saved. */
  g_assert_nonnull (strstr (r.out, "run 12: vector_add n = 100,000,000, block 256, pinned"));
  g_assert_nonnull (strstr (r.out, "Saved 12 runs"));
  /* No terminal here: no progress bar. */
  g_assert_null (strstr (r.err, "\r"));

  saved = ws_session_load (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (saved)), ==, 12);
  g_assert_true (ws_session_is_done (saved, &exit_code, NULL));
  g_assert_cmpint (exit_code, ==, 0);
  remove_dir (dir);
}

/* The runner's status is the CLI's: 1 when a run failed, and the runs are still saved; with no
 * -o the file is named after the time. */
static void
test_run_status (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *recording = sample_path ("matmul-naive-blocks-h200.jsonl");
  g_autofree char *runner = write_stand_in (dir, recording, 1);
  g_autofree char *env_runner = g_strdup_printf ("WARPSCOPE_RUNNER=%s", runner);
  const char *env[] = { env_runner, NULL };
  const char *args[] = { "run", "--kernel", "matmul_naive", "--quiet", NULL };
  g_auto (Result) r = { 0 };
  g_autoptr (GDir) d = NULL;
  const char *name;
  guint saved = 0;

  run_cli_full (&r, args, env, dir);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_null (strstr (r.out, "run 1:"));
  d = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, "warpscope-") && g_str_has_suffix (name, ".jsonl")
        && strlen (name) == strlen ("warpscope-YYYYMMDD-HHMMSS.jsonl"))
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);

        g_assert_cmpuint (count_runs (path), ==, 19);
        saved++;
      }
  g_assert_cmpuint (saved, ==, 1);
  remove_dir (dir);
}

/* A runner that dies without its done record: status 6, the runs so far kept. */
static void
test_run_crash (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *cut = write_temp (dir, "cut.jsonl", paced, strstr (paced, "{\"type\":\"done\"") - paced);
  g_autofree char *runner = write_stand_in (dir, cut, 0);
  g_autofree char *env_runner = g_strdup_printf ("WARPSCOPE_RUNNER=%s", runner);
  const char *env[] = { env_runner, NULL };
  const char *args[] = { "run", "--kernel", "vector_add", NULL };
  const char *missing[] = { "run", "--kernel", "vector_add", "--runner", "/nonexistent/runner",
                            NULL };
  g_auto (Result) r = { 0 };
  g_auto (Result) m;

  run_cli_full (&r, args, env, dir);
  g_assert_cmpint (r.status, ==, 6);
  g_assert_nonnull (strstr (r.err, "before it finished"));
  run_cli_full (&m, missing, NULL, dir);
  g_assert_cmpint (m.status, ==, 6);
  g_assert_nonnull (strstr (m.err, "/nonexistent/runner"));
  remove_dir (dir);
}

static void
test_run_no_driver (void)
{
  const char *runner = g_getenv ("WS_RUNNER");
  g_autofree char *dir = NULL;
  g_autofree char *env_runner = NULL;
  const char *args[] = { "run", "--kernel", "vector_add", "--sizes", "1000", NULL };

  if (runner == NULL)
    {
      g_test_skip ("warpscope-runner is not built here (no CUDA toolkit)");
      return;
    }
  dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  env_runner = g_strdup_printf ("WARPSCOPE_RUNNER=%s", runner);
  {
    const char *env[] = { env_runner, "WARPSCOPE_LIBCUDA=/nonexistent", NULL };
    g_auto (Result) r = { 0 };
    g_autoptr (GDir) d = NULL;

    run_cli_full (&r, args, env, dir);
    g_assert_cmpint (r.status, ==, 3);
    g_assert_nonnull (strstr (r.err, "no_driver"));
    g_assert_nonnull (strstr (r.err, "No NVIDIA driver"));
    /* Nothing ran: no session file to clutter the directory. */
    d = g_dir_open (dir, 0, NULL);
    g_assert_null (g_dir_read_name (d));
  }
  remove_dir (dir);
}

static void
test_kernels (void)
{
  const char *runner = g_getenv ("WS_RUNNER");
  g_autofree char *env_runner = NULL;
  const char *args[] = { "kernels", NULL };
  g_auto (Result) r = { 0 };

  if (runner == NULL)
    {
      g_test_skip ("warpscope-runner is not built here (no CUDA toolkit)");
      return;
    }
  /* The catalog needs no GPU. */
  env_runner = g_strdup_printf ("WARPSCOPE_RUNNER=%s", runner);
  {
    const char *env[] = { env_runner, "WARPSCOPE_LIBCUDA=/nonexistent", NULL };

    run_cli_full (&r, args, env, NULL);
  }
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "vector_add "));
  g_assert_nonnull (strstr (r.out, "matmul_tiled "));
  g_assert_nonnull (strstr (r.out, "16×16"));
  g_assert_nonnull (strstr (r.out, "Matrix multiply, shared-memory tiles"));

  /* The runner writes the catalog in English; the kernels' titles and descriptions are
   * marked (WS_N_) and shown in the reader's language. */
  {
    const char *locale = setlocale (LC_ALL, "zh_CN.UTF-8") != NULL ? "zh_CN.UTF-8" : "C.UTF-8";
    g_autofree char *lc_all = g_strdup_printf ("LC_ALL=%s", locale);
    const char *env[] = { env_runner, "WARPSCOPE_LIBCUDA=/nonexistent", lc_all,
                          "LANGUAGE=zh_CN", NULL };
    const char *verbose[] = { "kernels", "-v", NULL };
    g_auto (Result) z = { 0 };

    setlocale (LC_ALL, "");
    run_cli_full (&z, verbose, env, NULL);
    g_assert_cmpint (z.status, ==, 0);
    g_assert_nonnull (strstr (z.out, "矩阵乘法，共享内存分块"));
    g_assert_nonnull (strstr (z.out, "教程的第一个核函数"));
    g_assert_null (strstr (z.out, "Matrix multiply"));
  }
}

static void
test_devices (void)
{
  const char *runner = g_getenv ("WS_RUNNER");
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *sample = sample_path ("vector-add-sizes-h200.jsonl");
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GString) info = g_string_new (NULL);
  g_autofree char *recording = NULL;
  g_autofree char *stand_in = NULL;
  g_autofree char *env_stand_in = NULL;
  const char *args[] = { "devices", NULL };

  /* What --device-info prints on a GPU machine: the hello and device of a recording. */
  g_assert_true (g_file_get_contents (sample, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", 3);
  g_string_append_printf (info, "%s\n%s\n", lines[0], lines[1]);
  g_string_append (info, "{\"type\":\"done\",\"t\":500,\"runs\":0,\"failed\":0,"
                         "\"dropped_records\":0,\"exit_code\":0}\n");
  recording = write_temp (dir, "info.jsonl", info->str, -1);
  stand_in = write_stand_in (dir, recording, 0);
  env_stand_in = g_strdup_printf ("WARPSCOPE_RUNNER=%s", stand_in);
  {
    const char *env[] = { env_stand_in, NULL };
    g_auto (Result) r = { 0 };

    run_cli_full (&r, args, env, dir);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "GPU 0: NVIDIA H200 (sm_90"));
    g_assert_nonnull (strstr (r.out, "132 SMs"));
    g_assert_nonnull (strstr (r.out, "No problems found"));
  }

  if (runner == NULL)
    {
      g_test_skip ("warpscope-runner is not built here (no CUDA toolkit)");
      remove_dir (dir);
      return;
    }
  {
    g_autofree char *env_runner = g_strdup_printf ("WARPSCOPE_RUNNER=%s", runner);
    const char *env[] = { env_runner, "WARPSCOPE_LIBCUDA=/nonexistent", NULL };
    g_auto (Result) r = { 0 };

    run_cli_full (&r, args, env, dir);
    g_assert_cmpint (r.status, ==, 3);
    g_assert_nonnull (strstr (r.out, "no_driver"));
    g_assert_nonnull (strstr (r.out, "No NVIDIA driver"));
    g_assert_nonnull (strstr (r.out, "install the NVIDIA driver"));
  }
  remove_dir (dir);
}

/* ---- export ------------------------------------------------------------------------------ */

/* strstr for data with NUL bytes in it (PDF streams). */
static gboolean
contains_bytes (const char *data, gsize length, const char *needle)
{
  gsize n = strlen (needle);

  for (gsize i = 0; i + n <= length; i++)
    if (memcmp (data + i, needle, n) == 0)
      return TRUE;
  return FALSE;
}

static void
assert_valid_export (const char *path, WsExportFormat format)
{
  g_autofree char *data = NULL;
  gsize length = 0;

  g_assert_true (g_file_get_contents (path, &data, &length, NULL));
  g_assert_cmpuint (length, >, 0);
  switch (format)
    {
    case WS_EXPORT_PNG:
      g_assert_cmpint (memcmp (data, "\x89PNG\r\n\x1a\n", 8), ==, 0);
      break;
    case WS_EXPORT_SVG:
      g_assert_nonnull (strstr (data, "<svg"));
      g_assert_nonnull (strstr (data, "</svg>"));
      break;
    case WS_EXPORT_PDF:
      g_assert_true (g_str_has_prefix (data, "%PDF-"));
      g_assert_true (contains_bytes (data, length, "%%EOF"));
      break;
    case WS_EXPORT_CSV:
      {
        g_autoptr (GPtrArray) rows = parse_csv (data);
        guint columns = ((GPtrArray *) g_ptr_array_index (rows, 0))->len;

        g_assert_cmpuint (rows->len, >=, 1);
        for (guint i = 1; i < rows->len; i++)
          g_assert_cmpuint (((GPtrArray *) g_ptr_array_index (rows, i))->len, ==, columns);
        break;
      }
    case WS_EXPORT_TRACE:
    default:
      {
        g_autoptr (JsonNode) root = parse_json (data);

        g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
        g_assert_true (json_object_has_member (json_node_get_object (root), "traceEvents"));
        break;
      }
    }
}

static void
test_export (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  const WsExportFormat formats[] = { WS_EXPORT_PNG, WS_EXPORT_SVG, WS_EXPORT_PDF, WS_EXPORT_CSV };
  const char *const themes[] = { "light", "dark", "print" };

  for (int k = 0; k < WS_N_CHARTS; k++)
    for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
      {
        const char *chart = ws_chart_kind_to_string ((WsChartKind) k);
        const char *format = ws_export_format_to_string (formats[f]);
        /* Each chart on the recording it is made for. */
        g_autofree char *path = sample_path (k == WS_CHART_SPEEDUP ? "vector-add-sizes-h200.jsonl"
                                             : k == WS_CHART_ROOFLINE ? "matmul-sizes-h200.jsonl"
                                                                      : "vector-add-blocks-h200.jsonl");
        g_autofree char *name = g_strdup_printf ("%s%s", chart,
                                                 ws_export_format_extension (formats[f]));
        g_autofree char *out = g_build_filename (dir, name, NULL);
        const char *args[] = { "export", path, "--chart", chart, "--format", format, "-o", out,
                               "--theme", themes[(k + f) % 3], "--width", "640", "--height",
                               "400", NULL };
        g_auto (Result) r = { 0 };

        run_cli (&r, args);
        g_assert_cmpint (r.status, ==, 0);
        assert_valid_export (out, formats[f]);
      }
  {
    g_autofree char *path = sample_path ("vector-add-sizes-h200.jsonl");
    g_autofree char *out = g_build_filename (dir, "trace.json", NULL);
    g_autofree char *png = g_build_filename (dir, "run3.png", NULL);
    const char *trace[] = { "export", path, "--format", "trace", "-o", out, NULL };
    const char *one_run[] = { "export", path, "--chart", "timeline", "-o", png, "--run", "3",
                              "--scale", "2", NULL };
    g_auto (Result) r = { 0 };
    g_auto (Result) s;

    const char *to_stdout[] = { "export", path, "--chart", "speedup", "--format", "svg", "-o",
                                "-", NULL };
    g_auto (Result) p;

    run_cli (&r, trace);
    g_assert_cmpint (r.status, ==, 0);
    assert_valid_export (out, WS_EXPORT_TRACE);
    /* A pipe gets the chart and nothing else. */
    run_cli (&p, to_stdout);
    g_assert_cmpint (p.status, ==, 0);
    g_assert_true (g_str_has_prefix (p.out, "<?xml") || g_str_has_prefix (p.out, "<svg"));
    g_assert_nonnull (strstr (p.out, "</svg>"));
    /* The format follows the file's extension when none is given. */
    run_cli (&s, one_run);
    g_assert_cmpint (s.status, ==, 0);
    assert_valid_export (png, WS_EXPORT_PNG);
  }
  remove_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/report/table", test_report_table);
  g_test_add_func ("/cli/report/width", test_report_width);
  g_test_add_func ("/cli/report/csv", test_report_csv);
  g_test_add_func ("/cli/report/json", test_report_json);
  g_test_add_func ("/cli/report/markdown", test_report_markdown);
  g_test_add_func ("/cli/report/findings", test_report_findings);
  g_test_add_func ("/cli/report/findings-text", test_report_findings_text);
  g_test_add_func ("/cli/report/ladder", test_report_ladder);
  g_test_add_func ("/cli/report/translated", test_report_translated);
  g_test_add_func ("/cli/replay/fast", test_replay_fast);
  g_test_add_func ("/cli/replay/pacing", test_replay_pacing);
  g_test_add_func ("/cli/replay/errors", test_replay_errors);
  g_test_add_func ("/cli/bad-files", test_bad_files);
  g_test_add_func ("/cli/bad-arguments", test_bad_arguments);
  g_test_add_func ("/cli/help", test_help);
  g_test_add_func ("/cli/occupancy", test_occupancy);
  g_test_add_func ("/cli/run/stand-in", test_run_stand_in);
  g_test_add_func ("/cli/run/status", test_run_status);
  g_test_add_func ("/cli/run/crash", test_run_crash);
  g_test_add_func ("/cli/run/no-driver", test_run_no_driver);
  g_test_add_func ("/cli/devices", test_devices);
  g_test_add_func ("/cli/kernels", test_kernels);
  g_test_add_func ("/cli/export", test_export);
  return g_test_run ();
}

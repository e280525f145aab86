/* test-cli-report.c: warpscope-cli report of the bundled recordings in every format and what
 * it finds, the occupancy calculator, help, and every kind of bad argument and bad file.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <locale.h>

#include "test-cli.h"

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


/* ---- text from a file on a terminal ------------------------------------------------------ */

/* Escape sequences a hostile recording may carry: the window title, a cleared screen, a C1
 * CSI, a bidirectional override. */
#define HOSTILE "\\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m\\u202e"
#define HOSTILE_RAW "\033]0;pwned\007\033[2J\302\23331m\342\200\256"
#define HOSTILE_SHOWN "\\x1b]0;pwned\\x07\\x1b[2J\\u009b31m\\u202e"

static char *
write_hostile (const char *dir)
{
  g_autofree char *sample = sample_path ("vector-add-sizes-h200.jsonl");
  g_autofree char *text = NULL;
  g_autoptr (GString) s = NULL;
  const char *newline;

  g_assert_true (g_file_get_contents (sample, &text, NULL, NULL));
  s = g_string_new (text);
  g_string_replace (s, "\"kernel\":\"vector_add\"", "\"kernel\":\"vector_add" HOSTILE "\"", 0);
  g_string_replace (s, "\"name\":\"NVIDIA H200\"", "\"name\":\"NVIDIA H200" HOSTILE "\"", 0);
  /* A session-level error after the hello, and a line that is not a record. */
  newline = strchr (s->str, '\n');
  g_string_insert (s, newline + 1 - s->str,
                   "{\"type\":\"error\",\"t\":5,\"run\":null,\"severity\":\"warning\","
                   "\"code\":\"odd\",\"message\":\"said " HOSTILE "\"}\n"
                   "{\"type\":\"run\",\033[2J\n");
  return write_temp (dir, "hostile.jsonl", s->str, -1);
}

/* Every output escapes what came from the file: the text formats and CSV as visible escapes,
 * JSON as \u escapes that parse back to the same string. */
/* A vector add whose all-core baseline is one thread at n = 1000 and every core at 10⁷: the
 * report names the run kept, and its column is still against the host's 16 threads. */
static void
test_report_one_thread_faster (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "one-thread.jsonl", NULL);
  g_autoptr (GString) text = g_string_new ("{\"type\":\"hello\",\"t\":0,\"protocol\":1,"
                                           "\"runner\":\"0.1.0\",\"driver_found\":true}\n");
  const char *args[] = { "report", path, "--width", "200", NULL };
  g_auto (Result) r = { 0 };

  for (int i = 0; i < 2; i++)
    {
      const char *n = i == 0 ? "1000" : "10000000";

      g_string_append_printf (text,
                              "{\"type\":\"run\",\"id\":%d,\"kernel\":\"vector_add\","
                              "\"family\":\"vector_add\",\"shape\":[%s,1,1],\"size\":%s,"
                              "\"block\":[256,1,1],\"cpu\":\"1,all\"}\n"
                              "{\"type\":\"timing\",\"run\":%d,"
                              "\"kernel_ns\":{\"median\":2000,\"n\":10},"
                              "\"cpu_1\":{\"threads\":1,\"median\":%s,\"n\":5},"
                              "\"cpu_all\":{\"threads\":%d,\"median\":%s,\"n\":5,"
                              "\"max_threads\":16,\"one_thread_faster\":%s}}\n",
                              i + 1, n, n, i + 1, i == 0 ? "780" : "11700000", i == 0 ? 1 : 16,
                              i == 0 ? "780" : "5970000", i == 0 ? "true" : "false");
    }
  g_string_append (text, "{\"type\":\"done\",\"runs\":2,\"failed\":0,\"exit_code\":0}\n");
  g_assert_true (g_file_set_contents (path, text->str, -1, NULL));
  run_cli (&r, args);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "hand-written, 1 thread (faster than all cores)"));
  g_assert_nonnull (strstr (r.out, "vs 16 threads"));
  g_unlink (path);
  g_rmdir (dir);
}

/* A run whose counters were read (docs/counters.md): the report says, beside the theory, what
 * the GPU measured, in text and Markdown, and the JSON carries them by key; the achieved
 * occupancy's finding comes with them. A stand-in session: no bundled recording has counters
 * yet. */
static void
test_report_counters (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *path = ws_test_write_counted_session (dir);
  /* Markdown: the sentences unwrapped. */
  const char *table[] = { "report", path, "--format", "markdown", NULL };
  const char *json[] = { "report", path, "--format", "json", NULL };
  const char *csv[] = { "report", path, "--format", "csv", NULL };
  g_auto (Result) r = { 0 };
  g_auto (Result) j = { 0 };
  g_auto (Result) c = { 0 };

  run_cli (&r, table);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Measured on the GPU"));
  g_assert_nonnull (strstr (r.out, "Achieved occupancy 78%, of the theoretical 100%."));
  g_assert_nonnull (strstr (r.out, "DRAM: 80.1 MB read and 40.0 MB written, against 120 MB by "
                                   "the formula."));
  g_assert_nonnull (strstr (r.out, "FP32 FLOP executed: 10,000,000, against 10,000,000 by the "
                                   "formula."));
  g_assert_nonnull (strstr (r.out, "Read on GH100 in 2 passes of the kernel (1.50 ms)."));
  g_assert_nonnull (strstr (r.out, "Achieved occupancy 78%, below the theoretical 100%"));
  run_cli (&j, json);
  g_assert_cmpint (j.status, ==, 0);
  g_assert_nonnull (strstr (j.out, "\"counters\""));
  g_assert_nonnull (strstr (j.out, "\"achieved_occupancy\": 78.2"));
  g_assert_nonnull (strstr (j.out, "\"chip\": \"GH100\""));
  run_cli (&c, csv);
  g_assert_cmpint (c.status, ==, 0);
  g_assert_nonnull (strstr (c.out, ",cache,achieved_occupancy_pct,dram_bytes_read,"
                                   "dram_bytes_write\r\n"));
  g_assert_nonnull (strstr (c.out, ",78.2,80100000,40000000\r\n"));
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_report_escaped (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *path = write_hostile (dir);
  const char *const formats[] = { "table", "markdown" };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      const char *args[] = { "report", path, "--format", formats[i], "--width", "200", NULL };
      g_auto (Result) r = { 0 };

      run_cli (&r, args);
      g_assert_cmpint (r.status, ==, 0);
      assert_terminal_safe (r.out);
      assert_terminal_safe (r.err);
      g_assert_nonnull (strstr (r.out, "vector_add" HOSTILE_SHOWN));
      g_assert_nonnull (strstr (r.out, "NVIDIA H200" HOSTILE_SHOWN));
      /* The warning for the line that is not a record, and the runner's error. */
      g_assert_nonnull (strstr (r.err, "line 3"));
      g_assert_nonnull (strstr (r.out, "said " HOSTILE_SHOWN));
    }
  {
    const char *args[] = { "report", path, "--format", "csv", NULL };
    g_auto (Result) r = { 0 };
    g_autoptr (GPtrArray) rows = NULL;
    GPtrArray *header, *first;
    guint kernel = G_MAXUINT;

    run_cli (&r, args);
    g_assert_cmpint (r.status, ==, 0);
    rows = parse_csv (r.out);
    header = g_ptr_array_index (rows, 0);
    first = g_ptr_array_index (rows, 1);
    for (guint c = 0; c < header->len; c++)
      if (g_str_equal (g_ptr_array_index (header, c), "kernel"))
        kernel = c;
    g_assert_cmpuint (kernel, <, first->len);
    /* Shown, not obeyed, in a CSV file too: printed or opened, it rewrites nothing (its
     * lines end in CR LF, as RFC 4180 has them). */
    {
      g_autoptr (GString) lines = g_string_new (r.out);

      g_string_replace (lines, "\r\n", "\n", 0);
      assert_terminal_safe (lines->str);
    }
    g_assert_cmpstr (g_ptr_array_index (first, kernel), ==, "vector_add" HOSTILE_SHOWN);
  }
  {
    const char *args[] = { "report", path, "--format", "json", NULL };
    g_auto (Result) r = { 0 };
    g_autoptr (JsonNode) root = NULL;
    JsonObject *run;

    run_cli (&r, args);
    g_assert_cmpint (r.status, ==, 0);
    /* \u escapes in the text, the same string once parsed. */
    assert_terminal_safe (r.out);
    root = parse_json (r.out);
    run = json_array_get_object_element (json_object_get_array_member (json_node_get_object (root),
                                                                       "runs"),
                                         0);
    g_assert_cmpstr (json_object_get_string_member (run, "kernel"), ==, "vector_add" HOSTILE_RAW);
  }
  /* A file name is text from the file system: messages that name it escape it too. */
  {
    g_autofree char *odd = g_build_filename (dir, "odd\033]0;pwned\007.jsonl", NULL);
    const char *args[] = { "report", odd, NULL };
    g_auto (Result) r = { 0 };

    run_cli (&r, args);
    g_assert_cmpint (r.status, ==, 1);
    assert_terminal_safe (r.err);
    g_assert_nonnull (strstr (r.err, "odd\\x1b]0;pwned\\x07.jsonl"));
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
  g_test_add_func ("/cli/report/escaped", test_report_escaped);
  g_test_add_func ("/cli/report/one-thread-faster", test_report_one_thread_faster);
  g_test_add_func ("/cli/bad-files", test_bad_files);
  g_test_add_func ("/cli/report-counters", test_report_counters);
  g_test_add_func ("/cli/bad-arguments", test_bad_arguments);
  g_test_add_func ("/cli/help", test_help);
  g_test_add_func ("/cli/occupancy", test_occupancy);
  return g_test_run ();
}

/* test-cli-export.c: warpscope-cli export: every chart in every format, traces, stdout, and
 * outputs it must refuse.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <unistd.h>

#include "test-cli.h"
#include "ws-chart.h"
#include "ws-export.h"

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
                                             : k == WS_CHART_PARAMS ? "own-stencil2d-h200.jsonl"
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

/* The parameter chart of the own-kernel recordings made on the H200: the tiled matmul over
 * TILE (its block tied to the tile, so `blocks` draws the same chart rather than refusing
 * it), the stencil over TILE_Y beside its block sweep; in every drawn format, and its CSV a
 * row per run with the fastest marked. A session without a parameter swept is refused. */
static void
test_export_params (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  const struct
  {
    const char *sample, *chart, *title;
    guint rows;
  } cases[] = {
    { "own-matmul-tiled-h200.jsonl", "params", "Kernel time over TILE", 12 },
    { "own-matmul-tiled-h200.jsonl", "blocks", "Kernel time over TILE", 12 },
    { "own-stencil2d-h200.jsonl", "params", "Kernel time over TILE_Y", 32 },
  };
  const char *formats[] = { "png", "svg", "pdf", "csv" };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
      {
        g_autofree char *path = sample_path (cases[c].sample);
        g_autofree char *name = g_strdup_printf ("%u-%s.%s", c, cases[c].chart, formats[f]);
        g_autofree char *out = g_build_filename (dir, name, NULL);
        const char *args[] = { "export", path, "--chart", cases[c].chart, "-o", out, NULL };
        g_auto (Result) r = { 0 };
        g_autofree char *text = NULL;

        run_cli (&r, args);
        g_assert_cmpint (r.status, ==, 0);
        if (g_str_equal (formats[f], "csv") && g_str_equal (cases[c].chart, "blocks"))
          continue; /* the block chart's own columns: tests/test-export.c */
        g_assert_true (g_file_get_contents (out, &text, NULL, NULL));
        if (g_str_equal (formats[f], "png"))
          assert_valid_export (out, WS_EXPORT_PNG);
        else if (g_str_equal (formats[f], "pdf"))
          assert_valid_export (out, WS_EXPORT_PDF);
        else if (g_str_equal (formats[f], "svg"))
          {
            assert_valid_export (out, WS_EXPORT_SVG);
            g_assert_nonnull (strstr (text, cases[c].title));
          }
        else
          {
            g_autoptr (GPtrArray) rows = parse_csv (text);
            GPtrArray *header = g_ptr_array_index (rows, 0);
            guint best = 0;

            g_assert_cmpuint (rows->len, ==, cases[c].rows + 1);
            g_assert_cmpstr (g_ptr_array_index (header, header->len - 1), ==, "best");
            g_assert_cmpstr (g_ptr_array_index (header, header->len - 5), ==, "params");
            for (guint i = 1; i < rows->len; i++)
              {
                GPtrArray *row = g_ptr_array_index (rows, i);

                g_assert_true (g_str_has_prefix (g_ptr_array_index (row, header->len - 5),
                                                 "TILE"));
                best += g_str_equal (g_ptr_array_index (row, header->len - 1), "1");
              }
            g_assert_cmpuint (best, ==, 1);
          }
      }
  {
    g_autofree char *path = sample_path ("vector-add-sizes-h200.jsonl");
    g_autofree char *out = g_build_filename (dir, "none.png", NULL);
    const char *args[] = { "export", path, "--chart", "params", "-o", out, NULL };
    g_auto (Result) r = { 0 };

    run_cli (&r, args);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "No tunable parameter was swept in this session"));
    g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  }
  remove_dir (dir);
}

/* An output that is one of the sessions read is refused, however it is named, and the
 * recording is left as it was; an output that cannot be written is refused before the work. */
static void
test_export_output_checked (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *sample = sample_path ("vector-add-sizes-h200.jsonl");
  g_autofree char *original = NULL;
  g_autofree char *session = NULL;
  g_autofree char *soft = g_build_filename (dir, "soft.csv", NULL);
  g_autofree char *hard = g_build_filename (dir, "hard.csv", NULL);
  g_autofree char *dotted = NULL;
  g_autofree char *missing = g_build_filename (dir, "missing", "speedup.csv", NULL);
  g_autofree char *copy = NULL;
  struct
  {
    const char *output;
    const char *message;
  } cases[] = {
    { NULL, "a session being read" },      /* the session itself */
    { NULL, "a session being read" },      /* ./session */
    { soft, "a session being read" },      /* a link to it */
    { hard, "a session being read" },      /* a second hard link */
    { missing, "there is no folder" },
    { dir, "is a folder" },
    { "", "empty" },
  };

  g_assert_true (g_file_get_contents (sample, &original, NULL, NULL));
  session = write_temp (dir, "s.jsonl", original, -1);
  copy = write_temp (dir, "copy.jsonl", original, -1);
  dotted = g_build_filename (dir, ".", "s.jsonl", NULL);
  cases[0].output = session;
  cases[1].output = dotted;
  g_assert_cmpint (symlink ("s.jsonl", soft), ==, 0);
  g_assert_cmpint (link (session, hard), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *args[] = { "export", copy, session, "--chart", "speedup", "--format", "csv",
                             "-o", cases[i].output, NULL };
      g_auto (Result) r = { 0 };
      g_autofree char *after = NULL;

      run_cli (&r, args);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_nonnull (strstr (r.err, cases[i].message));
      g_assert_null (strstr (r.out, "Wrote"));
      g_assert_true (g_file_get_contents (session, &after, NULL, NULL));
      g_assert_cmpstr (after, ==, original);
    }
  /* A different file of the same content is another file. */
  {
    g_autofree char *out = g_build_filename (dir, "speedup.csv", NULL);
    const char *args[] = { "export", copy, "--chart", "speedup", "-o", out, NULL };
    g_auto (Result) r = { 0 };

    run_cli (&r, args);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "Wrote"));
  }
  remove_dir (dir);
}

/* -o - writes every format to stdout, the same bytes as into a file (the CSV and the trace
 * were refused before), and nothing else there. */
static void
test_export_stdout (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *path = sample_path ("vector-add-sizes-h200.jsonl");
  const WsExportFormat formats[] = { WS_EXPORT_PNG, WS_EXPORT_SVG, WS_EXPORT_PDF, WS_EXPORT_CSV,
                                     WS_EXPORT_TRACE };

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      const char *format = ws_export_format_to_string (formats[f]);
      g_autofree char *name = g_strdup_printf ("out%s", ws_export_format_extension (formats[f]));
      g_autofree char *file = g_build_filename (dir, name, NULL);
      g_autofree char *piped = g_build_filename (dir, "piped", NULL);
      g_autofree char *written = NULL;
      const char *to_file[] = { "export", path, "--chart", "speedup", "--format", format, "-o",
                                file, NULL };
      const char *to_stdout[] = { "export", path, "--chart", "speedup", "--format", format, "-o",
                                  "-", NULL };
      g_auto (Result) a = { 0 };
      g_auto (Result) b = { 0 };

      run_cli (&a, to_file);
      g_assert_cmpint (a.status, ==, 0);
      run_cli (&b, to_stdout);
      g_assert_cmpint (b.status, ==, 0);
      g_assert_cmpstr (b.err, ==, "");
      g_assert_true (g_file_get_contents (file, &written, NULL, NULL));
      /* What came through the pipe as text ends at its first NUL: PNG and PDF by their start,
       * the others whole. */
      if (formats[f] == WS_EXPORT_PNG)
        g_assert_cmpint (memcmp (b.out, "\x89PNG\r\n\x1a\n", 8), ==, 0);
      else if (formats[f] == WS_EXPORT_PDF)
        g_assert_true (g_str_has_prefix (b.out, "%PDF-"));
      else
        {
          g_assert_true (g_file_set_contents (piped, b.out, -1, NULL));
          assert_valid_export (piped, formats[f]);
          g_assert_cmpstr (b.out, ==, written);
        }
    }
  remove_dir (dir);
}

/* A chart with nothing to draw is refused with what to change, and nothing is written: a
 * block-size chart of a session without a block sweep (it made an empty chart and a 0-row
 * CSV), speedup curves of vector sizes and of matrix sizes on one axis. */
static void
test_export_nothing_to_draw (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);
  g_autofree char *sizes = sample_path ("vector-add-sizes-h200.jsonl");
  g_autofree char *ladder = sample_path ("vector-add-ladder-h200.jsonl");
  g_autofree char *matmul = sample_path ("matmul-sizes-h200.jsonl");
  g_autofree char *out_svg = g_build_filename (dir, "blocks.svg", NULL);
  g_autofree char *out_csv = g_build_filename (dir, "blocks.csv", NULL);
  g_autofree char *out_mixed = g_build_filename (dir, "mixed.svg", NULL);
  g_autofree char *out_same = g_build_filename (dir, "same.svg", NULL);
  const char *outs[] = { out_svg, out_csv };

  for (guint i = 0; i < G_N_ELEMENTS (outs); i++)
    {
      const char *args[] = { "export", sizes, "--chart", "blocks", "-o", outs[i], NULL };
      const char *piped[] = { "export", sizes, "--chart", "blocks", "--format", "csv", "-o", "-",
                              NULL };
      g_auto (Result) r = { 0 };
      g_auto (Result) p = { 0 };

      run_cli (&r, args);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_nonnull (strstr (r.err, "vector-add-sizes-h200.jsonl: No block-size sweep"));
      g_assert_nonnull (strstr (r.err, "--blocks 32:1024:32"));
      g_assert_nonnull (strstr (r.err, "--chart"));
      g_assert_false (g_file_test (outs[i], G_FILE_TEST_EXISTS));
      run_cli (&p, piped);
      g_assert_cmpint (p.status, ==, 2);
      g_assert_cmpstr (p.out, ==, "");
    }
  {
    const char *mixed[] = { "export", sizes, matmul, "--chart", "speedup", "-o", out_mixed,
                            NULL };
    const char *same[] = { "export", sizes, ladder, "--chart", "speedup", "-o", out_same, NULL };
    g_auto (Result) r = { 0 };
    g_auto (Result) s = { 0 };

    run_cli (&r, mixed);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "vector-add-sizes-h200.jsonl has vector sizes"));
    g_assert_nonnull (strstr (r.err, "matmul-sizes-h200.jsonl has matrix sizes"));
    g_assert_nonnull (strstr (r.err, "separate charts"));
    g_assert_false (g_file_test (out_mixed, G_FILE_TEST_EXISTS));
    /* A speedup chart without a size sweep, as the block-size chart without a block one. */
    {
      g_autofree char *blocks = sample_path ("vector-add-blocks-h200.jsonl");
      const char *args[] = { "export", blocks, "--chart", "speedup", "-o", out_mixed, NULL };
      g_auto (Result) b = { 0 };

      run_cli (&b, args);
      g_assert_cmpint (b.status, ==, 2);
      g_assert_nonnull (strstr (b.err, "No size sweep"));
      g_assert_nonnull (strstr (b.err, "--sizes"));
      g_assert_false (g_file_test (out_mixed, G_FILE_TEST_EXISTS));
    }
    /* Two sessions of vector sizes still share one. */
    run_cli (&s, same);
    g_assert_cmpint (s.status, ==, 0);
    assert_valid_export (out_same, WS_EXPORT_SVG);
  }
  remove_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/export", test_export);
  g_test_add_func ("/cli/export/params", test_export_params);
  g_test_add_func ("/cli/export/output-checked", test_export_output_checked);
  g_test_add_func ("/cli/export/stdout", test_export_stdout);
  g_test_add_func ("/cli/export/nothing-to-draw", test_export_nothing_to_draw);
  return g_test_run ();
}

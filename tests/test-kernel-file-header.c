/* test-kernel-file-header.c: the header of an own kernel's file (src/common/ws-kernel-file.c):
 * its grammar and errors with their line and column, the bundled examples, what it gives at
 * run time, hostile input and the examples mutated through the fuzz target; and
 * WsKernelSource, the model's view of the same file. No GPU.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ws-kernel-file.h"
#include "ws-kernel-source.h"

/* The fuzz target itself, built into this test for the mutations below; its corpus and
 * regressions are replayed by tests/fuzz (replay-kernel-file), as every target's are. */
#include "fuzz/fuzz-kernel-file.c"

static WsKernelFile *
parse (const char *text)
{
  WsKernelFile *kf = g_new0 (WsKernelFile, 1);

  ws_kernel_file_parse (text, strlen (text), kf);
  return kf;
}

static char *
example_path (const char *name)
{
  return g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "examples", "kernels", name, NULL);
}

static WsKernelFile *
parse_example (const char *name)
{
  g_autofree char *path = example_path (name);
  g_autofree char *text = NULL;
  gsize len = 0;
  WsKernelFile *kf = g_new0 (WsKernelFile, 1);

  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  if (!ws_kernel_file_parse (text, len, kf))
    for (int i = 0; i < kf->n_errors; i++)
      g_test_message ("%s:%d:%d: %s", name, kf->errors[i].line, kf->errors[i].column,
                      kf->errors[i].message);
  return kf;
}

/* ---- the examples -------------------------------------------------------------------------- */

static void
test_examples (void)
{
  const char *names[] = { "vector_add.cu", "matmul_tiled.cu", "stencil2d.cu",
                          "vector_add_oob.cu", "kernel_tuner_vector_add.cu" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree WsKernelFile *kf = parse_example (names[i]);

      g_assert_cmpint (kf->n_errors, ==, 0);
      g_assert_true (kf->found);
      g_assert_cmpint (kf->n_args, >, 0);
    }
  {
    g_autofree WsKernelFile *kf = parse_example ("matmul_tiled.cu");
    WsKfConfig cfg;
    uint64_t grid[3];
    char err[256];
    int which;
    double rtol, atol;

    g_assert_cmpstr (kf->kernel, ==, "matmul_tiled");
    g_assert_cmpint (kf->n_sizes, ==, 3);
    g_assert_cmpstr (kf->size_names[2], ==, "k");
    g_assert_cmpint (kf->n_params, ==, 1);
    g_assert_cmpstr (kf->params[0].name, ==, "TILE");
    g_assert_cmpint (kf->params[0].n_values, ==, 3);
    g_assert_cmpstr (kf->params[0].texts[0], ==, "16");
    g_assert_cmpint (kf->verify, ==, WS_KF_VERIFY_REFERENCE);
    g_assert_cmpstr (kf->verify_kernel, ==, "matmul_naive");
    g_assert_cmpuint (kf->verify_block[1], ==, 16);
    g_assert_cmpint (kf->block_rank, ==, 2);
    ws_kernel_file_default_config (kf, &cfg);
    cfg.size[0] = 1000, cfg.size[1] = 300, cfg.size[2] = 4096;
    g_assert_true (ws_kernel_file_grid (kf, &cfg, grid, err, sizeof err));
    g_assert_cmpuint (grid[0], ==, 19); /* ceil(300 / 16) */
    g_assert_cmpuint (grid[1], ==, 63); /* ceil(1000 / 16) */
    g_assert_cmpint (ws_kernel_file_allowed (kf, &cfg, &which, err, sizeof err), ==, 1);
    cfg.params[0] = 32;
    g_assert_cmpint (ws_kernel_file_allowed (kf, &cfg, &which, err, sizeof err), ==, 0);
    g_assert_cmpint (which, ==, 0);
    ws_kernel_file_tolerance (kf, &cfg, &rtol, &atol);
    g_assert_cmpfloat (rtol, ==, 1e-4);
    g_assert_cmpfloat_with_epsilon (atol, 8e-4, 1e-12); /* 1e-4 · 4096/512 */
    g_assert_cmpfloat (ws_kernel_file_flops (kf, &cfg), ==, 2.0 * 1000 * 300 * 4096);
  }
  {
    g_autofree WsKernelFile *kf = parse_example ("stencil2d.cu");
    WsKfConfig cfg;
    uint64_t grid[3];
    char err[256];

    g_assert_cmpint (kf->verify, ==, WS_KF_VERIFY_BUILTIN);
    g_assert_cmpstr (kf->verify_kernel, ==, "stencil2d");
    g_assert_nonnull (strstr (kf->description, "so a block covers TILE_Y times as many rows"));
    ws_kernel_file_default_config (kf, &cfg);
    cfg.params[0] = 4;
    g_assert_true (ws_kernel_file_grid (kf, &cfg, grid, err, sizeof err));
    g_assert_cmpuint (grid[0], ==, 128);      /* 4096 / 32 */
    g_assert_cmpuint (grid[1], ==, 128);      /* 4096 / (8 · 4) */
  }
  {
    g_autofree WsKernelFile *kf = parse_example ("kernel_tuner_vector_add.cu");
    g_autofree char *path = example_path ("kernel_tuner_vector_add.cu");
    g_autofree char *text = NULL;
    gsize len;
    WsKfConfig cfg;
    uint64_t grid[3];
    char err[256];

    /* The defaults: block 256, one thread per element, every buffer once. */
    g_assert_cmpuint (kf->block[0], ==, 256);
    g_assert_cmpint (kf->n_grid, ==, 0);
    ws_kernel_file_default_config (kf, &cfg);
    g_assert_true (ws_kernel_file_grid (kf, &cfg, grid, err, sizeof err));
    g_assert_cmpuint (grid[0], ==, 39063);
    g_assert_cmpfloat (ws_kernel_file_bytes (kf, &cfg), ==, 12e7);
    g_assert_cmpfloat (ws_kernel_file_flops (kf, &cfg), ==, 0);
    g_assert_true (g_file_get_contents (path, &text, &len, NULL));
    g_assert_true (ws_kernel_file_uses_block_macro (text, len, 0));
    g_assert_false (ws_kernel_file_uses_block_macro (text, len, 1));
  }
}

/* ---- errors --------------------------------------------------------------------------------- */

#define HEAD "/* warpscope\n"
#define OK_REST " * kernel: k\n * size: n = 100\n * arg a: float[n] out\n * verify: none\n"

static void
test_errors (void)
{
  static const struct
  {
    const char *text;
    int line, column;
    const char *message;
  } cases[] = {
    { "__global__ void k () {}\n", 1, 1, "no header" },
    { HEAD OK_REST, 1, 1, "never closed" },
    { HEAD OK_REST " * kernel: j\n */", 6, 4, "given twice (first on line 2)" },
    { HEAD " * size: n = 100\n * arg a: float[n] out\n * verify: none\n */", 1, 1,
      "which kernel" },
    { HEAD " * kernel: k\n * arg a: float[n] out\n * verify: none\n */", 1, 1, "has no size" },
    { HEAD " * kernel: k\n * size: n = 100\n * arg a: float[n] out\n */", 1, 1,
      "how the result is checked" },
    { HEAD " * kernel: k\n * size: n = 100\n * verify: none\n */", 1, 1, "no arguments" },
    { HEAD OK_REST " * speed: 3\n */", 6, 4, "unknown key 'speed'" },
    { HEAD OK_REST " * 12\n */", 6, 4, "expected KEY: VALUE" },
    { HEAD OK_REST " * grid ceil_div(n, 256)\n */", 6, 9, "expected ':'" },
    { HEAD OK_REST " * grid:\n */", 6, 9, "value is missing" },
    { HEAD " * kernel: k\n * size: n = 0\n * arg a: float[n] out\n * verify: none\n */", 3, 14,
      "at least 1" },
    { HEAD " * kernel: k\n * size: n\n * arg a: float[n] out\n * verify: none\n */", 3, 11,
      "expected '='" },
    { HEAD " * kernel: k\n * size: n = 1, m = 2, k = 3, j = 4\n * arg a: float[n] out\n"
      " * verify: none\n */", 3, 31, "at most three" },
    { HEAD " * kernel: k\n * size: n = 100\n * arg a: half[n] out\n * verify: none\n */", 4, 11,
      "expected a type" },
    { HEAD " * kernel: k\n * size: n = 100\n * arg a: float(n) out\n * verify: none\n */", 4, 16,
      "after the type" },
    { HEAD " * kernel: k\n * size: n = 100\n * arg a: float[n out\n * verify: none\n */", 4, 16,
      "never closed" },
    { HEAD " * kernel: k\n * size: n = 100\n * arg a: float[n] output\n * verify: none\n */", 4,
      20, "its role" },
    { HEAD " * kernel: k\n * size: n = 100\n * arg a: float[n] out zeros\n * verify: none\n */",
      4, 24, "starts poisoned" },
    { HEAD " * kernel: k\n * size: n = 100\n * arg a: float[n] in noise\n * verify: none\n */", 4,
      23, "initial contents" },
    { HEAD " * kernel: k\n * size: n = 100\n * arg a: float[n] in random(1)\n * verify: none\n */",
      4, 29, "random(LOW, HIGH)" },
    { HEAD " * kernel: k\n * size: n = 100\n * arg a: float[m] out\n * verify: none\n */", 4, 17,
      "unknown name 'm'; here the names are n" },
    { HEAD " * kernel: k\n * size: n = 100\n * arg a: float[n * block.x] out\n * verify: none\n */",
      4, 21, "'block.x' cannot be used here" },
    { HEAD " * kernel: k\n * size: n = 100\n * arg a: float[n / 2.0] out\n * verify: none\n */",
      4, 17, "whole number" },
    { HEAD OK_REST " * arg a: int = n\n */", 6, 1, "arg a is declared twice" },
    { HEAD OK_REST " * block: 33x33\n */", 6, 11, "at most 1024 threads" },
    { HEAD OK_REST " * block: 16 by 16\n */", 6, 14, "unexpected" },
    { HEAD OK_REST " * block: 0\n */", 6, 11, "1 to 3 whole numbers" },
    { HEAD OK_REST " * grid: 1, 2, 3, 4\n */", 6, 19, "at most three" },
    { HEAD OK_REST " * grid: ceil_div(n, TILE)\n */", 6, 22, "unknown name 'TILE'" },
    { HEAD OK_REST " * param TILE: 8, sixteen\n */", 6, 19, "expected numbers" },
    { HEAD OK_REST " * param TILE: 8, 8\n */", 6, 19, "listed twice" },
    { HEAD OK_REST " * param n: 8\n */", 6, 1, "a size has that name" },
    { HEAD OK_REST " * param block_size_x: 8\n */", 6, 1, "the runner defines" },
    { HEAD OK_REST " * param T: 1\n * param T: 2\n */", 7, 1, "declared twice" },
    { HEAD OK_REST " * restrict: block.x ==\n */", 6, 24, "ends where" },
    { HEAD " * kernel: k\n * size: n = 100\n * arg a: float[n] out\n * verify: maybe\n */", 5, 12,
      "reference NAME" },
    { HEAD " * kernel: k\n * size: n = 100\n * arg a: float[n] in\n * verify: reference r\n */",
      5, 1, "nothing to compare" },
    { HEAD " * kernel: k\n * size: n = 100\n * arg a: float[n] out\n * verify: reference k\n */",
      5, 1, "another kernel" },
    { HEAD " * kernel: k\n * size: n = 100\n * arg a: float[n] out\n"
      " * verify: builtin vector_add block 256\n */", 5, 31, "leave 'block' out" },
    { HEAD OK_REST " * tolerance: rtol -1\n */", 6, 20, "0 or more" },
    { HEAD OK_REST " * tolerance: close\n */", 6, 15, "rtol VALUE" },
    { HEAD OK_REST " * tolerance: atol 1e-4 * q\n */", 6, 27, "unknown name 'q'" },
    { HEAD OK_REST " * options: -arch=sm_80\n */", 6, 13, "set by the runner" },
    { HEAD OK_REST " * options: fast\n */", 6, 13, "start with '-'" },
    { HEAD OK_REST " * flops: 2 * TILE\n */", 6, 15, "unknown name 'TILE'" },
    { HEAD " * kernel: k<16\n * size: n = 100\n * arg a: float[n] out\n * verify: none\n */", 2,
      12, "'<' is never closed" },
    { HEAD " * kernel: 9k\n * size: n = 100\n * arg a: float[n] out\n * verify: none\n */", 2, 12,
      "__global__ function" },
    { "/* warpscope kernel: k */", 1, 2, "on the lines after" },
    /* A key one edit from a real one is named; a key far from every one is not. */
    { HEAD OK_REST " * blocks: 128\n */", 6, 4, "unknown key 'blocks'; did you mean 'block'?" },
    { HEAD OK_REST " * verfiy: none\n */", 6, 4, "did you mean 'verify'?" },
    { HEAD OK_REST " * args b: float[n] in\n */", 6, 4, "unknown key 'args'; did you mean 'arg'?" },
    { HEAD OK_REST " * speed: 3\n */", 6, 4, "unknown key 'speed'; the keys are" },
    /* A scalar that does not fit its type at the defaults is refused at its value, as the
     * run would refuse it on the GPU. */
    { HEAD " * kernel: k\n * size: n = 1000000\n * arg a: float[n] out\n"
      " * arg n: int = n * 3000000000\n * verify: none\n */", 5, 17,
      "arg n: 3000000000000000 does not fit in an int32; declare it int64" },
    { HEAD " * kernel: k\n * size: n = 100\n * arg a: float[n] out\n"
      " * arg n: uint = n - 200\n * verify: none\n */", 5, 18, "-100 does not fit in a uint32" },
    { HEAD " * kernel: k\n * size: n = 100\n * arg a: float[n] out\n"
      " * arg n: int = n / 3.0\n * verify: none\n */", 5, 17, "33.3333 is not a whole number" },
    { HEAD " * kernel: k\n * size: n = 4000000000\n * arg a: float[n] out\n"
      " * arg n: int64 = n * n * n\n * verify: none\n */", 5, 21, "overflow" },
  };
  guint wrong = 0;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree WsKernelFile *kf = parse (cases[i].text);
      gboolean found = FALSE;

      for (int e = 0; e < kf->n_errors; e++)
        if (strstr (kf->errors[e].message, cases[i].message) != NULL)
          {
            found = TRUE;
            if (kf->errors[e].line != cases[i].line || kf->errors[e].column != cases[i].column)
              {
                g_test_message ("case %u (%s): at %d:%d, expected %d:%d", i, cases[i].message,
                                kf->errors[e].line, kf->errors[e].column, cases[i].line,
                                cases[i].column);
                wrong++;
              }
          }
      if (!found)
        {
          for (int e = 0; e < kf->n_errors; e++)
            g_test_message ("%d:%d: %s", kf->errors[e].line, kf->errors[e].column,
                            kf->errors[e].message);
          g_test_message ("case %u: no error says “%s” (%d errors)", i, cases[i].message,
                          kf->n_errors);
          wrong++;
        }
    }
  g_assert_cmpuint (wrong, ==, 0);
}

/* Several errors are all reported, in file order, and a bad line does not hide the rest. */
static void
test_errors_many (void)
{
  GString *text = g_string_new (HEAD);
  g_autofree WsKernelFile *kf = NULL;

  g_string_append (text, OK_REST);
  for (int i = 0; i < 40; i++)
    g_string_append_printf (text, " * bogus%d: 1\n", i);
  g_string_append (text, " */\n");
  kf = parse (text->str);
  g_assert_cmpint (kf->n_errors, ==, WS_KF_MAX_ERRORS);
  g_assert_cmpint (kf->more_errors, ==, 40 - WS_KF_MAX_ERRORS);
  for (int i = 1; i < kf->n_errors; i++)
    g_assert_cmpint (kf->errors[i].line, >, kf->errors[i - 1].line);
  g_string_free (text, TRUE);
}

/* ---- what the header gives at run time -------------------------------------------------- */

static void
test_grid_and_lengths (void)
{
  g_autofree WsKernelFile *two = parse (
    HEAD " * kernel: k\n * size: rows = 100, cols = 30\n * arg a: double[rows * cols] inout\n"
         " * arg b: int[7] in iota\n * arg c: float[cols] out\n * block: 16x8\n * verify: none\n */");
  g_autofree WsKernelFile *grid = parse (
    HEAD " * kernel: k\n * size: n = 100\n * arg a: float[n] out\n * block: 256\n"
         " * grid: n / block.x - 1\n * verify: none\n */");
  WsKfConfig cfg;
  uint64_t g[3], len;
  char err[512];

  g_assert_cmpint (two->n_errors, ==, 0);
  ws_kernel_file_default_config (two, &cfg);
  g_assert_true (ws_kernel_file_grid (two, &cfg, g, err, sizeof err));
  /* One thread per element: x over the columns, y over the rows. */
  g_assert_cmpuint (g[0], ==, 2);  /* 30 columns / 16 */
  g_assert_cmpuint (g[1], ==, 13); /* 100 rows / 8 */
  g_assert_true (ws_kernel_file_length (two, 0, &cfg, &len, err, sizeof err));
  g_assert_cmpuint (len, ==, 3000);
  /* The fewest bytes: the inout buffer twice, each other once. */
  g_assert_cmpfloat (ws_kernel_file_bytes (two, &cfg), ==, 3000 * 8 * 2 + 7 * 4 + 30 * 4);
  g_assert_cmpint (two->args[0].init, ==, WS_KF_INIT_RANDOM);
  g_assert_cmpint (two->args[1].init, ==, WS_KF_INIT_IOTA);
  g_assert_cmpint (two->args[2].init, ==, WS_KF_INIT_NONE);

  g_assert_cmpint (grid->n_errors, ==, 0);
  ws_kernel_file_default_config (grid, &cfg);
  /* 100 / 256 - 1 = -1: not a grid, and the message says where and at what size. */
  g_assert_false (ws_kernel_file_grid (grid, &cfg, g, err, sizeof err));
  g_assert_nonnull (strstr (err, "line 6"));
  g_assert_nonnull (strstr (err, "n = 100"));
  cfg.size[0] = 1024;
  g_assert_true (ws_kernel_file_grid (grid, &cfg, g, err, sizeof err));
  g_assert_cmpuint (g[0], ==, 3);
}

/* Only the block_size macros a source uses are defined, so that a kernel that uses none is
 * compiled once for every block; names that merely contain them do not count. */
static void
test_block_macro (void)
{
  const char *uses = "int i = blockIdx.x * block_size_x + threadIdx.x;";
  const char *not_uses = "int my_block_size_x = 1, block_size_xy = 2; // block_size_yz";

  g_assert_true (ws_kernel_file_uses_block_macro (uses, strlen (uses), 0));
  g_assert_false (ws_kernel_file_uses_block_macro (uses, strlen (uses), 1));
  g_assert_false (ws_kernel_file_uses_block_macro (not_uses, strlen (not_uses), 0));
  g_assert_false (ws_kernel_file_uses_block_macro (not_uses, strlen (not_uses), 1));
  g_assert_true (ws_kernel_file_uses_block_macro ("block_size_z", 12, 2));
}

/* ---- hostile input ---------------------------------------------------------------------- */

static void
test_hostile (void)
{
  /* A NUL byte: not source. */
  {
    const char text[] = HEAD OK_REST " */\n\0 more";
    WsKernelFile *kf = g_new0 (WsKernelFile, 1);

    g_assert_false (ws_kernel_file_parse (text, sizeof text, kf));
    g_assert_nonnull (strstr (kf->errors[0].message, "NUL"));
    g_free (kf);
  }
  /* Larger than a kernel file may be. */
  {
    gsize n = WS_KF_MAX_SOURCE + 1;
    char *text = g_malloc (n);
    WsKernelFile *kf = g_new0 (WsKernelFile, 1);

    memset (text, ' ', n);
    g_assert_false (ws_kernel_file_parse (text, n, kf));
    g_assert_nonnull (strstr (kf->errors[0].message, "at most 128 KiB"));
    g_free (text);
    g_free (kf);
  }
  /* Not NUL-terminated: the parser reads no byte past the length (valgrind or ASan would
   * say; here the header simply ends where the length does). */
  {
    const char *full = HEAD OK_REST " */ tail";
    gsize n = strlen (full) - 5;
    char *text = g_memdup2 (full, n);
    WsKernelFile *kf = g_new0 (WsKernelFile, 1);

    g_assert_true (ws_kernel_file_parse (text, n, kf));
    g_free (text);
    g_free (kf);
  }
  /* CRLF lines, a comment and a string with comment markers before the header. */
  {
    g_autofree WsKernelFile *kf = parse ("// a /* comment */ line\n"
                                         "const char *s = \"/* warpscope */\";\n"
                                         "/* license: GPL */\r\n/* warpscope\r\n * kernel: k\r\n"
                                         " * size: n = 10\r\n * arg a: float[n] out\r\n"
                                         " * verify: none\r\n */\r\n");

    g_assert_cmpint (kf->n_errors, ==, 0);
    g_assert_cmpint (kf->first_line, ==, 4);
    g_assert_cmpstr (kf->kernel, ==, "k");
  }
  /* A line far longer than any declaration. */
  {
    GString *text = g_string_new (HEAD " * kernel: ");
    g_autofree WsKernelFile *kf = NULL;

    for (int i = 0; i < 100000; i++)
      g_string_append_c (text, 'k');
    g_string_append (text, "\n */");
    kf = parse (text->str);
    g_assert_cmpint (kf->n_errors, >, 0);
    for (int e = 0; e < kf->n_errors; e++)
      if (kf->errors[e].line == 2)
        g_assert_nonnull (strstr (kf->errors[e].message, "longer than"));
    g_string_free (text, TRUE);
  }
}

/* Every byte changed, dropped or doubled in the examples, and cut at every length: the parser
 * and the evaluation never crash, and say where an error is. */
static void
test_mutations (void)
{
  const char *names[] = { "matmul_tiled.cu", "stencil2d.cu" };
  GRand *rand = g_rand_new_with_seed (7);

  for (guint e = 0; e < G_N_ELEMENTS (names); e++)
    {
      g_autofree char *path = example_path (names[e]);
      g_autofree char *text = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (path, &text, &len, NULL));
      for (gsize cut = 0; cut <= len; cut += 7)
        LLVMFuzzerTestOneInput ((const uint8_t *) text, cut);
      for (int i = 0; i < 4000; i++)
        {
          char *m = g_memdup2 (text, len + 1);
          gsize at = g_rand_int_range (rand, 0, (gint32) len);
          static const char bytes[] = "(),:*/=<>!?x0123456789 \n\t\r\"'#-+.%&|[]e";

          m[at] = bytes[g_rand_int_range (rand, 0, sizeof bytes - 1)];
          LLVMFuzzerTestOneInput ((const uint8_t *) m, len);
          g_free (m);
        }
    }
  g_rand_free (rand);
}

/* ---- the model's view --------------------------------------------------------------------- */

static void
test_kernel_source (void)
{
  g_autofree char *path = example_path ("matmul_tiled.cu");
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsKernelSource) source = ws_kernel_source_new_from_file (file, &error);
  g_autoptr (WsKernelSource) bad = ws_kernel_source_new (HEAD " * kernel: k\n */", -1, "bad.cu");
  g_auto (GStrv) values = NULL;
  WsSourceProblem *p;

  g_assert_no_error (error);
  g_assert_true (ws_kernel_source_is_valid (source));
  g_assert_cmpstr (ws_kernel_source_get_entry (source), ==, "matmul_tiled");
  g_assert_cmpstr (ws_kernel_source_get_title (source), ==,
                   "Matrix multiply, shared-memory tiles");
  g_assert_cmpuint (ws_kernel_source_get_n_params (source), ==, 1);
  g_assert_cmpstr (ws_kernel_source_get_param_name (source, 0), ==, "TILE");
  values = ws_kernel_source_dup_param_values (source, 0);
  g_assert_cmpuint (g_strv_length (values), ==, 3);
  g_assert_cmpstr (values[0], ==, "16");
  g_assert_cmpuint (strlen (ws_kernel_source_get_hash (source)), ==, 64);

  g_assert_false (ws_kernel_source_is_valid (bad));
  g_assert_null (ws_kernel_source_get_entry (bad));
  g_assert_cmpuint (ws_kernel_source_get_n_params (bad), ==, 0);
  g_assert_cmpuint (ws_kernel_source_get_problems (bad)->len, >=, 3);
  p = g_ptr_array_index (ws_kernel_source_get_problems (bad), 0);
  g_assert_cmpuint (p->line, ==, 1);
  g_assert_nonnull (p->message);

  /* Too large to be a kernel file: refused before it is parsed. */
  {
    g_autofree char *dir = g_dir_make_tmp ("ws-kernel-file-XXXXXX", NULL);
    g_autofree char *big = g_build_filename (dir, "big.cu", NULL);
    g_autofree char *text = g_strnfill (WS_KF_MAX_SOURCE + 10, ' ');
    g_autoptr (GFile) big_file = g_file_new_for_path (big);
    g_autoptr (GError) big_error = NULL;
    g_autoptr (WsKernelSource) none = NULL;

    g_assert_true (g_file_set_contents (big, text, -1, NULL));
    none = ws_kernel_source_new_from_file (big_file, &big_error);
    g_assert_null (none);
    g_assert_nonnull (strstr (big_error->message, "128 KiB"));
    g_remove (big);
    g_rmdir (dir);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/kernel-file/examples", test_examples);
  g_test_add_func ("/kernel-file/errors", test_errors);
  g_test_add_func ("/kernel-file/errors-many", test_errors_many);
  g_test_add_func ("/kernel-file/grid-and-lengths", test_grid_and_lengths);
  g_test_add_func ("/kernel-file/block-macro", test_block_macro);
  g_test_add_func ("/kernel-file/hostile", test_hostile);
  g_test_add_func ("/kernel-file/mutations", test_mutations);
  g_test_add_func ("/kernel-file/kernel-source", test_kernel_source);
  return g_test_run ();
}

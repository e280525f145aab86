/* fuzz-plan.c: what a person types for a run or a sweep (ws_input_parse_*), and the plan that
 * checks it against the kernel's catalog entry and the device: validation, the runner's argv,
 * the summaries and the sweep's estimate. Lines of the input that start with '{' are runner
 * records (the catalog's kernel records and the device come from them when given, else from
 * the recordings); the others are, in order: kernel, size, block, host memory, repetitions,
 * CPU baselines ("1" or "0" twice), sweep from, sweep to, sweep factor, sweep blocks.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "fuzz-support.h"

#include <stdlib.h>
#include <string.h>

#include "ws-config.h"
#include "ws-input.h"
#include "ws-plan.h"

static WsSession *vector_history, *matmul_history;
static GListStore *catalog; /* WsKernelEntry: every kernel record of the recordings */
static char *hello;        /* a recording's first line */

static WsSession *
load_sample (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  WsSession *session = ws_session_load (file, NULL, &error);

  g_assert_no_error (error);
  return session;
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  const char *dir = g_getenv ("WS_SAMPLES_DIR") ?: WS_SAMPLES_SOURCE_DIR;
  const char *names[] = { "vector-add-ladder-h200.jsonl", "matmul-ladder-h200.jsonl",
                          "reduce-ladder-h200.jsonl", "transpose-ladder-h200.jsonl",
                          "divergence-h200.jsonl" };
  g_autofree char *path = g_build_filename (dir, names[0], NULL);
  g_autofree char *text = NULL;

  ws_fuzz_init_glib ();
  vector_history = load_sample (dir, "vector-add-sizes-h200.jsonl");
  matmul_history = load_sample (dir, "matmul-sizes-h200.jsonl");
  catalog = g_list_store_new (WS_TYPE_KERNEL_ENTRY);
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr (WsSession) s = load_sample (dir, names[i]);
      GListModel *kernels = ws_session_get_kernels (s);

      for (guint k = 0; k < g_list_model_get_n_items (kernels); k++)
        {
          g_autoptr (GObject) entry = g_list_model_get_item (kernels, k);

          g_list_store_append (catalog, entry);
        }
    }
  g_assert (g_file_get_contents (path, &text, NULL, NULL));
  hello = g_strndup (text, strcspn (text, "\n"));
  return 0;
}

static void
set_int (WsPlan *plan, const char *property, const char *text)
{
  GParamSpecInt *spec
    = G_PARAM_SPEC_INT (g_object_class_find_property (G_OBJECT_GET_CLASS (plan), property));
  long v = strtol (text, NULL, 10);

  /* The settings and the spin buttons keep it within the property's range. */
  g_object_set (plan, property, (int) CLAMP (v, spec->minimum, spec->maximum), NULL);
}

static void
parse_inputs (const char *text)
{
  g_autofree char *why = NULL;
  guint64 count, dims[3];
  guint bdims[3];
  int rank;

  if (!ws_input_parse_count (text, &count, &why))
    g_assert (why != NULL && g_utf8_validate (why, -1, NULL));
  else
    g_assert (count >= 1);
  g_clear_pointer (&why, g_free);
  if (!ws_input_parse_size (text, dims, &rank, &why))
    g_assert (why != NULL);
  else
    g_assert (rank == 1 || rank == 3);
  g_clear_pointer (&why, g_free);
  if (!ws_input_parse_block (text, bdims, &rank, &why))
    g_assert (why != NULL);
  else
    g_assert (rank >= 1 && rank <= 3);
}

static void
exercise (WsPlan *plan)
{
  WsSession *history = g_str_has_prefix (ws_plan_get_kernel (plan) ?: "", "matmul")
                         ? matmul_history
                         : vector_history;
  guint n_sizes, n_blocks;
  double seconds;

  for (int mode = WS_PLAN_RUN; mode <= WS_PLAN_SWEEP; mode++)
    {
      g_autoptr (GError) error = NULL;
      g_auto (GStrv) argv = NULL;
      gboolean valid = ws_plan_validate (plan, mode, &error);

      g_assert (valid == (error == NULL));
      g_assert (valid == ws_plan_get_valid (plan, mode));
      g_clear_error (&error);
      argv = ws_plan_build_argv (plan, mode, "warpscope-runner", &error);
      g_assert ((argv != NULL) == valid);
      for (guint i = 0; argv != NULL && argv[i] != NULL; i++)
        g_assert (g_utf8_validate (argv[i], -1, NULL));
    }
  g_free (ws_plan_dup_run_summary (plan));
  if (ws_plan_count_sweep (plan, &n_sizes, &n_blocks))
    g_assert (n_sizes > 0 && n_blocks > 0);
  ws_plan_estimate_sweep (plan, history, &seconds);
  g_free (ws_plan_dup_sweep_summary (plan, history));
  g_free (ws_plan_dup_sweep_summary (plan, NULL));
  ws_plan_get_block_dims (plan);
  ws_plan_get_size_rank (plan);
  ws_plan_get_kernel_description (plan);
  for (guint i = 0; i < ws_plan_get_n_kernels (plan); i++)
    {
      ws_plan_get_kernel_name (plan, i);
      ws_plan_get_kernel_title (plan, i);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const char *const fields[] = { "kernel", "size", "block", "transfer", "reps", "cpu",
                                        "sweep-from", "sweep-to", "sweep-factor",
                                        "sweep-blocks" };
  g_autofree char *input = g_strndup ((const char *) data, size);
  g_auto (GStrv) lines = g_strsplit (input, "\n", -1);
  g_autoptr (GString) records = g_string_new (hello);
  g_autoptr (WsSession) session = NULL;
  GListModel *kernels = NULL;
  g_autoptr (WsPlan) plan = ws_plan_new ();
  guint field = 0;

  /* A plan's texts come from entries and settings: valid UTF-8 without NULs. */
  if (!g_utf8_validate ((const char *) data, (gssize) size, NULL) || memchr (data, '\0', size))
    return -1;

  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] == '{')
      g_string_append_printf (records, "\n%s", lines[i]);
  session = ws_fuzz_session_from_lines ((const guint8 *) records->str, records->len);
  kernels = ws_session_get_kernels (session);
  ws_plan_set_catalog (plan, g_list_model_get_n_items (kernels) > 0 ? kernels
                                                                   : G_LIST_MODEL (catalog));
  ws_plan_set_device (plan, ws_session_get_device (session)
                              ?: ws_session_get_device (vector_history));

  for (guint i = 0; lines[i] != NULL && field < G_N_ELEMENTS (fields); i++)
    {
      const char *name = fields[field];
      const char *text = lines[i];

      if (text[0] == '{')
        continue;
      field++;
      parse_inputs (text);
      if (g_str_equal (name, "kernel"))
        ws_plan_set_kernel (plan, text);
      else if (g_str_equal (name, "reps") || g_str_equal (name, "sweep-factor"))
        set_int (plan, name, text);
      else if (g_str_equal (name, "cpu"))
        g_object_set (plan, "cpu-one", text[0] == '1', "cpu-all",
                      text[0] != '\0' && text[1] == '1', NULL);
      else if (g_str_equal (name, "block"))
        ws_plan_set_block (plan, text);
      else
        g_object_set (plan, name, text, NULL);
    }
  exercise (plan);
  return 0;
}

/* ws-cli-kernels.c: `warpscope-cli kernels`: the runner's catalog (--list), so that a person
 * knows what `run --kernel` takes. Needs the runner, not a GPU.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli.h"

#include "ws-cli-table.h"

/* "m×n×k". */
static char *
join_params (const WsKernelInfo *k)
{
  return g_strjoinv ("×", (char **) k->shape_params);
}

/* "10,000,000", "512×512×512". */
static char *
join_shape (const WsKernelInfo *k)
{
  GString *s = g_string_new (NULL);

  if (k->default_shape[0] == 0)
    return g_string_free (s, FALSE);
  if (k->shape_rank == 1)
    {
      g_autofree char *count = ws_units_grouped (k->default_shape[0]);

      g_string_append (s, count);
    }
  else
    for (int i = 0; i < k->shape_rank; i++)
      g_string_append_printf (s, "%s%" G_GUINT64_FORMAT, i > 0 ? "×" : "", k->default_shape[i]);
  return g_string_free (s, FALSE);
}

/* A block without its trailing 1s: "256", "16×16"; "" for a library's kernel. */
static char *
join_block (const WsKernelInfo *k)
{
  GString *s = g_string_new (NULL);
  int n = 3;

  if (!k->has_default_block)
    return g_string_free (s, FALSE);
  while (n > 1 && k->default_block[n - 1] == 1)
    n--;
  for (int i = 0; i < n; i++)
    g_string_append_printf (s, "%s%u", i > 0 ? "×" : "", k->default_block[i]);
  return g_string_free (s, FALSE);
}

int
ws_cli_kernels (int argc, char **argv)
{
  g_auto (WsCliRunnerArgs) runner_args = { 0 };
  gboolean verbose = FALSE;
  GOptionEntry entries[] = {
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose,
      N_("Also describe each kernel and its verification rule"), NULL },
    { NULL }
  };
  const char *const args[] = { "--list", NULL };
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (WsSession) session = NULL;
  GListModel *kernels;
  g_autoptr (WsCliTable) table = ws_cli_table_new ();
  g_autoptr (GString) out = g_string_new (NULL);
  WsCliRunnerOptions options = { .command = "kernels", .timeout = 30 };
  gsize width = (gsize) ws_cli_terminal_width (stdout);
  int status;

  context = ws_cli_runner_context_new (
    "kernels",
    _("Lists the kernels the runner can run (the names “run --kernel” takes), with their "
      "problem shape and default block. Needs the runner, not a GPU."),
    _("Exit status (the runner's): 0 listed; 2 bad arguments; 6 the runner could not be "
      "started or did not finish."),
    &runner_args, entries);
  if (!ws_cli_parse (context, "kernels", &argc, &argv))
    return WS_CLI_EXIT_USAGE;
  if (argc > 1)
    return ws_cli_usage_error ("kernels", _("“%s”: kernels takes no arguments."), argv[1]);

  session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  ws_cli_runner_args_apply (&runner_args, &options);
  status = ws_cli_run_runner (&options, args, session);
  if (ws_session_get_hello (session) == NULL)
    return status;
  ws_cli_print_session_errors (stderr, session, ws_cli_terminal_width (stderr));

  ws_cli_table_add_column (table, _("kernel"), WS_CLI_ALIGN_LEFT, -1);
  ws_cli_table_add_column (table, _("shape"), WS_CLI_ALIGN_LEFT, -1);
  ws_cli_table_add_column (table, _("default size"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (table, _("block"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (table, _("what it is"), WS_CLI_ALIGN_LEFT, -1);
  kernels = ws_session_get_kernels (session);
  for (guint i = 0; i < g_list_model_get_n_items (kernels); i++)
    {
      g_autoptr (WsKernelEntry) entry = g_list_model_get_item (kernels, i);
      const WsKernelInfo *k = ws_kernel_entry_get_info (entry);

      ws_cli_table_add_row (table);
      ws_cli_table_set (table, 0, k->name);
      ws_cli_table_take (table, 1, join_params (k));
      ws_cli_table_take (table, 2, join_shape (k));
      ws_cli_table_take (table, 3, join_block (k));
      ws_cli_table_set (table, 4, ws_kernel_entry_get_title (entry));
    }
  ws_cli_table_append_text (table, out, 2, 0);
  if (verbose)
    for (guint i = 0; i < g_list_model_get_n_items (kernels); i++)
      {
        g_autoptr (WsKernelEntry) entry = g_list_model_get_item (kernels, i);
        const WsKernelInfo *k = ws_kernel_entry_get_info (entry);
        g_autofree char *text = g_strdup_printf (
          _("%s: %s Source: %s. Verified: %s."), k->name, ws_kernel_entry_get_description (entry),
          k->source ? k->source : "?", k->tolerance ? k->tolerance : "?");

        g_string_append_c (out, '\n');
        ws_cli_append_wrapped (out, text, 0, 2, width > 0 ? width : 100);
        g_string_append_c (out, '\n');
      }
  ws_cli_write (stdout, out->str);
  return status;
}

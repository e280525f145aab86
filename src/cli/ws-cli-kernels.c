/* ws-cli-kernels.c: `warpscope-cli kernels`: the runner's catalog (--list), so that a person
 * knows what `run --kernel` takes. Needs the runner, not a GPU.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli.h"

#include "ws-cli-table.h"
#include "ws-i18n.h"

/* "m×n×k", "10,000,000", "512×512×512"; a block without its trailing 1s: "256", "16×16". */
static char *
join_array (JsonObject *kernel, const char *member, gboolean is_block)
{
  JsonArray *array;
  GString *s = g_string_new (NULL);
  guint n;

  if (!json_object_has_member (kernel, member)
      || !JSON_NODE_HOLDS_ARRAY (json_object_get_member (kernel, member)))
    return g_string_free (s, FALSE);
  array = json_object_get_array_member (kernel, member);
  n = json_array_get_length (array);
  while (is_block && n > 1 && json_array_get_int_element (array, n - 1) == 1)
    n--;
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (i > 0)
        g_string_append (s, "×");
      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        g_string_append (s, json_node_get_string (node));
      else if (JSON_NODE_HOLDS_VALUE (node) && n == 1)
        {
          g_autofree char *count = ws_format_grouped ((guint64) MAX (json_node_get_int (node),
                                                                       0));

          g_string_append (s, count);
        }
      else if (JSON_NODE_HOLDS_VALUE (node))
        g_string_append_printf (s, "%" G_GINT64_FORMAT, json_node_get_int (node));
    }
  return g_string_free (s, FALSE);
}

int
ws_cli_kernels (int argc, char **argv)
{
  g_autofree char *launcher = NULL, *runner = NULL, *target = NULL;
  gboolean verbose = FALSE, remote_shell = FALSE;
  GOptionEntry entries[] = {
    { "target", 't', 0, G_OPTION_ARG_STRING, &target,
      N_("Start the runner on this saved target (“warpscope-cli targets” lists them)"),
      "NAME" },
    { "launcher", 'l', 0, G_OPTION_ARG_STRING, &launcher,
      N_("Start the runner behind this command, e.g. \"ssh gpu-box\" (no shell)"), "COMMAND" },
    { "remote-shell", 0, 0, G_OPTION_ARG_NONE, &remote_shell,
      N_("The launcher hands the runner's command line to a shell on another machine, as ssh "
         "does: quote each argument for it (automatic when the launcher is ssh)"), NULL },
    { "runner", 0, 0, G_OPTION_ARG_FILENAME, &runner,
      N_("The runner's path (default $WARPSCOPE_RUNNER, else the built or installed one)"),
      "PATH" },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose,
      N_("Also describe each kernel and its verification rule"), NULL },
    { NULL }
  };
  const char *const args[] = { "--list", NULL };
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (WsSession) session = NULL;
  g_autoptr (GPtrArray) kernels = NULL;
  g_autoptr (WsCliTable) table = ws_cli_table_new ();
  g_autoptr (GString) out = g_string_new (NULL);
  WsCliRunnerOptions options = { .command = "kernels", .timeout = 30 };
  gsize width = (gsize) ws_cli_terminal_width (stdout);
  int status;

  context = ws_cli_context_new (
    "kernels", NULL,
    _("Lists the kernels the runner can run (the names “run --kernel” takes), with their "
      "problem shape and default block. Needs the runner, not a GPU."),
    _("Exit status (the runner's): 0 listed; 2 bad arguments; 6 the runner could not be "
      "started or did not finish."),
    entries);
  if (!ws_cli_parse (context, "kernels", &argc, &argv))
    return WS_CLI_EXIT_USAGE;
  if (argc > 1)
    return ws_cli_usage_error ("kernels", _("“%s”: kernels takes no arguments."), argv[1]);

  session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  options.launcher = launcher;
  options.target = target;
  options.runner = runner;
  options.remote_shell = remote_shell;
  status = ws_cli_run_runner (&options, args, session);
  if (ws_session_get_hello (session) == NULL)
    return status;
  ws_cli_print_session_errors (stderr, session, ws_cli_terminal_width (stderr));

  ws_cli_table_add_column (table, _("kernel"), WS_CLI_ALIGN_LEFT, -1);
  ws_cli_table_add_column (table, _("shape"), WS_CLI_ALIGN_LEFT, -1);
  ws_cli_table_add_column (table, _("default size"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (table, _("block"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (table, _("what it is"), WS_CLI_ALIGN_LEFT, -1);
  kernels = ws_session_dup_kernels (session);
  for (guint i = 0; i < kernels->len; i++)
    {
      JsonObject *k = g_ptr_array_index (kernels, i);

      ws_cli_table_add_row (table);
      ws_cli_table_set (table, 0, json_object_get_string_member_with_default (k, "name", "?"));
      ws_cli_table_take (table, 1, join_array (k, "shape_params", FALSE));
      ws_cli_table_take (table, 2, join_array (k, "default_shape", FALSE));
      ws_cli_table_take (table, 3, join_array (k, "default_block", TRUE));
      ws_cli_table_set (table, 4, ws_i18n_kernel_text (
                                    json_object_get_string_member_with_default (k, "title", "")));
    }
  ws_cli_table_append_text (table, out, 2, 0);
  if (verbose)
    for (guint i = 0; i < kernels->len; i++)
      {
        JsonObject *k = g_ptr_array_index (kernels, i);
        g_autofree char *text = g_strdup_printf (
          _("%s: %s Source: %s. Verified: %s."),
          json_object_get_string_member_with_default (k, "name", "?"),
          ws_i18n_kernel_text (json_object_get_string_member_with_default (k, "description", "")),
          json_object_get_string_member_with_default (k, "source", "?"),
          json_object_get_string_member_with_default (k, "tolerance", "?"));

        g_string_append_c (out, '\n');
        ws_cli_append_wrapped (out, text, 0, 2, width > 0 ? width : 100);
        g_string_append_c (out, '\n');
      }
  ws_cli_write (stdout, out->str);
  return status;
}

/* ws-cli-merge.c: `warpscope-cli merge FILE… -o OUT`: the sessions that runners sharing one
 * sweep wrote (--shard K/N: the tasks of a Slurm job array, each with its result file) put
 * back together into the one session the whole sweep would have been, runs in plan order.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli.h"

#include "ws-file.h"
#include "ws-sweep-merge.h"

/* Feeds every line of `path` to stream `index`; FALSE (message printed) when it cannot be
 * read. */
static gboolean
feed_file (WsSweepMerge *merge, guint index, const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr (GFileInputStream) base = NULL;
  g_autoptr (GDataInputStream) data = NULL;
  g_autoptr (GError) error = NULL;
  gboolean done = FALSE;

  if ((base = g_file_read (file, NULL, &error)) == NULL)
    {
      ws_cli_error ("merge", "%s: %s", path, error->message);
      return FALSE;
    }
  data = g_data_input_stream_new (G_INPUT_STREAM (base));
  g_data_input_stream_set_newline_type (data, G_DATA_STREAM_NEWLINE_TYPE_LF);
  for (;;)
    {
      gsize length;
      g_autofree char *line = g_data_input_stream_read_line (data, &length, NULL, &error);

      if (error != NULL)
        {
          ws_cli_error ("merge", "%s: %s", path, error->message);
          return FALSE;
        }
      if (line == NULL)
        break;
      if (g_str_has_prefix (line, "{\"type\":\"done\""))
        done = TRUE;
      ws_sweep_merge_feed (merge, index, line, length);
    }
  if (done)
    ws_sweep_merge_end_stream (merge, index, NULL);
  else
    {
      g_autoptr (GError) cut = g_error_new (WS_SESSION_ERROR, WS_SESSION_ERROR_MALFORMED,
                                            _("%s ends without its done record: it was cut "
                                              "short."),
                                            path);

      ws_sweep_merge_end_stream (merge, index, cut);
    }
  return TRUE;
}

int
ws_cli_merge (int argc, char **argv)
{
  g_autofree char *output = NULL;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Where the merged session is saved"),
      "OUT" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (WsSession) merged = NULL;
  g_autoptr (WsSweepMerge) merge = NULL;
  g_autoptr (GFile) file = NULL;
  g_autoptr (GError) error = NULL;
  GPtrArray *problems;
  guint n_runs;

  context = ws_cli_context_new (
    "merge", _("FILE…"),
    _("Puts the sessions of runners that shared one sweep (warpscope-runner --shard K/N, such "
      "as the tasks of a Slurm job array, each with its result file) back together: one "
      "session with every GPU's device record and the runs in plan order, each tagged with "
      "the GPU that ran it."),
    _("Exit status: 0 merged; 1 a file could not be read or the result could not be written "
      "(a file cut short is merged, with a warning); 2 bad arguments."),
    entries);
  if (!ws_cli_parse (context, "merge", &argc, &argv))
    return WS_CLI_EXIT_USAGE;
  if (argc < 2)
    return ws_cli_usage_error ("merge", _("which sessions? Give the result files of the "
                                          "sweep's runners."));
  if (output == NULL)
    return ws_cli_usage_error ("merge", _("where to? Give -o FILE for the merged session."));
  if (!ws_cli_check_output ("merge", "-o", output))
    return WS_CLI_EXIT_USAGE;
  for (int i = 1; i < argc; i++)
    if (ws_file_same (output, argv[i]))
      return ws_cli_usage_error ("merge", _("-o %s is %s, a session being read: writing there "
                                            "would replace it. Give another file to write."),
                                 output, argv[i]);
  /* Each file is checked whole first, so that one that is not a session is refused by name
   * and its unreadable lines are named. */
  for (int i = 1; i < argc; i++)
    {
      g_autoptr (WsSession) check = ws_cli_load_session ("merge", argv[i], &error);

      if (check == NULL)
        {
          ws_cli_error ("merge", "%s", error->message);
          return WS_CLI_EXIT_FAILED;
        }
    }

  merged = ws_session_new (WS_SESSION_SOURCE_RECORDING);
  merge = ws_sweep_merge_new (merged, (guint) argc - 1, FALSE);
  for (int i = 1; i < argc; i++)
    {
      g_autofree char *base = g_path_get_basename (argv[i]);

      ws_sweep_merge_set_stream (merge, (guint) i - 1, base, -1);
    }
  for (int i = 1; i < argc; i++)
    if (!feed_file (merge, (guint) i - 1, argv[i]))
      return WS_CLI_EXIT_FAILED;
  ws_session_end (merged);
  problems = ws_sweep_merge_get_problems (merge);
  for (guint i = 0; i < problems->len; i++)
    ws_cli_warning ("merge", "%s", (const char *) g_ptr_array_index (problems, i));
  ws_cli_print_session_errors (stderr, merged, ws_cli_terminal_width (stderr));

  file = g_file_new_for_commandline_arg (output);
  if (!ws_session_save (merged, file, NULL, &error))
    {
      ws_cli_error ("merge", _("could not save the session to %s: %s"), output, error->message);
      return WS_CLI_EXIT_FAILED;
    }
  n_runs = g_list_model_get_n_items (ws_session_get_runs (merged));
  {
    /* Translators: runs, files, the output. */
    g_autofree char *text = g_strdup_printf (g_dngettext (NULL, "Merged %1$u run from %2$d "
                                                                "files into %3$s",
                                                          "Merged %1$u runs from %2$d files "
                                                          "into %3$s",
                                                          n_runs),
                                             n_runs, argc - 1, output);

    ws_cli_write (stdout, text);
    ws_cli_write (stdout, "\n");
  }
  return WS_CLI_EXIT_OK;
}

/* ws-cli-check.c: `warpscope-cli check FILE`: an own kernel's header read here (through the
 * model, with no GPU), then, when a runner is found, the kernel compiled by it with NVRTC;
 * errors printed the way a compiler prints them, file:line:col: error: message.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli.h"

#include "ws-kernel-source.h"
#include "ws-runner-client.h"

static void
print_problems (const char *path, WsKernelSource *source)
{
  GPtrArray *problems = ws_kernel_source_get_problems (source);

  for (guint i = 0; i < problems->len; i++)
    {
      WsSourceProblem *p = g_ptr_array_index (problems, i);
      g_autofree char *line = g_strdup_printf ("%s:%u:%u: %s: %s\n", path, p->line, p->column,
                                               _("error"), p->message);

      ws_cli_write (stderr, line);
    }
}

int
ws_cli_check (int argc, char **argv)
{
  g_autofree char *arch = NULL, *launcher = NULL, *runner = NULL;
  gboolean header_only = FALSE, remote_shell = FALSE, verbose = FALSE;
  int timeout = 120;
  GOptionEntry entries[] = {
    { "arch", 0, 0, G_OPTION_ARG_STRING, &arch,
      N_("Compile for this architecture, such as sm_90 (default: the GPU's, else the newest "
         "the runner was built for)"), "sm_XY" },
    { "header-only", 0, 0, G_OPTION_ARG_NONE, &header_only,
      N_("Only read the header; do not compile"), NULL },
    { "launcher", 'l', 0, G_OPTION_ARG_STRING, &launcher,
      N_("Start the runner behind this command, as run does; the file must be at the same "
         "path there"), "COMMAND" },
    { "remote-shell", 0, 0, G_OPTION_ARG_NONE, &remote_shell,
      N_("The launcher hands the runner's command line to a shell on another machine, as ssh "
         "does"), NULL },
    { "runner", 0, 0, G_OPTION_ARG_FILENAME, &runner,
      N_("The runner's path (default $WARPSCOPE_RUNNER, else the built or installed one)"),
      "PATH" },
    { "timeout", 0, 0, G_OPTION_ARG_INT, &timeout,
      N_("Stop the runner when it prints nothing for this long (default 120; 0: never)"),
      "SECONDS" },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose,
      N_("Also show what the runner wrote on stderr"), NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GFile) file = NULL;
  g_autoptr (WsKernelSource) source = NULL;
  g_autoptr (WsSession) session = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *found = NULL;
  WsCliRunnerOptions options = { "check", NULL, NULL, 0, FALSE, FALSE };
  const char *args[5] = { "--check-source", NULL, NULL, NULL, NULL };
  const char *path;
  int status;

  context = ws_cli_context_new (
    "check", "FILE",
    _("Checks an own kernel: reads its header and, when warpscope-runner is found, compiles "
      "it with NVRTC for every value of its tunable parameters. Errors are printed as a "
      "compiler prints them: FILE:LINE:COLUMN: error: …"),
    _("Exit status: 0 no errors; 1 the header or the code has errors, or the file cannot be "
      "read; 2 bad arguments; 3 the runner cannot compile here (no NVRTC); 6 the runner could "
      "not be started or did not finish. Without a runner the header alone is checked and "
      "the status is 0 when it is fine."),
    entries);
  if (!ws_cli_parse (context, "check", &argc, &argv))
    return WS_CLI_EXIT_USAGE;
  if (argc != 2)
    return ws_cli_usage_error ("check", argc < 2 ? _("which file? Give the kernel file to check.")
                                                 : _("check takes one file."));
  if (timeout < 0)
    return ws_cli_usage_error ("check", _("--timeout must be 0 (never) or more seconds."));
  path = argv[1];
  file = g_file_new_for_commandline_arg (path);
  source = ws_kernel_source_new_from_file (file, &error);
  if (source == NULL)
    {
      ws_cli_error ("check", _("cannot read %s: %s"), path, error->message);
      return WS_CLI_EXIT_FAILED;
    }
  if (!ws_kernel_source_is_valid (source))
    {
      guint n = ws_kernel_source_get_problems (source)->len;
      g_autofree char *summary = NULL;

      print_problems (path, source);
      summary = g_strdup_printf (g_dngettext (NULL, "%u error in the header of %s\n",
                                              "%u errors in the header of %s\n", n),
                                 n, path);
      ws_cli_write (stderr, summary);
      return WS_CLI_EXIT_FAILED;
    }
  if (!header_only && runner == NULL && launcher == NULL
      && (found = ws_runner_find ()) == NULL)
    {
      g_autofree char *text = g_strdup_printf (
        _("%s: the header is fine (kernel %s); no warpscope-runner here to compile it (give "
          "--runner, or build the runner with CUDA)\n"),
        path, ws_kernel_source_get_entry (source));

      ws_cli_write (stdout, text);
      return WS_CLI_EXIT_OK;
    }
  if (header_only)
    {
      g_autofree char *text = g_strdup_printf (_("%s: the header is fine (kernel %s); not "
                                                 "compiled (--header-only)\n"),
                                               path, ws_kernel_source_get_entry (source));

      ws_cli_write (stdout, text);
      return WS_CLI_EXIT_OK;
    }

  args[1] = path;
  if (arch != NULL)
    {
      args[2] = "--arch";
      args[3] = arch;
    }
  options.launcher = launcher;
  options.runner = runner != NULL ? runner : found;
  options.timeout = (guint) timeout;
  options.verbose = verbose;
  options.remote_shell = remote_shell;
  session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  status = ws_cli_run_runner (&options, args, session);
  if (status == WS_CLI_EXIT_USAGE && ws_session_get_hello (session) == NULL)
    return status; /* our own usage error (--launcher): nothing ran */
  ws_cli_print_session_errors (stderr, session, ws_cli_terminal_width (stderr));
  if (status == WS_CLI_EXIT_OK)
    {
      g_autofree char *text = ws_session_dup_clean_check_text (session, path, FALSE);

      ws_cli_write (stdout, text);
      ws_cli_write (stdout, "\n");
      return WS_CLI_EXIT_OK;
    }
  /* The runner says 2 for a header or compile error; a compiler says 1. */
  return status == WS_CLI_EXIT_USAGE ? WS_CLI_EXIT_FAILED : status;
}

/* main.c: warpscope-cli, the headless face of Warpscope: runs sweeps, prints reports, replays
 * recordings and exports charts, for scripts, CI and report pipelines.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <locale.h>
#include <string.h>

#include "ws-cli.h"
#include "ws-config.h"
#include "ws-i18n.h"

typedef struct
{
  const char *name;
  const char *summary;
  int (*main) (int argc, char **argv);
} Command;

static const Command commands[] = {
  { "run", N_("run kernels on the GPU (one configuration or a sweep) and save the session"),
    ws_cli_run },
  { "trace", N_("trace a CUDA program of your own, unchanged, and report on it"), ws_cli_trace },
  { "report", N_("a table of a session's runs, the fastest configurations and the findings"),
    ws_cli_report },
  { "devices", N_("the GPUs the runner sees, and what is wrong with the set-up"),
    ws_cli_devices },
  { "kernels", N_("the kernels the runner can run: the names run --kernel takes"),
    ws_cli_kernels },
  { "occupancy", N_("theoretical occupancy of a block configuration, with no GPU"),
    ws_cli_occupancy },
  { "replay", N_("print a recording with its original pacing, standing in for the runner"),
    ws_cli_replay },
  { "export", N_("a chart as PNG, SVG or PDF, its numbers as CSV, or a Chrome trace"),
    ws_cli_export },
  { "targets", N_("where the runner runs: the saved ssh hosts and Slurm clusters"),
    ws_cli_targets },
  { "merge", N_("the sessions of runners that shared a sweep, put back together"),
    ws_cli_merge },
  { "check", N_("read an own kernel's header and compile it, errors as a compiler prints them"),
    ws_cli_check },
};

static void
usage (FILE *out)
{
  g_autoptr (GString) text = g_string_new (NULL);

  g_string_append (text, _("Usage: warpscope-cli COMMAND [OPTION…]\n\n"
                  "Runs CUDA kernels through warpscope-runner, and reads, reports, replays and "
                  "exports the sessions it records.\n\nCommands:\n"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    g_string_append_printf (text, "  %-10s  %s\n", commands[i].name, _(commands[i].summary));
  g_string_append (text, _("\n“warpscope-cli COMMAND --help” (or “warpscope-cli help COMMAND”) shows a "
                  "command's options; “warpscope-cli --version” prints the version.\n"
                  "Exit status: 0 success; 1 a file could not be read or written (run: a run "
                  "failed); 2 bad arguments; 3 no usable GPU; 4 a kernel fault; 5 an internal "
                  "error in the runner; 6 the runner could not be started or did not finish; "
                  "130 interrupted.\n"));
  ws_cli_write_help (out, text->str);
}

static const Command *
find_command (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (commands[i].name, name))
      return &commands[i];
  return NULL;
}

static int
dispatch (const Command *command, int argc, char **argv)
{
  g_autofree char *prgname = g_strdup_printf ("warpscope-cli %s", command->name);

  /* GOption names the program in --help: "Usage: warpscope-cli report [OPTION…] FILE". */
  g_set_prgname (prgname);
  return command->main (argc, argv);
}

int
main (int argc, char **argv)
{
  const Command *command;

  setlocale (LC_ALL, "");
  /* Numbers are written with a point everywhere: CSV and JSON must read back anywhere. */
  setlocale (LC_NUMERIC, "C");
  ws_i18n_init ();
  textdomain (GETTEXT_PACKAGE);

  if (argc < 2)
    {
      usage (stderr);
      return WS_CLI_EXIT_USAGE;
    }
  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h"))
    {
      usage (stdout);
      return WS_CLI_EXIT_OK;
    }
  if (g_str_equal (argv[1], "--version"))
    {
      printf ("warpscope-cli %s\n", WS_VERSION);
      return WS_CLI_EXIT_OK;
    }
  if (g_str_equal (argv[1], "help"))
    {
      char *help_argv[] = { NULL, "--help", NULL };

      if (argc < 3)
        {
          usage (stdout);
          return WS_CLI_EXIT_OK;
        }
      command = find_command (argv[2]);
      if (command == NULL)
        {
          fprintf (stderr, _("warpscope-cli: “%s” is not a command.\n\n"), argv[2]);
          usage (stderr);
          return WS_CLI_EXIT_USAGE;
        }
      help_argv[0] = argv[2];
      return dispatch (command, 2, help_argv);
    }

  command = find_command (argv[1]);
  if (command == NULL)
    {
      if (argv[1][0] == '-')
        fprintf (stderr, _("warpscope-cli: unknown option “%s”: the command comes first.\n\n"),
                 argv[1]);
      else
        fprintf (stderr, _("warpscope-cli: “%s” is not a command.\n\n"), argv[1]);
      usage (stderr);
      return WS_CLI_EXIT_USAGE;
    }
  return dispatch (command, argc - 1, argv + 1);
}

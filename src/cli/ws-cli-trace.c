/* ws-cli-trace.c: `warpscope-cli trace`: starts a program of the user's under
 * warpscope-runner --trace (once, or once per point of a sweep over its own parameters),
 * shows the time and the kernels and copies seen as they arrive and the program's own output,
 * then saves the trace and prints its report: how the program ended, its kernels, its copies
 * and the findings.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli-trace.h"

#include <string.h>
#include <unistd.h>

/* The live line is redrawn this often. */
#define STATUS_MS 250

typedef struct
{
  WsSession *session;
  gboolean terminal;      /* stderr is a terminal: a status line is drawn */
  gboolean status_shown;
  gboolean quiet;
  gint64 started;         /* monotonic µs */
  GString *output;        /* the program's output: an unfinished last line */
  GHashTable *reported;   /* program runs whose line is printed */
} Live;

static void
clear_status (Live *l)
{
  if (!l->status_shown)
    return;
  fputs ("\r\033[K", stderr);
  fflush (stderr);
  l->status_shown = FALSE;
}

/* The program run in progress: the last one announced. */
static const WsTraceProgram *
current_program (WsTrace *trace)
{
  GPtrArray *programs = trace != NULL ? ws_trace_get_programs (trace) : NULL;

  return programs != NULL && programs->len > 0 ? g_ptr_array_index (programs, programs->len - 1)
                                               : NULL;
}

static void
draw_status (Live *l)
{
  WsTrace *trace = ws_session_get_trace (l->session);
  const WsTraceProgram *p = current_program (trace);
  g_autofree char *elapsed = ws_units_duration ((double) (g_get_monotonic_time ()
                                                               - l->started) * 1e3);
  g_autoptr (GString) line = g_string_new ("\r\033[K");
  guint kernels = 0, copies = 0;
  gsize width = (gsize) ws_cli_terminal_width (stderr);

  if (!l->terminal)
    return;
  if (trace != NULL)
    ws_trace_count (trace, &kernels, &copies);
  /* Translators: the time since the trace started, then counts of kernels and copies. */
  g_string_append_printf (line, _("%s: %u kernels, %u copies"), elapsed, kernels, copies);
  if (p != NULL && p->of > 1)
    {
      g_autofree char *params = ws_cli_trace_describe_params (p);
      g_autofree char *escaped = ws_format_escape_controls (params, WS_ESCAPE_KEEP_NONE);

      /* Translators: the program run in progress, of how many, and its parameter values. */
      g_string_append_printf (line, _(" — run %u of %u (%s)"), p->id, p->of, escaped);
    }
  while (width > 1 && ws_cli_text_width (line->str + 4) > width - 1)
    g_string_truncate (line, g_utf8_prev_char (line->str + line->len) - line->str);
  fputs (line->str, stderr);
  fflush (stderr);
  l->status_shown = TRUE;
}

static gboolean
status_cb (gpointer data)
{
  draw_status (data);
  return G_SOURCE_CONTINUE;
}

/* The program's output (the runner's stderr), a line at a time, escaped like all text from the
 * runner: a line cut by a read waits for its end. */
static void
output_cb (const char *data, gsize length, gpointer user_data)
{
  Live *l = user_data;
  char *newline;

  g_string_append_len (l->output, data, (gssize) length);
  if ((newline = strrchr (l->output->str, '\n')) == NULL && l->output->len < 64 * 1024)
    return;
  clear_status (l);
  {
    gsize n = newline != NULL ? (gsize) (newline - l->output->str) + 1 : l->output->len;
    g_autofree char *lines = g_strndup (l->output->str, n);

    ws_cli_write (stderr, lines);
    g_string_erase (l->output, 0, (gssize) n);
  }
  fflush (stderr);
  draw_status (l);
}

/* A line per program run as it ends. */
static void
changed_cb (WsSession *session, gpointer data)
{
  Live *l = data;
  WsTrace *trace = ws_session_get_trace (session);
  GPtrArray *programs = trace != NULL ? ws_trace_get_programs (trace) : NULL;

  for (guint i = 0; programs != NULL && i < programs->len; i++)
    {
      const WsTraceProgram *p = g_ptr_array_index (programs, i);
      g_autofree char *command = NULL, *ending = NULL, *params = NULL, *line = NULL;

      if (!p->ended || g_hash_table_contains (l->reported, GUINT_TO_POINTER (p->id)))
        continue;
      g_hash_table_add (l->reported, GUINT_TO_POINTER (p->id));
      if (l->quiet)
        continue;
      command = ws_cli_trace_describe_command (trace, p);
      ending = ws_cli_trace_describe_ending (trace, p);
      params = ws_cli_trace_describe_params (p);
      if (p->of > 1)
        /* Translators: run 2 of 6 (TPB=64): the command line, then how it ended. */
        line = g_strdup_printf (_("run %u of %u (%s): %s %s\n"), p->id, p->of, params, command,
                                ending ? ending : "");
      else
        line = g_strdup_printf ("%s %s\n", command, ending ? ending : "");
      clear_status (l);
      ws_cli_write (stdout, line);
      fflush (stdout);
      draw_status (l);
    }
}

static char *
default_output (void)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");

  return g_strdup_printf ("warpscope-trace-%s.jsonl", stamp);
}

static gboolean
severity_from_string (const char *name, WsSeverity *severity)
{
  for (int s = WS_SEVERITY_INFO; s <= WS_SEVERITY_HIGH; s++)
    if (g_ascii_strcasecmp (name, ws_severity_to_string ((WsSeverity) s)) == 0)
      {
        *severity = (WsSeverity) s;
        return TRUE;
      }
  return FALSE;
}

/* Whether the trace holds what a person would want to keep: a process that used CUDA. */
static gboolean
worth_saving (WsSession *session)
{
  WsTrace *trace = ws_session_get_trace (session);

  return trace != NULL && ws_trace_get_processes (trace)->len > 0;
}

static int
finish (WsSession *session, const char *output, int status, gboolean quiet, int width,
        WsSeverity min_severity)
{
  g_autofree char *saved = NULL;

  ws_cli_print_session_errors (stderr, session, ws_cli_terminal_width (stderr));
  if (!worth_saving (session))
    return status;
  saved = ws_cli_save_session ("trace", session, output, _("the trace"));
  if (saved == NULL)
    return status == WS_CLI_EXIT_OK ? WS_CLI_EXIT_FAILED : status;
  if (!g_str_equal (saved, output))
    {
      /* Kept elsewhere, said: the report of what was traced still follows. */
      status = status == WS_CLI_EXIT_OK ? WS_CLI_EXIT_FAILED : status;
      output = saved;
    }
  if (!quiet)
    {
      g_autoptr (WsCliTraceReport) report = ws_cli_trace_report_new (session, output,
                                                                     min_severity);
      g_autoptr (GString) out = g_string_new ("\n");

      ws_cli_trace_report_write_table (report, out, (gsize) width);
      ws_cli_write_report (stdout, out->str);
    }
  {
    g_autofree char *text = g_strdup_printf (_("Saved the trace to %s\n"), output);

    ws_cli_write (stdout, text);
  }
  return status;
}

int
ws_cli_trace (int argc, char **argv)
{
  g_auto (GStrv) sweeps = NULL, envs = NULL;
  g_autofree char *cwd = NULL, *timeout = NULL, *output = NULL, *launcher = NULL;
  g_autofree char *target = NULL;
  g_autofree char *runner = NULL, *severity_name = NULL;
  gboolean no_ceilings = FALSE, quiet = FALSE, verbose = FALSE, remote_shell = FALSE;
  int width = -1;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Save the trace here (default warpscope-trace-YYYYMMDD-HHMMSS.jsonl)"), "FILE" },
    { "sweep", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sweeps,
      N_("Run the program once per value, with {NAME} in its arguments, --env values and "
         "--cwd replaced by it; several --sweep run every combination"), "NAME=V1,V2,…" },
    { "env", 0, 0, G_OPTION_ARG_STRING_ARRAY, &envs,
      N_("Set an environment variable for the program"), "NAME=VALUE" },
    { "cwd", 0, 0, G_OPTION_ARG_FILENAME, &cwd, N_("Run the program in this folder"), "DIR" },
    { "timeout", 0, 0, G_OPTION_ARG_STRING, &timeout,
      N_("Stop a program run that takes longer than this (default: never)"), "SECONDS" },
    { "no-ceilings", 0, 0, G_OPTION_ARG_NONE, &no_ceilings,
      N_("Do not measure the GPU's copy bandwidths after the program"), NULL },
    { "target", 't', 0, G_OPTION_ARG_STRING, &target,
      N_("Start the runner on this saved target (“warpscope-cli targets” lists them)"),
      "NAME" },
    { "launcher", 'l', 0, G_OPTION_ARG_STRING, &launcher,
      N_("Start the runner behind this command, e.g. \"ssh gpu-box\" or \"srun -p gpu "
         "--gres=gpu:1\" (split into words, no shell)"), "COMMAND" },
    { "remote-shell", 0, 0, G_OPTION_ARG_NONE, &remote_shell,
      N_("The launcher hands the runner's command line to a shell on another machine, as ssh "
         "does: quote each argument for it (automatic when the launcher is ssh)"), NULL },
    { "runner", 0, 0, G_OPTION_ARG_FILENAME, &runner,
      N_("The runner's path (default $WARPSCOPE_RUNNER, else the built or installed one); "
         "with --launcher, its path on the other machine"), "PATH" },
    { "severity", 's', 0, G_OPTION_ARG_STRING, &severity_name,
      N_("Leave out findings below LEVEL: info (the default: all), low, medium or high"),
      "LEVEL" },
    { "width", 'w', 0, G_OPTION_ARG_INT, &width,
      N_("Fit the report into COLUMNS columns (default: the terminal's width; 0: no limit)"),
      "COLUMNS" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet,
      N_("No report and no line per program run: only the saved trace and the errors"), NULL },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose,
      N_("Also show what the runner itself wrote on stderr"), NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GPtrArray) args = NULL;
  g_auto (WsTraceCommand) command = { 0 };
  g_autoptr (WsSession) session = NULL;
  g_autoptr (GHashTable) reported = g_hash_table_new (g_direct_hash, g_direct_equal);
  WsCliRunnerOptions options = { .command = "trace" };
  WsSeverity min_severity = WS_SEVERITY_INFO;
  Live live = { 0 };
  int status, first;
  guint status_id = 0;

  context = ws_cli_context_new (
    "trace", _("[--] PROGRAM [ARG…]"),
    _("Traces a CUDA program of your own, unchanged — a Numba script, PyTorch, CuPy, C++: "
      "warpscope-runner starts it with libwarpscope-inject, which records its kernels, copies, "
      "API calls and NVTX ranges. Shows the time and the kernels and copies seen as they "
      "arrive, saves the trace, and prints its report: how the program ended, a table of its "
      "kernels and of its copies, and the findings."),
    _("Options come before the program; everything after it is the program's own. Ctrl+C "
      "stops the program and keeps the trace. A sweep runs the program once per value: "
      "warpscope-cli trace --sweep TPB=32,64,128 -- python3 vadd.py --tpb {TPB}\n\n"
      "Exit status (the runner's): 0 every program run exited 0 and used CUDA; 1 a program "
      "run failed, was stopped by --timeout or never used CUDA (its ending is printed); 2 bad "
      "arguments, or the program cannot be run; 3 no NVIDIA driver; 5 an internal error. And: "
      "6 the runner could not be started or did not finish; 130 interrupted (Ctrl+C). The "
      "trace is saved whenever the program used CUDA; -o is checked before it starts."),
    entries);
  /* Everything from the program on is the program's: its own options are not ours. */
  g_option_context_set_strict_posix (context, TRUE);
  if (!ws_cli_parse (context, "trace", &argc, &argv))
    return WS_CLI_EXIT_USAGE;
  first = argc > 1 && g_str_equal (argv[1], "--") ? 2 : 1;
  if (first >= argc)
    return ws_cli_usage_error ("trace", _("which program? Give it after the options, e.g. "
                                          "warpscope-cli trace -- python3 vector_add.py"));
  if (severity_name != NULL && !severity_from_string (severity_name, &min_severity))
    return ws_cli_usage_error ("trace", _("--severity “%s” is not a level: use info, low, "
                                          "medium or high."),
                               severity_name);
  if (width < -1)
    return ws_cli_usage_error ("trace", _("--width must be 0 (no limit) or more."));
  if (width == -1)
    width = ws_cli_terminal_width (stdout);

  /* The model's trace path, as the app's Trace a Program… takes it. */
  command.program = g_new0 (char *, argc - first + 1);
  for (int i = first; i < argc; i++)
    command.program[i - first] = g_strdup (argv[i]);
  command.sweeps = g_steal_pointer (&sweeps);
  command.env = g_steal_pointer (&envs);
  command.cwd = g_steal_pointer (&cwd);
  command.timeout = g_steal_pointer (&timeout);
  command.no_ceilings = no_ceilings;
  args = ws_trace_command_runner_args (&command);
  g_ptr_array_add (args, NULL);

  if (output == NULL)
    output = default_output ();
  if (!ws_cli_check_output ("trace", "-o", output))
    return WS_CLI_EXIT_USAGE;

  session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  live.session = session;
  live.terminal = isatty (STDERR_FILENO);
  live.quiet = quiet;
  live.started = g_get_monotonic_time ();
  live.output = g_string_new (NULL);
  live.reported = reported;
  g_signal_connect (session, "changed", G_CALLBACK (changed_cb), &live);
  if (live.terminal)
    status_id = g_timeout_add (STATUS_MS, status_cb, &live);

  options.target = target;
  options.launcher = launcher;
  options.runner = runner;
  /* A program may compute for minutes without a record: --timeout is the program's limit. */
  options.timeout = 0;
  options.verbose = verbose;
  options.remote_shell = remote_shell;
  options.stderr_func = output_cb;
  options.stderr_data = &live;
  status = ws_cli_run_runner (&options, (const char *const *) args->pdata, session);
  g_clear_handle_id (&status_id, g_source_remove);
  g_signal_handlers_disconnect_by_data (session, &live);
  clear_status (&live);
  if (live.output->len > 0)
    {
      g_string_append_c (live.output, '\n');
      ws_cli_write (stderr, live.output->str);
    }
  g_string_free (live.output, TRUE);
  if (status == WS_CLI_EXIT_USAGE && ws_session_get_hello (session) == NULL)
    return status; /* our own usage error (--launcher): nothing ran */
  fflush (stdout);
  return finish (session, output, status, quiet, width, min_severity);
}

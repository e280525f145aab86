/* ws-cli-run.c: `warpscope-cli run`: starts the runner with one configuration or a sweep, shows
 * progress on a terminal, prints a line per finished run and saves the session.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli.h"

#include <string.h>
#include <unistd.h>

#include "ws-analysis.h"

typedef struct
{
  gboolean progress;       /* stderr is a terminal: draw a bar */
  gboolean bar_shown;
  gboolean quiet;
  GHashTable *reported;    /* run ids whose line is printed */
  WsRun *current;          /* the run in progress, named beside the bar */
} Progress;

static void
clear_bar (Progress *p)
{
  if (!p->bar_shown)
    return;
  fputs ("\r\033[K", stderr);
  fflush (stderr);
  p->bar_shown = FALSE;
}

static void
draw_bar (Progress *p, WsSession *session)
{
  const int slots = 24;
  gboolean utf8 = g_get_charset (NULL);
  g_autoptr (GString) bar = g_string_new ("\r\033[K[");
  int done = 0, total = 0;
  int filled;

  if (!p->progress || !ws_session_get_progress (session, &done, &total) || total <= 0)
    return;
  filled = (int) ((gint64) slots * MIN (done, total) / total);
  for (int i = 0; i < slots; i++)
    g_string_append (bar, i < filled ? (utf8 ? "█" : "#") : (utf8 ? "░" : "."));
  g_string_append_printf (bar, "] %d/%d", done, total);
  if (p->current != NULL && done < total)
    {
      g_autofree char *size = ws_run_dup_size_label (p->current);
      g_autofree char *block = ws_run_dup_block_label (p->current);
      /* The bar is written as it is (it moves the cursor itself): the name is escaped here. */
      g_autofree char *kernel = ws_format_escape_controls (ws_run_get_config (p->current)->kernel,
                                                           WS_ESCAPE_KEEP_NONE);

      if (*block != '\0')
        g_string_append_printf (bar, _("  running %s %s, block %s"), kernel, size, block);
      else
        g_string_append_printf (bar, _("  running %s %s"), kernel, size);
    }
  /* Never wider than the terminal: a wrapped bar cannot be redrawn in place. */
  {
    gsize width = (gsize) ws_cli_terminal_width (stderr);

    while (width > 1 && ws_cli_text_width (bar->str + 4) > width - 1)
      g_string_truncate (bar, g_utf8_prev_char (bar->str + bar->len) - bar->str);
  }
  fputs (bar->str, stderr);
  fflush (stderr);
  p->bar_shown = TRUE;
}

static char *
summarize_run (WsRun *run)
{
  const WsRunConfig *c = ws_run_get_config (run);
  const WsTiming *t = ws_run_get_timing (run);
  const WsLaunch *l = ws_run_get_launch (run);
  const WsVerify *v = ws_run_get_verify (run);
  g_autofree char *size = ws_run_dup_size_label (run);
  g_autofree char *block = ws_run_dup_block_label (run);
  g_autofree char *kernel = ws_run_dup_kernel_label (run);
  GString *s = g_string_new (NULL);

  if (*block != '\0')
    g_string_append_printf (s, _("run %d: %s %s, block %s, %s"), c->id, kernel, size, block,
                            c->transfer);
  else
    g_string_append_printf (s, _("run %d: %s %s, %s"), c->id, kernel, size, c->transfer);
  if (c->device >= 0)
    /* Translators: the GPU (its CUDA index) that ran a run of a sweep spread over several. */
    g_string_append_printf (s, _(", GPU %d"), c->device);
  switch (ws_run_get_state (run))
    {
    case WS_RUN_STATE_COMPLETE:
    case WS_RUN_STATE_FAILED:
      {
        g_autofree char *kernel = ws_cli_format_stats (&t->kernel);
        g_autofree char *e2e = ws_cli_format_stats (&t->e2e);
        g_autofree char *speedup = ws_units_ratio (ws_run_get_speedup (run, FALSE,
                                                                              TRUE));

        g_string_append_printf (s, _(" — kernel %s, end to end %s"), kernel, e2e);
        if (ws_run_get_speedup (run, FALSE, TRUE) > 0)
          {
            g_autofree char *baseline = ws_run_dup_baseline_label (run, FALSE);

            /* Translators: the speedup ("0.92×"), then the CPU baseline it is against
             * ("OpenBLAS 0.3.21, 1 thread" or "hand-written, 1 thread"). */
            g_string_append_printf (s, _(" (%1$s the speed of the CPU baseline, %2$s)"), speedup,
                                    baseline ? baseline : "?");
          }
        if (l != NULL)
          {
            g_autofree char *occupancy = ws_units_percent (l->occupancy);

            g_string_append_printf (s, _(", occupancy %s"), occupancy);
          }
        if (v != NULL && v->unverified)
          g_string_append (s, _(", unverified (the header declares no reference)"));
        else if (v != NULL && v->pass)
          g_string_append (s, _(", verified"));
        else if (v != NULL)
          {
            g_autofree char *bad = ws_units_grouped ((guint64) (v->mismatches + v->unwritten));

            g_string_append_printf (s, _(", FAILED verification: %s elements wrong"), bad);
          }
        break;
      }
    case WS_RUN_STATE_REFUSED:
      {
        GPtrArray *errors = ws_run_get_errors (run);

        for (guint i = 0; i < errors->len; i++)
          {
            WsRunnerError *e = g_ptr_array_index (errors, i);

            if (e->severity == WS_ERROR_SEVERITY_ERROR)
              {
                g_string_append_printf (s, _(" — refused (%s): %s"), e->code_name, e->message);
                break;
              }
          }
        break;
      }
    case WS_RUN_STATE_INCOMPLETE:
      g_string_append (s, _(" — incomplete: the runner stopped before its results"));
      break;
    case WS_RUN_STATE_RUNNING:
    default:
      break;
    }
  return g_string_free (s, FALSE);
}

static void
run_added_cb (WsSession *session, WsRun *run, gpointer data)
{
  Progress *p = data;

  p->current = run;
  draw_bar (p, session);
}

static void
run_updated_cb (WsSession *session, WsRun *run, gpointer data)
{
  Progress *p = data;
  g_autofree char *line = NULL;

  if (ws_run_get_state (run) == WS_RUN_STATE_RUNNING
      || g_hash_table_contains (p->reported, GINT_TO_POINTER (ws_run_get_id (run))))
    return;
  g_hash_table_add (p->reported, GINT_TO_POINTER (ws_run_get_id (run)));
  if (p->current == run)
    p->current = NULL;
  if (p->quiet)
    return;
  line = summarize_run (run);
  clear_bar (p);
  ws_cli_write (stdout, line);
  ws_cli_write (stdout, "\n");
  fflush (stdout);
  draw_bar (p, session);
}

static void
changed_cb (WsSession *session, gpointer data)
{
  draw_bar (data, session);
}

/* A sweep that did not finish says how far it got. */
static void
report_stopped (WsSession *session, int status)
{
  int done = 0, total = 0;

  if (status == WS_CLI_EXIT_OK || !ws_session_get_progress (session, &done, &total)
      || done >= total)
    return;
  ws_cli_error ("run", g_dngettext (NULL, "stopped after %d of %d configuration",
                                    "stopped after %d of %d configurations", total),
                done, total);
}

/* --memcheck: the findings as a compiler prints errors, then where the session went (only
 * with -o: a check has no runs to keep). */
static int
print_memcheck (WsSession *session, int status, const char *output, gboolean save)
{
  GPtrArray *findings = ws_session_get_memcheck_findings (session);

  for (guint i = 0; i < findings->len; i++)
    {
      WsMemcheckFinding *f = g_ptr_array_index (findings, i);
      g_autoptr (GString) line = g_string_new (NULL);

      if (f->file != NULL && f->line > 0)
        g_string_append_printf (line, "%s:%d: ", f->file, f->line);
      else if (f->file != NULL)
        g_string_append_printf (line, "%s: ", f->file);
      g_string_append_printf (line, _("error: %s"), f->message ? f->message : f->kind);
      if (f->kernel != NULL)
        g_string_append_printf (line, _(" in %s"), f->kernel);
      if (f->has_thread)
        g_string_append_printf (line, _(", first by thread (%u,%u,%u) of block (%u,%u,%u)"),
                                f->thread[0], f->thread[1], f->thread[2], f->block[0],
                                f->block[1], f->block[2]);
      if (f->count > 1)
        g_string_append_printf (line, g_dngettext (NULL, " (%d time)", " (%d times)",
                                                   f->count),
                                f->count);
      g_string_append_c (line, '\n');
      if (f->detail != NULL)
        g_string_append_printf (line, "  %s\n", f->detail);
      ws_cli_write (stdout, line->str);
    }
  if (findings->len == 0 && (status == WS_CLI_EXIT_OK))
    {
      g_autofree char *text = ws_session_dup_clean_check_text (session, NULL, TRUE);

      ws_cli_write (stdout, text);
      ws_cli_write (stdout, "\n");
    }
  /* Only a check that ran is saved: a refused one (a tool misspelt, no compute-sanitizer)
   * holds nothing but its error, and must not replace the file -o names. */
  if (save && (findings->len > 0 || status == WS_CLI_EXIT_OK || status == WS_CLI_EXIT_FAILED))
    {
      g_autofree char *saved = ws_cli_save_session ("run", session, output, _("the session"));

      if (g_strcmp0 (saved, output) != 0)
        return status == WS_CLI_EXIT_OK ? WS_CLI_EXIT_FAILED : status;
    }
  return status;
}

static char *
default_output (void)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");

  return g_strdup_printf ("warpscope-%s.jsonl", stamp);
}

/* What `run` was given. */
typedef struct
{
  char *kernel, *sizes, *blocks, *transfer;
  char *reps, *warmup, *cpu, *cpu_reps;
  char *cpu_budget, *device, *seed, *cache;
  char *output, *launcher, *runner, *target;
  char *devices;
  char *source, *memcheck, *counters;
  char **params;
  gboolean no_trace, quiet, verbose, remote_shell;
  int timeout;
} RunOptions;

static void
run_options_clear (RunOptions *o)
{
  char **strings[] = { &o->kernel, &o->sizes, &o->blocks, &o->transfer, &o->reps, &o->warmup,
                       &o->cpu, &o->cpu_reps, &o->cpu_budget, &o->device, &o->seed, &o->cache,
                       &o->output, &o->launcher, &o->runner, &o->target, &o->devices,
                       &o->source, &o->memcheck, &o->counters };

  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    g_clear_pointer (strings[i], g_free);
  g_clear_pointer (&o->params, g_strfreev);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (RunOptions, run_options_clear)

static gboolean
parse_options (RunOptions *o, int *argc, char ***argv)
{
  GOptionEntry entries[] = {
    { "kernel", 'k', 0, G_OPTION_ARG_STRING, &o->kernel,
      N_("Kernels to run, comma-separated: vector_add, matmul_tiled, … (“warpscope-cli "
         "kernels” lists them)"), "K[,K…]" },
    { "source", 0, 0, G_OPTION_ARG_FILENAME, &o->source,
      N_("Run your own kernel: a CUDA C file with a warpscope header (docs/own-kernels.md)"),
      "FILE" },
    { "param", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->params,
      N_("Values of a tunable parameter of --source's kernel, such as TILE=8,16,32; repeat "
         "for each parameter (default: the first value its header lists)"), "NAME=V[,V…]" },
    { "memcheck", 0, 0, G_OPTION_ARG_STRING, &o->memcheck,
      N_("Check one configuration of --source's kernel under compute-sanitizer instead of "
         "timing it: memcheck, racecheck or initcheck"), "TOOL" },
    { "sizes", 0, 0, G_OPTION_ARG_STRING, &o->sizes,
      N_("Problem sizes: 1e6 | 1000,4096 | 1e3:1e8:x10 | 256:1024:+256; matrices take an "
         "edge or MxNxK"), "LIST" },
    { "blocks", 0, 0, G_OPTION_ARG_STRING, &o->blocks,
      N_("Threads per block: 32,64,256 | 32:1024:x2 | 16x16,32x8"), "LIST" },
    { "transfer", 0, 0, G_OPTION_ARG_STRING, &o->transfer,
      N_("Host memory for the copies: pageable, pinned or both (default pageable)"), "LIST" },
    { "reps", 0, 0, G_OPTION_ARG_STRING, &o->reps, N_("Traced repetitions (10)"), "R" },
    { "warmup", 0, 0, G_OPTION_ARG_STRING, &o->warmup,
      N_("Warm-up sequences before timing, not recorded (3)"), "W" },
    { "counters", 0, 0, G_OPTION_ARG_STRING, &o->counters,
      N_("Read the GPU's counters of each configuration in one more launch after its timed "
         "ones: basic, memory, stalls or all (docs/counters.md)"), "GROUPS" },
    { "cache", 0, 0, G_OPTION_ARG_STRING, &o->cache,
      N_("The L2 cache each timed launch starts with: warm (what the previous launch left, "
         "the default) or cold (flushed first, as Nsight Compute does)"), "warm|cold" },
    { "cpu", 0, 0, G_OPTION_ARG_STRING, &o->cpu,
      N_("CPU baselines: none, 1, all or 1,all (default 1,all)"), "WHICH" },
    { "cpu-reps", 0, 0, G_OPTION_ARG_STRING, &o->cpu_reps,
      N_("At most N timed runs per CPU baseline (5)"), "N" },
    { "cpu-budget", 0, 0, G_OPTION_ARG_STRING, &o->cpu_budget,
      N_("Seconds one CPU baseline may take (10)"), "S" },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &o->device, N_("GPU index (0)"), "N" },
    { "devices", 'D', 0, G_OPTION_ARG_STRING, &o->devices,
      N_("Spread the sweep over these GPUs, one runner each, merged into one session: all, "
         "or indices such as 0,1,3 or 0-3 (on Slurm: how many jobs, each with a GPU)"),
      "all|LIST" },
    { "seed", 0, 0, G_OPTION_ARG_STRING, &o->seed, N_("Seed of the random inputs"), "N" },
    { "no-trace", 0, 0, G_OPTION_ARG_NONE, &o->no_trace,
      N_("Do not use CUPTI: untraced timing only"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o->output,
      N_("Save the session here (default warpscope-YYYYMMDD-HHMMSS.jsonl)"), "FILE" },
    { "target", 't', 0, G_OPTION_ARG_STRING, &o->target,
      N_("Start the runner on this saved target (“warpscope-cli targets” lists them)"),
      "NAME" },
    { "launcher", 'l', 0, G_OPTION_ARG_STRING, &o->launcher,
      N_("Start the runner behind this command, e.g. \"ssh gpu-box\" or \"srun -p gpu "
         "--gres=gpu:1\" (split into words, no shell)"), "COMMAND" },
    { "remote-shell", 0, 0, G_OPTION_ARG_NONE, &o->remote_shell,
      N_("The launcher hands the runner's command line to a shell on another machine, as ssh "
         "does: quote each argument for it (automatic when the launcher is ssh)"), NULL },
    { "runner", 0, 0, G_OPTION_ARG_FILENAME, &o->runner,
      N_("The runner's path (default $WARPSCOPE_RUNNER, else the built or installed one); "
         "with --launcher, its path on the other machine"), "PATH" },
    { "timeout", 0, 0, G_OPTION_ARG_INT, &o->timeout,
      N_("Stop the runner when it prints nothing for this long (default 120; 0: never)"),
      "SECONDS" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, N_("No line per run"), NULL },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &o->verbose,
      N_("Also show what the runner wrote on stderr"), NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = NULL;

  context = ws_cli_context_new (
    "run", NULL,
    _("Runs kernels on the GPU through warpscope-runner: one configuration, or a sweep over "
      "the lists given. Prints a line per finished run, saves the session, and exits with "
      "the runner's status."),
    _("The run options go to the runner as they are; “warpscope-runner --help” describes "
      "them.\n\n"
      "Exit status (the runner's): 0 every run verified; 1 a run failed verification or was "
      "refused; 2 bad arguments; 3 no usable GPU (driver, device or kernel image); 4 a kernel "
      "fault ended the session; 5 an internal error in the runner. And: 6 the runner could "
      "not be started, crashed, stopped answering, or printed lines that are not records; "
      "130 interrupted (Ctrl+C). The runs that completed are saved in every case; -o is "
      "checked before the runner starts (2 when it cannot be written)."),
    entries);
  return ws_cli_parse (context, "run", argc, argv);
}

/* What the options cannot mean together, before anything starts. */
static int
check_options (const RunOptions *o, int argc, char **argv)
{
  if (argc > 1)
    return ws_cli_usage_error ("run", _("“%s” is not an option of run; the sizes, blocks and "
                                        "kernels are given with --sizes, --blocks and --kernel."),
                               argv[1]);
  if (o->kernel == NULL && o->source == NULL)
    return ws_cli_usage_error ("run", _("which kernel? Give --kernel vector_add, for example, "
                                        "or several with commas (“warpscope-cli kernels” "
                                        "lists them), or --source FILE for your own."));
  if (o->kernel != NULL && o->source != NULL)
    return ws_cli_usage_error ("run", _("--kernel and --source cannot be combined: run the "
                                        "built-in kernel in a session of its own."));
  if ((o->params != NULL || o->memcheck != NULL) && o->source == NULL)
    return ws_cli_usage_error ("run", _("%s belongs to your own kernel: add --source FILE."),
                               o->params != NULL ? "--param" : "--memcheck");
  if (o->timeout < 0)
    return ws_cli_usage_error ("run", _("--timeout must be 0 (never) or more seconds."));
  if (o->devices != NULL && o->device != NULL)
    return ws_cli_usage_error ("run", _("--device runs on one GPU, --devices spreads the sweep "
                                        "over several: give one of them."));
  return WS_CLI_EXIT_OK;
}

/* The run options for the o->runner, as they were given; they point into `o`. */
static GPtrArray *
runner_args (const RunOptions *o)
{
  struct
  {
    const char *option;
    const char *value;
  } pass[] = {
    { "--kernel", o->kernel }, { "--sizes", o->sizes }, { "--blocks", o->blocks },
    { "--transfer", o->transfer }, { "--reps", o->reps }, { "--warmup", o->warmup },
    { "--cpu", o->cpu }, { "--cpu-reps", o->cpu_reps }, { "--cpu-budget", o->cpu_budget },
    { "--device", o->device }, { "--seed", o->seed }, { "--cache", o->cache },
    { "--counters", o->counters },
  };
  GPtrArray *args = g_ptr_array_new ();

  for (guint i = 0; i < G_N_ELEMENTS (pass); i++)
    if (pass[i].value != NULL)
      {
        g_ptr_array_add (args, (gpointer) pass[i].option);
        g_ptr_array_add (args, (gpointer) pass[i].value);
      }
  if (o->source != NULL)
    {
      g_ptr_array_add (args, "--source");
      g_ptr_array_add (args, o->source);
    }
  for (guint i = 0; o->params != NULL && o->params[i] != NULL; i++)
    {
      g_ptr_array_add (args, "--param");
      g_ptr_array_add (args, o->params[i]);
    }
  if (o->memcheck != NULL)
    {
      g_ptr_array_add (args, "--memcheck");
      g_ptr_array_add (args, o->memcheck);
    }
  if (o->no_trace)
    g_ptr_array_add (args, "--no-trace");
  g_ptr_array_add (args, NULL);
  return args;
}

/* Runs the o->runner (or one per GPU) into `session`, a line per finished run as it goes. */
static int
start_runner (const RunOptions *o, GPtrArray *args, WsSession *session)
{
  g_autoptr (GHashTable) reported = g_hash_table_new (g_direct_hash, g_direct_equal);
  WsCliRunnerOptions options = { .command = "run" };
  Progress progress = { FALSE, FALSE, FALSE, NULL, NULL };
  int status;

  progress.progress = isatty (STDERR_FILENO);
  progress.quiet = o->quiet;
  progress.reported = reported;
  g_signal_connect (session, "run-added", G_CALLBACK (run_added_cb), &progress);
  g_signal_connect (session, "run-updated", G_CALLBACK (run_updated_cb), &progress);
  g_signal_connect (session, "changed", G_CALLBACK (changed_cb), &progress);

  options.launcher = o->launcher;
  options.target = o->target;
  options.runner = o->runner;
  options.timeout = (guint) o->timeout;
  options.verbose = o->verbose;
  options.remote_shell = o->remote_shell;
  if (o->devices != NULL)
    status = ws_cli_run_split (&options, (const char *const *) args->pdata, o->devices, session);
  else
    status = ws_cli_run_runner (&options, (const char *const *) args->pdata, session);
  g_signal_handlers_disconnect_by_data (session, &progress);
  clear_bar (&progress);
  return status;
}

/* Where the session went: the findings of --memcheck, or the runs saved to `output`. */
static int
save_session (WsSession *session, int status, const RunOptions *o, const char *output,
              gboolean explicit_output)
{
  g_autofree char *saved = NULL;
  guint n_runs;

  n_runs = g_list_model_get_n_items (ws_session_get_runs (session));
  if (o->memcheck != NULL)
    return print_memcheck (session, status, output, explicit_output);
  if (n_runs == 0)
    {
      /* A session without runs holds only the error just printed: no file to clutter. */
      return status;
    }
  report_stopped (session, status);
  saved = ws_cli_save_session ("run", session, output, _("the session"));
  if (saved == NULL)
    return status == WS_CLI_EXIT_OK ? WS_CLI_EXIT_FAILED : status;
  {
    g_autofree char *text = g_strdup_printf (g_dngettext (NULL, "Saved %u run to %s",
                                                          "Saved %u runs to %s", n_runs),
                                             n_runs, saved);

    ws_cli_write (stdout, text);
    ws_cli_write (stdout, "\n");
  }
  if (!g_str_equal (saved, output))
    return status == WS_CLI_EXIT_OK ? WS_CLI_EXIT_FAILED : status;
  return status;
}

int
ws_cli_run (int argc, char **argv)
{
  g_auto (RunOptions) o = { .timeout = 120 };
  g_autoptr (GPtrArray) args = NULL;
  g_autoptr (WsSession) session = NULL;
  g_autofree char *output = NULL;
  int status;

  if (!parse_options (&o, &argc, &argv))
    return WS_CLI_EXIT_USAGE;
  if ((status = check_options (&o, argc, argv)) != WS_CLI_EXIT_OK)
    return status;
  args = runner_args (&o);

  output = o.output != NULL ? g_strdup (o.output) : default_output ();
  /* Checked now, not after an hour of sweep. */
  if (!ws_cli_check_output ("run", "-o", output))
    return WS_CLI_EXIT_USAGE;

  session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  status = start_runner (&o, args, session);
  if (status == WS_CLI_EXIT_USAGE && ws_session_get_hello (session) == NULL)
    return status; /* our own usage error (--launcher): nothing ran */

  fflush (stdout);
  ws_cli_print_session_errors (stderr, session, ws_cli_terminal_width (stderr));
  return save_session (session, status, &o, output, o.output != NULL);
}

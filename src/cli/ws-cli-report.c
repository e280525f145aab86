/* ws-cli-report.c: `warpscope-cli report FILE`: gathers a session's runs and findings, ranks the
 * configurations that solve the same problem, finds where size series cross the CPU.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli-report.h"
#include "ws-cli-trace.h"

#include <math.h>
#include <string.h>

static const char *const format_names[] = { "table", "csv", "json", "markdown" };

gboolean
ws_cli_report_format_from_string (const char *name, WsCliReportFormat *format)
{
  for (guint i = 0; i < G_N_ELEMENTS (format_names); i++)
    if (g_ascii_strcasecmp (name, format_names[i]) == 0)
      {
        *format = (WsCliReportFormat) i;
        return TRUE;
      }
  return FALSE;
}

/* ---- words about runs -------------------------------------------------------------------- */

char *
ws_cli_report_describe_run (WsRun *run)
{
  const WsRunConfig *c = ws_run_get_config (run);
  g_autofree char *size = ws_run_dup_size_label (run);
  g_autofree char *block = ws_run_dup_block_label (run);

  if (*block == '\0') /* a library call: it picks its own blocks */
    return g_strdup_printf (_("Run %d: %s %s, %s"), c->id, c->kernel, size, c->transfer);
  return g_strdup_printf (_("Run %d: %s %s, block %s, %s"), c->id, c->kernel, size, block,
                          c->transfer);
}

char *
ws_cli_report_format_rate (WsCliReport *report, WsRun *run)
{
  WsDevice *device = ws_session_get_device (report->session);
  double ridge = device != NULL ? ws_analysis_get_ridge_point (ws_device_get_info (device)) : 0;
  double intensity = ws_run_get_intensity (run);

  if (!(ws_run_get_kernel_ns (run) > 0))
    return g_strdup ("—");
  /* Below the ridge point memory bounds the kernel: GB/s say how close it comes; above it,
   * arithmetic does. Without a device, a kernel doing less than a FLOP per byte is read as
   * memory-bound. */
  if (ws_run_get_gflops (run) <= 0 || intensity < (ridge > 0 ? ridge : 1))
    return ws_units_gbs (ws_run_get_gbs (run));
  return ws_units_gflops (ws_run_get_gflops (run));
}

/* ---- the fastest configuration of each problem ------------------------------------------- */

static double
e2e_median (WsRun *run)
{
  const WsTiming *t = ws_run_get_timing (run);

  return t != NULL && t->e2e.n > 0 ? t->e2e.median : 0;
}

static char *
run_name (WsRun *run, gboolean with_kernel, gboolean with_transfer)
{
  const WsRunConfig *c = ws_run_get_config (run);
  g_autofree char *block = ws_run_dup_block_label (run);
  GString *s = g_string_new (NULL);

  if (with_kernel)
    g_string_append_printf (s, *block ? "%s " : "%s", c->kernel);
  g_string_append (s, block);
  if (with_transfer)
    g_string_append_printf (s, ", %s", c->transfer);
  return g_string_free (s, FALSE);
}

/* ", 77% of the measured copy bandwidth": how far a run is from its ceiling. */
static char *
ceiling_text (WsSession *session, WsRun *run)
{
  double fraction = 0;
  WsCeiling ceiling = session ? ws_analysis_get_ceiling (session, run, &fraction, NULL)
                              : WS_CEILING_NONE;

  if (ceiling == WS_CEILING_NONE || !(fraction > 0))
    return g_strdup ("");
  return g_strdup_printf (_(", %.0f%% of %s"), 100 * fraction, ws_ceiling_describe (ceiling));
}

char *
ws_cli_report_describe_fastest (const WsFastest *f)
{
  GString *s = g_string_new (NULL);
  const WsRunConfig *c = ws_run_get_config (f->best);
  const WsTiming *t = ws_run_get_timing (f->best);

  if (f->by_end_to_end)
    {
      g_autofree char *e2e = ws_cli_format_stats (&t->e2e);
      g_autofree char *block = ws_run_dup_block_label (f->best);

      if (*block != '\0')
        g_string_append_printf (s, _("%s (%s, block %s): fastest end to end with %s host "
                                     "memory, %s."),
                                f->label, c->kernel, block, c->transfer, e2e);
      else
        g_string_append_printf (s, _("%s (%s): fastest end to end with %s host memory, %s."),
                                f->label, c->kernel, c->transfer, e2e);
      for (guint i = 0; i < f->tied->len; i++)
        {
          WsRun *run = g_ptr_array_index (f->tied, i);
          g_autofree char *time = ws_units_duration (e2e_median (run));

          g_string_append_printf (s, _(" Tied with it (inside its min–max): %s, %s."),
                                  ws_run_get_config (run)->transfer, time);
        }
      for (guint i = 0; i < f->others->len; i++)
        {
          WsRun *run = g_ptr_array_index (f->others, i);
          g_autofree char *time = ws_units_duration (e2e_median (run));
          g_autofree char *factor = ws_units_ratio (e2e_median (run) / t->e2e.median);

          g_string_append_printf (s, _(" With %s memory it takes %s, %s as long."),
                                  ws_run_get_config (run)->transfer, time, factor);
        }
      return g_string_free (s, FALSE);
    }

  {
    gboolean with_kernel = !f->block_sweep;
    g_autofree char *name = run_name (f->best, with_kernel, FALSE);
    g_autofree char *kernel = ws_cli_format_stats (&t->kernel);

    if (f->block_sweep)
      g_string_append_printf (s, _("%s, %s, %s (%u block sizes): fastest block %s, kernel %s."),
                              c->kernel, f->label, c->transfer, f->n_runs, name,
                              t->kernel.n > 0 ? kernel : _("not measured"));
    else
      g_string_append_printf (s, _("%s (%u configurations): fastest %s, kernel %s."), f->label,
                              f->n_runs, name, t->kernel.n > 0 ? kernel : _("not measured"));
    {
      g_autofree char *reach = ceiling_text (f->session, f->best);

      if (*reach != '\0')
        {
          g_string_truncate (s, s->len - 1); /* the full stop */
          g_string_append_printf (s, "%s.", reach);
        }
    }
    if (f->tied->len == 0)
      g_string_append (s, _(" No other configuration is inside its min–max."));
    else
      {
        g_string_append (s, _(" Tied with it (inside its min–max):"));
        for (guint i = 0; i < f->tied->len; i++)
          {
            WsRun *run = g_ptr_array_index (f->tied, i);
            g_autofree char *other = run_name (run, with_kernel,
                                               !g_str_equal (ws_run_get_config (run)->transfer,
                                                             c->transfer));
            g_autofree char *time = ws_units_duration (ws_run_get_kernel_ns (run));

            g_string_append_printf (s, "%s %s (%s)", i == 0 ? "" : ",", other, time);
          }
        g_string_append_c (s, '.');
      }
    for (guint i = 0; i < f->others->len; i++)
      {
        WsRun *run = g_ptr_array_index (f->others, i);
        g_autofree char *block = ws_run_dup_block_label (run);
        g_autofree char *time = ws_units_duration (ws_run_get_kernel_ns (run));
        g_autofree char *factor = ws_units_ratio (ws_run_get_kernel_ns (run)
                                                         / ws_run_get_kernel_ns (f->best));

        g_autofree char *reach = ceiling_text (f->session, run);

        if (*block)
          g_string_append_printf (s, _(" %s beats the best %s (block %s, %s%s) by %s."),
                                  c->kernel, ws_run_get_config (run)->kernel, block, time, reach,
                                  factor);
        else
          g_string_append_printf (s, _(" %s beats %s (%s%s) by %s."), c->kernel,
                                  ws_run_get_config (run)->kernel, time, reach, factor);
      }
  }
  return g_string_free (s, FALSE);
}

/* ---- where size series cross the CPU ----------------------------------------------------- */

char *
ws_cli_report_describe_crossover (const WsCrossover *x)
{
  static const char *const what[2][2] = {
    { N_("kernel vs 1 thread"), N_("end to end vs 1 thread") },
    { N_("kernel vs all cores"), N_("end to end vs all cores") },
  };
  GString *s = g_string_new (NULL);
  WsRun *first = g_ptr_array_index (x->series->runs, 0);
  WsRun *last = g_ptr_array_index (x->series->runs, x->series->runs->len - 1);
  g_autofree char *from = ws_run_dup_size_label (first);
  g_autofree char *to = ws_run_dup_size_label (last);
  gboolean any = FALSE;

  g_string_append_printf (s, "%s (%s … %s):", x->series->label, from, to);
  for (int all_cores = 0; all_cores < 2; all_cores++)
    for (int e2e = 0; e2e < 2; e2e++)
      {
        g_autofree char *best = ws_units_ratio (x->best[all_cores][e2e]);
        g_autofree char *highest = ws_units_ratio (x->highest[all_cores][e2e]);
        g_autofree char *baseline = ws_run_dup_baseline_label (last, all_cores);

        if (!(x->lowest[all_cores][e2e] > 0) && !(x->highest[all_cores][e2e] > 0))
          continue; /* no baseline */
        if (baseline != NULL)
          g_string_append_printf (s, "%s %s (%s): ", any ? ";" : "", _(what[all_cores][e2e]),
                                  baseline);
        else
          g_string_append_printf (s, "%s %s: ", any ? ";" : "", _(what[all_cores][e2e]));
        any = TRUE;
        if (x->found[all_cores][e2e])
          {
            g_autofree char *size = ws_units_size_estimate (x->size[all_cores][e2e], x->shape_rank);

            if (x->highest[all_cores][e2e] >= 1)
              g_string_append_printf (s, _("the GPU is faster from %s on (%s at %s)"), size,
                                      highest, to);
            else
              g_string_append_printf (s, _("the GPU is slower from %s on (%s at %s)"), size,
                                      highest, to);
          }
        else if (x->highest[all_cores][e2e] >= 1 && x->lowest[all_cores][e2e] >= 1)
          g_string_append_printf (s, _("faster at every size (up to %s)"), best);
        else
          g_string_append_printf (s, _("slower at every size (at best %s)"), best);
      }
  if (!any)
    g_string_append (s, _(" no CPU baseline was measured."));
  else
    g_string_append_c (s, '.');
  return g_string_free (s, FALSE);
}

/* ---- the report -------------------------------------------------------------------------- */

static void
report_run_free (WsCliReportRun *r)
{
  g_ptr_array_unref (r->findings);
  g_free (r);
}

static int
compare_severity (gconstpointer a, gconstpointer b)
{
  const WsFinding *x = *(WsFinding **) a;
  const WsFinding *y = *(WsFinding **) b;

  return (int) y->severity - (int) x->severity;
}

WsCliReport *
ws_cli_report_new (WsSession *session, const char *path, WsSeverity min_severity)
{
  WsCliReport *report = g_new0 (WsCliReport, 1);
  g_autoptr (GHashTable) by_id = g_hash_table_new (g_direct_hash, g_direct_equal);
  GListModel *runs = ws_session_get_runs (session);
  guint n = g_list_model_get_n_items (runs);
  WsSessionAnalysis *analysis;

  report->session = g_object_ref (session);
  report->path = g_strdup (path);
  report->name = g_path_get_basename (path);
  report->min_severity = min_severity;
  report->runs = g_ptr_array_new_with_free_func ((GDestroyNotify) report_run_free);
  report->series_findings = g_ptr_array_new ();
  report->cpu_threads = -1;

  for (guint i = 0; i < n; i++)
    {
      WsCliReportRun *r = g_new0 (WsCliReportRun, 1);
      const WsTiming *t;
      int cores;

      r->run = g_list_model_get_item (runs, i);
      g_object_unref (r->run); /* the session keeps it */
      r->findings = g_ptr_array_new ();
      g_ptr_array_add (report->runs, r);
      g_hash_table_insert (by_id, GINT_TO_POINTER (ws_run_get_id (r->run)), r);
      t = ws_run_get_timing (r->run);
      /* The cores, also where one thread was the faster and is the baseline. */
      cores = t != NULL ? ws_cpu_baseline_get_cores (&t->cpu_all) : 0;
      if (cores > 0)
        {
          if (report->cpu_threads == -1)
            report->cpu_threads = cores;
          else if (report->cpu_threads != cores)
            report->cpu_threads = 0;
        }
    }
  report->cpu_threads = MAX (report->cpu_threads, 0);

  /* The session's one analysis: the app shows the same findings and fastest configurations. */
  analysis = ws_session_get_analysis (session);
  ws_session_analysis_ensure (analysis);
  report->findings = ws_session_analysis_dup_findings (analysis);
  for (guint i = 0; i < report->findings->len; i++)
    {
      WsFinding *f = g_ptr_array_index (report->findings, i);
      WsCliReportRun *r = g_hash_table_lookup (by_id, GINT_TO_POINTER (f->run));

      if (f->severity < min_severity)
        report->n_hidden++;
      else if (f->run == 0 || r == NULL)
        g_ptr_array_add (report->series_findings, f);
      else
        g_ptr_array_add (r->findings, f);
    }
  for (guint i = 0; i < report->runs->len; i++)
    {
      WsCliReportRun *r = g_ptr_array_index (report->runs, i);

      g_ptr_array_sort (r->findings, compare_severity); /* stable: the analysis's order stays */
    }
  report->fastest = g_ptr_array_ref (ws_session_analysis_get_fastest (analysis));
  report->crossovers = g_ptr_array_ref (ws_session_analysis_get_crossovers (analysis));
  return report;
}

void
ws_cli_report_free (WsCliReport *report)
{
  if (report == NULL)
    return;
  g_clear_pointer (&report->runs, g_ptr_array_unref);
  g_clear_pointer (&report->series_findings, g_ptr_array_unref);
  g_clear_pointer (&report->fastest, g_ptr_array_unref);
  g_clear_pointer (&report->crossovers, g_ptr_array_unref);
  g_clear_pointer (&report->findings, g_ptr_array_unref);
  g_clear_object (&report->session);
  g_free (report->path);
  g_free (report->name);
  g_free (report);
}

/* ---- the command ------------------------------------------------------------------------- */

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

/* The four ways of writing a report, of a session's runs or of a traced program. */
typedef void (*TableFunc) (gpointer report, GString *out, gsize width);
typedef void (*WriteFunc) (gpointer report, GString *out);

typedef struct
{
  TableFunc table;
  WriteFunc csv, json, markdown;
} ReportWriters;

static const ReportWriters run_writers = {
  (TableFunc) ws_cli_report_write_table,
  (WriteFunc) ws_cli_report_write_csv,
  (WriteFunc) ws_cli_report_write_json,
  (WriteFunc) ws_cli_report_write_markdown,
};

/* A traced program's report: its own tables and findings (ws-cli-trace-report.c). */
static const ReportWriters trace_writers = {
  (TableFunc) ws_cli_trace_report_write_table,
  (WriteFunc) ws_cli_trace_report_write_csv,
  (WriteFunc) ws_cli_trace_report_write_json,
  (WriteFunc) ws_cli_trace_report_write_markdown,
};

static int
print_report (gpointer report, const ReportWriters *writers, WsCliReportFormat format,
              int width)
{
  g_autoptr (GString) out = g_string_new (NULL);

  switch (format)
    {
    case WS_CLI_REPORT_CSV:
      writers->csv (report, out);
      break;
    case WS_CLI_REPORT_JSON:
      writers->json (report, out);
      break;
    case WS_CLI_REPORT_MARKDOWN:
      writers->markdown (report, out);
      break;
    case WS_CLI_REPORT_TABLE:
    default:
      writers->table (report, out, (gsize) width);
      break;
    }
  /* CSV and JSON are data and stay exact (their quoting and escapes hold any character);
   * the table and Markdown are text for people, escaped. */
  if (format == WS_CLI_REPORT_CSV || format == WS_CLI_REPORT_JSON)
    ws_cli_write_data (stdout, out->str);
  else if (format == WS_CLI_REPORT_TABLE)
    ws_cli_write_report (stdout, out->str);
  else
    ws_cli_write (stdout, out->str);
  return fflush (stdout) == 0 ? WS_CLI_EXIT_OK : WS_CLI_EXIT_FAILED;
}

int
ws_cli_report (int argc, char **argv)
{
  g_autofree char *format_name = NULL;
  g_autofree char *severity_name = NULL;
  int width = -1;
  GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
      N_("How to write it: table (the default), csv, json or markdown"), "FORMAT" },
    { "width", 'w', 0, G_OPTION_ARG_INT, &width,
      N_("Fit the table into COLUMNS columns (default: the terminal's width; 0: no limit)"),
      "COLUMNS" },
    { "severity", 's', 0, G_OPTION_ARG_STRING, &severity_name,
      N_("Leave out findings below LEVEL: info (the default: all), low, medium or high"),
      "LEVEL" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (WsSession) session = NULL;
  g_autoptr (WsCliReport) report = NULL;
  g_autoptr (GError) error = NULL;
  WsCliReportFormat format = WS_CLI_REPORT_TABLE;
  WsSeverity min_severity = WS_SEVERITY_INFO;

  context = ws_cli_context_new (
    "report", _("FILE"),
    _("Prints a session's runs: kernel, size, block, kernel and end-to-end time with their "
      "spread (median and min–max), speedups against one CPU thread and all cores, occupancy, "
      "verification; the fastest configuration of each problem size and the ones tied with "
      "it; where each size sweep crosses the CPU; and every finding with its cause and fix."),
    _("CSV and JSON give times in nanoseconds and one row (object) per run; the table and "
      "Markdown are for people.\n\n"
      "Exit status: 0 the report was printed; 1 the file could not be read (missing, empty, "
      "not a session, written by a newer Warpscope); 2 bad arguments."),
    entries);
  if (!ws_cli_parse (context, "report", &argc, &argv))
    return WS_CLI_EXIT_USAGE;
  if (argc < 2)
    return ws_cli_usage_error ("report", _("which session? Give a file the runner or "
                                           "“warpscope-cli run” wrote (.jsonl)."));
  if (argc > 2)
    return ws_cli_usage_error ("report", _("one file at a time; “%s” is one too many."),
                               argv[2]);
  if (format_name != NULL && !ws_cli_report_format_from_string (format_name, &format))
    return ws_cli_usage_error ("report", _("--format “%s” is not a format: use table, csv, "
                                           "json or markdown."),
                               format_name);
  if (severity_name != NULL && !severity_from_string (severity_name, &min_severity))
    return ws_cli_usage_error ("report", _("--severity “%s” is not a level: use info, low, "
                                           "medium or high."),
                               severity_name);
  if (width < -1)
    return ws_cli_usage_error ("report", _("--width must be 0 (no limit) or more."));
  if (width == -1)
    width = ws_cli_terminal_width (stdout);

  session = ws_cli_load_session ("report", argv[1], &error);
  if (session == NULL)
    {
      ws_cli_error ("report", "%s", error->message);
      return WS_CLI_EXIT_FAILED;
    }
  if (ws_session_get_trace (session) != NULL)
    {
      g_autoptr (WsCliTraceReport) trace = ws_cli_trace_report_new (session, argv[1],
                                                                    min_severity);

      return print_report (trace, &trace_writers, format, width);
    }
  report = ws_cli_report_new (session, argv[1], min_severity);
  return print_report (report, &run_writers, format, width);
}

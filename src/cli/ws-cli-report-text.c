/* ws-cli-report-text.c: the report for people: a table that fits the terminal, or Markdown;
 * then the fastest configurations, the crossovers and the findings, run by run.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli-report.h"
#include "ws-counters-text.h"

#include <string.h>

#include "ws-cli-table.h"
#include "ws-memcheck.h"
#include "ws-run-columns.h"

/* Text that is not a table wraps here when the terminal's width is not known. */
#define TEXT_WIDTH 100

enum
{
  COL_RUN,
  COL_KERNEL,
  COL_SIZE,
  COL_BLOCK,
  COL_HOST,
  COL_KERNEL_TIME,
  COL_KERNEL_SPREAD,
  COL_E2E,
  COL_E2E_SPREAD,
  COL_RATE,
  COL_VS_ONE,
  COL_VS_ALL,
  COL_OCCUPANCY,
  COL_VERIFIED,
  N_COLUMNS
};

typedef enum
{
  LAYOUT_SPLIT,   /* median and spread in columns of their own: medians line up */
  LAYOUT_STACKED, /* the spread on a second line under the median: narrower */
  LAYOUT_INLINE,  /* "38.0 µs (37.3–39.2)" in one cell: Markdown */
} Layout;

/* Columns that hold the same value in every row move into a sentence above the table. */
static const guint constant_candidates[] = { COL_KERNEL, COL_SIZE, COL_BLOCK, COL_HOST };

static char *
size_cell (WsRun *run)
{
  g_autofree char *label = ws_run_dup_size_label (run);

  if (g_str_has_prefix (label, "n = "))
    return g_strdup (label + 4);
  return g_steal_pointer (&label);
}

static char *
speedup_cell (WsRun *run, gboolean all_cores, Layout layout)
{
  const WsTiming *t = ws_run_get_timing (run);
  const WsCpuBaseline *b;
  g_autofree char *kernel = NULL;
  g_autofree char *e2e = NULL;

  if (t == NULL)
    return g_strdup ("—");
  b = all_cores ? &t->cpu_all : &t->cpu_one;
  if (!b->present)
    return g_strdup ("—");
  if (b->skipped)
    return g_strdup (_("skipped"));
  kernel = ws_units_ratio (ws_run_get_speedup (run, all_cores, FALSE));
  e2e = ws_units_ratio (ws_run_get_speedup (run, all_cores, TRUE));
  return g_strdup_printf (layout == LAYOUT_STACKED ? "%s\n%s" : "%s / %s", kernel, e2e);
}

static void
set_time (WsCliTable *table, guint column, const WsStats *stats, Layout layout)
{
  g_autofree char *median = ws_cli_format_stats_median (stats);
  g_autofree char *spread = ws_cli_format_stats_spread (stats);

  switch (layout)
    {
    case LAYOUT_SPLIT:
      ws_cli_table_set (table, column, median);
      ws_cli_table_set (table, column + 1, spread);
      break;
    case LAYOUT_STACKED:
      ws_cli_table_take (table, column, *spread ? g_strdup_printf ("%s\n%s", median, spread)
                                                : g_strdup (median));
      break;
    case LAYOUT_INLINE:
    default:
      ws_cli_table_take (table, column, *spread ? g_strdup_printf ("%s %s", median, spread)
                                                : g_strdup (median));
      break;
    }
}

static WsCliTable *
build_table (WsCliReport *report, Layout layout)
{
  WsCliTable *table = ws_cli_table_new ();
  g_autofree char *all_title = NULL;
  const WsStats none = { 0, 0, 0, 0 };

  /* Stacked, the kernel's speedup is on the first line and end to end's on the second. */
  if (report->cpu_threads > 0)
    all_title = g_strdup_printf (layout == LAYOUT_STACKED ? _("vs %d threads\nkernel\ne2e")
                                                          : _("vs %d threads\nkernel / e2e"),
                                 report->cpu_threads);
  else
    all_title = g_strdup (layout == LAYOUT_STACKED ? _("vs all cores\nkernel\ne2e")
                                                   : _("vs all cores\nkernel / e2e"));

  ws_cli_table_add_column (table, _("run"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (table, _("kernel"), WS_CLI_ALIGN_LEFT, -1);
  ws_cli_table_add_column (table, _("size"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (table, _("block"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (table, _("host mem"), WS_CLI_ALIGN_LEFT, -1);
  ws_cli_table_add_column (table, layout == LAYOUT_STACKED ? _("kernel time\n(min–max)")
                                                            : _("kernel time"),
                           WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (table, _("(min–max)"), WS_CLI_ALIGN_LEFT, 1);
  ws_cli_table_add_column (table, layout == LAYOUT_STACKED ? _("end to end\n(min–max)")
                                                            : _("end to end"),
                           WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (table, _("(min–max)"), WS_CLI_ALIGN_LEFT, 1);
  ws_cli_table_add_column (table, _("throughput"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (table, layout == LAYOUT_STACKED ? _("vs 1 thread\nkernel\ne2e")
                                                            : _("vs 1 thread\nkernel / e2e"),
                           WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (table, all_title, WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (table, _("occupancy"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (table, _("verified"), WS_CLI_ALIGN_LEFT, -1);

  for (guint i = 0; i < report->runs->len; i++)
    {
      WsCliReportRun *r = g_ptr_array_index (report->runs, i);
      const WsRunConfig *c = ws_run_get_config (r->run);
      const WsTiming *t = ws_run_get_timing (r->run);
      const WsLaunch *l = ws_run_get_launch (r->run);

      ws_cli_table_add_row (table);
      ws_cli_table_take (table, COL_RUN, g_strdup_printf ("%d", c->id));
      ws_cli_table_take (table, COL_KERNEL, ws_run_dup_kernel_label (r->run));
      ws_cli_table_take (table, COL_SIZE, size_cell (r->run));
      ws_cli_table_take (table, COL_BLOCK, ws_run_dup_block_label (r->run));
      ws_cli_table_set (table, COL_HOST, c->transfer);
      set_time (table, COL_KERNEL_TIME, t != NULL ? &t->kernel : &none, layout);
      set_time (table, COL_E2E, t != NULL ? &t->e2e : &none, layout);
      ws_cli_table_take (table, COL_RATE, ws_cli_report_format_rate (report, r->run));
      ws_cli_table_take (table, COL_VS_ONE, speedup_cell (r->run, FALSE, layout));
      ws_cli_table_take (table, COL_VS_ALL, speedup_cell (r->run, TRUE, layout));
      ws_cli_table_take (table, COL_OCCUPANCY,
                         l != NULL ? ws_units_percent (l->occupancy) : g_strdup ("—"));
      ws_cli_table_take (table, COL_VERIFIED, ws_run_dup_state_text (r->run));
    }
  if (layout != LAYOUT_SPLIT)
    {
      ws_cli_table_set_visible (table, COL_KERNEL_SPREAD, FALSE);
      ws_cli_table_set_visible (table, COL_E2E_SPREAD, FALSE);
    }
  return table;
}

/* Hides the columns every run shares and says once what they hold: "vector_add, block 256". */
static char *
hide_constant_columns (WsCliTable *table, WsCliReport *report)
{
  g_autoptr (GString) shared = g_string_new (NULL);

  if (ws_cli_table_get_n_rows (table) < 2)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (constant_candidates); i++)
    {
      guint column = constant_candidates[i];
      const char *value = ws_cli_table_get (table, 0, column);
      WsRun *first = ((WsCliReportRun *) g_ptr_array_index (report->runs, 0))->run;

      if (!ws_cli_table_is_constant (table, column))
        continue;
      ws_cli_table_set_visible (table, column, FALSE);
      if (shared->len > 0)
        g_string_append (shared, ", ");
      if (column == COL_BLOCK)
        g_string_append_printf (shared, _("block %s"), value);
      else if (column == COL_HOST)
        g_string_append_printf (shared, _("%s host memory"), value);
      else if (column == COL_SIZE)
        {
          g_autofree char *size = ws_run_dup_size_label (first);

          g_string_append (shared, size);
        }
      else
        g_string_append (shared, value);
    }
  if (shared->len == 0)
    return NULL;
  return g_strdup_printf (_("All runs: %s."), shared->str);
}

/* ---- the heading ------------------------------------------------------------------------- */

static void
append_paragraph (GString *out, const char *prefix, const char *text, gsize width)
{
  g_string_append (out, prefix);
  ws_cli_append_wrapped (out, text, ws_cli_text_width (prefix), ws_cli_text_width (prefix),
                         width);
  g_string_append_c (out, '\n');
}

/* Markdown joins consecutive lines into one paragraph: a blank line keeps them apart. */
static void
append_heading_line (GString *out, gboolean markdown, const char *text, gsize width)
{
  append_paragraph (out, markdown ? "" : "  ", text, markdown ? 0 : width);
  if (markdown)
    g_string_append_c (out, '\n');
}

/* The tool of a memory check (the runner's --memcheck TOOL), or NULL for a session of runs. */
static const char *
memcheck_tool (WsCliReport *report)
{
  const WsHello *hello = ws_session_get_hello (report->session);

  for (guint i = 0; hello != NULL && hello->argv[i] != NULL; i++)
    if (g_str_equal (hello->argv[i], "--memcheck"))
      return hello->argv[i + 1] != NULL ? hello->argv[i + 1] : "memcheck";
  return NULL;
}

static char *
describe_session (WsCliReport *report)
{
  WsSession *session = report->session;
  WsDevice *device = ws_session_get_device (session);
  const WsHello *hello = ws_session_get_hello (session);
  g_autofree char *date = ws_session_dup_date (session);
  const char *host = hello != NULL ? hello->host : NULL;
  guint n = report->runs->len;
  GString *s = g_string_new (NULL);

  if (n == 0 && memcheck_tool (report) != NULL)
    /* Translators: %s is compute-sanitizer's tool: memcheck, racecheck or initcheck. */
    g_string_append_printf (s, _("A memory check (compute-sanitizer %s)"),
                            memcheck_tool (report));
  else
    g_string_append_printf (s, g_dngettext (NULL, "%u run", "%u runs", n), n);
  if (device != NULL)
    g_string_append_printf (s, _(" on %s"), ws_device_get_name (device));
  if (date != NULL)
    g_string_append_printf (s, _(", recorded %s"), date);
  if (host != NULL)
    g_string_append_printf (s, _(" on host %s"), host);
  g_string_append_c (s, '.');
  return g_string_free (s, FALSE);
}

static char *
describe_device (WsDevice *device)
{
  const WsDeviceInfo *d = ws_device_get_info (device);
  g_autofree char *memory = ws_units_bytes ((double) d->memory_bytes);
  g_autofree char *measured = ws_units_gbs (d->bandwidth_measured_gbs);
  g_autofree char *theoretical = ws_units_gbs (d->bandwidth_theoretical_gbs);
  g_autofree char *peak = ws_units_gflops (d->fp32_peak_gflops);
  g_autofree char *h2d_pinned = ws_units_gbs (d->h2d_pinned_gbs);
  g_autofree char *d2h_pinned = ws_units_gbs (d->d2h_pinned_gbs);
  g_autofree char *h2d_pageable = ws_units_gbs (d->h2d_pageable_gbs);
  g_autofree char *d2h_pageable = ws_units_gbs (d->d2h_pageable_gbs);

  return g_strdup_printf (_("%s, %d SMs, %s of memory; memory bandwidth %s measured (%s "
                            "theoretical); FP32 peak %s. Host copies: pinned %s in, %s out; "
                            "pageable %s in, %s out."),
                          d->sm != NULL ? d->sm : "?", d->sm_count, memory, measured,
                          theoretical, peak, h2d_pinned, d2h_pinned, h2d_pageable,
                          d2h_pageable);
}

/* Which CPU baseline each family's speedups are against, and what ran beside it. */
static char *
describe_baselines (WsCliReport *report)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GString) items = g_string_new (NULL);

  for (guint i = 0; i < report->runs->len; i++)
    {
      WsRun *run = ((WsCliReportRun *) g_ptr_array_index (report->runs, i))->run;
      const char *family = ws_run_get_config (run)->family;
      const WsTiming *t = ws_run_get_timing (run);
      g_autofree char *one = NULL, *all = NULL;

      if (t == NULL || (!t->cpu_one.present && !t->cpu_all.present)
          || g_hash_table_contains (seen, family))
        continue;
      g_hash_table_add (seen, (gpointer) family);
      one = ws_run_dup_baseline_label (run, FALSE);
      all = ws_run_dup_baseline_label (run, TRUE);
      if (items->len > 0)
        g_string_append (items, "; ");
      if (one != NULL && all != NULL)
        /* Translators: a kernel family, then its two CPU baselines. */
        g_string_append_printf (items, _("%s: %s and %s"), family, one, all);
      else
        g_string_append_printf (items, _("%s: %s"), family, one != NULL ? one : all);
      for (int a = 0; a < 2; a++)
        {
          const WsCpuBaseline *other = a ? &t->cpu_all_other : &t->cpu_one_other;
          g_autofree char *label = NULL, *time = NULL;

          if (!other->present || other->skipped || other->stats.n == 0)
            continue;
          label = ws_cpu_baseline_dup_label (other);
          time = ws_cli_format_stats_median (&other->stats);
          /* Translators: the slower CPU implementation, timed beside the baseline. */
          g_string_append_printf (items, _(" (beside it, %s took %s)"), label, time);
        }
    }
  if (items->len == 0)
    return NULL;
  return g_strdup_printf (_("Speedups are against these CPU baselines: %s."), items->str);
}

/* Which runs' kernel times start from a cold L2. */
static char *
describe_cache (WsCliReport *report)
{
  g_autoptr (GString) cold = g_string_new (NULL);
  guint n_cold = 0;

  for (guint i = 0; i < report->runs->len; i++)
    {
      const WsRunConfig *c = ws_run_get_config (
        ((WsCliReportRun *) g_ptr_array_index (report->runs, i))->run);

      if (g_strcmp0 (c->cache, "cold") != 0)
        continue;
      g_string_append_printf (cold, "%s%d", n_cold++ > 0 ? ", " : "", c->id);
    }
  if (n_cold == 0)
    return NULL;
  if (n_cold == report->runs->len)
    return g_strdup (_("Kernel times were measured with a cold L2: the cache was flushed before "
                       "every timed launch (--cache cold)."));
  return g_strdup_printf (_("Kernel times of runs %s were measured with a cold L2 (--cache cold); "
                            "the others with what the previous launch left in L2."),
                          cold->str);
}

static void
append_heading (WsCliReport *report, GString *out, gsize width, gboolean markdown)
{
  WsDevice *device = ws_session_get_device (report->session);
  const WsHello *hello = ws_session_get_hello (report->session);
  GPtrArray *errors = ws_session_get_errors (report->session);
  g_autofree char *summary = describe_session (report);
  gint64 dropped = 0;

  if (markdown)
    {
      g_string_append_printf (out, "# %s %s\n\n", _("Warpscope report:"), report->name);
      append_heading_line (out, TRUE, summary, 0);
    }
  else
    {
      g_autofree char *prefix = g_strdup_printf ("%s: ", report->name);

      append_paragraph (out, prefix, summary, width);
    }
  if (device != NULL)
    {
      g_autofree char *text = describe_device (device);

      append_heading_line (out, markdown, text, width);
    }
  if (hello != NULL && g_strcmp0 (hello->build, "debug") == 0)
    append_heading_line (out, markdown,
                         _("Warning: a debug build of the runner recorded this: its kernels "
                           "were compiled with -G, so their times mean nothing."),
                         width);
  if (ws_session_is_done (report->session, NULL, &dropped) && dropped > 0)
    {
      g_autofree char *count = ws_units_grouped ((guint64) dropped);
      g_autofree char *text = g_strdup_printf (_("CUPTI dropped %s activity records: timelines "
                                                 "may miss spans."),
                                               count);

      append_heading_line (out, markdown, text, width);
    }
  if (report->runs->len > 0)
    append_heading_line (out, markdown,
                         _("Times are medians over the repetitions with their (min–max); "
                           "speedups are the GPU's kernel time / end-to-end time against the "
                           "CPU baseline."),
                         width);
  else if (memcheck_tool (report) != NULL)
    append_heading_line (out, markdown,
                         _("A memory check: the kernel ran once under compute-sanitizer, which "
                           "times nothing; what it found is under Findings."),
                         width);
  {
    g_autofree char *baselines = describe_baselines (report);
    g_autofree char *cache = describe_cache (report);

    if (baselines != NULL)
      append_heading_line (out, markdown, baselines, width);
    if (cache != NULL)
      append_heading_line (out, markdown, cache, width);
  }
  /* The runner's session-level errors are findings of the session: they are listed there. */
  if (errors->len > 0)
    {
      g_autofree char *text = g_strdup_printf (g_dngettext (NULL,
                                                            "The runner reported %u error about "
                                                            "the whole session: see Findings.",
                                                            "The runner reported %u errors about "
                                                            "the whole session: see Findings.",
                                                            errors->len),
                                               errors->len);

      append_heading_line (out, markdown, text, width);
    }
}

/* ---- sections below the table ------------------------------------------------------------ */

static void
append_list (GString *out, const char *title, GPtrArray *items, gboolean markdown, gsize width)
{
  if (items->len == 0)
    return;
  g_string_append_printf (out, markdown ? "\n## %s\n\n" : "\n%s\n", title);
  for (guint i = 0; i < items->len; i++)
    append_paragraph (out, markdown ? "- " : "  ", g_ptr_array_index (items, i),
                      markdown ? 0 : width);
}

void
ws_cli_report_append_finding (GString *out, const WsFinding *f, gboolean markdown, gsize width)
{
  const char *severity = ws_severity_to_label (f->severity);
  /* The CLI's words: the flags to give. */
  const char *fix = ws_finding_get_fix (f, WS_AUDIENCE_CLI);

  if (markdown)
    {
      g_string_append_printf (out, "- **%s** — %s", severity, f->title);
      if (f->numbers != NULL && *f->numbers != '\0')
        g_string_append_printf (out, "  \n  %s", f->numbers);
      if (f->cause != NULL && *f->cause != '\0')
        g_string_append_printf (out, "  \n  *%s* %s", _("Cause:"), f->cause);
      if (fix != NULL && *fix != '\0')
        g_string_append_printf (out, "  \n  *%s* %s", _("Fix:"), fix);
      g_string_append_c (out, '\n');
      return;
    }
  {
    /* Padded to 10 columns as a terminal shows them (a CJK character takes two). */
    gsize used = 2 + ws_cli_text_width (severity);
    g_autofree char *fill = g_strnfill (used < 10 ? 10 - used : 1, ' ');
    g_autofree char *prefix = g_strconcat ("  ", severity, fill, NULL);
    gsize indent = ws_cli_text_width (prefix);

    append_paragraph (out, prefix, f->title, width);
    if (f->numbers != NULL && *f->numbers != '\0')
      {
        g_autofree char *pad = g_strnfill (indent, ' ');

        append_paragraph (out, pad, f->numbers, width);
      }
    if (f->cause != NULL && *f->cause != '\0')
      {
        g_autofree char *text = g_strdup_printf ("%s %s", _("Cause:"), f->cause);
        g_autofree char *pad = g_strnfill (indent, ' ');

        append_paragraph (out, pad, text, width);
      }
    if (fix != NULL && *fix != '\0')
      {
        g_autofree char *text = g_strdup_printf ("%s %s", _("Fix:"), fix);
        g_autofree char *pad = g_strnfill (indent, ' ');

        append_paragraph (out, pad, text, width);
      }
  }
}

/* What compute-sanitizer found (run --memcheck), each at its line, as the app lists it. */
static gboolean
append_memcheck (WsCliReport *report, GString *out, gboolean markdown, gsize width)
{
  GPtrArray *found = ws_session_get_memcheck_findings (report->session);

  if (found->len == 0)
    return FALSE;
  g_string_append_printf (out, markdown ? "\n### %s\n\n" : "%s\n", _("The memory check"));
  for (guint i = 0; i < found->len; i++)
    {
      const WsMemcheckFinding *m = g_ptr_array_index (found, i);
      WsMemcheckText text;
      WsFinding f = { .severity = WS_SEVERITY_HIGH, .cause = m->detail };

      ws_memcheck_text_init (&text, m);
      f.title = text.title;
      f.numbers = text.numbers;
      f.fix = (char *) text.fix;
      ws_cli_report_append_finding (out, &f, markdown, width);
      ws_memcheck_text_clear (&text);
    }
  return TRUE;
}

static void
append_sections (WsCliReport *report, GString *out, gboolean markdown, gsize width)
{
  g_autoptr (GPtrArray) fastest = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) crossovers = g_ptr_array_new_with_free_func (g_free);
  gboolean any = FALSE;

  for (guint i = 0; i < report->fastest->len; i++)
    g_ptr_array_add (fastest,
                     ws_cli_report_describe_fastest (g_ptr_array_index (report->fastest, i)));
  for (guint i = 0; i < report->crossovers->len; i++)
    g_ptr_array_add (crossovers,
                     ws_cli_report_describe_crossover (g_ptr_array_index (report->crossovers, i)));
  append_list (out, _("Fastest configurations"), fastest, markdown, width);
  append_list (out, _("Where the GPU overtakes the CPU (crossover sizes)"), crossovers, markdown,
               width);
  {
    g_autoptr (GPtrArray) measured = g_ptr_array_new_with_free_func (g_free);

    for (guint i = 0; i < report->runs->len; i++)
      {
        WsRun *run = ((WsCliReportRun *) g_ptr_array_index (report->runs, i))->run;
        g_autofree char *text = ws_run_dup_measured_text (run);
        g_autofree char *name = text ? ws_cli_report_describe_run (run) : NULL;

        if (text != NULL)
          g_ptr_array_add (measured, g_strdup_printf ("%s: %s", name, text));
      }
    append_list (out, _("Measured on the GPU (its counters, beside the theory)"), measured,
                 markdown, width);
  }

  g_string_append_printf (out, markdown ? "\n## %s\n" : "\n%s\n", _("Findings"));
  any = append_memcheck (report, out, markdown, width);
  for (guint i = 0; i < report->runs->len; i++)
    {
      WsCliReportRun *r = g_ptr_array_index (report->runs, i);
      g_autofree char *name = NULL;

      if (r->findings->len == 0)
        continue;
      any = TRUE;
      name = ws_cli_report_describe_run (r->run);
      g_string_append_printf (out, markdown ? "\n### %s\n\n" : "%s\n", name);
      for (guint j = 0; j < r->findings->len; j++)
        ws_cli_report_append_finding (out, g_ptr_array_index (r->findings, j), markdown, width);
    }
  if (report->series_findings->len > 0)
    {
      any = TRUE;
      g_string_append_printf (out, markdown ? "\n### %s\n\n" : "%s\n", _("The session and its series"));
      for (guint j = 0; j < report->series_findings->len; j++)
        ws_cli_report_append_finding (out, g_ptr_array_index (report->series_findings, j),
                                      markdown, width);
    }
  if (!any)
    g_string_append_printf (out, markdown ? "\n%s\n" : "  %s\n", _("No findings."));
  if (report->n_hidden > 0)
    {
      g_autofree char *text
        = g_strdup_printf (g_dngettext (NULL,
                                        "%u finding below the chosen severity was left out.",
                                        "%u findings below the chosen severity were left out.",
                                        report->n_hidden),
                           report->n_hidden);

      g_string_append_printf (out, markdown ? "\n%s\n" : "  %s\n", text);
    }
}

/* ---- runs as cards, when no table fits --------------------------------------------------- */

static void
append_cards (WsCliReport *report, GString *out, gsize width)
{
  for (guint i = 0; i < report->runs->len; i++)
    {
      WsCliReportRun *r = g_ptr_array_index (report->runs, i);
      const WsTiming *t = ws_run_get_timing (r->run);
      const WsLaunch *l = ws_run_get_launch (r->run);
      const WsStats none = { 0, 0, 0, 0 };
      g_autofree char *name = ws_cli_report_describe_run (r->run);
      g_autofree char *kernel = ws_cli_format_stats (t != NULL ? &t->kernel : &none);
      g_autofree char *e2e = ws_cli_format_stats (t != NULL ? &t->e2e : &none);
      g_autofree char *rate = ws_cli_report_format_rate (report, r->run);
      g_autofree char *one = speedup_cell (r->run, FALSE, LAYOUT_INLINE);
      g_autofree char *all = speedup_cell (r->run, TRUE, LAYOUT_INLINE);
      g_autofree char *occupancy = l != NULL ? ws_units_percent (l->occupancy)
                                             : g_strdup ("—");
      g_autofree char *state = ws_run_dup_state_text (r->run);
      g_autofree char *text = NULL;

      g_autofree char *all_cores = report->cpu_threads > 0
                                     ? g_strdup_printf (_("vs %d threads"), report->cpu_threads)
                                     : g_strdup (_("vs all cores"));

      text = g_strdup_printf (_("kernel %s; end to end %s; %s; vs 1 thread %s, %s %s (kernel / "
                                "e2e); occupancy %s; %s"),
                              kernel, e2e, rate, one, all_cores, all, occupancy, state);
      g_string_append_printf (out, "%s\n", name);
      append_paragraph (out, "  ", text, width);
    }
}

/* ---- the writers ------------------------------------------------------------------------- */

void
ws_cli_report_write_table (WsCliReport *report, GString *out, gsize width)
{
  /* Narrower and narrower until the table fits: the spreads and the end-to-end speedups on a
   * second line, single spaces between columns, then without the throughput; past that, one
   * card per run. */
  static const struct
  {
    Layout layout;
    gsize gap;
    gboolean rate;
  } attempts[] = {
    { LAYOUT_SPLIT, 2, TRUE },
    { LAYOUT_STACKED, 2, TRUE },
    { LAYOUT_STACKED, 1, TRUE },
    { LAYOUT_STACKED, 2, FALSE },
    { LAYOUT_STACKED, 1, FALSE },
  };
  gsize text_width = width > 0 ? width : TEXT_WIDTH;
  g_autoptr (WsCliTable) table = NULL;
  g_autofree char *shared = NULL;
  gboolean fits = FALSE;
  guint i;

  append_heading (report, out, text_width, FALSE);
  if (report->runs->len == 0)
    {
      if (memcheck_tool (report) == NULL)
        g_string_append_printf (out, "\n  %s\n", _("No runs."));
      append_sections (report, out, FALSE, text_width);
      return;
    }

  for (i = 0; i < G_N_ELEMENTS (attempts); i++)
    {
      if (i == 0 || attempts[i].layout != attempts[i - 1].layout)
        {
          g_clear_pointer (&table, ws_cli_table_free);
          g_clear_pointer (&shared, g_free);
          table = build_table (report, attempts[i].layout);
          shared = hide_constant_columns (table, report);
        }
      ws_cli_table_set_visible (table, COL_RATE, attempts[i].rate);
      if (width == 0 || ws_cli_table_get_width (table, attempts[i].gap, 0) <= width)
        {
          fits = TRUE;
          break;
        }
    }

  if (shared != NULL)
    append_paragraph (out, "  ", shared, text_width);
  g_string_append_c (out, '\n');
  if (fits)
    {
      ws_cli_table_append_text (table, out, attempts[i].gap, 0);
      if (!attempts[i].rate)
        append_paragraph (out, "",
                          _("(The throughput column was left out to fit the terminal: "
                            "--width 0 shows it.)"),
                          text_width);
    }
  else
    append_cards (report, out, text_width);
  append_sections (report, out, FALSE, text_width);
}

void
ws_cli_report_write_markdown (WsCliReport *report, GString *out)
{
  g_autoptr (WsCliTable) table = build_table (report, LAYOUT_INLINE);
  g_autofree char *shared = hide_constant_columns (table, report);

  append_heading (report, out, 0, TRUE);
  if (shared != NULL)
    g_string_append_printf (out, "%s\n", shared);
  g_string_append_c (out, '\n');
  if (report->runs->len > 0)
    ws_cli_table_append_markdown (table, out);
  else if (memcheck_tool (report) == NULL)
    g_string_append_printf (out, "%s\n", _("No runs."));
  append_sections (report, out, TRUE, 0);
}

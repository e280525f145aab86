/* ws-cli-trace-report.c: a traced program's report for people: how each program run ended,
 * its kernel table (as `nsys stats` groups kernels, with occupancy and its limiter), its copy
 * table, a sweep's kernels over its parameter values, and the findings; as text that fits
 * the terminal, or as Markdown.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli-trace.h"

#include <string.h>

#include "ws-cli-table.h"
#include "ws-session-analysis.h"

#define TEXT_WIDTH 100

/* ---- the report --------------------------------------------------------------------------- */

WsCliTraceReport *
ws_cli_trace_report_new (WsSession *session, const char *path, WsSeverity min_severity)
{
  WsCliTraceReport *r = g_new0 (WsCliTraceReport, 1);

  r->session = g_object_ref (session);
  r->trace = ws_session_get_trace (session);
  r->path = g_strdup (path);
  r->name = path != NULL ? g_path_get_basename (path) : NULL;
  ws_session_analysis_ensure (ws_session_get_analysis (session));
  r->findings = ws_session_analysis_dup_trace_findings (ws_session_get_analysis (session));
  r->shown = g_ptr_array_new ();
  r->min_severity = min_severity;
  for (guint i = 0; i < r->findings->len; i++)
    {
      WsFinding *f = g_ptr_array_index (r->findings, i);

      if (f->severity >= min_severity)
        g_ptr_array_add (r->shown, f);
      else
        r->n_hidden++;
    }
  return r;
}

void
ws_cli_trace_report_free (WsCliTraceReport *r)
{
  if (r == NULL)
    return;
  g_ptr_array_unref (r->shown);
  g_ptr_array_unref (r->findings);
  g_object_unref (r->session);
  g_free (r->path);
  g_free (r->name);
  g_free (r);
}

/* ---- words -------------------------------------------------------------------------------- */

/* The model's words (ws-trace-command.h), which the app shares; durations as the CLI writes
 * them. */
char *
ws_cli_trace_describe_params (const WsTraceProgram *p)
{
  return ws_trace_describe_params (p);
}

char *
ws_cli_trace_describe_command (WsTrace *trace, const WsTraceProgram *p)
{
  return ws_trace_describe_command (trace, p);
}

char *
ws_cli_trace_describe_ending (WsTrace *trace, const WsTraceProgram *p)
{
  return ws_trace_describe_ending (trace, p, ws_units_duration);
}

char *
ws_cli_trace_format_dims (const guint32 d[3])
{
  return ws_trace_format_dims (d);
}

char *
ws_cli_trace_describe_copy (const WsTraceCopy *c)
{
  return ws_trace_describe_copy (c);
}

/* ---- tables ------------------------------------------------------------------------------- */

/* Bytes moved in the units of rates (10³, as GB/s are). */
static char *
copy_bytes (guint64 bytes)
{
  return ws_units_bytes ((double) bytes);
}

static char *
shared_cell (const WsTraceKernel *k)
{
  guint bytes = k->static_smem + k->dynamic_smem;

  return bytes == 0 ? g_strdup ("0") : ws_units_bytes_binary (bytes);
}

enum
{
  K_RUN,
  K_KERNEL,
  K_GRID,
  K_BLOCK,
  K_REGISTERS,
  K_SHARED,
  K_COUNT,
  K_TOTAL,
  K_MEDIAN,
  K_MIN,
  K_MAX,
  K_SHARE,
  K_OCCUPANCY,
  K_N
};

static char *
occupancy_cell (const WsTraceKernel *k)
{
  g_autofree char *pct = NULL;

  if (!k->has_occupancy)
    return g_strdup ("—");
  pct = ws_units_percent (k->occupancy.occupancy);
  if (k->occupancy.occupancy >= 1)
    return g_steal_pointer (&pct);
  /* Translators: an occupancy ("12.5%") and what limits it ("registers"). */
  return g_strdup_printf (_("%s, %s"), pct, ws_limiter_name (k->occupancy.limiter));
}

/* The name, cut to `max` characters (0: whole). */
static char *
name_cell (const char *name, guint max)
{
  if (max == 0 || (guint) g_utf8_strlen (name, -1) <= max)
    return g_strdup (name);
  {
    g_autofree char *head = g_utf8_substring (name, 0, max - 1);

    return g_strconcat (head, "…", NULL);
  }
}

static WsCliTable *
kernel_table (WsCliTraceReport *r, GPtrArray *kernels, gboolean with_run, guint max_name)
{
  WsCliTable *t = ws_cli_table_new ();

  ws_cli_table_add_column (t, _("run"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (t, _("kernel"), WS_CLI_ALIGN_LEFT, -1);
  ws_cli_table_add_column (t, _("grid"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (t, _("block"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (t, _("regs"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (t, _("shared"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (t, _("launches"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (t, _("total"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (t, _("median"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (t, _("min"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (t, _("max"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (t, _("GPU time"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (t, _("occupancy"), WS_CLI_ALIGN_LEFT, -1);
  for (guint i = 0; i < kernels->len; i++)
    {
      const WsTraceKernel *k = g_ptr_array_index (kernels, i);

      ws_cli_table_add_row (t);
      ws_cli_table_take (t, K_RUN, g_strdup_printf ("%u", k->program));
      ws_cli_table_take (t, K_KERNEL, name_cell (k->short_name, max_name));
      ws_cli_table_take (t, K_GRID, ws_cli_trace_format_dims (k->grid));
      ws_cli_table_take (t, K_BLOCK, ws_cli_trace_format_dims (k->block));
      ws_cli_table_take (t, K_REGISTERS, g_strdup_printf ("%u", k->registers));
      ws_cli_table_take (t, K_SHARED, shared_cell (k));
      ws_cli_table_take (t, K_COUNT, ws_units_grouped (k->count));
      ws_cli_table_take (t, K_TOTAL, ws_units_duration (k->total_ns));
      ws_cli_table_take (t, K_MEDIAN, ws_units_duration (k->median_ns));
      ws_cli_table_take (t, K_MIN, ws_units_duration (k->min_ns));
      ws_cli_table_take (t, K_MAX, ws_units_duration (k->max_ns));
      ws_cli_table_take (t, K_SHARE, ws_units_percent (k->share));
      ws_cli_table_take (t, K_OCCUPANCY, occupancy_cell (k));
    }
  ws_cli_table_set_visible (t, K_RUN, with_run);
  return t;
}

enum
{
  C_RUN,
  C_COPY,
  C_COUNT,
  C_BYTES,
  C_TOTAL,
  C_MEDIAN,
  C_RATE,
  C_N
};

static WsCliTable *
copy_table (GPtrArray *copies, gboolean with_run)
{
  WsCliTable *t = ws_cli_table_new ();

  ws_cli_table_add_column (t, _("run"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (t, _("copy"), WS_CLI_ALIGN_LEFT, -1);
  ws_cli_table_add_column (t, _("count"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (t, _("bytes"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (t, _("total"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (t, _("median"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (t, _("rate"), WS_CLI_ALIGN_RIGHT, -1);
  for (guint i = 0; i < copies->len; i++)
    {
      const WsTraceCopy *c = g_ptr_array_index (copies, i);

      ws_cli_table_add_row (t);
      ws_cli_table_take (t, C_RUN, g_strdup_printf ("%u", c->program));
      ws_cli_table_take (t, C_COPY, ws_cli_trace_describe_copy (c));
      ws_cli_table_take (t, C_COUNT, ws_units_grouped (c->count));
      ws_cli_table_take (t, C_BYTES, copy_bytes (c->bytes));
      ws_cli_table_take (t, C_TOTAL, ws_units_duration (c->total_ns));
      ws_cli_table_take (t, C_MEDIAN, ws_units_duration (c->median_ns));
      ws_cli_table_take (t, C_RATE, c->kind == WS_ACTIVITY_MEMCPY ? ws_units_gbs (c->gbs)
                                                                     : g_strdup ("—"));
    }
  ws_cli_table_set_visible (t, C_RUN, with_run);
  return t;
}

/* Narrower until it fits: long names cut short, then the spread's columns, the grid, the
 * resources. */
static void
append_kernel_table (WsCliTraceReport *r, GString *out, GPtrArray *kernels, gboolean with_run,
                     gsize width, gboolean markdown)
{
  static const guint names[] = { 0, 48, 32, 24 };
  static const guint drop[] = { K_MIN, K_MAX, K_GRID, K_REGISTERS, K_SHARED };
  g_autoptr (WsCliTable) t = NULL;

  if (markdown)
    {
      t = kernel_table (r, kernels, with_run, 0);
      ws_cli_table_append_markdown (t, out);
      return;
    }
  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    {
      g_clear_pointer (&t, ws_cli_table_free);
      t = kernel_table (r, kernels, with_run, names[n]);
      if (width == 0 || ws_cli_table_get_width (t, 2, 2) <= width)
        break;
    }
  for (guint i = 0; width > 0 && i < G_N_ELEMENTS (drop)
                    && ws_cli_table_get_width (t, 2, 2) > width;
       i++)
    ws_cli_table_set_visible (t, drop[i], FALSE);
  ws_cli_table_append_text (t, out, 2, 2);
}

/* ---- the parts ---------------------------------------------------------------------------- */

static void
append_line (GString *out, const char *text, gsize width)
{
  ws_cli_append_wrapped (out, text, 0, 2, width);
  g_string_append_c (out, '\n');
}

static void
append_title (GString *out, gboolean markdown, const char *title)
{
  g_string_append_printf (out, markdown ? "\n## %s\n\n" : "\n%s\n", title);
}

static char *
describe_trace (WsCliTraceReport *r)
{
  GPtrArray *programs = ws_trace_get_programs (r->trace);
  const WsTraceProgram *first = programs->len > 0 ? g_ptr_array_index (programs, 0) : NULL;
  WsDevice *device = ws_session_get_device (r->session);
  const WsHello *hello = ws_session_get_hello (r->session);
  g_autofree char *date = ws_session_dup_date (r->session);
  g_autofree char *command = first ? ws_cli_trace_describe_command (r->trace, first) : NULL;
  const char *host = hello ? hello->host : NULL;
  GString *s = g_string_new (NULL);

  if (programs->len > 1)
    g_string_append_printf (s, g_dngettext (NULL, "Sweep of %u program run",
                                            "Sweep of %u program runs", programs->len),
                            programs->len);
  else
    /* Translators: the command line that was traced. */
    g_string_append_printf (s, _("Trace of %s"), command ? command : "?");
  if (device != NULL)
    {
      const WsDeviceInfo *d = ws_device_get_info (device);

      /* Translators: the GPU's name, its architecture (sm_90) and its SMs. */
      g_string_append_printf (s, _(" on %s (%s, %d SMs)"), d->name, d->sm ? d->sm : "?",
                              d->sm_count);
    }
  if (date != NULL)
    g_string_append_printf (s, _(", recorded %s"), date);
  if (host != NULL)
    g_string_append_printf (s, _(" on host %s"), host);
  g_string_append_c (s, '.');
  return g_string_free (s, FALSE);
}

static char *
describe_run (WsCliTraceReport *r, const WsTraceProgram *p)
{
  g_autofree char *ending = ws_cli_trace_describe_ending (r->trace, p);
  g_autofree char *params = ws_cli_trace_describe_params (p);
  guint kernels = 0, copies = 0, n;
  const WsSpan *spans = ws_trace_get_spans (r->trace, &n);
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    if (spans[i].run == p->id)
      {
        kernels += spans[i].kind == WS_ACTIVITY_KERNEL;
        copies += spans[i].kind == WS_ACTIVITY_MEMCPY;
      }
  if (*params != '\0')
    /* Translators: a program run's number and its parameter values ("TPB=32"). */
    g_string_append_printf (s, _("Run %u (%s) "), p->id, params);
  else if (ws_trace_get_programs (r->trace)->len > 1)
    g_string_append_printf (s, _("Run %u "), p->id);
  else
    g_string_append (s, _("The program "));
  g_string_append (s, ending != NULL ? ending : _("had not ended when the trace did"));
  g_string_append (s, ": ");
  g_string_append_printf (s, g_dngettext (NULL, "%u process", "%u processes", p->n_processes),
                          p->n_processes);
  g_string_append (s, ", ");
  g_string_append_printf (s, g_dngettext (NULL, "%u kernel launch", "%u kernel launches",
                                          kernels),
                          kernels);
  g_string_append (s, ", ");
  g_string_append_printf (s, g_dngettext (NULL, "%u copy", "%u copies", copies), copies);
  g_string_append_c (s, '.');
  return g_string_free (s, FALSE);
}

static void
append_runs (WsCliTraceReport *r, GString *out, gboolean markdown, gsize width)
{
  GPtrArray *programs = ws_trace_get_programs (r->trace);

  for (guint i = 0; i < programs->len; i++)
    {
      g_autofree char *line = describe_run (r, g_ptr_array_index (programs, i));

      if (markdown)
        g_string_append_printf (out, "- %s\n", line);
      else
        append_line (out, line, width);
    }
}

/* A sweep: each kernel's median, block and occupancy over the runs' parameter values, as the
 * Block Size chart plots them. */
static void
append_series (WsCliTraceReport *r, GString *out, gboolean markdown, gsize width)
{
  g_autoptr (GPtrArray) series = ws_trace_collect_series (r->trace);

  for (guint s = 0; s < series->len; s++)
    {
      WsTraceSeries *one = g_ptr_array_index (series, s);
      g_autoptr (WsCliTable) t = ws_cli_table_new ();
      g_autofree char *title = g_strdup_printf (_("%s over the sweep"), one->short_name);

      ws_cli_table_add_column (t, _("run"), WS_CLI_ALIGN_RIGHT, -1);
      ws_cli_table_add_column (t, _("parameters"), WS_CLI_ALIGN_LEFT, -1);
      ws_cli_table_add_column (t, _("block"), WS_CLI_ALIGN_RIGHT, -1);
      ws_cli_table_add_column (t, _("median"), WS_CLI_ALIGN_RIGHT, -1);
      ws_cli_table_add_column (t, _("occupancy"), WS_CLI_ALIGN_LEFT, -1);
      for (guint i = 0; i < one->points->len; i++)
        {
          const WsTraceKernel *k = g_ptr_array_index (one->points, i);
          const WsTraceProgram *p = ws_trace_get_program (r->trace, k->program);

          ws_cli_table_add_row (t);
          ws_cli_table_take (t, 0, g_strdup_printf ("%u", k->program));
          ws_cli_table_take (t, 1, p ? ws_cli_trace_describe_params (p) : g_strdup (""));
          ws_cli_table_take (t, 2, ws_cli_trace_format_dims (k->block));
          ws_cli_table_take (t, 3, ws_units_duration (k->median_ns));
          ws_cli_table_take (t, 4, occupancy_cell (k));
        }
      append_title (out, markdown, title);
      if (markdown)
        ws_cli_table_append_markdown (t, out);
      else
        ws_cli_table_append_text (t, out, 2, 2);
    }
  (void) width;
}

/* Markdown folds a library's kernels' findings as the app's panel does; the text puts them
 * under the same heading. */
static void
open_library_fold (WsCliTraceReport *r, GString *out, gboolean markdown, gsize width, guint i,
                   guint *fold_end)
{
  guint n;
  g_autofree char *heading = ws_findings_library_group (r->shown, i, &n);

  if (heading == NULL)
    return;
  *fold_end = i + n;
  if (markdown)
    g_string_append_printf (out, "\n<details><summary>%s</summary>\n\n", heading);
  else
    append_line (out, heading, width);
}

/* Each program run's findings, most severe first; a library's kernels' findings last, under
 * its name (ws_analyze_trace sorts them so). */
static void
append_findings (WsCliTraceReport *r, GString *out, gboolean markdown, gsize width)
{
  gboolean sweep = ws_trace_get_programs (r->trace)->len > 1;
  guint program = G_MAXUINT, fold_end = 0;

  append_title (out, markdown, _("Findings"));
  if (r->shown->len == 0)
    g_string_append_printf (out, markdown ? "%s\n" : "  %s\n", _("No findings."));
  for (guint i = 0; i < r->shown->len; i++)
    {
      WsFinding *f = g_ptr_array_index (r->shown, i);

      if (markdown && fold_end > 0 && i == fold_end)
        g_string_append (out, "\n</details>\n");
      if (sweep && f->program != program)
        {
          const WsTraceProgram *p = ws_trace_get_program (r->trace, f->program);
          g_autofree char *params = p ? ws_cli_trace_describe_params (p) : g_strdup ("");
          g_autofree char *name = NULL;

          program = f->program;
          /* Translators: a program run of a sweep and its parameter values ("TPB=32"). */
          name = *params != '\0' ? g_strdup_printf (_("Run %u (%s)"), program, params)
                                 : g_strdup_printf (_("Run %u"), program);
          g_string_append_printf (out, markdown ? "\n### %s\n\n" : "%s\n", name);
        }
      open_library_fold (r, out, markdown, width, i, &fold_end);
      ws_cli_report_append_finding (out, f, markdown, markdown ? 0 : width);
    }
  if (markdown && fold_end > 0 && fold_end == r->shown->len)
    g_string_append (out, "\n</details>\n");
  if (r->n_hidden > 0)
    {
      g_autofree char *note = g_strdup_printf (g_dngettext (NULL, "(%u finding below --severity "
                                                                  "left out.)",
                                                            "(%u findings below --severity left "
                                                            "out.)",
                                                            r->n_hidden),
                                               r->n_hidden);

      g_string_append_printf (out, markdown ? "\n%s\n" : "  %s\n", note);
    }
}

/* `width`: the columns tables must fit in (0: no limit); text wraps there, or at TEXT_WIDTH. */
static void
write_report (WsCliTraceReport *r, GString *out, gsize table_width, gboolean markdown)
{
  gsize width = markdown ? 0 : table_width > 0 ? table_width : TEXT_WIDTH;
  GPtrArray *programs = ws_trace_get_programs (r->trace);
  gboolean sweep = programs->len > 1;
  g_autoptr (GPtrArray) kernels = ws_trace_collect_kernels (r->trace, WS_TRACE_ALL_PROGRAMS);
  g_autoptr (GPtrArray) copies = ws_trace_collect_copies (r->trace, WS_TRACE_ALL_PROGRAMS);
  g_autofree char *heading = describe_trace (r);

  if (markdown)
    g_string_append_printf (out, "# %s\n\n", heading);
  else
    append_line (out, heading, width);
  append_runs (r, out, markdown, width);

  append_title (out, markdown, _("Kernels"));
  if (kernels->len == 0)
    g_string_append_printf (out, markdown ? "%s\n" : "  %s\n", _("No kernels."));
  else
    append_kernel_table (r, out, kernels, sweep, table_width, markdown);
  append_title (out, markdown, _("Copies"));
  if (copies->len == 0)
    g_string_append_printf (out, markdown ? "%s\n" : "  %s\n", _("No copies."));
  else
    {
      g_autoptr (WsCliTable) t = copy_table (copies, sweep);

      if (markdown)
        ws_cli_table_append_markdown (t, out);
      else
        ws_cli_table_append_text (t, out, 2, 2);
    }
  if (sweep)
    append_series (r, out, markdown, width);
  append_findings (r, out, markdown, width);
}

void
ws_cli_trace_report_write_table (WsCliTraceReport *r, GString *out, gsize width)
{
  write_report (r, out, width, FALSE);
}

void
ws_cli_trace_report_write_markdown (WsCliTraceReport *r, GString *out)
{
  write_report (r, out, 0, TRUE);
}

/* ws-cli-report-data.c: the report for programs: CSV (one row per run, times in ns) and JSON
 * (runs with their findings, the fastest configurations, the crossovers).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli-report.h"

#include <math.h>

#include "ws-json-writer.h"

/* ---- CSV --------------------------------------------------------------------------------- */

static const char *const csv_columns[] = {
  "run", "kernel", "family", "shape", "size", "block", "threads_per_block", "transfer", "state",
  "kernel_ns_median", "kernel_ns_min", "kernel_ns_max", "kernel_ns_n", "kernel_untraced_ns",
  "e2e_ns_median", "e2e_ns_min", "e2e_ns_max", "h2d_ns_median", "d2h_ns_median",
  "cpu_1_ns_median", "cpu_all_ns_median", "cpu_all_threads",
  "speedup_kernel_vs_1", "speedup_e2e_vs_1", "speedup_kernel_vs_all", "speedup_e2e_vs_all",
  "kernel_gbs", "kernel_gflops", "occupancy", "limiter", "active_blocks_per_sm", "registers",
  "waves", "verified", "max_rel_err", "findings",
  /* Added later, so at the end: what the speedups are against, and the cache state. */
  "cpu_1_implementation", "cpu_1_library", "cpu_all_implementation", "cpu_all_library",
  "cache",
};

/* RFC 4180: quotes only where a field needs them. */
static void
csv_text (GString *out, const char *text)
{
  if (text == NULL)
    text = "";
  if (strpbrk (text, ",\"\n\r") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

/* An empty field for what was not measured (0, NaN). */
static void
csv_number (GString *out, double value)
{
  g_autofree char *text = NULL;

  if (!isfinite (value) || value == 0)
    return;
  text = ws_cli_format_double (value);
  g_string_append (out, text);
}

static void
csv_stats_median (GString *out, const WsStats *stats)
{
  if (stats != NULL && stats->n > 0)
    csv_number (out, stats->median);
}

static char *
triple (const guint64 *v, int rank)
{
  if (rank == 1)
    return g_strdup_printf ("%" G_GUINT64_FORMAT, v[0]);
  return g_strdup_printf ("%" G_GUINT64_FORMAT "x%" G_GUINT64_FORMAT "x%" G_GUINT64_FORMAT,
                          v[0], v[1], v[2]);
}

/* ",hand_written," or ",blas,OpenBLAS 0.3.21": machine words, not translated. */
static void
csv_implementation (GString *out, const WsCpuBaseline *b)
{
  g_string_append_c (out, ',');
  if (b == NULL || !b->present)
    {
      g_string_append_c (out, ',');
      return;
    }
  csv_text (out, b->implementation);
  g_string_append_c (out, ',');
  if (b->library != NULL)
    {
      g_autofree char *library = b->library_version != NULL
                                   ? g_strdup_printf ("%s %s", b->library, b->library_version)
                                   : g_strdup (b->library);

      csv_text (out, library);
    }
}

static void
csv_baseline (GString *out, const WsCpuBaseline *b)
{
  if (b->present && !b->skipped)
    csv_stats_median (out, &b->stats);
}

static void
csv_row (WsCliReportRun *r, GString *out)
{
  WsRun *run = r->run;
  const WsRunConfig *c = ws_run_get_config (run);
  const WsTiming *t = ws_run_get_timing (run);
  const WsLaunch *l = ws_run_get_launch (run);
  const WsVerify *v = ws_run_get_verify (run);
  guint64 block[3] = { c->block[0], c->block[1], c->block[2] };
  g_autofree char *shape = triple (c->shape, c->shape_rank);
  g_autofree char *block_text = triple (block, 3);

  g_string_append_printf (out, "%d,", c->id);
  csv_text (out, c->kernel);
  g_string_append_c (out, ',');
  csv_text (out, c->family);
  g_string_append_printf (out, ",%s,", shape);
  csv_number (out, c->size);
  g_string_append_printf (out, ",%s,%u,", block_text, c->threads_per_block);
  csv_text (out, c->transfer);
  g_string_append_printf (out, ",%s,", ws_cli_report_state_name (ws_run_get_state (run)));
  if (t != NULL && t->kernel.n > 0)
    {
      csv_number (out, t->kernel.median);
      g_string_append_c (out, ',');
      csv_number (out, t->kernel.min);
      g_string_append_c (out, ',');
      csv_number (out, t->kernel.max);
      g_string_append_printf (out, ",%d,", t->kernel.n);
    }
  else
    g_string_append (out, ",,,,");
  if (t != NULL)
    csv_number (out, t->kernel_untraced_ns);
  g_string_append_c (out, ',');
  if (t != NULL && t->e2e.n > 0)
    {
      csv_number (out, t->e2e.median);
      g_string_append_c (out, ',');
      csv_number (out, t->e2e.min);
      g_string_append_c (out, ',');
      csv_number (out, t->e2e.max);
    }
  else
    g_string_append (out, ",,");
  g_string_append_c (out, ',');
  csv_stats_median (out, t != NULL ? &t->h2d : NULL);
  g_string_append_c (out, ',');
  csv_stats_median (out, t != NULL ? &t->d2h : NULL);
  g_string_append_c (out, ',');
  if (t != NULL)
    csv_baseline (out, &t->cpu_one);
  g_string_append_c (out, ',');
  if (t != NULL)
    csv_baseline (out, &t->cpu_all);
  g_string_append_c (out, ',');
  if (t != NULL && t->cpu_all.present)
    g_string_append_printf (out, "%d", t->cpu_all.threads);
  for (int all_cores = 0; all_cores < 2; all_cores++)
    for (int e2e = 0; e2e < 2; e2e++)
      {
        g_string_append_c (out, ',');
        csv_number (out, ws_run_get_speedup (run, all_cores, e2e));
      }
  g_string_append_c (out, ',');
  csv_number (out, ws_run_get_gbs (run));
  g_string_append_c (out, ',');
  csv_number (out, ws_run_get_gflops (run));
  g_string_append_c (out, ',');
  if (l != NULL)
    {
      g_autofree char *occupancy = ws_cli_format_double (l->occupancy);

      g_string_append_printf (out, "%s,", occupancy);
      csv_text (out, l->limiter);
      g_string_append_printf (out, ",%d,%d,", l->active_blocks_per_sm, l->registers);
      csv_number (out, l->waves);
    }
  else
    g_string_append (out, ",,,,");
  g_string_append_c (out, ',');
  if (v != NULL)
    {
      g_autofree char *err = ws_cli_format_double (v->max_rel_err);

      g_string_append_printf (out, "%s,%s", v->pass ? "true" : "false",
                              isfinite (v->max_rel_err) ? err : "");
    }
  else
    g_string_append_c (out, ',');
  g_string_append_c (out, ',');
  {
    g_autoptr (GString) ids = g_string_new (NULL);

    for (guint i = 0; i < r->findings->len; i++)
      {
        WsFinding *f = g_ptr_array_index (r->findings, i);

        g_string_append_printf (ids, "%s%s", i > 0 ? ";" : "", f->id);
      }
    csv_text (out, ids->str);
  }
  csv_implementation (out, t != NULL ? &t->cpu_one : NULL);
  csv_implementation (out, t != NULL ? &t->cpu_all : NULL);
  g_string_append_c (out, ',');
  csv_text (out, ws_run_get_config (r->run)->cache);
  g_string_append (out, "\r\n");
}

void
ws_cli_report_write_csv (WsCliReport *report, GString *out)
{
  for (guint i = 0; i < G_N_ELEMENTS (csv_columns); i++)
    g_string_append_printf (out, "%s%s", i > 0 ? "," : "", csv_columns[i]);
  g_string_append (out, "\r\n");
  for (guint i = 0; i < report->runs->len; i++)
    csv_row (g_ptr_array_index (report->runs, i), out);
}

/* ---- JSON -------------------------------------------------------------------------------- */

static void
json_stats (WsJsonWriter *json, const char *member, const WsStats *stats)
{
  if (stats == NULL || stats->n <= 0)
    {
      ws_json_writer_null (json, member);
      return;
    }
  ws_json_writer_begin_object (json, member);
  ws_json_writer_double (json, "median", stats->median);
  ws_json_writer_double (json, "min", stats->min);
  ws_json_writer_double (json, "max", stats->max);
  ws_json_writer_int (json, "n", stats->n);
  ws_json_writer_end_object (json);
}

static void
json_baseline (WsJsonWriter *json, const char *member, const WsCpuBaseline *b)
{
  if (!b->present)
    {
      ws_json_writer_null (json, member);
      return;
    }
  ws_json_writer_begin_object (json, member);
  ws_json_writer_int (json, "threads", b->threads);
  ws_json_writer_bool (json, "skipped", b->skipped);
  json_stats (json, "ns", b->skipped ? NULL : &b->stats);
  ws_json_writer_string (json, "note", b->note);
  ws_json_writer_string (json, "implementation", b->implementation);
  ws_json_writer_string (json, "library", b->library);
  ws_json_writer_string (json, "library_version", b->library_version);
  ws_json_writer_end_object (json);
}

static void
json_speedup (WsJsonWriter *json, const char *member, double value)
{
  if (value > 0)
    ws_json_writer_double (json, member, value);
  else
    ws_json_writer_null (json, member);
}

static void
json_finding (WsJsonWriter *json, const WsFinding *f)
{
  ws_json_writer_begin_object (json, NULL);
  ws_json_writer_string (json, "id", f->id);
  ws_json_writer_string (json, "severity", ws_severity_to_string (f->severity));
  ws_json_writer_int (json, "run", f->run);
  ws_json_writer_string (json, "title", f->title);
  ws_json_writer_string (json, "numbers", f->numbers);
  ws_json_writer_string (json, "cause", f->cause);
  ws_json_writer_string (json, "fix", ws_finding_get_fix (f, WS_AUDIENCE_CLI));
  ws_json_writer_double (json, "value", f->value);
  ws_json_writer_double (json, "threshold", f->threshold);
  ws_json_writer_end_object (json);
}

static void
json_triple (WsJsonWriter *json, const char *member, const guint64 *v, int n)
{
  ws_json_writer_begin_inline_array (json, member);
  for (int i = 0; i < n; i++)
    ws_json_writer_int (json, NULL, (gint64) v[i]);
  ws_json_writer_end_array (json);
}

static void
json_run (WsJsonWriter *json, WsCliReportRun *r)
{
  WsRun *run = r->run;
  const WsRunConfig *c = ws_run_get_config (run);
  const WsTiming *t = ws_run_get_timing (run);
  const WsLaunch *l = ws_run_get_launch (run);
  const WsVerify *v = ws_run_get_verify (run);
  guint64 block[3] = { c->block[0], c->block[1], c->block[2] };
  g_autofree char *size_label = ws_run_dup_size_label (run);
  g_autofree char *block_label = ws_run_dup_block_label (run);
  g_autofree char *state = ws_cli_report_describe_state (run);

  ws_json_writer_begin_object (json, NULL);
  ws_json_writer_int (json, "id", c->id);
  ws_json_writer_string (json, "kernel", c->kernel);
  ws_json_writer_string (json, "family", c->family);
  json_triple (json, "shape", c->shape, c->shape_rank);
  ws_json_writer_double (json, "size", c->size);
  ws_json_writer_string (json, "size_label", size_label);
  json_triple (json, "block", block, 3);
  ws_json_writer_string (json, "block_label", block_label);
  ws_json_writer_string (json, "transfer", c->transfer);
  ws_json_writer_string (json, "state", ws_cli_report_state_name (ws_run_get_state (run)));
  ws_json_writer_string (json, "state_text", state);
  json_stats (json, "kernel_ns", t != NULL ? &t->kernel : NULL);
  if (t != NULL && t->kernel_untraced_ns > 0)
    ws_json_writer_double (json, "kernel_untraced_ns", t->kernel_untraced_ns);
  else
    ws_json_writer_null (json, "kernel_untraced_ns");
  json_stats (json, "e2e_ns", t != NULL ? &t->e2e : NULL);
  json_stats (json, "h2d_ns", t != NULL ? &t->h2d : NULL);
  json_stats (json, "d2h_ns", t != NULL ? &t->d2h : NULL);
  if (t != NULL)
    {
      json_baseline (json, "cpu_1", &t->cpu_one);
      json_baseline (json, "cpu_all", &t->cpu_all);
      if (t->cpu_one_other.present)
        json_baseline (json, "cpu_1_other", &t->cpu_one_other);
      if (t->cpu_all_other.present)
        json_baseline (json, "cpu_all_other", &t->cpu_all_other);
    }
  ws_json_writer_string (json, "cache", c->cache);
  ws_json_writer_begin_object (json, "speedup");
  json_speedup (json, "kernel_vs_1", ws_run_get_speedup (run, FALSE, FALSE));
  json_speedup (json, "e2e_vs_1", ws_run_get_speedup (run, FALSE, TRUE));
  json_speedup (json, "kernel_vs_all", ws_run_get_speedup (run, TRUE, FALSE));
  json_speedup (json, "e2e_vs_all", ws_run_get_speedup (run, TRUE, TRUE));
  ws_json_writer_end_object (json);
  json_speedup (json, "kernel_gbs", ws_run_get_gbs (run));
  json_speedup (json, "kernel_gflops", ws_run_get_gflops (run));
  if (l != NULL)
    {
      ws_json_writer_double (json, "occupancy", l->occupancy);
      ws_json_writer_string (json, "limiter", l->limiter);
      ws_json_writer_int (json, "active_blocks_per_sm", l->active_blocks_per_sm);
      ws_json_writer_double (json, "waves", l->waves);
    }
  if (c->params != NULL)
    ws_json_writer_string (json, "params", c->params);
  if (v != NULL && v->unverified)
    ws_json_writer_null (json, "verified");
  else if (v != NULL)
    {
      ws_json_writer_bool (json, "verified", v->pass);
      ws_json_writer_double (json, "max_rel_err", v->max_rel_err);
    }
  else
    ws_json_writer_null (json, "verified");
  ws_json_writer_begin_array (json, "findings");
  for (guint i = 0; i < r->findings->len; i++)
    json_finding (json, g_ptr_array_index (r->findings, i));
  ws_json_writer_end_array (json);
  ws_json_writer_end_object (json);
}

static void
json_run_ids (WsJsonWriter *json, const char *member, GPtrArray *runs)
{
  ws_json_writer_begin_inline_array (json, member);
  for (guint i = 0; i < runs->len; i++)
    ws_json_writer_int (json, NULL, ws_run_get_id (g_ptr_array_index (runs, i)));
  ws_json_writer_end_array (json);
}

static void
json_device (WsJsonWriter *json, WsDevice *device)
{
  const WsDeviceInfo *d = ws_device_get_info (device);

  ws_json_writer_begin_object (json, "device");
  ws_json_writer_string (json, "name", d->name);
  ws_json_writer_string (json, "sm", d->sm);
  ws_json_writer_int (json, "sm_count", d->sm_count);
  ws_json_writer_int (json, "memory_bytes", d->memory_bytes);
  ws_json_writer_double (json, "bandwidth_measured_gbs", d->bandwidth_measured_gbs);
  ws_json_writer_double (json, "bandwidth_theoretical_gbs", d->bandwidth_theoretical_gbs);
  ws_json_writer_double (json, "fp32_peak_gflops", d->fp32_peak_gflops);
  ws_json_writer_double (json, "h2d_pinned_gbs", d->h2d_pinned_gbs);
  ws_json_writer_double (json, "d2h_pinned_gbs", d->d2h_pinned_gbs);
  ws_json_writer_double (json, "h2d_pageable_gbs", d->h2d_pageable_gbs);
  ws_json_writer_double (json, "d2h_pageable_gbs", d->d2h_pageable_gbs);
  ws_json_writer_end_object (json);
}

void
ws_cli_report_write_json (WsCliReport *report, GString *out)
{
  g_autoptr (WsJsonWriter) json = ws_json_writer_new (out, TRUE);
  WsDevice *device = ws_session_get_device (report->session);
  const WsHello *hello = ws_session_get_hello (report->session);
  GPtrArray *errors = ws_session_get_errors (report->session);
  g_autofree char *date = ws_session_dup_date (report->session);

  ws_json_writer_begin_object (json, NULL);
  ws_json_writer_string (json, "file", report->name);
  ws_json_writer_string (json, "date", date);
  ws_json_writer_string (json, "host", hello != NULL ? hello->host : NULL);
  if (device != NULL)
    json_device (json, device);
  else
    ws_json_writer_null (json, "device");

  ws_json_writer_begin_array (json, "errors");
  for (guint i = 0; i < errors->len; i++)
    {
      WsRunnerError *e = g_ptr_array_index (errors, i);

      ws_json_writer_begin_object (json, NULL);
      ws_json_writer_string (json, "severity", ws_error_severity_to_string (e->severity));
      ws_json_writer_string (json, "code", e->code_name);
      ws_json_writer_string (json, "message", e->message);
      ws_json_writer_end_object (json);
    }
  ws_json_writer_end_array (json);

  ws_json_writer_begin_array (json, "runs");
  for (guint i = 0; i < report->runs->len; i++)
    json_run (json, g_ptr_array_index (report->runs, i));
  ws_json_writer_end_array (json);

  ws_json_writer_begin_array (json, "series_findings");
  for (guint i = 0; i < report->series_findings->len; i++)
    json_finding (json, g_ptr_array_index (report->series_findings, i));
  ws_json_writer_end_array (json);

  ws_json_writer_begin_array (json, "fastest");
  for (guint i = 0; i < report->fastest->len; i++)
    {
      WsFastest *f = g_ptr_array_index (report->fastest, i);
      g_autofree char *text = ws_cli_report_describe_fastest (f);

      ws_json_writer_begin_object (json, NULL);
      ws_json_writer_string (json, "problem", f->label);
      ws_json_writer_string (json, "ranked_by", f->by_end_to_end ? "e2e" : "kernel");
      ws_json_writer_bool (json, "block_sweep", f->block_sweep);
      ws_json_writer_int (json, "best", ws_run_get_id (f->best));
      ws_json_writer_string (json, "best_kernel", ws_run_get_config (f->best)->kernel);
      json_run_ids (json, "tied", f->tied);
      json_run_ids (json, "others", f->others);
      ws_json_writer_string (json, "text", text);
      ws_json_writer_end_object (json);
    }
  ws_json_writer_end_array (json);

  ws_json_writer_begin_array (json, "crossovers");
  for (guint i = 0; i < report->crossovers->len; i++)
    {
      static const char *const names[2][2] = {
        { "kernel_vs_1", "e2e_vs_1" }, { "kernel_vs_all", "e2e_vs_all" },
      };
      WsCrossover *x = g_ptr_array_index (report->crossovers, i);
      g_autofree char *text = ws_cli_report_describe_crossover (x);

      ws_json_writer_begin_object (json, NULL);
      ws_json_writer_string (json, "series", x->series->label);
      ws_json_writer_string (json, "kernel", x->series->kernel);
      ws_json_writer_string (json, "transfer", x->series->transfer);
      for (int all_cores = 0; all_cores < 2; all_cores++)
        for (int e2e = 0; e2e < 2; e2e++)
          {
            if (x->found[all_cores][e2e])
              ws_json_writer_double (json, names[all_cores][e2e], x->size[all_cores][e2e]);
            else
              ws_json_writer_null (json, names[all_cores][e2e]);
          }
      ws_json_writer_string (json, "text", text);
      ws_json_writer_end_object (json);
    }
  ws_json_writer_end_array (json);
  ws_json_writer_int (json, "findings_left_out", report->n_hidden);
  ws_json_writer_end_object (json);
  g_string_append_c (out, '\n');
}

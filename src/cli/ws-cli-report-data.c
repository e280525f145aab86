/* ws-cli-report-data.c: the report for programs: CSV (one row per run, times in ns) and JSON
 * (runs with their findings, the fastest configurations, the crossovers).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli-report.h"

#include "ws-format.h"
#include "ws-json-writer.h"
#include "ws-run-columns.h"
#include "ws-memcheck.h"

/* ---- CSV --------------------------------------------------------------------------------- */

/* One row per run, the columns of ws-run-columns.h: an empty field for what was not
 * measured, numbers exact. */
static void
csv_row (WsCliReportRun *r, GString *out)
{
  WsRunColumnContext context = { .findings = r->findings, .audience = WS_AUDIENCE_CLI };
  const WsRunColumn *columns;
  guint n;

  columns = ws_run_columns (&n);
  for (guint i = 0, written = 0; i < n; i++)
    {
      WsRunValue v;

      if (!columns[i].in_csv)
        continue;
      if (written++ > 0)
        g_string_append_c (out, ',');
      ws_run_column_get (&columns[i], r->run, &context, &v);
      ws_run_value_append_csv (&v, out, ws_format_append_csv_number);
      ws_run_value_clear (&v);
    }
  g_string_append (out, "\r\n");
}

void
ws_cli_report_write_csv (WsCliReport *report, GString *out)
{
  const WsRunColumn *columns;
  guint n;

  columns = ws_run_columns (&n);
  for (guint i = 0, written = 0; i < n; i++)
    if (columns[i].in_csv)
      g_string_append_printf (out, "%s%s", written++ > 0 ? "," : "", columns[i].key);
  g_string_append (out, "\r\n");
  for (guint i = 0; i < report->runs->len; i++)
    csv_row (g_ptr_array_index (report->runs, i), out);
}

/* ---- JSON -------------------------------------------------------------------------------- */

static void
json_triple (WsJsonWriter *json, const char *member, const guint64 *v, int n)
{
  ws_json_writer_begin_inline_array (json, member);
  for (int i = 0; i < n; i++)
    ws_json_writer_int (json, NULL, (gint64) v[i]);
  ws_json_writer_end_array (json);
}

/* What compute-sanitizer found (run --memcheck): its fields as the record gave them, and the
 * sentences the text report prints. */
static void
json_memcheck (WsJsonWriter *json, GPtrArray *found)
{
  ws_json_writer_begin_array (json, "memcheck");
  for (guint i = 0; i < found->len; i++)
    {
      const WsMemcheckFinding *m = g_ptr_array_index (found, i);
      WsMemcheckText text;

      ws_memcheck_text_init (&text, m);
      ws_json_writer_begin_object (json, NULL);
      ws_json_writer_string (json, "tool", m->tool);
      ws_json_writer_string (json, "kind", m->kind);
      ws_json_writer_string (json, "file", m->file);
      if (m->line > 0)
        ws_json_writer_int (json, "line", m->line);
      else
        ws_json_writer_null (json, "line");
      ws_json_writer_string (json, "kernel", m->kernel);
      ws_json_writer_string (json, "message", m->message);
      ws_json_writer_string (json, "detail", m->detail);
      if (m->has_thread)
        {
          const guint64 thread[3] = { m->thread[0], m->thread[1], m->thread[2] };
          const guint64 block[3] = { m->block[0], m->block[1], m->block[2] };

          json_triple (json, "thread", thread, 3);
          json_triple (json, "block", block, 3);
        }
      ws_json_writer_int (json, "count", m->count);
      ws_json_writer_string (json, "title", text.title);
      ws_json_writer_string (json, "numbers", text.numbers);
      ws_json_writer_string (json, "fix", text.fix);
      ws_json_writer_end_object (json);
      ws_memcheck_text_clear (&text);
    }
  ws_json_writer_end_array (json);
}

/* A run's object: the columns of ws-run-columns.h that the JSON has, its findings among them. */
static void
json_run (WsJsonWriter *json, WsCliReportRun *r)
{
  WsRunColumnContext context = { .findings = r->findings, .audience = WS_AUDIENCE_CLI };

  ws_json_writer_begin_object (json, NULL);
  ws_run_columns_write_json (json, r->run, &context);
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

  json_memcheck (json, ws_session_get_memcheck_findings (report->session));

  ws_json_writer_begin_array (json, "runs");
  for (guint i = 0; i < report->runs->len; i++)
    json_run (json, g_ptr_array_index (report->runs, i));
  ws_json_writer_end_array (json);

  ws_json_writer_begin_array (json, "series_findings");
  for (guint i = 0; i < report->series_findings->len; i++)
    ws_finding_write_json (json, g_ptr_array_index (report->series_findings, i),
                           WS_FINDING_ABOUT_RUN, WS_AUDIENCE_CLI);
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

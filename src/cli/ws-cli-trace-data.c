/* ws-cli-trace-data.c: a traced program's report for programs: CSV (one row per kernel
 * configuration and per copy kind of each program run, times in ns) and JSON (the program
 * runs with their processes, kernels, copies, API calls and findings; a sweep's series).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli-trace.h"

#include <math.h>
#include <string.h>

#include "ws-format.h"
#include "ws-json-writer.h"

/* ---- CSV ---------------------------------------------------------------------------------- */

static const char *const csv_columns[] = {
  "section", "program_run", "params", "name", "short_name", "direction", "host_memory", "grid",
  "block", "registers", "shared_bytes", "count", "bytes", "total_ns", "median_ns", "min_ns",
  "max_ns", "share", "gbs", "occupancy", "limiter", "active_blocks_per_sm", "waves", "findings",
};

static void
csv_field (GString *out, const char *text)
{
  ws_format_append_csv_field (out, text);
  g_string_append_c (out, ',');
}

static void
csv_value (GString *out, double value)
{
  ws_format_append_csv_number (out, value);
  g_string_append_c (out, ',');
}

static char *
dims_text (const guint32 d[3])
{
  return g_strdup_printf ("%ux%ux%u", d[0], d[1], d[2]);
}

/* The ids of the findings about a kernel (its name) of a program run. */
static char *
finding_ids (WsCliTraceReport *r, guint program, const char *kernel)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < r->shown->len; i++)
    {
      WsFinding *f = g_ptr_array_index (r->shown, i);

      if (f->program == program && f->kernel == kernel)
        g_string_append_printf (s, "%s%s", s->len ? ";" : "", f->id);
    }
  return g_string_free (s, FALSE);
}

static void
csv_program (GString *out, WsCliTraceReport *r, const char *section, guint program)
{
  const WsTraceProgram *p = ws_trace_get_program (r->trace, program);
  g_autofree char *params = p ? ws_cli_trace_describe_params (p) : g_strdup ("");

  csv_field (out, section);
  g_string_append_printf (out, "%u,", program);
  csv_field (out, params);
}

void
ws_cli_trace_report_write_csv (WsCliTraceReport *r, GString *out)
{
  g_autoptr (GPtrArray) kernels = ws_trace_collect_kernels (r->trace, WS_TRACE_ALL_PROGRAMS);
  g_autoptr (GPtrArray) copies = ws_trace_collect_copies (r->trace, WS_TRACE_ALL_PROGRAMS);

  for (guint i = 0; i < G_N_ELEMENTS (csv_columns); i++)
    g_string_append_printf (out, "%s%s", csv_columns[i],
                            i + 1 < G_N_ELEMENTS (csv_columns) ? "," : "\r\n");
  for (guint i = 0; i < kernels->len; i++)
    {
      const WsTraceKernel *k = g_ptr_array_index (kernels, i);
      g_autofree char *grid = dims_text (k->grid), *block = dims_text (k->block);
      g_autofree char *ids = finding_ids (r, k->program, k->name);

      csv_program (out, r, "kernel", k->program);
      csv_field (out, k->name);
      csv_field (out, k->short_name);
      g_string_append (out, ",,");
      csv_field (out, grid);
      csv_field (out, block);
      g_string_append_printf (out, "%u,%u,%u,,", k->registers, k->static_smem + k->dynamic_smem,
                              k->count);
      csv_value (out, k->total_ns);
      csv_value (out, k->median_ns);
      csv_value (out, k->min_ns);
      csv_value (out, k->max_ns);
      csv_value (out, k->share);
      g_string_append_c (out, ',');
      if (k->has_occupancy)
        {
          csv_value (out, k->occupancy.occupancy);
          csv_field (out, ws_limiter_name (k->occupancy.limiter));
          g_string_append_printf (out, "%d,", k->occupancy.active_blocks);
          csv_value (out, k->waves);
        }
      else
        g_string_append (out, ",,,,");
      ws_format_append_csv_field (out, ids);
      g_string_append (out, "\r\n");
    }
  for (guint i = 0; i < copies->len; i++)
    {
      const WsTraceCopy *c = g_ptr_array_index (copies, i);

      csv_program (out, r, c->kind == WS_ACTIVITY_MEMSET ? "memset" : "copy", c->program);
      g_string_append (out, ",,");
      csv_field (out, ws_copy_direction_to_string (c->direction));
      csv_field (out, ws_host_memory_to_string (c->host_memory));
      g_string_append (out, ",,,,");
      g_string_append_printf (out, "%u,%" G_GUINT64_FORMAT ",", c->count, c->bytes);
      csv_value (out, c->total_ns);
      csv_value (out, c->median_ns);
      csv_value (out, c->min_ns);
      csv_value (out, c->max_ns);
      g_string_append_c (out, ',');
      if (c->kind == WS_ACTIVITY_MEMCPY)
        ws_format_append_csv_number (out, c->gbs);
      g_string_append (out, ",,,,,\r\n");
    }
}

/* ---- JSON --------------------------------------------------------------------------------- */

static void
json_dims (WsJsonWriter *json, const char *member, const guint32 d[3])
{
  ws_json_writer_begin_inline_array (json, member);
  for (int i = 0; i < 3; i++)
    ws_json_writer_int (json, NULL, d[i]);
  ws_json_writer_end_array (json);
}

static void
json_strv (WsJsonWriter *json, const char *member, char **v)
{
  if (v == NULL)
    {
      ws_json_writer_null (json, member);
      return;
    }
  ws_json_writer_begin_array (json, member);
  for (guint i = 0; v[i] != NULL; i++)
    ws_json_writer_string (json, NULL, v[i]);
  ws_json_writer_end_array (json);
}

static void
json_kernel (WsJsonWriter *json, const WsTraceKernel *k)
{
  ws_json_writer_begin_object (json, NULL);
  ws_json_writer_string (json, "name", k->name);
  ws_json_writer_string (json, "short_name", k->short_name);
  json_dims (json, "grid", k->grid);
  json_dims (json, "block", k->block);
  ws_json_writer_int (json, "registers", k->registers);
  ws_json_writer_int (json, "static_smem", k->static_smem);
  ws_json_writer_int (json, "dynamic_smem", k->dynamic_smem);
  ws_json_writer_int (json, "count", k->count);
  ws_json_writer_double (json, "total_ns", k->total_ns);
  ws_json_writer_double (json, "median_ns", k->median_ns);
  ws_json_writer_double (json, "min_ns", k->min_ns);
  ws_json_writer_double (json, "max_ns", k->max_ns);
  ws_json_writer_double (json, "share", k->share);
  if (k->has_occupancy)
    {
      ws_json_writer_double (json, "occupancy", k->occupancy.occupancy);
      ws_json_writer_string (json, "limiter", ws_limiter_name (k->occupancy.limiter));
      ws_json_writer_int (json, "active_blocks_per_sm", k->occupancy.active_blocks);
      ws_json_writer_double (json, "waves", k->waves);
    }
  else
    {
      ws_json_writer_null (json, "occupancy");
      ws_json_writer_null (json, "limiter");
    }
  ws_json_writer_bool (json, "library", ws_trace_kernel_is_library (k->name));
  ws_json_writer_end_object (json);
}

static void
json_copy (WsJsonWriter *json, const WsTraceCopy *c)
{
  ws_json_writer_begin_object (json, NULL);
  ws_json_writer_string (json, "kind", c->kind == WS_ACTIVITY_MEMSET ? "memset" : "memcpy");
  ws_json_writer_string (json, "direction", ws_copy_direction_to_string (c->direction));
  ws_json_writer_string (json, "host_memory", ws_host_memory_to_string (c->host_memory));
  ws_json_writer_int (json, "count", c->count);
  ws_json_writer_int (json, "async", c->n_async);
  ws_json_writer_int (json, "bytes", (gint64) c->bytes);
  ws_json_writer_double (json, "total_ns", c->total_ns);
  ws_json_writer_double (json, "median_ns", c->median_ns);
  ws_json_writer_double (json, "min_ns", c->min_ns);
  ws_json_writer_double (json, "max_ns", c->max_ns);
  if (c->kind == WS_ACTIVITY_MEMCPY)
    ws_json_writer_double (json, "gbs", c->gbs);
  ws_json_writer_end_object (json);
}

static void
json_processes (WsJsonWriter *json, WsTrace *trace, guint program)
{
  GPtrArray *processes = ws_trace_get_processes (trace);

  ws_json_writer_begin_array (json, "processes");
  for (guint i = 0; i < processes->len; i++)
    {
      const WsTraceProcess *p = g_ptr_array_index (processes, i);

      if (p->program != program)
        continue;
      ws_json_writer_begin_object (json, NULL);
      ws_json_writer_int (json, "pid", p->pid);
      ws_json_writer_int (json, "ppid", p->ppid);
      ws_json_writer_string (json, "executable", p->executable);
      json_strv (json, "command", p->command);
      ws_json_writer_int (json, "start_ns", p->start);
      ws_json_writer_int (json, "cuda_start_ns", p->cuda_start);
      ws_json_writer_int (json, "end_ns", p->end);
      ws_json_writer_bool (json, "ended", p->ended);
      ws_json_writer_string (json, "reason", p->end_reason);
      if (p->end_reason != NULL && g_str_equal (p->end_reason, "exit"))
        ws_json_writer_int (json, "exit_status", p->exit_status);
      else
        ws_json_writer_null (json, "exit_status");
      ws_json_writer_string (json, "signal_name", p->signal_name);
      ws_json_writer_int (json, "dropped_records", p->dropped_records);
      ws_json_writer_end_object (json);
    }
  ws_json_writer_end_array (json);
}

static void
json_program (WsJsonWriter *json, WsCliTraceReport *r, const WsTraceProgram *p)
{
  g_autoptr (GPtrArray) kernels = ws_trace_collect_kernels (r->trace, p->id);
  g_autoptr (GPtrArray) copies = ws_trace_collect_copies (r->trace, p->id);
  g_autoptr (GPtrArray) api = ws_trace_collect_api (r->trace, p->id);
  g_autofree char *ending = ws_cli_trace_describe_ending (r->trace, p);
  gint64 start, end;

  ws_json_writer_begin_object (json, NULL);
  ws_json_writer_int (json, "id", p->id);
  ws_json_writer_begin_object (json, "params");
  for (guint i = 0; i < p->n_params; i++)
    ws_json_writer_string (json, p->params[i].name, p->params[i].value);
  ws_json_writer_end_object (json);
  json_strv (json, "argv", p->argv);
  ws_json_writer_string (json, "reason", p->end_reason);
  if (p->exit_status >= 0)
    ws_json_writer_int (json, "exit_status", p->exit_status);
  else
    ws_json_writer_null (json, "exit_status");
  ws_json_writer_string (json, "signal_name", p->signal_name);
  ws_json_writer_string (json, "ending", ending);
  if (p->wall_ns > 0)
    ws_json_writer_int (json, "wall_ns", p->wall_ns);
  else
    ws_json_writer_null (json, "wall_ns");
  if (ws_trace_get_program_range (r->trace, p->id, &start, &end))
    ws_json_writer_int (json, "span_ns", end - start);
  json_processes (json, r->trace, p->id);
  ws_json_writer_begin_array (json, "kernels");
  for (guint i = 0; i < kernels->len; i++)
    json_kernel (json, g_ptr_array_index (kernels, i));
  ws_json_writer_end_array (json);
  ws_json_writer_begin_array (json, "copies");
  for (guint i = 0; i < copies->len; i++)
    json_copy (json, g_ptr_array_index (copies, i));
  ws_json_writer_end_array (json);
  ws_json_writer_begin_array (json, "api");
  for (guint i = 0; i < api->len; i++)
    {
      const WsTraceApi *a = g_ptr_array_index (api, i);

      ws_json_writer_begin_object (json, NULL);
      ws_json_writer_string (json, "name", a->name);
      ws_json_writer_int (json, "count", a->count);
      ws_json_writer_int (json, "failed", a->n_failed);
      ws_json_writer_double (json, "total_ns", a->total_ns);
      ws_json_writer_double (json, "median_ns", a->median_ns);
      ws_json_writer_end_object (json);
    }
  ws_json_writer_end_array (json);
  ws_json_writer_begin_array (json, "findings");
  for (guint i = 0; i < r->shown->len; i++)
    if (((WsFinding *) g_ptr_array_index (r->shown, i))->program == p->id)
      ws_finding_write_json (json, g_ptr_array_index (r->shown, i), WS_FINDING_ABOUT_KERNEL,
                             WS_AUDIENCE_CLI);
  ws_json_writer_end_array (json);
  ws_json_writer_end_object (json);
}

void
ws_cli_trace_report_write_json (WsCliTraceReport *r, GString *out)
{
  g_autoptr (WsJsonWriter) json = ws_json_writer_new (out, TRUE);
  g_autoptr (GPtrArray) series = ws_trace_collect_series (r->trace);
  GPtrArray *programs = ws_trace_get_programs (r->trace);
  GPtrArray *errors = ws_session_get_errors (r->session);
  WsDevice *device = ws_session_get_device (r->session);
  const WsHello *hello = ws_session_get_hello (r->session);
  g_autofree char *date = ws_session_dup_date (r->session);

  ws_json_writer_begin_object (json, NULL);
  ws_json_writer_string (json, "file", r->name);
  ws_json_writer_string (json, "date", date);
  ws_json_writer_string (json, "host", hello ? hello->host : NULL);
  ws_json_writer_bool (json, "from_runner", ws_trace_is_from_runner (r->trace));
  if (device != NULL)
    {
      const WsDeviceInfo *d = ws_device_get_info (device);

      ws_json_writer_begin_object (json, "device");
      ws_json_writer_string (json, "name", d->name);
      ws_json_writer_string (json, "sm", d->sm);
      ws_json_writer_int (json, "sm_count", d->sm_count);
      ws_json_writer_string (json, "uuid", d->uuid);
      ws_json_writer_double (json, "h2d_pinned_gbs",
                             d->h2d_pinned_gbs > 0 ? d->h2d_pinned_gbs : NAN);
      ws_json_writer_double (json, "d2h_pinned_gbs",
                             d->d2h_pinned_gbs > 0 ? d->d2h_pinned_gbs : NAN);
      ws_json_writer_end_object (json);
    }
  else
    ws_json_writer_null (json, "device");
  ws_json_writer_begin_array (json, "errors");
  for (guint i = 0; i < errors->len; i++)
    {
      const WsRunnerError *e = g_ptr_array_index (errors, i);

      ws_json_writer_begin_object (json, NULL);
      ws_json_writer_string (json, "severity", ws_error_severity_to_string (e->severity));
      ws_json_writer_string (json, "code", e->code_name);
      ws_json_writer_string (json, "message", e->message);
      ws_json_writer_string (json, "detail", e->detail);
      ws_json_writer_end_object (json);
    }
  ws_json_writer_end_array (json);
  ws_json_writer_begin_array (json, "programs");
  for (guint i = 0; i < programs->len; i++)
    json_program (json, r, g_ptr_array_index (programs, i));
  ws_json_writer_end_array (json);
  ws_json_writer_begin_array (json, "series");
  for (guint s = 0; s < series->len; s++)
    {
      WsTraceSeries *one = g_ptr_array_index (series, s);

      ws_json_writer_begin_object (json, NULL);
      ws_json_writer_string (json, "kernel", one->short_name);
      ws_json_writer_begin_array (json, "points");
      for (guint i = 0; i < one->points->len; i++)
        {
          const WsTraceKernel *k = g_ptr_array_index (one->points, i);

          ws_json_writer_begin_object (json, NULL);
          ws_json_writer_int (json, "program_run", k->program);
          json_dims (json, "block", k->block);
          ws_json_writer_double (json, "median_ns", k->median_ns);
          ws_json_writer_double (json, "occupancy",
                                 k->has_occupancy ? k->occupancy.occupancy : NAN);
          ws_json_writer_end_object (json);
        }
      ws_json_writer_end_array (json);
      ws_json_writer_end_object (json);
    }
  ws_json_writer_end_array (json);
  ws_json_writer_int (json, "findings_left_out", r->n_hidden);
  ws_json_writer_end_object (json);
  g_string_append_c (out, '\n');
}

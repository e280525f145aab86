/* ws-export-csv.c: the runs behind a chart as CSV, one row per run with the numbers the chart
 * plots (the occupancy chart: one row per point of its curves); which runs and which columns
 * each kind has is its entry in the table of chart kinds (WsChartClass.csv, ws-chart.c), the
 * pieces named there are here. Plain RFC 4180: a header, commas, quotes where a field needs
 * them, '.' as the decimal point, times in ns.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ws-analysis.h"
#include "ws-chart-blocks-private.h"
#include "ws-chart-breakdown-private.h"
#include "ws-chart-frame-private.h"
#include "ws-chart-occupancy-private.h"
#include "ws-chart-private.h"
#include "ws-chart-speedup-private.h"
#include "ws-export-private.h"
#include "ws-format.h"
#include "ws-occupancy.h"
#include "ws-run-columns.h"
#include "ws-trace-command.h"
#include "ws-trace.h"

static void
sep (GString *out)
{
  g_string_append_c (out, ',');
}

static void
num (GString *out, double value)
{
  sep (out);
  _ws_export_append_number (out, value);
}

static void
text (GString *out, const char *value)
{
  sep (out);
  ws_format_append_csv_field (out, value);
}

static const char common_header[] = "session,device,run,kernel,state,size,shape,block_x,block_y,"
                                    "block_z,threads_per_block,grid_x,grid_y,grid_z,transfer";

/* A column of ws-run-columns.h, as the report's CSV has it, with this file's numbers. */
static void
append_column (GString *out, const WsRunColumn *column, WsRun *run)
{
  WsRunValue v;

  g_assert (column != NULL);
  ws_run_column_get (column, run, NULL, &v);
  sep (out);
  ws_run_value_append_csv (&v, out, _ws_export_append_number);
  ws_run_value_clear (&v);
}

static void
run_column (GString *out, const char *key, WsRun *run)
{
  append_column (out, ws_run_column_find (key), run);
}

static void
common (GString *out, guint session_index, WsSession *session, WsRun *run)
{
  const WsRunConfig *c = ws_run_get_config (run);
  WsDevice *device = ws_session_get_device (session);
  g_autofree char *shape = _ws_chart_dup_size_label (run);

  _ws_export_append_number (out, session_index + 1);
  text (out, device ? ws_device_get_name (device) : NULL);
  run_column (out, "run", run);
  run_column (out, "kernel", run);
  run_column (out, "state", run);
  /* The size as the runner gave it, 0 included, and the shape as the chart names it
   * ("4096²"), where the report's CSV has the dimensions ("4096x4096x1"). */
  num (out, c->size);
  text (out, shape);
  for (int i = 0; i < 3; i++)
    num (out, c->block[i]);
  run_column (out, "threads_per_block", run);
  for (int i = 0; i < 3; i++)
    num (out, c->grid[i]);
  run_column (out, "transfer", run);
}

/* ---- the runs each kind's rows are of ------------------------------------------------- */

static GPtrArray *
runs_new (void)
{
  return g_ptr_array_new_with_free_func (g_object_unref);
}

static void
add_series_runs (GPtrArray *runs, GPtrArray *series)
{
  for (guint i = 0; i < series->len; i++)
    {
      WsSeries *s = g_ptr_array_index (series, i);

      for (guint r = 0; r < s->runs->len; r++)
        g_ptr_array_add (runs, g_object_ref (g_ptr_array_index (s->runs, r)));
    }
}

GPtrArray *
_ws_csv_speedup_runs (WsSession *session, const WsChartOptions *options, WsChartCsvMarks *marks)
{
  GPtrArray *runs = runs_new ();
  WsChartRequest request;
  g_autoptr (GPtrArray) series = NULL;

  _ws_chart_request_init (&request, NULL, options);
  series = _ws_speedup_pick_series (session, &request.base);
  add_series_runs (runs, series);
  return runs;
}

/* The first series' fastest run and those tied with it, as the chart ranks them. */
GPtrArray *
_ws_csv_blocks_runs (WsSession *session, const WsChartOptions *options, WsChartCsvMarks *marks)
{
  GPtrArray *runs = runs_new ();
  gboolean heatmap;
  WsChartRequest request;
  g_autoptr (GPtrArray) series = NULL;

  _ws_chart_request_init (&request, NULL, options);
  series = _ws_blocks_pick_series (session, &request.base, &heatmap);
  if (series->len > 0)
    {
      marks->tied = g_ptr_array_new_with_free_func (g_object_unref);
      marks->best = ws_analysis_rank_blocks (g_ptr_array_index (series, 0), marks->tied);
      for (guint k = 0; k < marks->tied->len; k++)
        g_object_ref (g_ptr_array_index (marks->tied, k));
      if (marks->best)
        g_object_ref (marks->best);
    }
  add_series_runs (runs, series);
  return runs;
}

/* The runs the chart plots: measured, with parameter values; the fastest marked. */
GPtrArray *
_ws_csv_params_runs (WsSession *session, const WsChartOptions *options, WsChartCsvMarks *marks)
{
  GPtrArray *runs = runs_new ();
  WsChartRequest request;
  WsParamsData *params;
  GListModel *model = ws_session_get_runs (session);

  _ws_chart_request_init (&request, NULL, options);
  params = _ws_params_collect (session, &request.base);
  if (params == NULL)
    return runs;
  if (ws_session_find_run (session, params->best) != NULL)
    marks->best = g_object_ref (ws_session_find_run (session, params->best));
  _ws_params_data_free (params);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (model, i);

      if (ws_run_get_config (run)->params != NULL && ws_run_get_kernel_ns (run) > 0)
        g_ptr_array_add (runs, g_steal_pointer (&run));
    }
  return runs;
}

/* The runs with activities in the window; without one, the run asked for or all. */
GPtrArray *
_ws_csv_timeline_runs (WsSession *session, const WsChartOptions *options,
                       WsChartCsvMarks *marks)
{
  GPtrArray *runs = runs_new ();
  GListModel *model = ws_session_get_runs (session);
  gboolean window = options->window_end > options->window_start;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (model, i);
      gint64 s, e;

      if (!ws_run_get_time_range (run, &s, &e))
        continue;
      if (options->run != 0 && !window && ws_run_get_id (run) != options->run)
        continue;
      if (window && (e <= options->window_start || s >= options->window_end))
        continue;
      g_ptr_array_add (runs, g_steal_pointer (&run));
    }
  return runs;
}

/* The runs a chart of runs draws (_ws_chart_runs): the run asked for, or all. */
GPtrArray *
_ws_csv_chart_runs (WsSession *session, const WsChartOptions *options, WsChartCsvMarks *marks)
{
  GPtrArray *runs = runs_new ();
  WsChartRequest request;
  g_autoptr (GPtrArray) all = NULL;

  _ws_chart_request_init (&request, NULL, options);
  all = _ws_chart_runs (session, &request.base);
  for (guint i = 0; i < all->len; i++)
    g_ptr_array_add (runs, g_object_ref (g_ptr_array_index (all, i)));
  return runs;
}

/* ---- each kind's cells ---------------------------------------------------------------- */

void
_ws_csv_timeline_row (GString *out, WsSession *session, WsRun *run,
                      const WsChartOptions *options, const WsChartCsvMarks *marks)
{
  guint n;
  const WsSpan *a = ws_run_get_activities (run, &n);
  gint64 s = 0, e = 0, lo = G_MININT64, hi = G_MAXINT64;
  guint count = 0, kernels = 0, copies = 0;
  guint64 bytes = 0;
  WsTotals tot;

  if (options->window_end > options->window_start)
    lo = options->window_start, hi = options->window_end;
  ws_run_get_time_range (run, &s, &e);
  for (guint i = 0; i < n; i++)
    if (a[i].end > lo && a[i].start < hi)
      {
        count++;
        kernels += a[i].kind == WS_ACTIVITY_KERNEL;
        if (a[i].kind == WS_ACTIVITY_MEMCPY)
          {
            copies++;
            bytes += a[i].bytes;
          }
      }
  ws_run_get_totals (run, &tot);
  num (out, (double) s);
  num (out, (double) e);
  num (out, count);
  num (out, kernels);
  num (out, copies);
  num (out, (double) bytes);
  num (out, (double) tot.span_ns);
  num (out, (double) tot.h2d_ns);
  num (out, (double) tot.kernel_ns);
  num (out, (double) tot.d2h_ns);
  num (out, (double) tot.idle_ns);
}

/* The columns of ws-run-columns.h that a chart's CSV has after the common ones, by the names
 * this file gives them. */
const char *const _ws_csv_speedup_columns[] = {
  "kernel_median_ns", "kernel_min_ns", "kernel_max_ns", "e2e_median_ns", "e2e_min_ns",
  "e2e_max_ns", "cpu_1_thread_median_ns", "cpu_all_cores_median_ns", "cpu_all_cores_threads",
  "speedup_kernel_vs_1_thread", "speedup_kernel_vs_all_cores", "speedup_e2e_vs_1_thread",
  "speedup_e2e_vs_all_cores", NULL,
};

const char *const _ws_csv_blocks_columns[] = {
  "kernel_median_ns", "kernel_min_ns", "kernel_max_ns", "occupancy", "limiter",
  "active_blocks_per_sm", "registers", "achieved_occupancy_pct", NULL,
};

const char *const _ws_csv_params_columns[] = {
  "params", "kernel_median_ns", "kernel_min_ns", "kernel_max_ns", NULL,
};

void
_ws_csv_blocks_row (GString *out, WsSession *session, WsRun *run,
                    const WsChartOptions *options, const WsChartCsvMarks *marks)
{
  num (out, run == marks->best);
  num (out, marks->tied != NULL && g_ptr_array_find (marks->tied, run, NULL));
}

void
_ws_csv_params_row (GString *out, WsSession *session, WsRun *run,
                    const WsChartOptions *options, const WsChartCsvMarks *marks)
{
  num (out, run == marks->best);
}

void
_ws_csv_breakdown_row (GString *out, WsSession *session, WsRun *run,
                       const WsChartOptions *options, const WsChartCsvMarks *marks)
{
  WsTotals tot;

  ws_run_get_totals (run, &tot);
  num (out, (double) tot.span_ns);
  num (out, (double) tot.h2d_ns);
  num (out, (double) tot.kernel_ns);
  num (out, (double) tot.d2h_ns);
  num (out, (double) tot.overlap_ns);
  num (out, (double) tot.idle_ns);
  num (out, tot.span_ns > 0 ? (double) (tot.h2d_ns + tot.d2h_ns) / tot.span_ns : NAN);
}

void
_ws_csv_roofline_row (GString *out, WsSession *session, WsRun *run,
                      const WsChartOptions *options, const WsChartCsvMarks *marks)
{
  static const char *const ceilings[] = { "", "copy_bandwidth", "cublas", "fp32_peak" };
  const WsRunConfig *c = ws_run_get_config (run);
  double kns = ws_run_get_kernel_ns (run), fraction = NAN, ceiling = NAN;
  WsCeiling which = ws_analysis_get_ceiling (session, run, &fraction, &ceiling);

  num (out, c->flops);
  num (out, c->bytes);
  num (out, c->bytes > 0 ? c->flops / c->bytes : NAN);
  num (out, kns > 0 ? kns : NAN);
  num (out, kns > 0 ? c->flops / kns : NAN);
  num (out, kns > 0 ? c->bytes / kns : NAN);
  text (out, (guint) which < G_N_ELEMENTS (ceilings) ? ceilings[which] : NULL);
  num (out, which != WS_CEILING_NONE ? fraction : NAN);
}

/* ---- the text ------------------------------------------------------------------------- */

static void
write_run_row (GString *out, const WsChartCsv *csv, const WsChartOptions *options, guint si,
               WsSession *session, WsRun *run, const WsChartCsvMarks *marks)
{
  common (out, si, session, run);
  for (guint i = 0; csv->columns != NULL && csv->columns[i] != NULL; i++)
    append_column (out, ws_run_column_find_export (csv->columns[i]), run);
  if (csv->row != NULL)
    csv->row (out, session, run, options, marks);
  g_string_append (out, "\r\n");
}

static void
append_kind_header (GString *out, const WsChartCsv *csv)
{
  for (guint i = 0; csv->columns != NULL && csv->columns[i] != NULL; i++)
    g_string_append_printf (out, ",%s", csv->columns[i]);
  if (csv->header != NULL)
    g_string_append (out, csv->header);
}

/* The occupancy chart plots curves, not runs: its points are the rows. */
gboolean
_ws_csv_occupancy_text (GString *out, GPtrArray *sessions, const WsChartOptions *o,
                        GError **error)
{
  WsSession *session = sessions && sessions->len ? g_ptr_array_index (sessions, 0) : NULL;
  static const char *const names[] = { "threads_per_block", "registers_per_thread",
                                       "smem_per_block" };
  WsOccupancyInput input;
  WsChartRequest request;
  const char *arch_name;
  const WsArchLimits *arch;

  _ws_chart_request_init (&request, sessions, o);
  arch_name = _ws_occupancy_chart_input (session, &request.base, &request.occupancy, NULL,
                                         &input);
  arch = ws_arch_limits_lookup (arch_name);

  if (arch == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The occupancy calculator does not know the architecture “%s”."), arch_name);
      return FALSE;
    }
  g_string_append (out, "arch,curve,x,occupancy,active_blocks_per_sm,current\r\n");
  for (int curve = 0; curve < 3; curve++)
    {
      g_autoptr (GArray) points = NULL;
      double current = curve == 0 ? input.threads_per_block
                       : curve == 1 ? input.registers_per_thread
                                    : input.smem_per_block;

      points = curve == 0   ? ws_occupancy_curve_block_size (arch, &input, error)
               : curve == 1 ? ws_occupancy_curve_registers (arch, &input, error)
                            : ws_occupancy_curve_smem (arch, &input, error);
      if (points == NULL)
        return FALSE;
      for (guint i = 0; i < points->len; i++)
        {
          const WsOccupancyPoint *p = &g_array_index (points, WsOccupancyPoint, i);

          ws_format_append_csv_field (out, arch->arch);
          text (out, names[curve]);
          num (out, p->x);
          num (out, p->occupancy);
          num (out, p->active_blocks);
          num (out, p->x == current);
          g_string_append (out, "\r\n");
        }
    }
  return TRUE;
}

/* A traced program's breakdown has no runs: its rows are the program runs, each one's wall
 * time and the shares of it on the GPU, as the chart draws them. */
static gboolean
all_traces (GPtrArray *sessions)
{
  for (guint si = 0; sessions != NULL && si < sessions->len; si++)
    if (ws_session_get_trace (g_ptr_array_index (sessions, si)) == NULL)
      return FALSE;
  return sessions != NULL && sessions->len > 0;
}

gboolean
_ws_csv_breakdown_text (GString *out, GPtrArray *sessions, const WsChartOptions *o,
                        GError **error)
{
  WsChartRequest request;

  if (!all_traces (sessions))
    return TRUE;

  _ws_chart_request_init (&request, sessions, o);
  g_string_append (out, "session,program_run,params,wall_ns,h2d_share,kernel_share,d2h_share,"
                        "other_share,idle_share,copy_share\r\n");
  for (guint si = 0; si < sessions->len; si++)
    {
      WsSession *session = g_ptr_array_index (sessions, si);
      WsTrace *trace = ws_session_get_trace (session);
      WsBreakdownData *data = _ws_breakdown_collect (session, &request.base);

      for (guint i = 0; i < data->rows->len; i++)
        {
          const WsBreakdownRow *row = &g_array_index (data->rows, WsBreakdownRow, i);
          const WsTraceProgram *p = ws_trace_get_program (trace, (guint) row->run);
          /* The sweep's values ("TPB=64"), not the chart's translated label. */
          g_autofree char *params = p != NULL ? ws_trace_describe_params (p) : NULL;

          g_string_append_printf (out, "%u", si);
          num (out, row->run);
          text (out, params != NULL ? params : "");
          num (out, (double) row->span_ns);
          num (out, row->share[WS_SEGMENT_H2D]);
          num (out, row->share[WS_SEGMENT_KERNEL]);
          num (out, row->share[WS_SEGMENT_D2H]);
          num (out, row->share[WS_SEGMENT_OTHER]);
          num (out, row->share[WS_SEGMENT_IDLE]);
          num (out, row->copies);
          g_string_append (out, "\r\n");
        }
      _ws_breakdown_data_free (data);
    }
  return TRUE;
}

static gboolean
write_string_cb (GOutputStream *stream, gpointer user_data, GError **error)
{
  GString *s = user_data;

  return g_output_stream_write_all (stream, s->str, s->len, NULL, NULL, error);
}

/* The whole CSV text of the chart's numbers; NULL and `error` when it has none to give. */
static GString *
csv_text (GPtrArray *sessions, const WsChartOptions *options, GError **error)
{
  const WsChartCsv *csv = &_ws_chart_class (options->kind)->csv;
  g_autoptr (GString) out = g_string_new (NULL);

  if (csv->text != NULL && !csv->text (out, sessions, options, error))
    return NULL;
  if (out->len > 0)
    return g_steal_pointer (&out);
  g_string_append (out, common_header);
  append_kind_header (out, csv);
  g_string_append (out, "\r\n");
  for (guint si = 0; sessions && si < sessions->len; si++)
    {
      WsSession *session = g_ptr_array_index (sessions, si);
      WsChartCsvMarks marks = { NULL, NULL };
      g_autoptr (GPtrArray) runs = csv->runs (session, options, &marks);

      for (guint i = 0; i < runs->len; i++)
        write_run_row (out, csv, options, si, session, g_ptr_array_index (runs, i), &marks);
      g_clear_pointer (&marks.tied, g_ptr_array_unref);
      g_clear_object (&marks.best);
    }
  return g_steal_pointer (&out);
}

gboolean
ws_export_csv (GPtrArray *sessions, const WsChartOptions *options, GFile *file, GError **error)
{
  g_autoptr (GString) out = NULL;

  g_return_val_if_fail (options != NULL, FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  if ((out = csv_text (sessions, options, error)) == NULL)
    return FALSE;
  return ws_file_write_atomic (file, write_string_cb, out, error);
}

gboolean
ws_export_csv_to_stream (GPtrArray *sessions, const WsChartOptions *options,
                         GOutputStream *stream, GError **error)
{
  g_autoptr (GString) out = NULL;

  g_return_val_if_fail (options != NULL, FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);
  if ((out = csv_text (sessions, options, error)) == NULL)
    return FALSE;
  return write_string_cb (stream, out, error);
}

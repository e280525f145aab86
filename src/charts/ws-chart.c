/* ws-chart.c: the table of chart kinds (name, title, what each needs, how it collects, draws
 * and frees its data, what its CSV holds), the request split into a base and per-kind parts, and the one entry
 * point that draws any chart: collect, then draw.
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
#include "ws-chart-roofline-private.h"
#include "ws-chart-series-private.h"
#include "ws-chart-speedup-private.h"
#include "ws-chart-timeline-private.h"
#include "ws-export-private.h"

/* The needs that a session's series answer are found once per query. */
static gboolean
has_series (WsSession *session, WsSeriesKind kind, gboolean with_baseline)
{
  GPtrArray *all = ws_session_analysis_get_series (_ws_chart_analysis (session), kind);

  if (!with_baseline)
    return all->len > 0;
  for (guint i = 0; i < all->len; i++)
    {
      WsSeries *series = g_ptr_array_index (all, i);

      for (guint r = 0; r < series->runs->len; r++)
        if (ws_run_get_speedup (g_ptr_array_index (series->runs, r), TRUE, FALSE) > 0)
          return TRUE;
    }
  return FALSE;
}

static gboolean
has_runs_with (WsSession *session, WsChartNeeds need)
{
  GListModel *runs = ws_session_get_runs (session);

  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);

      if (need == WS_CHART_NEEDS_SEQUENCES)
        {
          WsTotals totals;

          ws_run_get_totals (run, &totals);
          if (totals.span_ns > 0)
            return TRUE;
        }
      else if (ws_run_get_kernel_ns (run) > 0 && ws_run_get_config (run)->bytes > 0)
        return TRUE;
    }
  return FALSE;
}

static gboolean
has_param_sweep (WsSession *session)
{
  WsChartBase base = { .theme = ws_theme_get (WS_THEME_LIGHT) };
  WsParamsData *params = _ws_params_collect (session, &base);
  gboolean swept = params != NULL;

  g_clear_pointer (&params, _ws_params_data_free);
  return swept;
}

gboolean
_ws_chart_needs_met (WsChartKind kind, WsSession *session)
{
  WsChartNeeds needs = _ws_chart_class (kind)->needs;

  if (needs == WS_CHART_NEEDS_NOTHING)
    return TRUE;
  if (session == NULL)
    return FALSE;
  if ((needs & WS_CHART_NEEDS_ACTIVITIES) && ws_session_get_n_activities (session) == 0)
    return FALSE;
  if ((needs & WS_CHART_NEEDS_SIZE_SWEEP) && !has_series (session, WS_SERIES_BY_SIZE, TRUE))
    return FALSE;
  if ((needs & WS_CHART_NEEDS_BLOCK_SWEEP) && !has_series (session, WS_SERIES_BY_BLOCK, FALSE)
      && !_ws_blocks_trace_has_sweep (session))
    return FALSE;
  if ((needs & WS_CHART_NEEDS_SEQUENCES) && !has_runs_with (session, WS_CHART_NEEDS_SEQUENCES))
    return FALSE;
  if ((needs & WS_CHART_NEEDS_COUNTS) && !has_runs_with (session, WS_CHART_NEEDS_COUNTS))
    return FALSE;
  if ((needs & WS_CHART_NEEDS_PARAM_SWEEP) && !has_param_sweep (session))
    return FALSE;
  return TRUE;
}

/* ---- the kinds -------------------------------------------------------------------------- */

static gpointer
collect_speedup (const WsChartRequest *r)
{
  return _ws_speedup_collect (r->sessions, &r->base);
}

static gpointer
collect_blocks (const WsChartRequest *r)
{
  return _ws_blocks_collect (r->sessions, &r->base);
}

static gpointer
collect_params (const WsChartRequest *r)
{
  return _ws_params_chart_collect (_ws_chart_request_session (r), &r->base);
}

static gpointer
collect_roofline (const WsChartRequest *r)
{
  return _ws_roofline_collect (r->sessions, &r->base);
}

static gpointer
collect_timeline (const WsChartRequest *r)
{
  return _ws_timeline_collect (_ws_chart_request_session (r), &r->base, &r->timeline);
}

static gpointer
collect_occupancy (const WsChartRequest *r)
{
  return _ws_occupancy_collect (_ws_chart_request_session (r), &r->base, &r->occupancy);
}

static gpointer
collect_breakdown (const WsChartRequest *r)
{
  return _ws_breakdown_collect (_ws_chart_request_session (r), &r->base);
}

/* Each kind: its name, what it needs, how it collects, draws and frees its data, and what its
 * CSV holds. */
static const WsChartClass kinds[WS_N_CHARTS] = {
  [WS_CHART_TIMELINE] = {
    "timeline", N_("Timeline"), WS_CHART_NEEDS_ACTIVITIES, FALSE,
    collect_timeline, (WsChartDrawFunc) _ws_timeline_draw,
    (GDestroyNotify) _ws_timeline_data_free,
    { NULL,
      ",first_ns,last_ns,activities,kernels,copies,copy_bytes,sequence_span_ns,h2d_ns,"
      "kernel_ns,d2h_ns,idle_ns",
      _ws_csv_timeline_runs, _ws_csv_timeline_row, NULL } },
  [WS_CHART_SPEEDUP] = {
    "speedup", N_("Speedup over the CPU"), WS_CHART_NEEDS_SIZE_SWEEP, TRUE,
    collect_speedup, (WsChartDrawFunc) _ws_speedup_draw,
    (GDestroyNotify) _ws_speedup_data_free,
    { _ws_csv_speedup_columns, NULL, _ws_csv_speedup_runs, NULL, NULL } },
  [WS_CHART_BLOCKS] = {
    "blocks", N_("Block size"), WS_CHART_NEEDS_BLOCK_SWEEP, TRUE,
    collect_blocks, (WsChartDrawFunc) _ws_blocks_draw,
    (GDestroyNotify) _ws_blocks_data_free,
    { _ws_csv_blocks_columns, ",best,tied_with_best", _ws_csv_blocks_runs,
      _ws_csv_blocks_row, NULL } },
  [WS_CHART_OCCUPANCY] = {
    "occupancy", N_("Occupancy"), WS_CHART_NEEDS_NOTHING, FALSE,
    collect_occupancy, (WsChartDrawFunc) _ws_occupancy_draw,
    (GDestroyNotify) _ws_occupancy_data_free,
    /* Its curves' points, not runs. */
    { NULL, NULL, NULL, NULL, _ws_csv_occupancy_text } },
  [WS_CHART_BREAKDOWN] = {
    "breakdown", N_("Time breakdown"), WS_CHART_NEEDS_SEQUENCES, FALSE,
    collect_breakdown, (WsChartDrawFunc) _ws_breakdown_draw,
    (GDestroyNotify) _ws_breakdown_data_free,
    /* A traced program's: its program runs' shares of the wall time. */
    { NULL, ",sequence_span_ns,h2d_ns,kernel_ns,d2h_ns,overlap_ns,idle_ns,copy_share",
      _ws_csv_chart_runs, _ws_csv_breakdown_row, _ws_csv_breakdown_text } },
  [WS_CHART_ROOFLINE] = {
    "roofline", N_("Roofline"), WS_CHART_NEEDS_COUNTS, TRUE,
    collect_roofline, (WsChartDrawFunc) _ws_roofline_draw,
    (GDestroyNotify) _ws_roofline_data_free,
    { NULL, ",flops,bytes,flop_per_byte,kernel_ns,gflops,gbs,ceiling,ceiling_fraction",
      _ws_csv_chart_runs, _ws_csv_roofline_row, NULL } },
  [WS_CHART_PARAMS] = {
    "params", N_("Tunable parameters"), WS_CHART_NEEDS_PARAM_SWEEP, FALSE,
    collect_params, (WsChartDrawFunc) _ws_blocks_draw,
    (GDestroyNotify) _ws_blocks_data_free,
    { _ws_csv_params_columns, ",best", _ws_csv_params_runs, _ws_csv_params_row, NULL } },
};

const WsChartClass *
_ws_chart_class (WsChartKind kind)
{
  g_return_val_if_fail ((guint) kind < WS_N_CHARTS, &kinds[WS_CHART_TIMELINE]);
  return &kinds[kind];
}

const char *
ws_chart_kind_to_string (WsChartKind kind)
{
  g_return_val_if_fail ((guint) kind < WS_N_CHARTS, NULL);
  return kinds[kind].name;
}

gboolean
ws_chart_kind_from_string (const char *name, WsChartKind *kind)
{
  g_return_val_if_fail (name != NULL, FALSE);
  for (guint i = 0; i < WS_N_CHARTS; i++)
    if (g_ascii_strcasecmp (name, kinds[i].name) == 0)
      {
        if (kind)
          *kind = (WsChartKind) i;
        return TRUE;
      }
  return FALSE;
}

const char *
ws_chart_kind_title (WsChartKind kind)
{
  g_return_val_if_fail ((guint) kind < WS_N_CHARTS, NULL);
  return _(kinds[kind].title);
}

/* ---- the request ------------------------------------------------------------------------ */

void
ws_chart_options_init (WsChartOptions *options, WsChartKind kind, const WsTheme *theme,
                       double width, double height)
{
  g_return_if_fail (options != NULL);
  memset (options, 0, sizeof *options);
  options->kind = kind;
  options->theme = theme ? theme : ws_theme_get (WS_THEME_LIGHT);
  options->width = width;
  options->height = height;
}

void
_ws_chart_request_init (WsChartRequest *r, GPtrArray *sessions, const WsChartOptions *o)
{
  static GPtrArray *none;

  if (g_once_init_enter (&none))
    g_once_init_leave (&none, g_ptr_array_new ());
  memset (r, 0, sizeof *r);
  r->sessions = sessions ? sessions : none;
  r->kind = o->kind;
  r->base = (WsChartBase) {
    .theme = o->theme ? o->theme : ws_theme_get (WS_THEME_LIGHT),
    .width = o->width,
    .height = o->height,
    .scale = 1,
    .run = o->run,
    .compare_run = o->compare_run,
    .annotate = o->annotate,
    .audience = o->audience,
  };
  r->timeline = (WsTimelineOptions) { o->window_start, o->window_end, o->selection_start,
                                      o->selection_end, o->highlight };
  r->occupancy = (WsOccupancyOptions) { o->arch, o->block_size, o->registers, o->smem_bytes };
}

WsSession *
_ws_chart_request_session (const WsChartRequest *r)
{
  return r->sessions->len > 0 ? g_ptr_array_index (r->sessions, 0) : NULL;
}

gpointer
_ws_chart_collect (const WsChartRequest *r)
{
  return _ws_chart_class (r->kind)->collect (r);
}

/* Device pixels per user-space unit: what a PNG's scale or a HiDPI screen makes of one unit. */
static double
device_scale (cairo_t *cr)
{
  double x = 1, y = 0;

  cairo_user_to_device_distance (cr, &x, &y);
  x = hypot (x, y);
  return isfinite (x) && x > 0 ? CLAMP (x, 0.25, 16) : 1;
}

void
ws_chart_draw (cairo_t *cr, GPtrArray *sessions, const WsChartOptions *options)
{
  _ws_chart_draw_recorded (cr, sessions, options, NULL);
}

void
_ws_chart_draw_recorded (cairo_t *cr, GPtrArray *sessions, const WsChartOptions *options,
                         WsChartDrawn *drawn)
{
  const WsChartClass *klass;
  WsChartRequest request;
  WsChartContext ctx;
  gpointer data;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (options != NULL);
  g_return_if_fail ((guint) options->kind < WS_N_CHARTS);

  if (!(options->width >= 1 && options->height >= 1) || !isfinite (options->width)
      || !isfinite (options->height))
    return;
  klass = _ws_chart_class (options->kind);
  _ws_chart_request_init (&request, sessions, options);
  request.base.scale = device_scale (cr);
  /* Collect first: nothing below analyses while painting. */
  data = klass->collect (&request);
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, options->width, options->height);
  cairo_clip (cr);
  _ws_chart_context_init (&ctx, cr, &request.base);
  /* The timeline keeps its text size: its lanes scroll, and its geometry queries measure
   * with the context as initialised. */
  if (options->kind != WS_CHART_TIMELINE)
    _ws_chart_context_fit (&ctx);
  if (drawn)
    {
      memset (drawn, 0, sizeof *drawn);
      drawn->fit = ctx.fit;
      ctx.drawn = drawn;
    }
  klass->draw (&ctx, data);
  _ws_chart_context_clear (&ctx);
  cairo_restore (cr);
  klass->free (data);
}

/* ---- before an export ------------------------------------------------------------------- */

static char *
session_name (WsSession *session)
{
  GFile *file = ws_session_get_file (session);

  return file != NULL ? g_file_get_basename (file) : g_strdup (_("a session"));
}

/* The speedup chart's size axis is elements or n of n×n matrices (ws-chart-speedup.c):
 * curves of both on one axis would put a vector of 4,096 elements beside a 4,096² matrix. */
static gboolean
check_speedup_axis (GPtrArray *sessions, const WsChartBase *base, GError **error)
{
  int first_matrix = -1;
  guint first_session = 0;

  for (guint si = 0; si < sessions->len; si++)
    {
      WsSession *session = g_ptr_array_index (sessions, si);
      g_autoptr (GPtrArray) picked = _ws_speedup_pick_series (session, base);

      for (guint i = 0; i < picked->len; i++)
        {
          WsSeries *series = g_ptr_array_index (picked, i);
          int matrix;
          g_autofree char *a = NULL, *b = NULL;

          if (series->runs->len == 0)
            continue;
          matrix = ws_run_get_config (g_ptr_array_index (series->runs, 0))->shape_rank == 3;
          if (first_matrix < 0)
            {
              first_matrix = matrix;
              first_session = si;
              continue;
            }
          if (matrix == first_matrix)
            continue;
          a = session_name (g_ptr_array_index (sessions, first_session));
          b = session_name (session);
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("The speedup chart has one size axis, and these sessions need two: "
                         "%s has %s, %s has %s. Export them as separate charts, one session "
                         "each."),
                       a, first_matrix ? _("matrix sizes (n×n)") : _("vector sizes (elements)"),
                       b, matrix ? _("matrix sizes (n×n)") : _("vector sizes (elements)"));
          return FALSE;
        }
    }
  return TRUE;
}

/* The sentence a chart collected for `request` would show instead of a plot, or NULL when it
 * has something to draw. */
static char *
why_empty (const WsChartRequest *request)
{
  const WsChartClass *klass = _ws_chart_class (request->kind);
  gpointer data = klass->collect (request);
  /* Every kind's data starts with its frame (WsChartClass). */
  const WsChartFrame *frame = data;
  char *why = g_strdup (frame->message);

  /* A size sweep without a CPU baseline draws its axes, but no point on them. */
  if (why == NULL && request->kind == WS_CHART_SPEEDUP && !((WsSpeedupData *) data)->any)
    why = g_strdup (_ws_speedup_no_baseline_message (request->base.audience));
  klass->free (data);
  return why;
}

gboolean
ws_chart_check (GPtrArray *sessions, const WsChartOptions *options, GError **error)
{
  WsChartRequest request;
  g_autofree char *why = NULL;

  g_return_val_if_fail (sessions != NULL && sessions->len > 0, FALSE);
  g_return_val_if_fail (options != NULL, FALSE);
  _ws_chart_request_init (&request, sessions, options);
  if (options->kind == WS_CHART_SPEEDUP
      && !check_speedup_axis (sessions, &request.base, error))
    return FALSE;
  /* A chart that would only say why it is empty (a block-size chart without a block sweep, a
   * speedup without a CPU baseline, a traced program's roofline) is refused with that
   * sentence, which says what to run instead. */
  if ((why = why_empty (&request)) != NULL)
    {
      g_autofree char *name = session_name (_ws_chart_request_session (&request));

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: %s", name, why);
      return FALSE;
    }
  return TRUE;
}

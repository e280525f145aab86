/* ws-chart-breakdown.c: what the time breakdown shows, collected from either source of runs: a
 * stacked bar per run of where its time went (H2D, kernel, D2H, memsets and other copies, idle),
 * each bar as shares of its own whole so that a transfer-bound run reads at a glance whatever
 * its size. A sweep's run is the whole of its copy-and-kernel sequences; a traced program's
 * run is its wall time, from its spans. The drawing is in ws-chart-breakdown-draw.c.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ws-chart-breakdown-private.h"
#include "ws-chart-format-private.h"
#include "ws-trace-command.h"
#include "ws-trace.h"

static const char *const segment_names[WS_N_SEGMENTS] = { N_("H2D copy"), N_("kernel"),
                                                          N_("D2H copy"), N_("memset"),
                                                          N_("idle") };

/* One bar as a source gives it: each segment's time, the whole it is a share of, and what the
 * right-hand text says besides the whole and the copies. */
typedef struct
{
  int run;
  char *label;
  double ns[WS_N_SEGMENTS]; /* overlapping segments are each counted whole */
  gint64 whole_ns;
  double overlap;           /* share of the whole with copies and kernels at once */
  double api;               /* share with the host inside a CUDA call; NAN: not recorded */
} Bar;

static void
bar_clear (Bar *bar)
{
  g_free (bar->label);
}

static GArray *
bars_new (void)
{
  GArray *bars = g_array_new (FALSE, TRUE, sizeof (Bar));

  g_array_set_clear_func (bars, (GDestroyNotify) bar_clear);
  return bars;
}

static WsColor
segment_color (const WsTheme *t, WsSegment segment)
{
  switch (segment)
    {
    case WS_SEGMENT_H2D:
      return t->h2d;
    case WS_SEGMENT_KERNEL:
      return t->kernel;
    case WS_SEGMENT_D2H:
      return t->d2h;
    case WS_SEGMENT_OTHER:
      return t->memset;
    case WS_SEGMENT_IDLE:
    case WS_N_SEGMENTS:
    default:
      return t->idle;
    }
}

/* Shares summing to 1: with overlap the segments are scaled to fit the bar. */
static gboolean
shares (const double ns[WS_N_SEGMENTS], double share[WS_N_SEGMENTS])
{
  double sum = 0;

  for (int s = 0; s < WS_N_SEGMENTS; s++)
    sum += share[s] = ns[s];
  if (!(sum > 0) || !isfinite (sum))
    return FALSE;
  for (int s = 0; s < WS_N_SEGMENTS; s++)
    share[s] /= sum;
  return TRUE;
}

/* ---- a sweep's runs: their copy-and-kernel sequences ------------------------------------- */

/* Copies and kernels that overlap are each counted whole; what kept the GPU busy besides them
 * is the rest of the busy time. */
static gboolean
sequence_bar (const WsTotals *t, Bar *bar)
{
  double busy, share[WS_N_SEGMENTS];

  if (t->span_ns <= 0)
    return FALSE;
  busy = (double) t->span_ns - (double) t->idle_ns;
  bar->ns[WS_SEGMENT_H2D] = MAX (0, (double) t->h2d_ns);
  bar->ns[WS_SEGMENT_KERNEL] = MAX (0, (double) t->kernel_ns);
  bar->ns[WS_SEGMENT_D2H] = MAX (0, (double) t->d2h_ns);
  bar->ns[WS_SEGMENT_OTHER] = MAX (0, busy - ((double) t->copy_ns + (double) t->kernel_ns
                                              - (double) t->overlap_ns));
  bar->ns[WS_SEGMENT_IDLE] = MAX (0, (double) t->idle_ns);
  bar->whole_ns = t->span_ns;
  /* Streams overlap copies with kernels: the text says how much of the span had both. */
  bar->overlap = t->overlap_ns > t->span_ns / 200 ? (double) t->overlap_ns / t->span_ns : 0;
  bar->api = NAN;
  return shares (bar->ns, share);
}

static gboolean
same_size (const WsRunConfig *a, const WsRunConfig *b)
{
  return a->shape_rank == b->shape_rank && memcmp (a->shape, b->shape, sizeof a->shape) == 0;
}

static gboolean
same_block (const WsRunConfig *a, const WsRunConfig *b)
{
  return a->library == b->library && memcmp (a->block, b->block, sizeof a->block) == 0;
}

typedef struct
{
  gboolean size, block, transfer, kernel;
} Vary;

/* Row labels name only what differs between runs; what all share is said once, above. */
static Vary
what_varies (GPtrArray *runs)
{
  const WsRunConfig *first = ws_run_get_config (g_ptr_array_index (runs, 0));
  Vary v = { FALSE };

  for (guint i = 1; i < runs->len; i++)
    {
      const WsRunConfig *c = ws_run_get_config (g_ptr_array_index (runs, i));

      v.size |= !same_size (c, first);
      v.block |= !same_block (c, first);
      v.transfer |= g_strcmp0 (c->transfer, first->transfer) != 0;
      v.kernel |= g_strcmp0 (c->kernel, first->kernel) != 0;
    }
  return v;
}

static char *
common_text (WsRun *first, const Vary *v)
{
  g_autoptr (GString) common = g_string_new (NULL);
  g_autofree char *block = ws_run_dup_block_phrase (first);

  if (!v->size)
    {
      g_autofree char *size = _ws_chart_dup_size_label (first);

      g_string_append (common, size);
    }
  if (!v->block && *block)
    g_string_append_printf (common, "%s%s", common->len ? " · " : "", block);
  if (!v->transfer)
    g_string_append_printf (common, "%s%s", common->len ? " · " : "",
                            ws_transfer_label (ws_run_get_config (first)->transfer));
  if (common->len == 0)
    return NULL;
  return g_strdup_printf (_("every run: %s"), common->str);
}

static char *
run_label (WsRun *run, const Vary *v)
{
  const WsRunConfig *c = ws_run_get_config (run);
  GString *label = g_string_new (NULL);

  g_string_append_printf (label, _("run %d"), c->id);
  if (v->kernel)
    g_string_append_printf (label, " · %s", c->kernel);
  if (v->size)
    {
      g_autofree char *size = _ws_chart_dup_size_label (run);

      g_string_append_printf (label, " · %s", size);
    }
  if (v->block)
    {
      g_autofree char *block = ws_run_dup_block_phrase (run);

      if (*block)
        g_string_append_printf (label, " · %s", block);
    }
  if (v->transfer)
    g_string_append_printf (label, " · %s", ws_transfer_label (c->transfer));
  return g_string_free (label, FALSE);
}

/* The runs with sequences to break down, with their bars; the title, the line of what every
 * run shares and, in presentation mode, the notes. */
static GArray *
sweep_bars (WsBreakdownData *data, WsSession *session, const WsChartBase *base)
{
  g_autoptr (GPtrArray) all = _ws_chart_runs (session, base);
  g_autoptr (GPtrArray) runs = g_ptr_array_new ();
  GArray *bars = bars_new ();
  Vary v;

  for (guint i = 0; i < all->len; i++)
    {
      WsTotals t;
      Bar bar = { 0 };

      ws_run_get_totals (g_ptr_array_index (all, i), &t);
      if (!sequence_bar (&t, &bar))
        continue;
      bar.run = ws_run_get_id (g_ptr_array_index (all, i));
      g_ptr_array_add (runs, g_ptr_array_index (all, i));
      g_array_append_val (bars, bar);
    }
  if (runs->len > 0)
    {
      g_autofree char *kernels = ws_runs_dup_kernels_label (runs);

      data->frame.title = g_strdup_printf ("%s · %s", ws_chart_kind_title (WS_CHART_BREAKDOWN),
                                           kernels);
    }
  else
    data->frame.title = g_strdup (ws_chart_kind_title (WS_CHART_BREAKDOWN));
  data->frame.subtitle = _ws_chart_subtitle (session, _("where each run's copy-and-kernel "
                                                        "sequences spend their time, as shares "
                                                        "of their span"));
  /* Summed over the run's sequences, so that it is not read as the runs table's end to end (the
   * median of one sequence). */
  data->whole = _("all sequences, summed");
  /* Translators: over the right-hand column of a narrow breakdown: the sequences' times
   * added up. */
  data->whole_short = _("summed");
  data->axis_title = _("Share of the sequence span (%)");
  data->n_runs = runs->len;
  if (runs->len == 0)
    return bars;
  v = what_varies (runs);
  data->common = common_text (g_ptr_array_index (runs, 0), &v);
  for (guint i = 0; i < bars->len && i < WS_BREAKDOWN_MAX_ROWS; i++)
    g_array_index (bars, Bar, i).label = run_label (g_ptr_array_index (runs, i), &v);
  if (base->annotate)
    _ws_chart_frame_add_notes (&data->frame, session, runs, base->audience);
  return bars;
}

/* ---- a traced program's runs: their wall time, from the spans ---------------------------- */

/* The API calls' union is counted beside the GPU's segments, as WS_N_SEGMENTS. */
#define API WS_N_SEGMENTS

typedef struct
{
  gint64 at;
  int what; /* a WsSegment, or API */
  int step; /* +1 starts, -1 ends */
} Edge;

static int
compare_edges (const void *a, const void *b)
{
  const Edge *x = a, *y = b;

  if (x->at != y->at)
    return x->at < y->at ? -1 : 1;
  return x->step - y->step; /* an end before a start at the same instant */
}

static int
segment_of (const WsSpan *s)
{
  switch (s->kind)
    {
    case WS_ACTIVITY_KERNEL:
      return WS_SEGMENT_KERNEL;
    case WS_ACTIVITY_MEMCPY:
      return s->direction == WS_COPY_HTOD   ? WS_SEGMENT_H2D
             : s->direction == WS_COPY_DTOH ? WS_SEGMENT_D2H
                                            : WS_SEGMENT_OTHER;
    case WS_ACTIVITY_MEMSET:
      return WS_SEGMENT_OTHER;
    case WS_ACTIVITY_API:
      return API;
    default:
      return -1;
    }
}

/* The run's spans in time order: each instant goes to the first of kernel, H2D, D2H, other
 * that is busy then, else to idle, so that the segments add up to the wall time. */
static gboolean
wall_bar (WsTrace *trace, guint program, Bar *bar)
{
  static const int order[] = { WS_SEGMENT_KERNEL, WS_SEGMENT_H2D, WS_SEGMENT_D2H,
                               WS_SEGMENT_OTHER };
  guint n;
  const WsSpan *spans = ws_trace_get_spans (trace, &n);
  g_autoptr (GArray) edges = g_array_new (FALSE, FALSE, sizeof (Edge));
  gint64 start, end, at;
  int busy[WS_N_SEGMENTS + 1] = { 0 };
  double api = 0;

  if (!ws_trace_get_program_range (trace, program, &start, &end) || end <= start)
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      int what = spans[i].run == program ? segment_of (&spans[i]) : -1;
      gint64 s = MAX (spans[i].start, start), e = MIN (spans[i].end, end);

      if (what < 0 || e <= s)
        continue;
      g_array_append_val (edges, ((Edge) { s, what, +1 }));
      g_array_append_val (edges, ((Edge) { e, what, -1 }));
    }
  qsort (edges->data, edges->len, sizeof (Edge), compare_edges);
  at = start;
  for (guint i = 0; i <= edges->len; i++)
    {
      gint64 next = i < edges->len ? g_array_index (edges, Edge, i).at : end;
      int segment = WS_SEGMENT_IDLE;

      for (guint k = 0; k < G_N_ELEMENTS (order); k++)
        if (busy[order[k]] > 0)
          {
            segment = order[k];
            break;
          }
      bar->ns[segment] += (double) (next - at);
      if (busy[API] > 0)
        api += (double) (next - at);
      at = next;
      if (i < edges->len)
        busy[g_array_index (edges, Edge, i).what] += g_array_index (edges, Edge, i).step;
    }
  bar->whole_ns = end - start;
  bar->api = api / (double) bar->whole_ns;
  return TRUE;
}

static char *
program_label (const WsTraceProgram *p)
{
  g_autofree char *params = NULL;

  if (p == NULL || p->of <= 1)
    return g_strdup (_("the program"));
  params = ws_trace_describe_params (p);
  return g_strdup_printf (_("run %u · %s"), p->id, params);
}

/* A traced program has no sweep's runs: its program runs are the bars. None, with `data` as
 * it was, when the session is no trace or no run has a time range. */
static GArray *
program_bars (WsBreakdownData *data, WsSession *session)
{
  WsTrace *trace = ws_session_get_trace (session);
  GPtrArray *programs = trace != NULL ? ws_trace_get_programs (trace) : NULL;
  guint ids = programs != NULL && programs->len > 0 ? programs->len : 1;
  GArray *bars = bars_new ();

  for (guint i = 0; trace != NULL && i < ids && bars->len < WS_BREAKDOWN_MAX_ROWS; i++)
    {
      const WsTraceProgram *p = programs->len > 0 ? g_ptr_array_index (programs, i) : NULL;
      Bar bar = { p != NULL ? (int) p->id : 1 };

      if (!wall_bar (trace, p != NULL ? p->id : 0, &bar))
        continue;
      bar.label = program_label (p);
      g_array_append_val (bars, bar);
    }
  if (bars->len == 0)
    return bars;
  data->n_runs = bars->len;
  data->frame.title = g_strdup_printf ("%s · %s", ws_chart_kind_title (WS_CHART_BREAKDOWN),
                                       _("the traced program"));
  data->frame.subtitle = _ws_chart_subtitle (session,
                                             _("where the program's wall time went on the GPU; "
                                               "idle is when it ran nothing, and the host was "
                                               "busy in Python, JIT compiles or waiting"));
  /* A bar is the program run from its first CUDA call to its exit, not a sequence of copies
   * and kernels. */
  data->whole = _("wall time");
  data->whole_short = data->whole;
  data->axis_title = _("Share of the wall time (%)");
  return bars;
}

/* ---- the rows, from either ---------------------------------------------------------------- */

static void
row_clear (WsBreakdownRow *row)
{
  g_free (row->label);
  g_free (row->right);
}

/* The whole, the copies' share, and the overlap or the host's CUDA calls where recorded
 * (NULL: not said). */
static char *
right_text (const char *whole, const char *copies, const char *overlap, const char *api)
{
  if (api != NULL)
    /* Translators: the program's wall time, the share of it with a copy on the GPU, and
     * the share with the host inside a CUDA call. */
    return g_strdup_printf (_("%1$s · copies %2$s · CUDA calls %3$s"), whole, copies, api);
  if (overlap != NULL)
    return g_strdup_printf (_("%s · copies %s · overlap %s"), whole, copies, overlap);
  return g_strdup_printf (_("%s · copies %s"), whole, copies);
}

static void
collect_rows (WsBreakdownData *data, GArray *bars)
{
  gboolean overlap = FALSE, api = FALSE;

  for (guint i = 0; i < bars->len && i < WS_BREAKDOWN_MAX_ROWS; i++)
    {
      Bar *bar = &g_array_index (bars, Bar, i);
      WsBreakdownRow row = { bar->run, g_steal_pointer (&bar->label) };
      g_autofree char *whole = ws_units_duration ((double) bar->whole_ns);
      g_autofree char *copies = NULL, *overlap_text = NULL, *api_text = NULL;

      shares (bar->ns, row.share);
      row.copies = row.share[WS_SEGMENT_H2D] + row.share[WS_SEGMENT_D2H];
      row.span_ns = bar->whole_ns;
      row.overlap = bar->overlap;
      copies = ws_units_percent (row.copies);
      if (bar->overlap > 0)
        overlap_text = ws_units_percent (bar->overlap);
      if (!isnan (bar->api))
        api_text = ws_units_percent (bar->api);
      row.right = right_text (whole, copies, overlap_text, api_text);
      overlap |= row.overlap > 0;
      api |= !isnan (bar->api);
      g_array_append_val (data->rows, row);
    }
  /* The widest the right-hand text can be, in the words it is written with. */
  data->widest = right_text ("999 ms", "100%", overlap ? "99%" : NULL, api ? "100%" : NULL);
}

static void
add_legend (WsBreakdownData *data, const WsTheme *theme)
{
  for (int s = 0; s < WS_N_SEGMENTS; s++)
    {
      WsColor color = segment_color (theme, (WsSegment) s);

      _ws_legend_add (&data->legend, _(segment_names[s]), &color, WS_LEGEND_BOX, -1);
    }
}

WsBreakdownData *
_ws_breakdown_collect (WsSession *session, const WsChartBase *base)
{
  WsBreakdownData *data = g_new0 (WsBreakdownData, 1);
  g_autoptr (GArray) bars = session != NULL ? program_bars (data, session) : NULL;

  data->rows = g_array_new (FALSE, TRUE, sizeof (WsBreakdownRow));
  g_array_set_clear_func (data->rows, (GDestroyNotify) row_clear);
  _ws_legend_init (&data->legend);
  if (bars == NULL || bars->len == 0)
    {
      g_clear_pointer (&bars, g_array_unref);
      bars = sweep_bars (data, session, base);
    }
  if (bars->len == 0)
    {
      data->frame.message = g_strdup (_("No run has traced copy-and-kernel sequences to break "
                                        "down yet."));
      return data;
    }
  add_legend (data, base->theme);
  collect_rows (data, bars);
  return data;
}

void
_ws_breakdown_data_free (WsBreakdownData *data)
{
  if (data == NULL)
    return;
  _ws_chart_frame_clear (&data->frame);
  _ws_legend_clear (&data->legend);
  g_clear_pointer (&data->rows, g_array_unref);
  g_free (data->common);
  g_free (data->widest);
  g_free (data);
}

/* ws-chart-timeline.c: the timeline's collect step, from either source: a sweep's runs and
 * their lanes (the whole session, or two runs side by side each from its own start) or a
 * traced program's spans; the rows every lane gets, the window, the title, and the spans to
 * outline. The widget's queries are in ws-chart-timeline-pick.c.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ws-analysis.h"
#include "ws-chart-timeline-private.h"

/* ---- rows ------------------------------------------------------------------------------- */

WsLaneCategory
_ws_timeline_row_category (const WsTimelineRow *row)
{
  return WS_LANE_KEY_CATEGORY (row->key);
}

char *
_ws_timeline_lane_label (guint64 key, gboolean by_stream)
{
  switch (WS_LANE_KEY_CATEGORY (key))
    {
    case WS_LANE_CPU:
      return g_strdup (_("CPU reference"));
    case WS_LANE_H2D:
      return g_strdup (_("H2D copies"));
    case WS_LANE_KERNEL:
      if (by_stream)
        return g_strdup_printf (_("Kernels · stream %u"), WS_LANE_KEY_STREAM (key));
      return g_strdup (_("Kernels"));
    case WS_LANE_D2H:
      return g_strdup (_("D2H copies"));
    case WS_LANE_OTHER_COPY:
      return g_strdup (_("Other copies"));
    case WS_LANE_MEMSET:
      return g_strdup (_("Memsets"));
    case WS_LANE_SYNC:
      return g_strdup (_("Host waits (sync)"));
    case WS_LANE_OVERHEAD:
    case WS_N_LANE_CATEGORIES:
    default:
      return g_strdup (_("CUPTI overhead"));
    }
}

static void
row_clear (WsTimelineRow *row)
{
  g_free (row->label);
}

GArray *
_ws_timeline_rows_new (GArray *keys, WsTimelineLabelFunc label, gpointer data)
{
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (WsTimelineRow));
  guint n_kernel = 0, ordinal = 0;

  g_array_set_clear_func (rows, (GDestroyNotify) row_clear);
  for (guint k = 0; k < keys->len; k++)
    n_kernel += WS_LANE_KEY_CATEGORY (g_array_index (keys, guint64, k)) == WS_LANE_KERNEL;
  for (guint k = 0; k < keys->len; k++)
    {
      guint64 key = g_array_index (keys, guint64, k);
      char *text = label != NULL ? label (key, data) : NULL;
      WsTimelineRow row = { key, text ? text : _ws_timeline_lane_label (key, n_kernel > 1),
                            ordinal };

      if (WS_LANE_KEY_CATEGORY (key) == WS_LANE_KERNEL)
        ordinal++;
      g_array_append_val (rows, row);
    }
  return rows;
}

static int
compare_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

/* A row for every lane of the group's runs, so that lanes stay put while the window pans;
 * with `also`, its lanes as well, so that two runs compared have the same rows. */
static GArray *
collect_rows (const WsLaneIndex *index, const WsLaneIndex *also)
{
  g_autoptr (GArray) keys = g_array_copy (index->keys);

  for (guint k = 0; also && k < also->keys->len; k++)
    {
      guint64 key = g_array_index (also->keys, guint64, k);
      gboolean known = FALSE;

      for (guint j = 0; j < index->keys->len && !known; j++)
        known = g_array_index (index->keys, guint64, j) == key;
      if (!known)
        g_array_append_val (keys, key);
    }
  g_array_sort (keys, compare_u64);
  return _ws_timeline_rows_new (keys, NULL, NULL);
}

/* ---- one group: the whole session ------------------------------------------------------- */

static gint64
add_saturated (gint64 a, gint64 b)
{
  if (b > 0 && a > G_MAXINT64 - b)
    return G_MAXINT64;
  if (b < 0 && a < G_MININT64 - b)
    return G_MININT64;
  return a + b;
}

/* The window asked for, else the whole session (start == end means all, as the widget
 * assumes when it zooms from there); at least a microsecond. */
static void
choose_window (WsTimelineGroup *g, const WsTimelineOptions *o)
{
  if (o->window_end > o->window_start)
    {
      g->start = o->window_start;
      g->end = o->window_end;
    }
  if (g->end <= g->start)
    {
      g->end = add_saturated (g->start, 1000);
      g->start = g->end - 1000;
    }
}

/* The runs with activities in the window (WsRun, borrowed from the index). */
static GPtrArray *
runs_in_view (const WsTimelineGroup *g)
{
  GPtrArray *shown = g_ptr_array_new ();
  const WsLaneIndex *index = g->index;

  for (guint i = ws_lane_index_first_reaching (index, add_saturated (g->start, -1));
       i < index->runs->len; i++)
    {
      const WsRunLanes *lanes = g_ptr_array_index (index->lanes, i);

      if (lanes->start > g->end)
        break;
      if (lanes->end >= g->start)
        g_ptr_array_add (shown, g_ptr_array_index (index->runs, i));
    }
  return shown;
}

static char *
session_title (WsSession *session, const WsTimelineGroup *g, const WsChartBase *base)
{
  WsRun *run = base->run ? ws_session_find_run (session, base->run) : NULL;
  gint64 rs, re;

  /* The run picked names the chart when the window shows that run alone. */
  if (run && ws_run_get_time_range (run, &rs, &re)
      && (double) g->start >= (double) rs - ((double) re - rs) / 10
      && (double) g->end <= (double) re + ((double) re - rs) / 10)
    {
      const WsRunConfig *c = ws_run_get_config (run);
      g_autofree char *size = _ws_chart_dup_size_label (run);
      g_autofree char *block = ws_run_dup_block_label (run);

      if (*block == '\0') /* a library call: it picks its own blocks */
        return g_strdup_printf (_("%s · run %d: %s, %s, %s"),
                                ws_chart_kind_title (WS_CHART_TIMELINE), c->id, c->kernel, size,
                                ws_transfer_label (c->transfer));
      /* TRANSLATORS: "Timeline · run 5: vector_add, n = 10,000, block 256, pinned" */
      return g_strdup_printf (_("%s · run %d: %s, %s, block %s, %s"),
                              ws_chart_kind_title (WS_CHART_TIMELINE), c->id, c->kernel, size,
                              block, ws_transfer_label (c->transfer));
    }
  /* TRANSLATORS: "Timeline · vector_add, 12 runs" */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %s, %u run", "%s · %s, %u runs",
                                       g->index->runs->len),
                          ws_chart_kind_title (WS_CHART_TIMELINE), g->index->kernels,
                          g->index->runs->len);
}

static gboolean
collect_session (WsTimelineData *data, WsSession *session, const WsChartBase *base,
                 const WsTimelineOptions *o, GPtrArray **shown)
{
  WsTimelineGroup *g = &data->groups[0];
  WsLaneIndex *index = ws_session_get_lane_index (session);

  if (index->runs->len == 0)
    {
      ws_lane_index_unref (index);
      return FALSE;
    }
  data->n_groups = 1;
  g->index = index;
  g->rows = collect_rows (index, NULL);
  g->origin = g->start = index->start;
  g->end = index->end;
  choose_window (g, o);
  data->window_start = g->start;
  data->window_end = g->end;
  data->frame.title = session_title (session, g, base);
  data->notes_keep = 6 + g->rows->len;
  /* Only presentation mode needs the runs in view, for their findings. */
  *shown = base->annotate ? runs_in_view (g) : g_ptr_array_new ();
  return TRUE;
}

/* ---- one group: a traced program -------------------------------------------------------- */

/* A traced program's lanes: API calls and NVTX ranges per host thread, the driver's JIT work,
 * copies by direction, kernels per stream, memsets and the host's waits, in that order. */
static int
lane_order (WsLaneCategory category)
{
  static const WsLaneCategory order[] = { WS_LANE_API,  WS_LANE_NVTX,   WS_LANE_JIT,
                                          WS_LANE_H2D,  WS_LANE_KERNEL, WS_LANE_D2H,
                                          WS_LANE_OTHER_COPY, WS_LANE_MEMSET, WS_LANE_SYNC };

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    if (order[i] == category)
      return (int) i;
  return G_N_ELEMENTS (order);
}

static int
compare_keys (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  int ox = lane_order (WS_LANE_KEY_CATEGORY (x)), oy = lane_order (WS_LANE_KEY_CATEGORY (y));

  if (ox != oy)
    return ox < oy ? -1 : 1;
  return x < y ? -1 : x > y;
}

/* The host's lanes by thread when there are several; kernels always by stream: a program
 * chooses its streams, so its one stream has a name too. The rest as the sweeps' timeline. */
static char *
program_row_label (guint64 key, gpointer data)
{
  guint n_threads = GPOINTER_TO_UINT (data);
  guint32 low = WS_LANE_KEY_STREAM (key);

  switch (WS_LANE_KEY_CATEGORY (key))
    {
    case WS_LANE_API:
      if (n_threads > 1 && low == 0)
        return g_strdup (_("API calls · main thread"));
      if (n_threads > 1)
        /* TRANSLATORS: a timeline lane: the CUDA calls of one host thread (its system id) */
        return g_strdup_printf (_("API calls · thread %u"), low);
      return g_strdup (_("API calls"));
    case WS_LANE_NVTX:
      if (n_threads > 1 && low == 0)
        return g_strdup (_("NVTX · main thread"));
      if (n_threads > 1)
        /* TRANSLATORS: a timeline lane: the NVTX ranges of one host thread (its system id) */
        return g_strdup_printf (_("NVTX · thread %u"), low);
      return g_strdup (_("NVTX ranges"));
    case WS_LANE_JIT:
      return g_strdup (_("JIT compiles"));
    case WS_LANE_KERNEL:
      return _ws_timeline_lane_label (key, TRUE);
    default:
      return NULL;
    }
}

/* Lanes are few (threads, streams, directions): a look along them is enough. */
static gboolean
has_key (GArray *keys, guint64 key)
{
  for (guint k = 0; k < keys->len; k++)
    if (g_array_index (keys, guint64, k) == key)
      return TRUE;
  return FALSE;
}

/* A row for every lane any span of the trace has, so that lanes stay put while the window
 * pans; the JIT lane also where a first launch waited for a compile that left no record. */
static GArray *
program_rows (WsTrace *trace, const WsTimelineGroup *g)
{
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr (GHashTable) threads = g_hash_table_new (NULL, NULL);
  guint64 jit = WS_LANE_KEY (WS_LANE_JIT, 0);
  guint n_spans;
  const WsSpan *spans = ws_trace_get_spans (trace, &n_spans);

  for (guint i = 0; i < n_spans; i++)
    {
      guint64 key;

      if (!ws_span_lane_key (trace, &spans[i], &key))
        continue;
      if (WS_LANE_KEY_CATEGORY (key) == WS_LANE_API || WS_LANE_KEY_CATEGORY (key) == WS_LANE_NVTX)
        g_hash_table_add (threads, GUINT_TO_POINTER (WS_LANE_KEY_STREAM (key)));
      if (!has_key (keys, key))
        g_array_append_val (keys, key);
    }
  if (_ws_timeline_group_draws_waits (g) && !has_key (keys, jit))
    g_array_append_val (keys, jit);
  g_array_sort (keys, compare_keys);
  return _ws_timeline_rows_new (keys, program_row_label,
                                GUINT_TO_POINTER (g_hash_table_size (threads)));
}

/* "python3 vector_add.py": the program as the person typed it, without the folders. */
static char *
program_name (WsTrace *trace)
{
  GPtrArray *programs = ws_trace_get_programs (trace);
  GPtrArray *processes = ws_trace_get_processes (trace);
  const WsTraceProgram *p = programs->len > 0 ? g_ptr_array_index (programs, 0) : NULL;
  char *const *argv = p != NULL && p->argv != NULL ? p->argv : NULL;
  g_autoptr (GString) s = g_string_new (NULL);

  if (argv == NULL && processes->len > 0)
    argv = ((WsTraceProcess *) g_ptr_array_index (processes, 0))->command;
  for (guint i = 0; argv != NULL && argv[i] != NULL && i < 3; i++)
    {
      g_autofree char *base = g_path_get_basename (argv[i]);

      if (s->len > 0)
        g_string_append_c (s, ' ');
      g_string_append (s, i < 2 ? base : argv[i]);
    }
  if (s->len == 0)
    g_string_append (s, _("a traced program"));
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static char *
program_title (WsTrace *trace)
{
  g_autofree char *name = program_name (trace);
  guint runs = ws_trace_get_programs (trace)->len;

  if (runs > 1)
    /* TRANSLATORS: "Timeline · python3 vadd.py --tpb, 6 program runs" (a sweep) */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %s, %u program run",
                                         "%s · %s, %u program runs", runs),
                            ws_chart_kind_title (WS_CHART_TIMELINE), name, runs);
  /* TRANSLATORS: "Timeline · python3 vector_add.py" (a traced program) */
  return g_strdup_printf (_("%s · %s"), ws_chart_kind_title (WS_CHART_TIMELINE), name);
}

/* A traced program's one group: its spans are drawn from the trace (no runs' index). */
static gboolean
collect_program (WsTimelineData *data, WsSession *session, const WsTimelineOptions *o)
{
  WsTrace *trace = ws_session_get_trace (session);
  WsTimelineGroup *g = &data->groups[0];
  gint64 start, end;

  if (trace == NULL || !ws_session_get_time_range (session, &start, &end))
    return FALSE;
  data->trace = trace;
  g->trace = trace;
  /* Found with the trace's findings, not here: a collect runs at every paint. */
  g->waits = ws_session_analysis_dup_code_waits (_ws_chart_analysis (session));
  data->n_groups = 1;
  g->rows = program_rows (trace, g);
  g->origin = start;
  g->start = start;
  g->end = end;
  if (o->window_end > o->window_start)
    {
      g->start = o->window_start;
      g->end = o->window_end;
    }
  if (g->end - g->start < 1000)
    g->end = g->start + 1000;
  data->window_start = g->start;
  data->window_end = g->end;
  data->frame.title = program_title (trace);
  data->notes_keep = 6 + g->rows->len;
  return TRUE;
}

/* ---- two groups: two runs side by side -------------------------------------------------- */

/* The two runs picked, when both have activities to draw. */
gboolean
_ws_timeline_compare_runs (WsSession *session, const WsChartBase *base, WsRun **a, WsRun **b)
{
  if (session == NULL || base->run == 0 || base->compare_run == 0
      || base->run == base->compare_run)
    return FALSE;
  *a = ws_session_find_run (session, base->run);
  *b = ws_session_find_run (session, base->compare_run);
  return *a != NULL && *b != NULL && ws_run_get_time_range (*a, NULL, NULL)
         && ws_run_get_time_range (*b, NULL, NULL);
}

/* The longer run's length: comparing two runs, times count from each run's start. */
static gint64
compare_span (WsRun *a, WsRun *b)
{
  return ws_runs_compared_length (a, b);
}

static void
collect_compare (WsTimelineData *data, WsRun *a, WsRun *b, const WsTimelineOptions *o,
                 GPtrArray **shown)
{
  WsRun *runs[2] = { a, b };
  WsLaneIndex *index[2] = { ws_lane_index_new (&a, 1), ws_lane_index_new (&b, 1) };

  data->n_groups = 2;
  data->window_start = 0;
  data->window_end = compare_span (a, b);
  if (o->window_end > o->window_start)
    {
      data->window_start = o->window_start;
      data->window_end = o->window_end;
    }
  for (guint i = 0; i < 2; i++)
    {
      WsTimelineGroup *g = &data->groups[i];

      g->index = index[i];
      g->rows = collect_rows (index[i], index[1 - i]);
      g->origin = index[i]->start;
      g->start = add_saturated (g->origin, data->window_start);
      g->end = add_saturated (g->origin, data->window_end);
      /* TRANSLATORS: the ruler of one of two runs compared: it counts from that run's start */
      g->caption = g_strdup_printf (_("run %d, from its start"), ws_run_get_config (runs[i])->id);
    }
  /* TRANSLATORS: "Timeline · run 5 beside run 6" */
  data->frame.title = g_strdup_printf (_("%s · run %d beside run %d"),
                                       ws_chart_kind_title (WS_CHART_TIMELINE),
                                       ws_run_get_config (a)->id, ws_run_get_config (b)->id);
  data->notes_keep = 8 + 2 * data->groups[0].rows->len;
  *shown = g_ptr_array_new ();
  g_ptr_array_add (*shown, a);
  g_ptr_array_add (*shown, b);
}

/* ---- outlines --------------------------------------------------------------------------- */

static void
outline_clear (WsTimelineOutline *o)
{
  g_clear_object (&o->run);
}

static void
add_outline (WsTimelineData *data, WsRun *run, guint index)
{
  WsTimelineOutline o = { g_object_ref (run), index };

  g_array_append_val (data->outlines, o);
}

/* Presentation mode: in each run in view, the spans of its most severe finding that points
 * at any (outlines on everything point at nothing). */
static void
collect_finding_outlines (WsTimelineData *data, GPtrArray *findings)
{
  g_autoptr (GHashTable) done = g_hash_table_new (NULL, NULL);

  for (guint f = 0; f < findings->len; f++)
    {
      const WsFinding *finding = g_ptr_array_index (findings, f);
      WsRun *run;

      if (finding->severity < WS_SEVERITY_LOW || finding->activities == NULL
          || finding->activities->len == 0
          || g_hash_table_contains (done, GINT_TO_POINTER (finding->run)))
        continue;
      run = ws_session_find_run (data->session, finding->run);
      if (run == NULL)
        continue;
      g_hash_table_add (done, GINT_TO_POINTER (finding->run));
      for (guint k = 0; k < finding->activities->len && k < 64; k++)
        add_outline (data, run, g_array_index (finding->activities, guint, k));
    }
}

static void
collect_outlines (WsTimelineData *data, const WsChartBase *base, const WsTimelineOptions *o,
                  GPtrArray *shown)
{
  for (guint i = 0; o->highlight && i < o->highlight->len; i++)
    {
      const WsActivityRef *ref = &g_array_index (o->highlight, WsActivityRef, i);
      WsRun *run = ws_session_find_run (data->session, ref->run);

      if (run)
        add_outline (data, run, ref->index);
    }
  data->outline_legend = o->highlight != NULL || base->annotate;
  if (base->annotate && shown->len > 0)
    {
      /* One analysis for both the outlines and the notes. */
      g_autoptr (GPtrArray) findings = _ws_chart_findings (data->session, shown);

      collect_finding_outlines (data, findings);
      _ws_chart_frame_notes_from (&data->frame, findings, base->audience);
    }
}

/* ---- the data --------------------------------------------------------------------------- */

WsTimelineData *
_ws_timeline_collect (WsSession *session, const WsChartBase *base, const WsTimelineOptions *o)
{
  WsTimelineData *data = g_new0 (WsTimelineData, 1);
  g_autoptr (GPtrArray) shown = NULL;
  WsRun *a, *b;

  data->session = session ? g_object_ref (session) : NULL;
  data->outlines = g_array_new (FALSE, FALSE, sizeof (WsTimelineOutline));
  g_array_set_clear_func (data->outlines, (GDestroyNotify) outline_clear);
  data->frame.subtitle = _ws_chart_subtitle (session, NULL);
  if (_ws_timeline_compare_runs (session, base, &a, &b))
    collect_compare (data, a, b, o, &shown);
  else if (session != NULL && ws_session_get_trace (session) != NULL
           && collect_program (data, session, o))
    shown = g_ptr_array_new ();
  else if (session == NULL || !collect_session (data, session, base, o, &shown))
    {
      data->frame.title = g_strdup (ws_chart_kind_title (WS_CHART_TIMELINE));
      data->frame.message = g_strdup (_("No traced activity yet. Copies, kernels and CPU runs "
                                        "appear here as the runner records them."));
      return data;
    }
  data->has_selection = o->selection_end > o->selection_start;
  data->selection_start = o->selection_start;
  data->selection_end = o->selection_end;
  collect_outlines (data, base, o, shown);
  return data;
}

void
_ws_timeline_data_free (WsTimelineData *data)
{
  if (data == NULL)
    return;
  _ws_chart_frame_clear (&data->frame);
  for (guint i = 0; i < data->n_groups; i++)
    {
      WsTimelineGroup *g = &data->groups[i];

      g_clear_pointer (&g->index, ws_lane_index_unref);
      g_clear_pointer (&g->rows, g_array_unref);
      g_clear_pointer (&g->waits, g_array_unref);
      g_free (g->caption);
    }
  g_clear_pointer (&data->outlines, g_array_unref);
  g_clear_object (&data->session);
  g_free (data);
}
